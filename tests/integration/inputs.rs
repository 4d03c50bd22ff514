//! Every input read once: standard input (`-`, `/dev/stdin`), FIFOs fed
//! slowly, endless devices and streams, a file that grows while it is
//! read, UTF-16 with and without its byte-order mark.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

use crate::{crate_path, json_lines, pdndb};

/// How long a command may take before it counts as hanging: far longer
/// than any of these takes.
const HANG: Duration = Duration::from_secs(60);

/// Runs `pdndb --db DB ARGS…` with `input` on its standard input (a
/// pipe): stdout, stderr, exit code (-1 when killed as hanging).
fn run_piped(db: &Path, args: &[&str], input: &[u8]) -> (String, String, i32) {
    let out = pdndb(db)
        .args(args)
        .write_stdin(input.to_vec())
        .timeout(HANG)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `run_piped` without input.
fn run(db: &Path, args: &[&str]) -> (String, String, i32) {
    run_piped(db, args, b"")
}

/// A file of games of every status: the sample files one after the
/// other, then generated games.
fn mixed_games(dir: &Path) -> PathBuf {
    let mut text = Vec::new();
    for name in [
        "seed-dama.pdn",
        "messy-records.pdn",
        "quirks-movetext.pdn",
        "quirks-framing.pdn",
        "quirks-windows-1252.pdn",
    ] {
        text.extend(std::fs::read(crate_path("sample-pdn").join(name)).unwrap());
        text.push(b'\n');
    }
    text.extend(generated(300, 7).as_bytes());
    let path = dir.join("games.pdn");
    std::fs::write(&path, text).unwrap();
    path
}

/// `pdndb generate --games N --seed S`.
fn generated(games: usize, seed: u64) -> String {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, code) = run(
        &dir.path().join("none.sqlite"),
        &[
            "generate",
            "--games",
            &games.to_string(),
            "--seed",
            &seed.to_string(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    out
}

/// JSON lines with the source file named `F` and the database's size
/// left out: what two databases of the same games answer alike.
fn neutral(text: &str) -> Vec<Value> {
    let mut values = json_lines(text);
    for value in &mut values {
        if let Some(map) = value.as_object_mut() {
            if map.contains_key("file") {
                map.insert("file".into(), "F".into());
            }
            map.remove("bytes");
            map.remove("seconds");
            map.remove("database");
        }
    }
    values
}

/// What a database answers: its counts, games, problem games, opening
/// trees, searches, cleaned PDN, and its index rows.
fn answers(db: &Path) -> Vec<String> {
    let ask = |args: &[&str]| {
        let (out, err, code) = run(db, args);
        assert!(code == 0 || code == 1, "{args:?}: {err}");
        out
    };
    let stats = ask(&["stats", "--json"]);
    let mut answers = vec![format!("{:?}", neutral(&stats))];
    for args in [
        &["games", "--json", "--limit", "0"][..],
        &["report", "--json"],
        &[
            "search",
            "--json",
            "--limit",
            "0",
            "--fen",
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ],
    ] {
        answers.push(format!("{:?}", neutral(&ask(args))));
    }
    let variants = json_lines(&stats)[0]["by_variant"].clone();
    for variant in variants.as_object().unwrap().keys() {
        let tree = ask(&["tree", "--json", "--variant", variant]);
        answers.push(tree.clone());
        if let Some(first) = json_lines(&tree).first() {
            let moves = format!("1. {}", first["move"].as_str().unwrap());
            let found = ask(&[
                "search",
                "--json",
                "--limit",
                "0",
                "--variant",
                variant,
                "--moves",
                &moves,
            ]);
            answers.push(format!("{:?}", neutral(&found)));
        }
    }
    answers.push(ask(&["export"]));
    let conn = crate::open_with_index_rows(db);
    let mut stmt = conn
        .prepare(
            "SELECT p.key || ':' || p.game || ':' || p.ply || ':' || coalesce(m.name, '') \
             FROM position p LEFT JOIN move_name m ON m.id = p.next ORDER BY 1",
        )
        .unwrap();
    let rows: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    answers.push(rows.join("\n"));
    answers
}

/// One number from the database.
fn count(db: &Path, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[test]
fn games_piped_in_are_stored_as_the_file_stores_them_and_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = mixed_games(dir.path());
    let bytes = std::fs::read(&file).unwrap();
    let from_file = dir.path().join("file.sqlite");
    let (summary, err, code) = run(&from_file, &["import", "--json", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let expected = answers(&from_file);
    assert!(count(&from_file, "SELECT count(*) FROM game") > 300);
    for (k, name) in ["-", "/dev/stdin"].into_iter().enumerate() {
        let db = dir.path().join(format!("piped-{k}.sqlite"));
        let (piped, err, code) = run_piped(&db, &["import", "--json", name], &bytes);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(neutral(&piped), neutral(&summary), "{name}");
        assert_eq!(answers(&db), expected, "{name}");
        // The same content again: already imported.
        let (again, err, code) = run_piped(&db, &["import", "--json", name], &bytes);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(&format!("{name}: already imported, unchanged; skipped")),
            "{err}"
        );
        let again = &json_lines(&again)[0];
        assert_eq!(
            (again["files_skipped"].as_u64(), again["games"].as_u64()),
            (Some(1), Some(0))
        );
        assert_eq!(answers(&db), expected, "{name}");
        // Other content is another file: the first one's games stay.
        let before = count(&db, "SELECT count(*) FROM provenance");
        let other = generated(20, 99);
        let (_, err, code) = run_piped(&db, &["import", name], other.as_bytes());
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            count(&db, "SELECT count(*) FROM source_file WHERE complete = 1"),
            2
        );
        assert_eq!(count(&db, "SELECT count(*) FROM provenance"), before + 20);
    }
}

#[test]
fn check_of_standard_input_prints_what_check_of_the_file_prints() {
    let dir = tempfile::tempdir().unwrap();
    let file = mixed_games(dir.path());
    let name = file.to_str().unwrap();
    let bytes = std::fs::read(&file).unwrap();
    let db = dir.path().join("none.sqlite");
    for json in [false, true] {
        let flags: &[&str] = if json { &["--json"] } else { &[] };
        let (out, err, code) = run(&db, &[&["check"], flags, &[name]].concat());
        assert_eq!(code, 1, "{err}");
        let (piped_out, piped_err, piped_code) =
            run_piped(&db, &[&["check"], flags, &["-"]].concat(), &bytes);
        assert_eq!(piped_code, code, "{piped_err}");
        let renamed = |text: &str| {
            text.replace(&format!("\"file\":\"{name}\""), "\"file\":\"-\"")
                .replace(&format!("{name}:"), "-:")
        };
        assert_eq!(piped_out, renamed(&out));
        assert_eq!(piped_err, renamed(&err));
    }
}

/// A FIFO at `path`, and a thread that writes `bytes` into it slowly
/// once a reader opens it.
fn slow_fifo(path: &Path, bytes: Vec<u8>) -> JoinHandle<()> {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let Ok(mut fifo) = OpenOptions::new().write(true).open(&path) else {
            return;
        };
        for chunk in bytes.chunks(bytes.len() / 40 + 1) {
            if fifo.write_all(chunk).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    })
}

/// Waits for the writer of a FIFO, first opening the FIFO (which never
/// blocks read and write) so that a writer still waiting for a reader
/// goes on.
fn finish(writer: JoinHandle<()>, fifo: &Path) {
    if !writer.is_finished() {
        drop(OpenOptions::new().read(true).write(true).open(fifo));
    }
    writer.join().unwrap();
}

#[test]
fn a_fifo_fed_slowly_is_imported_and_checked_as_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = mixed_games(dir.path());
    let bytes = std::fs::read(&file).unwrap();
    let from_file = dir.path().join("file.sqlite");
    let (_, err, code) = run(&from_file, &["import", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (checked, _, _) = run(&from_file, &["check", "--json", file.to_str().unwrap()]);

    let fifo = dir.path().join("fifo.pdn");
    let db = dir.path().join("fifo.sqlite");
    let writer = slow_fifo(&fifo, bytes.clone());
    let (_, err, code) = run(&db, &["import", fifo.to_str().unwrap()]);
    finish(writer, &fifo);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answers(&db), answers(&from_file));

    std::fs::remove_file(&fifo).unwrap();
    let writer = slow_fifo(&fifo, bytes);
    let (out, err, code) = run(&db, &["check", "--json", fifo.to_str().unwrap()]);
    finish(writer, &fifo);
    assert_eq!(code, 1, "{err}");
    assert_eq!(neutral(&out), neutral(&checked));
}

#[test]
fn endless_inputs_that_are_not_pdn_stop_early() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let bin = assert_cmd::cargo::cargo_bin("pdndb");
    for (source, why) in [
        ("/dev/zero", "binary content"),
        ("/dev/urandom", "binary content"),
        ("cat /dev/zero |", "binary content"),
        ("tr '\\000' '\\001' < /dev/zero |", "binary content"),
        ("yes |", "no tag pair or move in its first 16 MiB"),
    ] {
        for command in ["import", "check"] {
            let (input, name) = match source.strip_suffix(" |") {
                Some(stream) => (format!("{stream} | "), "-"),
                None => (String::new(), source),
            };
            let script = format!("{input}\"$0\" --db \"$1\" {command} {name}");
            let out = assert_cmd::Command::new("sh")
                .args(["-c", &script])
                .arg(&bin)
                .arg(&db)
                .timeout(HANG)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(&format!("{name}: not PDN ({why}); skipped")),
                "{source} {command}: {err}"
            );
            assert_eq!(out.status.code(), Some(0), "{source} {command}: {err}");
        }
    }
    assert_eq!(count(&db, "SELECT count(*) FROM source_file"), 0);
}

