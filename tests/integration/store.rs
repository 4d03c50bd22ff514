//! The database through the real binary: import, search, tree, report,
//! show, stats; re-imports, duplicates, a killed import.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

use crate::skip::corpus;
use crate::{crate_path, integrity, json_lines, pdndb, run};

fn import_json(db: &Path, paths: &[&Path]) -> Value {
    let out = pdndb(db)
        .arg("import")
        .arg("--json")
        .args(paths)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A numeric query result as a float (sums may not be integers).
fn count_f(db: &Path, sql: &str) -> f64 {
    let conn = crate::open_with_index_rows(db);
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

fn count(db: &Path, sql: &str) -> i64 {
    let conn = crate::open_with_index_rows(db);
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[test]
fn import_sample_then_query() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let sample = crate_path("sample-pdn");
    let summary = import_json(&db, &[&sample]);
    let files = summary["files"].as_u64().unwrap();
    assert!(files >= 4, "{summary}");
    let games = summary["games"].as_u64().unwrap();
    let by_status: u64 = ["ok", "ambiguous", "illegal", "unreadable", "unsupported"]
        .iter()
        .map(|s| summary[s].as_u64().unwrap())
        .sum();
    assert_eq!(by_status, games, "{summary}");
    assert!(
        summary["ambiguous"].as_u64().unwrap() >= 1,
        "the Dama copy: {summary}"
    );
    assert!(summary["positions"].as_u64().unwrap() > 80 * 3, "{summary}");
    assert_eq!(integrity(&db), "ok");

    // Importing again adds nothing.
    let again = import_json(&db, &[&sample]);
    assert_eq!(again["games"], 0, "{again}");
    assert_eq!(again["files"], 0);
    assert_eq!(again["files_skipped"], files);
    assert_eq!(again["positions"], 0);

    // The seed game's copies: the numeric, Vismin and Luzon copies reach the
    // position after 1. 23-18 10-15 (written in any notation).
    for moves in ["1. 23-18 10-15", "1. e3-d4 d6-e5", "1. d3-e4 e6-d5"] {
        let (out, err, code) = run(
            &db,
            &[
                "search",
                "--moves",
                moves,
                "--variant",
                "filipino",
                "--json",
            ],
        );
        assert_eq!(code, 0, "{err}");
        let hits = json_lines(&out);
        let events: Vec<&str> = hits
            .iter()
            .map(|h| h["tags"]["Event"].as_str().unwrap())
            .collect();
        for copy in [
            "numeric notation",
            "Vismin board",
            "Luzon board",
            "Dama notation",
        ] {
            assert!(
                events.iter().any(|e| e.contains(copy)),
                "{moves}: {events:?}"
            );
        }
        assert!(hits.iter().all(|h| h["ply"] == 2), "{hits:?}");
    }
    // The same position as a FEN, algebraic on the Luzon board.
    let (out, _, _) = run(
        &db,
        &[
            "search",
            "--fen",
            "W:Wh1,f1,d1,b1,g2,e2,c2,a2,h3,f3,b3,e4:Bg8,e8,c8,a8,h7,f7,d7,b7,g6,c6,a6,d5",
            "--json",
        ],
    );
    assert!(json_lines(&out).len() >= 4, "{out}");

    // The tree from the start: 23-18 by all four copies.
    let (out, _, code) = run(&db, &["tree", "--variant", "filipino", "--json"]);
    assert_eq!(code, 0);
    let moves = json_lines(&out);
    let first = moves
        .iter()
        .find(|m| m["move"] == "23-18")
        .expect("23-18 in the tree");
    assert!(first["games"].as_i64().unwrap() >= 4);
    assert!(
        first["draws"].as_i64().unwrap() >= 4,
        "the seed game is drawn: {first}"
    );
    let (out, _, _) = run(
        &db,
        &["tree", "--variant", "filipino", "--notation", "luzon"],
    );
    assert!(out.contains("d3-e4"), "{out}");

    // The report lists the Dama copy with its readings.
    let (out, _, code) = run(&db, &["report", "--json"]);
    assert_eq!(code, 1);
    let records = json_lines(&out);
    let dama = records
        .iter()
        .find(|r| r["tags"]["Event"] == "Seed game (Dama notation)")
        .expect("the Dama copy is reported");
    assert_eq!(dama["status"], "ambiguous");
    assert_eq!(dama["interpretations"], 16);
    assert_eq!(dama["candidates"], serde_json::json!(["18-25", "18-8"]));
    assert!(dama["file"].as_str().unwrap().ends_with("seed-dama.pdn"));
    let (out, _, code) = run(
        &db,
        &["report", "--status", "ambiguous", "--resolved", "--json"],
    );
    assert!(code == 1 && !out.is_empty());

    // Show: the Dama copy's last certain position is 69.
    let id = dama["game"].as_i64().unwrap().to_string();
    let (out, err, code) = run(&db, &["show", &id, "--json"]);
    assert_eq!(code, 0, "{err}");
    let shown: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(shown["ply"], 69);
    assert_eq!(shown["certain"], true);
    assert_eq!(shown["fen"], "B:WK6,30:B3,K18,21,K31");
    assert_eq!(shown["notation"], "dama");
    let (out, _, _) = run(&db, &["show", &id, "--ply", "75"]);
    assert!(out.contains("not certain"), "{out}");
    let (out, _, _) = run(&db, &["show", &id, "--notation", "vismin"]);
    assert!(
        out.contains(" a  b  c  d  e  f  g  h") && out.contains("1. e3-d4 d6-e5"),
        "{out}"
    );

    let (out, _, code) = run(&db, &["stats", "--json"]);
    assert_eq!(code, 0);
    let stats: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(stats["games"].as_u64(), Some(games));
}

#[test]
fn the_same_game_twice_is_stored_once_with_both_sources() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dup.sqlite");
    let game = "[Event \"Club\"]\n[White \"Ana \"]\n[Black \"Ben\"]\n[Date \"2020.01.02\"]\n1. 23-18 10-15 2. 21-17 6-10 1-0\n\n";
    let a = dir.path().join("a.pdn");
    let b = dir.path().join("b.pdn");
    std::fs::write(&a, game).unwrap();
    // The same game (names trimmed), and a twin: same moves, other players.
    std::fs::write(
        &b,
        format!(
            "{}{}",
            game.replace("Ana ", "Ana"),
            game.replace("Ben", "Cy")
        ),
    )
    .unwrap();
    let summary = import_json(&db, &[&a, &b]);
    assert_eq!(
        (summary["games"].as_u64(), summary["duplicates"].as_u64()),
        (Some(2), Some(1)),
        "{summary}"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM provenance"), 3);
    let (out, _, _) = run(&db, &["report", "--twins", "--json"]);
    let groups = json_lines(&out);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["games"].as_array().unwrap().len(), 2);
    // Results read for the side to move: White won this one.
    let (out, _, _) = run(&db, &["tree", "--json"]);
    let root = json_lines(&out);
    assert_eq!(root[0]["move"], "23-18");
    assert_eq!(
        (root[0]["games"].as_i64(), root[0]["white_wins"].as_i64()),
        (Some(2), Some(2))
    );
    assert_eq!(root[0]["score"], 100.0);
}

#[test]
fn a_killed_import_leaves_a_sound_database_that_the_same_command_completes() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("gen.pdn");
    let status = Command::cargo_bin("pdndb")
        .unwrap()
        .args(["generate", "--games", "5000", "--seed", "9", "-o"])
        .arg(&archive)
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    let fresh = dir.path().join("fresh.sqlite");
    // The sample files first: their problem games (an ambiguous Dama record
    // among them) are stored before the kill, so the completed import must
    // index them from their stored text.
    let samples = crate_path("sample-pdn");
    let inputs: [&Path; 2] = [&samples, &archive];
    let expected = import_json(&fresh, &inputs);
    let db = dir.path().join("killed.sqlite");
    let out = pdndb(&db)
        .arg("import")
        .args(inputs)
        .env("PDNDB_TEST_ABORT_AFTER", "2500")
        .output()
        .unwrap();
    assert!(!out.status.success(), "the import was to die midway");
    assert_eq!(integrity(&db), "ok");
    let stored = count(&db, "SELECT count(*) FROM game");
    assert!(
        stored > 20 && stored < 5000,
        "{stored} games after the kill"
    );
    assert!(
        count(&db, "SELECT count(*) FROM position")
            < count(&fresh, "SELECT count(*) FROM position"),
        "the kill was to come before some positions were indexed"
    );
    let resumed = import_json(&db, &inputs);
    assert_eq!(
        resumed["games"].as_i64().unwrap() + stored,
        expected["games"].as_i64().unwrap()
    );
    assert_eq!(resumed["positions"], expected["positions"]);
    for sql in [
        "SELECT count(*) FROM game",
        "SELECT count(*) FROM source_file WHERE complete = 1",
        "SELECT count(*) FROM position",
        // The index itself, row for row (keys, plies, next moves).
        "SELECT total(key % 1000003) + total(game * ply) + total(coalesce(next, 0) * game) FROM position",
        "SELECT count(*) FROM position p JOIN game g ON g.id = p.game WHERE g.status <> 'ok'",
    ] {
        assert_eq!(count_f(&db, sql), count_f(&fresh, sql), "{sql}");
    }
    assert!(
        count(
            &db,
            "SELECT count(*) FROM position p JOIN game g ON g.id = p.game WHERE g.status = 'ambiguous'"
        ) > 0
    );
    assert_eq!(integrity(&db), "ok");
}

