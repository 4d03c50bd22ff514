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
    // Games of every preset, and records of every status with and without
    // results at the end of their moves.
    let mut files = vec![
        crate_path("sample-pdn"),
        statuses,
        crate_path("tests/data/every-status.pdn"),
    ];
    for preset in crate::presets() {
        let generated = dir.path().join(format!("{preset}.pdn"));
        crate::generate(&generated, preset, 3, 7);
        files.push(generated);
    }
    let files: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let first = import(&db, &files, &[]);
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

#[test]
fn records_differing_in_site_round_or_set_up_are_different_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let records = crate_path("tests/data/distinct-games.pdn");
    // Two forfeits, four lessons, one record written twice.
    let first = import(&db, &[&records], &[]);
    assert_eq!(
        (first["games"].as_i64(), first["duplicates"].as_i64()),
        (Some(6), Some(1)),
        "{first}"
    );
    let (listed, _, _) = crate::run(&db, &["games", "--json", "--event", "Cebu"]);
    let rounds: Vec<String> = crate::json_lines(&listed)
        .iter()
        .map(|g| g["tags"]["Round"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(rounds, ["3", "5"]);
    // Still one game each when exported and read back.
    let exported = dir.path().join("own.pdn");
    export(&db, &exported, &[]);
    let again = import(&db, &[&exported], &[]);
    assert_eq!(
        (again["games"].as_i64(), again["duplicates"].as_i64()),
        (Some(0), Some(6)),
        "{again}"
    );
}

#[test]
fn recheck_takes_apart_games_an_older_pdndb_merged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("step-16.sqlite");
    std::fs::copy(crate_path("tests/data/step-16/step-16.sqlite"), &db).unwrap();
    let games = |db: &Path| {
        let (out, err, code) = crate::run(db, &["games", "--json", "--limit", "0"]);
        assert_eq!(code, 0, "{err}");
        crate::json_lines(&out).len()
    };
    // Two games for seven records, as that pdndb stored them.
    assert_eq!(games(&db), 2);
    let (out, err, code) = crate::run(&db, &["recheck", "--json"]);
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(summary["split"], 4, "{summary}");
    assert_eq!(games(&db), 6);
    let (out, err, code) = crate::run(&db, &["stats", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
    // As a fresh import of the file stores them: imported again, the
    // file's records are all duplicates of what the recheck left.
    let fresh = dir.path().join("fresh.sqlite");
    import(
        &fresh,
        &[&crate_path("tests/data/step-16/distinct-games.pdn")],
        &[],
    );
    let exported = dir.path().join("rechecked.pdn");
    export(&db, &exported, &[]);
    let again = import(&fresh, &[&exported], &[]);
    assert_eq!(
        (again["games"].as_i64(), again["duplicates"].as_i64()),
        (Some(0), Some(6)),
        "{again}"
    );
}

#[test]
fn unsupported_games_without_a_result_at_the_end_read_back_as_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let records = dir.path().join("unsupported.pdn");
    std::fs::write(
        &records,
        "[Event \"x\"]\n[GameType \"45\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23\n\n\
         [Event \"y\"]\n[GameType \"45\"]\n1. 32-28 19-23 {c} 2. 31-27\n\n\
         [Event \"z\"]\n[GameType \"45\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2-0\n",
    )
    .unwrap();
    assert_eq!(import(&db, &[&records], &[])["games"], 3);
    let exported = dir.path().join("own.pdn");
    export(&db, &exported, &[]);
    let text = std::fs::read_to_string(&exported).unwrap();
    // The Result tag's result ends the moves that had none.
    assert!(text.contains("2. 28x19 14x23\n1-0\n"), "{text}");
    let again = import(&db, &[&exported], &[]);
    assert_eq!(
        (again["games"].as_i64(), again["duplicates"].as_i64()),
        (Some(0), Some(3)),
        "{again}"
    );
}

#[test]
fn keys_of_an_older_database_cover_site_round_and_set_up_once_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("step-16.sqlite");
    std::fs::copy(crate_path("tests/data/step-16/step-16.sqlite"), &db).unwrap();
    let copy = dir.path().join("copy.pdn");
    std::fs::copy(crate_path("tests/data/step-16/distinct-games.pdn"), &copy).unwrap();
    let keys = |db: &Path, status: &str| -> Vec<i64> {
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn
            .prepare("SELECT dup_key FROM game WHERE status = ?1 ORDER BY dup_key")
            .unwrap();
        stmt.query_map([status], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    // The same records under another name. The forfeit stored (read as
    // then) is met again by its key made again on upgrade, round 3 and
    // all; the other forfeit and the lessons, which that pdndb did not
    // play, are games the database does not hold (until a recheck reads
    // the stored lessons as Frisian too).
    let again = import(&db, &[&copy], &[]);
    assert_eq!(
        (again["games"].as_i64(), again["duplicates"].as_i64()),
        (Some(5), Some(2)),
        "{again}"
    );
    // The forfeit's key is the one a fresh import of the file makes.
    let fresh = dir.path().join("fresh.sqlite");
    import(&fresh, &[&copy], &[]);
    let stored = keys(&db, "ok");
    for key in keys(&fresh, "ok") {
        assert!(stored.contains(&key), "{key}: {stored:?}");
    }
}
