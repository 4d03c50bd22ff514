//! Files the commands write (`export -o`, `report --html`, `show --svg`,
//! `generate -o`): never onto the database, whatever the spelling, and
//! never left half written.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{crate_path, integrity, run};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pdndb")
}

/// A database of the sample archives in `dir` (as `pdndb.sqlite`).
fn sample_db(dir: &Path) -> PathBuf {
    let db = dir.join("pdndb.sqlite");
    let samples = crate_path("sample-pdn");
    let (_, err, code) = run(&db, &["import", "--quiet", samples.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    db
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn outputs_onto_the_database_are_refused_by_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    std::os::unix::fs::symlink(&db, dir.path().join("link.sqlite")).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let before = std::fs::read(&db).unwrap();
    // Run in the database's folder, the database named as by default.
    let refused = |args: &[&str]| {
        let out = Command::new(bin())
            .current_dir(dir.path())
            .env_remove("PDNDB_DB")
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            (err.contains("that is the database ") || err.contains("a file of the database "))
                && err.contains("pdndb.sqlite; choose another file"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            std::fs::read(&db).unwrap() == before,
            "{args:?} changed the database"
        );
    };
    for target in [
        "pdndb.sqlite",
        "./pdndb.sqlite",
        "sub/../pdndb.sqlite",
        "link.sqlite",
    ] {
        refused(&["export", "-o", target]);
        refused(&["report", "--html", target]);
        refused(&["show", "1", "--svg", target]);
        refused(&["generate", "--games", "2", "-o", target]);
    }
    let absolute = db.to_str().unwrap();
    refused(&["--db", absolute, "export", "--output", "./pdndb.sqlite"]);
    refused(&["--db", "./sub/../pdndb.sqlite", "export", "-o", absolute]);
    // SQLite's files beside the database, present or not.
    refused(&["export", "-o", "pdndb.sqlite-wal"]);
    refused(&["export", "-o", "./pdndb.sqlite-shm"]);
    assert_eq!(integrity(&db), "ok");
    let (out, err, code) = run(&db, &["stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"games\""), "{out}");
    // The same command onto another file works.
    let (_, err, code) = run(
        &db,
        &["export", "-o", dir.path().join("x.pdn").to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn outputs_replace_an_existing_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let target = dir.path().join("out.pdn");
    std::fs::write(&target, "old text, longer than nothing\n".repeat(1000)).unwrap();
    let (stdout, _, code) = run(&db, &["export"]);
    assert_eq!(code, 0);
    let (_, err, code) = run(&db, &["export", "-o", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), stdout);
    let svg = dir.path().join("board.svg");
    std::fs::write(&svg, "old").unwrap();
    let (_, err, code) = run(&db, &["show", "1", "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let html = dir.path().join("report.html");
    let (_, err, code) = run(&db, &["report", "--html", html.to_str().unwrap()]);
    assert_eq!(code, 1, "problem games listed: {err}");
    assert!(std::fs::read_to_string(&html).unwrap().contains("</html>"));
    let generated = dir.path().join("gen.pdn");
    let (_, err, code) = run(
        &db,
        &[
            "generate",
            "--games",
            "3",
            "-o",
            generated.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&generated)
            .unwrap()
            .contains("[Event")
    );
    // A device is written as it is, not replaced.
    let (_, err, code) = run(&db, &["export", "-o", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
    // No temporary file is left.
    let mut left = names(dir.path());
    left.retain(|n| !n.starts_with("pdndb.sqlite"));
    assert_eq!(left, ["board.svg", "gen.pdn", "out.pdn", "report.html"]);
}

#[test]
fn a_full_disk_during_export_leaves_the_old_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("gen.pdn");
    let db = dir.path().join("games.sqlite");
    let (_, err, code) = run(
        &db,
        &[
            "generate",
            "--games",
            "400",
            "--seed",
            "3",
            "-o",
            archive.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (_, err, code) = run(&db, &["import", "--quiet", archive.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let target = dir.path().join("out.pdn");
    let old = "[Event \"the old export\"]\n1. 22-18 11-15 *\n";
    std::fs::write(&target, old).unwrap();
    let files_before = names(dir.path());
    // No file of the process may grow beyond 64 KiB (the export is larger):
    // writes past that fail as on a full disk (the signal the kernel sends
    // then is ignored).
    let out = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 64; exec \"$0\" --db \"$1\" export -o \"$2\"")
        .arg(bin())
        .arg(&db)
        .arg(&target)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(target.to_str().unwrap()), "{err}");
    assert!(err.contains("writing failed"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), old);
    let mut after = names(dir.path());
    after.retain(|n| !n.starts_with("games.sqlite-"));
    assert_eq!(after, files_before, "no temporary file left");
    // With room, the same command writes the whole export.
    let (_, err, code) = run(&db, &["export", "-o", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::metadata(&target).unwrap().len() > 64 * 1024);
}