/// The counts `stats` reads (files, games, duplicates, positions).
fn kept_stats(db: &Path) -> Vec<Value> {
    let (out, err, code) = run(db, &["stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    let stats: Value = serde_json::from_str(&out).unwrap();
    ["files", "games", "duplicates", "positions"]
        .iter()
        .map(|field| stats[field].clone())
        .collect()
}

#[test]
fn the_counts_stats_reads_are_kept_by_imports_killed_or_not_and_by_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("gen.pdn");
    crate::generate(&archive, "filipino", 4000, 3);
    // The same games again in another file: each a duplicate.
    let again = dir.path().join("again.pdn");
    let mut text = std::fs::read(&archive).unwrap();
    text.extend_from_slice(b"\n");
    std::fs::write(&again, text).unwrap();
    let inputs: [&Path; 2] = [&archive, &again];
    let fresh = dir.path().join("fresh.sqlite");
    import_json(&fresh, &inputs);
    let db = dir.path().join("killed.sqlite");
    let out = pdndb(&db)
        .arg("import")
        .args(inputs)
        .env("PDNDB_TEST_ABORT_AFTER", "1000")
        .output()
        .unwrap();
    assert!(!out.status.success(), "the import was to die midway");
    let (check, err, code) = run(&db, &["stats", "--check"]);
    assert_eq!(code, 0, "after the kill: {check}{err}");
    import_json(&db, &inputs);
    let counts = kept_stats(&fresh);
    assert_eq!(counts[0], 2);
    assert_eq!(counts[1], counts[2], "every game met twice: {counts:?}");
    assert_eq!(kept_stats(&db), counts);
    for db in [&fresh, &db] {
        let (check, err, code) = run(db, &["stats", "--check"]);
        assert_eq!(code, 0, "{check}{err}");
    }
}

/// The game table's indexes, by name, with their definitions.
fn game_indexes(db: &Path) -> Vec<(String, String)> {
    let conn = crate::open_with_index_rows(db);
    let mut stmt = conn
        .prepare(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'game' \
             AND sql IS NOT NULL ORDER BY name",
        )
        .unwrap();
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    rows.collect::<Result<_, _>>().unwrap()
}

#[test]
fn a_first_import_builds_the_query_indexes_at_its_end_or_the_next_writer_does() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("gen.pdn");
    crate::generate(&archive, "filipino", 3000, 4);
    let inputs: [&Path; 1] = [&archive];
    let fresh = dir.path().join("fresh.sqlite");
    import_json(&fresh, &inputs);
    let indexes = game_indexes(&fresh);
    for name in ["game_pair", "game_event", "game_day", "game_dup_key"] {
        assert!(indexes.iter().any(|(n, _)| n == name), "{indexes:?}");
    }
    let listing = ["games", "--player", "Lim", "--date", "2015", "--json"];
    let (listed, _, code) = run(&fresh, &listing);
    assert_eq!(code, 0);
    assert!(json_lines(&listed).len() > 10, "{listed}");

    // Killed midway: the indexes only queries read are not there yet.
    let db = dir.path().join("killed.sqlite");
    let out = pdndb(&db)
        .arg("import")
        .args(inputs)
        .env("PDNDB_TEST_ABORT_AFTER", "1500")
        .output()
        .unwrap();
    assert!(!out.status.success(), "the import was to die midway");
    let left = game_indexes(&db);
    assert!(left.iter().all(|(n, _)| n != "game_pair"), "{left:?}");
    assert!(left.iter().any(|(n, _)| n == "game_dup_key"), "{left:?}");
    // Queries answer all the same.
    let (_, err, code) = run(&db, &listing);
    assert_eq!(code, 0, "{err}");

    // The next writer builds them; the completed import equals the fresh one.
    import_json(&db, &inputs);
    assert_eq!(game_indexes(&db), indexes);
    assert_eq!(run(&db, &listing).0, listed);
    assert_eq!(integrity(&db), "ok");
}