#[test]
fn a_file_that_changes_while_it_is_read_is_read_again_by_the_next_import() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("growing.pdn");
    let name = file.to_str().unwrap();
    std::fs::write(&file, generated(200, 1)).unwrap();
    let db = dir.path().join("db.sqlite");
    let complete = "SELECT count(*) FROM source_file WHERE complete = 1";
    let copies = "SELECT count(*) FROM provenance";
    let games = "SELECT count(*) FROM game";
    let changed = format!("{name}: changed while it was read; run pdndb import again\n");
    // Games are added once the file is hashed, as by another program
    // writing it: first to a new file, then to one imported before and
    // changed since.
    for (added, total) in [(generated(30, 2), 230), (generated(40, 3), 280)] {
        if total == 280 {
            let mut grown = OpenOptions::new().append(true).open(&file).unwrap();
            grown.write_all(generated(10, 5).as_bytes()).unwrap();
        }
        let out = pdndb(&db)
            .args(["import", "--quiet", name])
            .env("PDNDB_TEST_APPEND", &added)
            .timeout(HANG)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.matches("changed while it was read").count(), 1, "{err}");
        assert!(err.contains(&changed), "{err}");
        if total == 230 {
            // Its games stay, the file not complete.
            assert_eq!(count(&db, complete), 0);
        } else {
            // The replacement rolled back: the version before stays.
            assert_eq!(count(&db, complete), 1);
            assert_eq!(count(&db, copies), 230);
        }
        let (_, err, code) = run(&db, &["import", "--quiet", name]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(count(&db, complete), 1);
        assert_eq!(count(&db, copies), total);
        assert_eq!(count(&db, games), total);
        let (_, err, code) = run(&db, &["import", "--quiet", name]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("already imported, unchanged; skipped"),
            "{err}"
        );
        assert_eq!(count(&db, games), total);
    }
}

