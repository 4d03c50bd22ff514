//! A game met again is a duplicate, whatever its status; different games
//! that share their moves are not, and cost no more to import.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{crate_path, pdndb};

/// Every status, in one file: ok, illegal, ambiguous, unreadable,
/// unsupported.
const EVERY_STATUS: &str = "[Event \"ok\"]\n[White \"A\"]\n1. 22-18 11-15 2. 18x11 8x15 1-0\n\n\
[Event \"illegal\"]\n[White \"B\"]\n1. 22-18 11-15 2. 18-14 9x18 *\n\n\
[Event \"ambiguous\"]\n[FEN \"W:WK29:B1\"]\n[Notation \"Dama\"]\n1. 9-15 12-7 *\n\n\
[Event \"bad fen\"]\n[FEN \"W:W18,18:B1\"]\n1. 18-14 *\n\n\
[Event \"Turkish\"]\n[GameType \"30\"]\n1. 32-28 19-23 *\n";

fn import(db: &Path, paths: &[&Path], args: &[&str]) -> Value {
    let out = pdndb(db)
        .args(["import", "--quiet", "--json"])
        .args(paths)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn export(db: &Path, to: &Path, args: &[&str]) {
    let out = pdndb(db)
        .arg("export")
        .args(args)
        .arg("-o")
        .arg(to)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn every_status_file(dir: &Path) -> PathBuf {
    let path = dir.join("statuses.pdn");
    std::fs::write(&path, EVERY_STATUS).unwrap();
    path
}

#[test]
fn pdndbs_own_export_imported_again_adds_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let statuses = every_status_file(dir.path());
    let first = import(&db, &[&crate_path("sample-pdn"), &statuses], &[]);
    let stored = first["games"].as_i64().unwrap();
    for status in ["ok", "illegal", "ambiguous", "unreadable", "unsupported"] {
        assert!(first[status].as_i64().unwrap() > 0, "{status}: {first}");
    }
    for (name, args) in [
        ("own.pdn", &[][..]),
        ("numeric.pdn", &["--notation", "numeric"][..]),
    ] {
        let exported = dir.path().join(name);
        export(&db, &exported, args);
        let again = import(&db, &[&exported], &[]);
        assert_eq!(again["games"], 0, "{name}: {again}");
        assert_eq!(
            again["duplicates"].as_i64().unwrap(),
            stored,
            "{name}: {again}"
        );
    }
}

#[test]
fn a_copy_of_records_of_every_status_is_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let statuses = every_status_file(dir.path());
    let copy = dir.path().join("copy.pdn");
    std::fs::copy(&statuses, &copy).unwrap();
    let first = import(&db, &[&statuses], &[]);
    assert_eq!(first["games"], 5, "{first}");
    let again = import(&db, &[&copy], &[]);
    assert_eq!(again["games"], 0, "{again}");
    assert_eq!(again["duplicates"], 5, "{again}");
}

#[test]
fn records_that_differ_after_a_fault_are_different_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let one = dir.path().join("one.pdn");
    let other = dir.path().join("other.pdn");
    std::fs::write(
        &one,
        "[White \"B\"]\n1. 22-18 11-15 2. 18-14 9x18 3. 23x14 *\n",
    )
    .unwrap();
    std::fs::write(
        &other,
        "[White \"B\"]\n1. 22-18 11-15 2. 18-14 9x18 3. 24-19 *\n",
    )
    .unwrap();
    import(&db, &[&one], &[]);
    let again = import(&db, &[&other], &[]);
    assert_eq!(
        (again["games"].clone(), again["illegal"].clone()),
        (1.into(), 1.into()),
        "{again}"
    );
}

#[test]
fn games_sharing_their_moves_under_other_tags_are_all_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let path = dir.path().join("same.pdn");
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "[Event \"Club {}\"]\n[White \"Player {i}\"]\n[Result \"*\"]\n1. 22-18 11-15 2. 18x11 8x15 *\n\n",
            i / 100
        ));
    }
    std::fs::write(&path, text).unwrap();
    let first = import(&db, &[&path], &[]);
    assert_eq!(
        (first["games"].clone(), first["duplicates"].clone()),
        (3000.into(), 0.into())
    );
    let copy = dir.path().join("copy.pdn");
    std::fs::copy(&path, &copy).unwrap();
    let again = import(&db, &[&copy], &[]);
    assert_eq!(
        (again["games"].clone(), again["duplicates"].clone()),
        (0.into(), 3000.into())
    );
}