#[test]
fn queries_need_a_database_and_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.sqlite");
    let (_, err, code) = run(&missing, &["search", "--moves", "1. 23-18"]);
    assert_eq!(code, 2);
    assert!(err.contains("no database here"), "{err}");
    assert!(!missing.exists());
    let db = dir.path().join("db.sqlite");
    import_json(&db, &[&crate_path("sample-pdn/seed-numeric.pdn")]);
    let (_, err, code) = run(&db, &["search", "--fen", "W:W18,zz:B1"]);
    assert_eq!(code, 2);
    assert!(err.contains("`zz` is not a square"), "{err}");
    let (_, err, code) = run(&db, &["search", "--moves", "1. 23-18 10-15 18-13"]);
    assert_eq!(code, 2);
    assert!(err.contains("ply 3 (2.) 18-13 is illegal"), "{err}");
    let (_, err, code) = run(&db, &["show", "999"]);
    assert_eq!(code, 2);
    assert!(err.contains("no game 999"), "{err}");
    // A value with SQL in it is only a value.
    let (out, _, code) = run(
        &db,
        &["search", "--variant", "filipino' OR '1'='1", "--json"],
    );
    assert_eq!((out.as_str(), code), ("", 2));
    // A read-only database still answers queries.
    let mut perms = std::fs::metadata(&db).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&db, perms).unwrap();
    let (out, err, code) = run(&db, &["tree", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
}

#[test]
fn a_stored_record_or_tags_that_do_not_read_name_their_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    import_json(
        &db,
        &[
            &crate_path("sample-pdn/messy-records.pdn"),
            &crate_path("sample-pdn/quirks-framing.pdn"),
        ],
    );
    let (out, err, code) = run(&db, &["stats", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
    // Game 1's record is cut short; game 2's text (its tags) is no text
    // this version stores; game 3's status is none.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute(
        r#"UPDATE game SET record = '{"variant":"russ' WHERE id = 1"#,
        [],
    )
    .unwrap();
    conn.execute("UPDATE provenance SET text = x'ff00' WHERE game = 2", [])
        .unwrap();
    conn.execute("UPDATE game SET status = 'fine' WHERE id = 3", [])
        .unwrap();
    drop(conn);
    for (id, what) in [("1", "check record"), ("2", "text"), ("3", "status")] {
        let needle = format!("game {id}: its stored {what} cannot be read");
        for args in [&["show", id][..], &["show", id, "--json"]] {
            let (out, err, code) = run(&db, args);
            assert_eq!((out.as_str(), code), ("", 2), "{args:?}");
            assert!(err.contains(&needle), "{args:?}: {err}");
        }
        let (_, err, code) = run(&db, &["games", "--json"]);
        assert_eq!(code, 2);
        assert!(err.starts_with("pdndb: game "), "{err}");
    }
    let (_, err, code) = run(&db, &["report", "--json", "--status", "ok,illegal"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be read"), "{err}");
    let (out, err, code) = run(&db, &["stats", "--check"]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        out.contains(
            "3 games whose stored check record, status or tags do not read back (ids 1, 2, 3)"
        ),
        "{out}"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "corpus runs in release builds (cargo test --release)"
)]
fn oca_archive_imports_and_its_tree_sums_to_every_game() {
    let Some(oca) = corpus(
        "oca_archive_imports_and_its_tree_sums_to_every_game",
        "english/OCA_2.0.pdn",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("oca.sqlite");
    let summary = import_json(&db, &[&oca]);
    assert_eq!(summary["games"], 22_621, "{summary}");
    assert_eq!(summary["ok"], 22_621);
    assert_eq!(summary["duplicates"], 0);
    let (out, _, _) = run(&db, &["tree", "--json"]);
    let total: i64 = json_lines(&out)
        .iter()
        .map(|m| m["games"].as_i64().unwrap())
        .sum();
    assert_eq!(total, 22_621);
    let (black, white): (i64, i64) = json_lines(&out).iter().fold((0, 0), |(b, w), m| {
        (
            b + m["black_wins"].as_i64().unwrap(),
            w + m["white_wins"].as_i64().unwrap(),
        )
    });
    // In English checkers 1-0 means Black (the first mover) won: 3,626 games.
    assert_eq!((black, white), (3_626, 4_803));
    let (_, err, _) = run(&db, &["report", "--twins"]);
    assert!(
        err.contains("247 groups holding 572 of 22621 games"),
        "{err}"
    );
}

#[test]
fn queries_answer_while_an_import_writes() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("gen.pdn");
    let out = Command::cargo_bin("pdndb")
        .unwrap()
        .args(["generate", "--games", "3000", "--seed", "4", "-o"])
        .arg(&archive)
        .output()
        .unwrap();
    assert!(out.status.success());
    let db = dir.path().join("busy.sqlite");
    // A first small import so that the database exists.
    import_json(&db, &[&crate_path("sample-pdn/seed-numeric.pdn")]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pdndb"))
        .arg("--db")
        .arg(&db)
        .args(["import", "--quiet"])
        .arg(&archive)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut queries = 0;
    loop {
        let done = child.try_wait().unwrap().is_some();
        let (out, err, code) = run(&db, &["stats", "--json"]);
        assert_eq!(code, 0, "a query during the import failed: {err}");
        assert!(out.contains("\"games\""));
        // The seed game (imported first) is found whatever the import is doing.
        let (out, err, code) = run(&db, &["search", "--moves", "1. 23-18", "--json"]);
        assert_eq!(code, 0, "a search during the import failed: {err}");
        assert!(!json_lines(&out).is_empty(), "{out}");
        queries += 1;
        if done {
            break;
        }
    }
    assert!(child.wait().unwrap().success());
    assert!(queries >= 1);
    assert_eq!(integrity(&db), "ok");
}

#[test]
fn tree_counts_games_starting_at_a_position_and_games_passing_through() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("starts.pdn");
    std::fs::write(
        &file,
        "[Event \"A\"]\n[FEN \"W:W22,23:B9,10\"]\n[Result \"1-0\"]\n1. 22-18 10-14 1-0\n\n\
         [Event \"B\"]\n[FEN \"W:W22,23:B9,10\"]\n[Result \"0-1\"]\n1. 23-19 10-14 0-1\n\n\
         [Event \"C\"]\n[FEN \"B:W18,23:B9,10\"]\n[Result \"1/2-1/2\"]\n1... 9-13 1/2-1/2\n",
    )
    .unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(
        &db,
        &["import", "--variant", "filipino", file.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let tree = |fen: &str| {
        let (out, err, code) = run(&db, &["tree", "--fen", fen, "--json"]);
        assert_eq!(code, 0, "{err}");
        json_lines(&out)
            .iter()
            .map(|m| {
                let n = |f: &str| m[f].as_i64().unwrap();
                (
                    m["move"].as_str().unwrap().to_string(),
                    n("games"),
                    n("white_wins"),
                    n("draws"),
                    n("black_wins"),
                )
            })
            .collect::<Vec<_>>()
    };
    // Two games start here (counted from their start), none passes through.
    assert_eq!(
        tree("W:W22,23:B9,10"),
        [
            ("22-18".to_string(), 1, 1, 0, 0),
            ("23-19".to_string(), 1, 0, 0, 1)
        ]
    );
    // Game C starts here; game A comes here after its first move.
    assert_eq!(
        tree("B:W18,23:B9,10"),
        [
            ("10-14".to_string(), 1, 1, 0, 0),
            ("9-13".to_string(), 1, 0, 1, 0)
        ]
    );
    // A position no game reaches, though one differs only by the side to move.
    assert!(tree("B:W22,23:B9,10").is_empty());
}

/// A copy of the database written by the previous release, with the files it
/// was imported from, in a fresh folder.
fn previous_release() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = crate_path("tests/data/previous-release");
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// `(variant, status, variant_from)` of every game, counted.
fn readings(db: &Path) -> Vec<(String, String, Option<String>, i64)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT variant, status, variant_from, count(*) FROM game \
             GROUP BY variant, status, variant_from ORDER BY variant, status",
        )
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn reading(
    variant: &str,
    status: &str,
    from: &str,
    games: i64,
) -> (String, String, Option<String>, i64) {
    (variant.into(), status.into(), Some(from.into()), games)
}

#[test]
fn recheck_reads_a_database_of_the_previous_release_with_the_current_rules() {
    let dir = previous_release();
    let db = dir.path().join("previous-release.sqlite");
    // What the previous release stored: the Russian games as Filipino, the
    // International ones unsupported.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM game WHERE status = 'unsupported'"
        ),
        10
    );
    let (out, err, code) = run(&db, &["recheck", "--json"]);
    assert_eq!(code, 0, "{err}");
    let summary = &json_lines(&out)[0];
    assert_eq!(summary["files"], 5);
    assert_eq!(summary["games"], 61);
    assert_eq!(summary["changed"], 43, "{summary}");
    assert_eq!(summary["changes"]["illegal filipino → ok russian"], 11);
    assert_eq!(summary["changes"]["ok filipino → ok russian"], 19);
    assert_eq!(
        summary["changes"]["unsupported international → ok international"],
        10
    );
    assert_eq!(summary["changes"]["ok filipino → ok english"], 3);
    assert_eq!(
        readings(&db),
        [
            // Read with --variant brazilian by the previous release: kept.
            reading("brazilian", "ok", "forced", 8),
            reading("english", "ok", "inferred", 3),
            reading("international", "ok", "inferred", 10),
            reading("pool", "ok", "tag", 10),
            reading("russian", "ok", "inferred", 30),
        ]
    );
    assert_eq!(integrity(&db), "ok");
    // The index now holds the International games, as a fresh import would.
    let fresh = dir.path().join("fresh.sqlite");
    let files = [
        "russian.pdn",
        "international.pdn",
        "pool.pdn",
        "problems.pdn",
    ];
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.path().join(f)).collect();
    let path_refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    import_json(&fresh, &path_refs);
    let out = pdndb(&fresh)
        .args(["import", "--variant", "brazilian"])
        .arg(dir.path().join("forced.pdn"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let positions = "SELECT count(*) FROM position";
    assert_eq!(count(&db, positions), count(&fresh, positions));
    let starts = "SELECT sum(games) FROM start_move";
    assert_eq!(count(&db, starts), count(&fresh, starts));
    let (tree, _, _) = run(&db, &["tree", "--variant", "international", "--json"]);
    let games: i64 = json_lines(&tree)
        .iter()
        .map(|m| m["games"].as_i64().unwrap())
        .sum();
    assert_eq!(games, 10);
    // A second recheck finds nothing more to change.
    let (out, _, _) = run(&db, &["recheck", "--json"]);
    assert_eq!(json_lines(&out)[0]["changed"], 0);
    assert_eq!(json_lines(&out)[0]["updated"], 0);
}

#[test]
fn importing_the_files_of_an_older_database_again_reads_them_again() {
    let dir = previous_release();
    let db = dir.path().join("previous-release.sqlite");
    let out = pdndb(&db)
        .current_dir(dir.path())
        .args(["import", "--json"])
        .args([
            "russian.pdn",
            "international.pdn",
            "pool.pdn",
            "problems.pdn",
            "forced.pdn",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["files_read_again"], 5, "{summary}");
    assert_eq!(summary["games_changed"], 43);
    assert_eq!(summary["games"], 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "russian.pdn: already imported, read again with the current rules: 30 games changed"
    ));
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM game WHERE variant = 'russian' AND status = 'ok'"
        ),
        30
    );
    // Once read again, the next import skips them as before.
    let out = pdndb(&db)
        .current_dir(dir.path())
        .args(["import", "--json", "russian.pdn"])
        .output()
        .unwrap();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            summary["files_skipped"].as_i64(),
            summary["files_read_again"].as_i64()
        ),
        (Some(1), Some(0))
    );
}

