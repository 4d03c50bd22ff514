//! Writers at the same time, through the real binary: one writes while
//! the others wait; whatever happens to one of them, every stored game is
//! indexed (or reported as not yet indexed), and `stats --check` is clean.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::reimport::assert_same;
use crate::{crate_path, json_lines, pdndb, run};

/// `pdndb generate` into `dir/name`.
fn generated(dir: &Path, name: &str, games: usize, seed: u64) -> PathBuf {
    let path = dir.join(name);
    crate::generate(&path, "filipino", games, seed);
    path
}

/// `pdndb --db DB import --quiet --json PATHS… ARGS…`, started.
fn start_import(db: &Path, paths: &[&Path], args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_pdndb"))
        .arg("--db")
        .arg(db)
        .args(["import", "--quiet", "--json"])
        .args(paths)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a started command: exit code, stdout, stderr.
fn finish(child: Child) -> (i32, String, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh database holding `paths`, imported one after the other.
fn sequential(dir: &Path, name: &str, paths: &[&Path]) -> PathBuf {
    let db = dir.join(name);
    for path in paths {
        let (code, _, err) = finish(start_import(&db, &[path], &[]));
        assert_eq!(code, 0, "{err}");
    }
    db
}

/// `stats --check --json`: asserts every invariant holds and nothing is
/// left unindexed; the stats.
fn checked_clean(db: &Path) -> Value {
    let (out, err, code) = run(db, &["stats", "--check", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let stats: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stats["check"]["ok"], true, "{stats}");
    assert_eq!(stats["unindexed"], 0, "{stats}");
    assert!(stats["duplicates"].as_i64().unwrap() >= 0, "{stats}");
    stats
}

/// Every game's last position finds the game.
fn every_game_found(db: &Path) {
    let (out, _, code) = run(db, &["games", "--json", "--limit", "0"]);
    assert_eq!(code, 0);
    let games = json_lines(&out);
    assert!(!games.is_empty());
    for game in games.iter().step_by(97) {
        let id = game["game"].as_i64().unwrap().to_string();
        let (shown, _, code) = run(db, &["show", &id, "--json"]);
        assert_eq!(code, 0);
        let fen = serde_json::from_str::<Value>(&shown).unwrap()["fen"]
            .as_str()
            .unwrap()
            .to_string();
        let (found, _, code) = run(db, &["search", "--fen", &fen, "--limit", "0", "--json"]);
        assert_eq!(code, 0);
        assert!(
            json_lines(&found).iter().any(|r| r["game"] == game["game"]),
            "game {id} not found at its last position {fen}"
        );
    }
}

#[test]
fn two_imports_of_different_files_at_once_store_what_one_after_the_other_do() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "a.pdn", 3000, 11);
    let b = generated(dir.path(), "b.pdn", 3000, 12);
    let db = dir.path().join("both.sqlite");
    let first = start_import(&db, &[&a], &[]);
    std::thread::sleep(Duration::from_millis(100));
    let second = start_import(&db, &[&b], &[]);
    let (code_a, _, err_a) = finish(first);
    let (code_b, _, err_b) = finish(second);
    assert_eq!((code_a, code_b), (0, 0), "{err_a}\n{err_b}");
    checked_clean(&db);
    every_game_found(&db);
    let fresh = sequential(dir.path(), "fresh.sqlite", &[&a, &b]);
    assert_same(&db, &fresh, "two imports at once");
}

#[test]
fn the_same_file_imported_twice_at_once_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "a.pdn", 3000, 13);
    let db = dir.path().join("db.sqlite");
    let first = start_import(&db, &[&a], &[]);
    let second = start_import(&db, &[&a], &[]);
    let (code_a, out_a, err_a) = finish(first);
    let (code_b, out_b, err_b) = finish(second);
    assert_eq!((code_a, code_b), (0, 0), "{err_a}\n{err_b}");
    let added: i64 = [out_a, out_b]
        .iter()
        .map(|o| {
            serde_json::from_str::<Value>(o).unwrap()["games"]
                .as_i64()
                .unwrap()
        })
        .sum();
    assert_eq!(added, 3000);
    let stats = checked_clean(&db);
    assert_eq!(stats["games"], 3000);
    assert_eq!(stats["duplicates"], 0);
}

#[test]
fn a_second_import_that_cannot_wait_names_the_writer_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "a.pdn", 12000, 14);
    let b = generated(dir.path(), "b.pdn", 50, 15);
    let db = dir.path().join("db.sqlite");
    let mut first = start_import(&db, &[&a], &[]);
    let lock = dir.path().join("db.sqlite-lock");
    let began = Instant::now();
    while !lock.exists() && began.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first import ended too soon"
    );
    let (code, _, err) = finish(start_import(&db, &[&b], &["--wait", "0"]));
    assert_eq!(code, 2, "{err}");
    let pid = first.id();
    assert!(
        err.contains(&format!(
            "another import is writing to {} (pid {pid})",
            db.display()
        )),
        "{err}"
    );
    let (code, _, err) = finish(first);
    assert_eq!(code, 0, "{err}");
    assert!(
        !lock.exists(),
        "the lock file is gone once the import is done"
    );
    let stats = checked_clean(&db);
    assert_eq!(stats["games"], 12000);
}

