//! A reader of standard output that goes away, and standard error closed:
//! no command panics, and each ends with its documented exit status.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::run;

/// Games whose second move is illegal, each with its own tag: a `report`
/// and an `export` of them are far larger than a pipe holds.
fn illegal_games(path: &Path, count: usize) {
    let mut file = std::io::BufWriter::new(File::create(path).unwrap());
    for i in 0..count {
        writeln!(file, "[Event \"game {i}\"]\n1. 11-15 11-15 *\n").unwrap();
    }
    file.flush().unwrap();
}

/// A database of those games, and the PDN file they came from.
fn database(dir: &Path) -> (std::path::PathBuf, String) {
    let pdn = dir.join("illegal.pdn");
    illegal_games(&pdn, 5000);
    let db = dir.join("db.sqlite");
    let pdn = pdn.to_str().unwrap().to_string();
    let (_, err, code) = run(&db, &["import", "--quiet", &pdn]);
    assert_eq!(code, 0, "{err}");
    (db, pdn)
}

/// Runs `pdndb --db DB ARGS…` through `sh`, standard error closed when
/// `close_stderr` (else written to a file), reads one line of its output,
/// drops the reader, then waits: the exit status, the line, and standard
/// error.
fn one_line_then_gone(db: &Path, args: &[&str], close_stderr: bool) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let err_path = dir.path().join("stderr");
    let script = if close_stderr {
        "exec 2>&-; exec \"$0\" \"$@\""
    } else {
        "exec \"$0\" \"$@\""
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(assert_cmd::cargo::cargo_bin("pdndb"))
        .arg("--db")
        .arg(db)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let mut line = String::new();
    {
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        reader.read_line(&mut line).unwrap();
    }
    let status = child.wait().unwrap();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    (status.code().unwrap_or(-1), line, stderr)
}

#[test]
fn report_and_export_keep_their_exit_status_when_the_reader_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let (db, pdn) = database(dir.path());
    for close_stderr in [false, true] {
        // report lists games that are not ok: 1, as when read to the end.
        for args in [&["report"][..], &["report", "--json"]] {
            let (code, line, err) = one_line_then_gone(&db, args, close_stderr);
            assert!(
                line.contains("game 1") || line.contains("\"index\":1"),
                "{line}"
            );
            assert!(!err.contains("panicked"), "{err}");
            assert_eq!(code, 1, "{args:?}: {err}");
            if !close_stderr {
                // It went on to the end without writing.
                assert!(err.contains("5000 games listed"), "{err}");
            }
        }
        // check: the same, read without a database.
        let (code, _, err) = one_line_then_gone(&db, &["check", "--json", &pdn], close_stderr);
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(code, 1, "{err}");
        // Commands whose status does not depend on what they list: 0.
        for args in [
            &["export"][..],
            &["search", "--moves", "1. 11-15", "--limit", "0"],
            &["generate", "--games", "100000", "--seed", "1"],
            &["perft", "--divide", "7"],
        ] {
            let (code, line, err) = one_line_then_gone(&db, args, close_stderr);
            assert!(!line.is_empty(), "{args:?}");
            assert!(!err.contains("panicked"), "{err}");
            assert_eq!(code, 0, "{args:?}: {err}");
        }
    }
}

#[test]
fn every_command_runs_with_standard_error_closed() {
    let dir = tempfile::tempdir().unwrap();
    let (db, pdn) = database(dir.path());
    let db = db.to_str().unwrap();
    let missing = dir.path().join("missing.pdn");
    let missing = missing.to_str().unwrap();
    let commands: [(&str, i32); 16] = [
        (&format!("import {pdn}"), 0),
        (&format!("import {missing}"), 2),
        (&format!("check {pdn}"), 1),
        (&format!("check {missing}"), 2),
        ("report", 1),
        ("search --moves '1. 11-15'", 0),
        ("tree", 0),
        ("show 1", 0),
        ("export", 0),
        ("stats", 0),
        ("generate --games 50 --seed 1", 0),
        ("perft --divide 4", 0),
        ("recheck", 0),
        ("completions zsh", 0),
        ("man", 0),
        ("perft --variant chess 3", 2),
    ];
    let bin = assert_cmd::cargo::cargo_bin("pdndb");
    for (command, expected) in commands {
        let script = format!("\"$0\" --db '{db}' {command} >/dev/null 2>&-");
        let out = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .arg(&bin)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(expected), "{command}");
    }
    // Standard error a pipe whose reader is gone before the first message.
    for (args, expected) in [
        (vec!["check", pdn.as_str()], 1),
        (vec!["report"], 1),
        (vec!["search", "--moves", "1. 11-15"], 0),
        (vec!["export"], 0),
        (vec!["import", missing], 2),
    ] {
        let mut child = Command::new(&bin)
            .args(["--db", db])
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(expected), "{args:?}");
    }
}