#[test]
fn recheck_of_named_files_and_of_unknown_ones() {
    let dir = previous_release();
    let db = dir.path().join("previous-release.sqlite");
    let (out, err, code) = run(&db, &["recheck", "--json", "international.pdn"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["changed"], 10);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM game WHERE status = 'unsupported'"
        ),
        0
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM game WHERE variant = 'filipino'"),
        33
    );
    let (_, err, code) = run(&db, &["recheck", "nowhere.pdn"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("nowhere.pdn: no file of that path was imported"),
        "{err}"
    );
    let (_, err, code) = run(&dir.path().join("none.sqlite"), &["recheck"]);
    assert_eq!(code, 2);
    assert!(err.contains("no database here"), "{err}");
}

#[test]
fn report_prints_the_records_of_check_in_their_order_with_the_game_id_in_front_and_its_opening() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let sample = crate_path("sample-pdn");
    let sample = sample.to_str().unwrap();
    let (_, err, code) = run(&db, &["import", sample]);
    assert_eq!(code, 0, "{err}");
    let (report, _, code) = run(&db, &["report", "--json", "--resolved"]);
    assert_eq!(code, 1);
    let (check, _, _) = run(&db, &["check", "--json", sample]);
    let checked = json_lines(&check);
    let reported = json_lines(&report);
    assert!(reported.len() >= 6, "{report}");
    // Each game's opening and ballot, as `games --json` names them.
    let (listed, _, _) = run(&db, &["games", "--json", "--limit", "0"]);
    let listed = json_lines(&listed);
    let mut named = 0;
    for r in &reported {
        let mut r = r.as_object().unwrap().clone();
        let game = r.shift_remove("game").unwrap();
        let g = listed.iter().find(|g| g["game"] == game).unwrap();
        for field in ["opening", "ballot", "first_side"] {
            assert_eq!(
                r.shift_remove(field).as_ref(),
                Some(&g[field]),
                "{field}: {g}"
            );
        }
        named += usize::from(!g["opening"].is_null());
        let c = checked
            .iter()
            .map(|c| c.as_object().unwrap())
            .find(|c| c["file"] == r["file"] && c["index"] == r["index"])
            .unwrap_or_else(|| panic!("no check record for {r:?}"));
        let mut c = c.clone();
        c.shift_remove("warnings");
        let keys = |m: &serde_json::Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&r), keys(&c));
        assert_eq!(r, c);
    }
    assert!(named > 0, "no reported game has an opening: {report}");
}