/// `text` in UTF-16, little- or big-endian, with or without its
/// byte-order mark.
fn utf16(text: &str, little: bool, bom: bool) -> Vec<u8> {
    let bom = if bom { "\u{feff}" } else { "" };
    format!("{bom}{text}")
        .encode_utf16()
        .flat_map(|unit| {
            if little {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            }
        })
        .collect()
}

#[test]
fn utf16_is_read_with_its_byte_order_mark_its_first_character_or_its_encoding_given() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "[Event \"Café Ñandú\"]\n[White \"Müller\"]\n1. 11-15 23-19 *\n\n{}",
        generated(50, 4)
    );
    let db = dir.path().join("db.sqlite");
    for (little, label) in [(true, "utf-16le"), (false, "utf-16be")] {
        // With its byte-order mark, or without it but starting with `[`:
        // every game.
        let marked = dir.path().join(format!("marked-{label}.pdn"));
        std::fs::write(&marked, utf16(&text, little, true)).unwrap();
        let bare = dir.path().join(format!("bare-{label}.pdn"));
        std::fs::write(&bare, utf16(&text, little, false)).unwrap();
        for file in [&marked, &bare] {
            let (out, err, code) = run(&db, &["import", "--json", file.to_str().unwrap()]);
            assert_eq!(code, 0, "{err}");
            let summary = &json_lines(&out)[0];
            let read = |field: &str| summary[field].as_u64().unwrap();
            assert_eq!(read("games") + read("duplicates"), 51, "{label}");
            let (out, err, code) = run(&db, &["check", "--json", file.to_str().unwrap()]);
            assert_eq!(code, 0, "{err}");
            let records = json_lines(&out);
            assert_eq!(records.len(), 51);
            assert_eq!(records[0]["tags"]["White"], "Müller");
        }
        // Without, starting with a word: refused, saying how to read it.
        let worded = dir.path().join(format!("worded-{label}.pdn"));
        let name = worded.to_str().unwrap();
        std::fs::write(&worded, utf16(&format!("Games\n\n{text}"), little, false)).unwrap();
        let other = if little { "utf-16be" } else { "utf-16le" };
        let refusal = format!(
            "{name}: UTF-16 text without a byte-order mark; give --encoding {label} (or {other})"
        );
        for command in ["import", "check"] {
            let (_, err, code) = run(&db, &[command, name]);
            assert_eq!(code, 2, "{command} {label}: {err}");
            assert!(err.contains(&refusal), "{command}: {err}");
        }
        assert_eq!(
            count(
                &db,
                &format!("SELECT count(*) FROM source_file WHERE path = '{name}'")
            ),
            0
        );
        // Its encoding given, it is read: the same games as with the
        // mark (all duplicates of theirs).
        let (out, err, code) = run(&db, &["import", "--json", "--encoding", label, name]);
        assert_eq!(code, 0, "{err}");
        let summary = &json_lines(&out)[0];
        let read = |field: &str| summary[field].as_u64().unwrap();
        assert_eq!(read("files"), 1, "{label}");
        assert_eq!(read("games") + read("duplicates"), 51, "{label}");
        let (out, err, code) = run(&db, &["check", "--json", "--encoding", label, name]);
        assert_eq!(code, 0, "{err}");
        let records = json_lines(&out);
        assert_eq!(records.len(), 51);
        assert_eq!(records[0]["tags"]["White"], "Müller");
        assert_eq!(records[0]["tags"]["Event"], "Café Ñandú");
    }
}