#[test]
fn an_import_killed_while_another_waits_is_completed_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "a.pdn", 15000, 16);
    let b = generated(dir.path(), "b.pdn", 2000, 17);
    let db = dir.path().join("db.sqlite");
    let mut first = start_import(&db, &[&a], &[]);
    // Killed once it has committed games of its own.
    let began = Instant::now();
    loop {
        let games = rusqlite::Connection::open(&db)
            .and_then(|c| c.query_row("SELECT count(*) FROM game", [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0);
        if games > 0 || began.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = start_import(&db, &[&b], &[]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first import ended too soon"
    );
    first.kill().unwrap();
    first.wait().unwrap();
    let (code, _, err) = finish(second);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("waiting"),
        "the second import said it waited: {err}"
    );
    // The killed import's committed games are indexed by the one that waited.
    let (out, _, _) = run(&db, &["stats", "--json"]);
    let stats: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stats["unindexed"], 0, "{stats}");
    let (code, _, err) = finish(start_import(&db, &[&a], &[]));
    assert_eq!(code, 0, "{err}");
    checked_clean(&db);
    every_game_found(&db);
    let fresh = sequential(dir.path(), "fresh.sqlite", &[&a, &b]);
    assert_same(
        &db,
        &fresh,
        "an import killed while another waited, then run again",
    );
}

#[test]
fn games_not_yet_indexed_are_counted_and_named_by_search_and_tree() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "a.pdn", 5000, 18);
    let db = dir.path().join("db.sqlite");
    let status = pdndb(&db)
        .env("PDNDB_TEST_ABORT_AFTER", "2000")
        .args(["import", "--quiet"])
        .arg(&a)
        .output()
        .unwrap();
    assert!(!status.status.success());
    let (out, _, code) = run(&db, &["stats", "--json"]);
    assert_eq!(code, 0);
    let stats: Value = serde_json::from_str(&out).unwrap();
    let unindexed = stats["unindexed"].as_i64().unwrap();
    assert!(unindexed > 0, "{stats}");
    assert_eq!(stats["games"].as_i64().unwrap(), unindexed, "{stats}");
    let warning = format!("warning: {unindexed} games are not indexed yet: run pdndb import again");
    for args in [&["search", "--moves", "1. 24-19"][..], &["tree"][..]] {
        let (_, err, code) = run(&db, args);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains(&warning), "{args:?}: {err}");
    }
    let (out, _, _) = run(&db, &["stats"]);
    assert!(
        out.contains(&format!("{unindexed} games are not indexed yet")),
        "{out}"
    );
    // A resumed import under other options says it starts over.
    let (_, err, code) = run(
        &db,
        &[
            "import",
            "--quiet",
            "--variant",
            "english",
            a.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("reading it from the start with these"),
        "{err}"
    );
    let stats = checked_clean(&db);
    assert_eq!(stats["games"], 5000);
    let (_, err, _) = run(&db, &["tree"]);
    assert!(!err.contains("not indexed"), "{err}");
}

#[test]
fn stats_check_finds_a_damaged_index() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "a.pdn", 300, 19);
    let db = sequential(dir.path(), "db.sqlite", &[&a]);
    checked_clean(&db);
    let mut conn = rusqlite::Connection::open(&db).unwrap();
    // Game 100's index entries past position 3 lost.
    let tx = conn.transaction().unwrap();
    let past_three = crate::postings::all(&tx)
        .iter()
        .filter(|&&(_, game, ply, _)| game == 100 && ply > 3)
        .count();
    assert!(past_three > 0);
    assert_eq!(crate::postings::remove(&tx, 100, |ply| ply > 3), past_three);
    tx.commit().unwrap();
    conn.execute_batch(
            "INSERT INTO provenance (file, idx, game, byte_offset, line, text)
                 SELECT file, idx + 1000, game, byte_offset, line, text FROM provenance WHERE game = 5;",
        )
        .unwrap();
    let (out, _, code) = run(&db, &["stats", "--check", "--json"]);
    assert_eq!(code, 1, "{out}");
    let stats: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stats["check"]["ok"], false);
    let problems = stats["check"]["problems"].to_string();
    assert!(
        problems.contains("games read again have other index rows"),
        "{problems}"
    );
    assert!(
        problems.contains("files marked complete hold another number"),
        "{problems}"
    );
}

#[test]
fn check_and_import_give_the_same_for_every_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = vec![crate_path("sample-pdn")];
    for (variant, seed) in [
        ("filipino", 21),
        ("russian", 22),
        ("english", 23),
        ("international", 24),
    ] {
        let path = dir.path().join(format!("{variant}.pdn"));
        let out = pdndb(&dir.path().join("unused.sqlite"))
            .args([
                "generate",
                "--games",
                "700",
                "--seed",
                &seed.to_string(),
                "--variant",
                variant,
                "-o",
            ])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success());
        paths.push(path);
    }
    let check = |jobs: &str| {
        let out = pdndb(&dir.path().join("unused.sqlite"))
            .args(["check", "--json", "--jobs", jobs])
            .args(&paths)
            .output()
            .unwrap();
        (out.status.code(), out.stdout, out.stderr)
    };
    let one = check("1");
    assert_eq!(one.0, Some(1), "sample-pdn holds problem games");
    for jobs in ["2", "3", "8"] {
        assert!(
            check(jobs) == one,
            "check --jobs {jobs} differs from --jobs 1"
        );
    }
    let import = |jobs: &str| {
        let db = dir.path().join(format!("jobs{jobs}.sqlite"));
        let out = pdndb(&db)
            .args(["import", "--quiet", "--jobs", jobs])
            .args(&paths)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        db
    };
    let single = import("1");
    for jobs in ["2", "5"] {
        assert_same(&import(jobs), &single, &format!("import --jobs {jobs}"));
    }
}