/// The answers of a database of schema step 9 (tests/data/step-9: the old
/// binary's answers stored beside it), brought up to date, and of a fresh
/// import of the same files, to the same questions.
#[test]
fn a_database_of_step_nine_answers_as_before_and_as_a_fresh_import() {
    answers_as_before_and_as_a_fresh_import("step-9");
}

/// The same of a database of schema step 11 (tests/data/step-11: postings
/// of 40-bit keys with their next moves, popular keys counted).
#[test]
fn a_database_of_step_eleven_answers_as_before_and_as_a_fresh_import() {
    answers_as_before_and_as_a_fresh_import("step-11");
}

/// Asks a copy of tests/data/FOLDER/FOLDER.sqlite, brought up to date, and
/// a fresh import of the same files the questions of its answers.json.
fn answers_as_before_and_as_a_fresh_import(folder: &str) {
    let dir = tempfile::tempdir().unwrap();
    let from = crate_path(&format!("tests/data/{folder}"));
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let answers: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("answers.json")).unwrap())
            .unwrap();
    let old = format!("{folder}.sqlite");
    let migrated = dir.path().join(&old);
    let out = pdndb(&migrated)
        .args(["stats", "--check", "--json"])
        .output()
        .unwrap();
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["check"]["ok"], true, "{stats}");
    assert_eq!(stats["positions"], 4441);
    let fresh = dir.path().join("fresh.sqlite");
    let out = pdndb(&fresh)
        .current_dir(dir.path())
        .args([
            "import",
            "--quiet",
            "games.pdn",
            "english.pdn",
            "seed-dama.pdn",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(answers.len() > 50);
    for answer in &answers {
        let args: Vec<&str> = answer["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let mut given = Vec::new();
        for db in [old.as_str(), "fresh.sqlite"] {
            let out = pdndb(Path::new(db))
                .current_dir(dir.path())
                .args(&args)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            assert_eq!(
                without_later_fields(&stdout),
                without_later_fields(answer["stdout"].as_str().unwrap()),
                "{db}: {args:?}"
            );
            given.push(without_message_keys(&stdout));
        }
        assert_eq!(given[0], given[1], "{args:?}");
    }
}

/// JSON lines without the fields records gained after the answers were
/// written (a search hit's `fen` and `reversed`; a game's opening, its ply
/// and ballot, schema step 19; its result check, step 20; `show`'s
/// annotated moves and what came with them).
/// Lines of text (the opening and ballot lines of `show` left out) stay
/// as they are.
/// The lines of an answer, each record without `message_key` (null in
/// the records an older pdndb stored).
fn without_message_keys(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(mut record)) => {
                record.shift_remove("message_key");
                Value::Object(record)
            }
            _ => Value::from(line),
        })
        .collect()
}

fn without_later_fields(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|line| !line.starts_with("opening ") && !line.starts_with("ballot "))
        .map(|line| {
            let Ok(mut value) = serde_json::from_str::<Value>(line) else {
                return Value::from(line);
            };
            if let Some(record) = value.as_object_mut() {
                // Fields newer than the answers kept; `message_key`, also
                // null in the records an older pdndb stored.
                for field in [
                    "opening",
                    "opening_ply",
                    "ballot",
                    "result_check",
                    "first_side",
                    "message_key",
                    "no_board_message",
                ] {
                    record.shift_remove(field);
                }
                // `show --json`'s annotated moves, result as written, first
                // side and comments before the first move.
                if record.shift_remove("annotated").is_some() {
                    for field in ["result", "first_side", "comments"] {
                        record.shift_remove(field);
                    }
                }
                // A search hit's position and colours (pattern search).
                if record.shift_remove("reversed").is_some() {
                    record.shift_remove("fen");
                }
            }
            value
        })
        .collect()
}

/// The files of tests/data/step-10, imported into its `step-10.sqlite`.
const STEP_TEN_FILES: [&str; 4] = [
    "seed-dama.pdn",
    "messy-records.pdn",
    "quirks-windows-1252.pdn",
    "quirks-movetext.pdn",
];

/// A database of schema step 10 (tests/data/step-10: copies stored with
/// their tags as JSON and their move text deflated alone, the `game_white`
/// index, postings of 40-bit keys with their next moves), brought up to
/// date, answers as a fresh import of the same files.
#[test]
fn a_database_of_step_ten_migrated_shows_and_exports_its_games_as_before() {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(crate_path("tests/data/step-10")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let db = dir.path().join("now.sqlite");
    let out = pdndb(&db)
        .current_dir(dir.path())
        .args(["import", "--quiet"])
        .args(STEP_TEN_FILES)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let old = dir.path().join("step-10.sqlite");
    assert_eq!(count(&old, "PRAGMA user_version"), 10);
    assert_eq!(
        count(&old, "SELECT count(*) FROM provenance"),
        count(&db, "SELECT count(*) FROM provenance")
    );
    let games = count(&db, "SELECT count(*) FROM game");
    assert!(games >= 6, "{games}");
    let answers = |db: &Path| -> Vec<String> {
        let mut all = vec![run(db, &["export"]).0];
        for args in [
            &[
                "report",
                "--json",
                "--status",
                "ok,ambiguous,illegal,unreadable,unsupported",
            ][..],
            &["games", "--json", "--limit", "0"],
        ] {
            all.push(run(db, args).0);
        }
        for id in 1..=games {
            let id = id.to_string();
            all.push(run(db, &["show", &id, "--json"]).0);
            all.push(run(db, &["show", &id]).0);
        }
        all
    };
    let before = answers(&db);
    let after = answers(&old);
    // A migrated database names its games that are not ok once `recheck`
    // reads them again: their openings are left out of the comparison.
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(without_later_fields(a), without_later_fields(b));
    }
    assert_eq!(
        count(
            &old,
            "SELECT count(*) FROM sqlite_schema WHERE name = 'game_white'"
        ),
        0
    );
    let (out, err, code) = run(&old, &["stats", "--check", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn queries_started_together_on_a_database_of_the_previous_release_upgrade_it_once() {
    let dir = previous_release();
    let db = dir.path().join("previous-release.sqlite");
    let children: Vec<std::process::Child> = (0..4)
        .map(|_| {
            std::process::Command::new(env!("CARGO_BIN_EXE_pdndb"))
                .arg("--db")
                .arg(&db)
                .args(["stats", "--json"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<std::process::Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    for out in &outputs {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, outputs[0].stdout);
        assert_eq!(
            out.stderr, outputs[0].stderr,
            "no process tells of the upgrade"
        );
    }
    assert!(!outputs[0].stdout.is_empty());
    assert_eq!(
        count(&db, "PRAGMA user_version"),
        i64::from(pdndb::store::latest_step())
    );
    assert_eq!(integrity(&db), "ok");
    let (again, _, code) = run(&db, &["stats", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(again.as_bytes(), outputs[0].stdout);
    let (check, err, code) = run(&db, &["stats", "--check"]);
    assert_eq!(code, 0, "{check}{err}");
}

/// Records stored by an earlier pdndb have `message_key` null (docs/api.md
/// says so: the server does not make one up from the English message);
/// `recheck` checks their games again and stores it beside the message.
#[test]
fn recheck_gives_the_records_of_an_earlier_pdndb_their_message_keys() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.sqlite");
    std::fs::copy(crate_path("tests/data/step-11/step-11.sqlite"), &db).unwrap();
    let report = |db: &Path| {
        // Exit 1: problem games are listed.
        let (out, err, code) = run(db, &["report", "--json"]);
        assert_eq!(code, 1, "{err}");
        json_lines(&out)
    };
    let before = report(&db);
    assert!(!before.is_empty());
    assert!(
        before
            .iter()
            .all(|r| !r["message"].is_null() && r["message_key"].is_null()),
        "{before:?}"
    );
    let (_, err, code) = run(&db, &["recheck", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    let after = report(&db);
    let worded: Vec<&Value> = after.iter().filter(|r| !r["message"].is_null()).collect();
    assert!(!worded.is_empty(), "{after:?}");
    for r in worded {
        let key = &r["message_key"];
        assert!(key["code"].is_string(), "{r}");
    }
}
