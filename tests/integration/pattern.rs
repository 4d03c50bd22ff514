//! `search --pattern`, `--material`, `--colours` and `--all-plies`, and
//! the same through `/api/search`.

use std::path::{Path, PathBuf};

use crate::serve::Server;
use crate::{generate, json_lines, run};

/// Two English games: one reaching `W:W21-32:B1-10,12,15` at ply 1, one
/// starting from that position with colours reversed.
const TWO_GAMES: &str = "[Event \"as given\"]\n[GameType \"21\"]\n[Result \"*\"]\n\n1. 11-15 23-19 *\n\n\
[Event \"reversed\"]\n[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"B:W18,21,23-32:B1-12\"]\n[Result \"*\"]\n\n1. 9-14 *\n";

/// The position the first game reaches at ply 1.
const AFTER_11_15: &str = "W:W21-32:B1-10,12,15";

fn two_games(dir: &Path) -> PathBuf {
    let pdn = dir.join("two.pdn");
    std::fs::write(&pdn, TWO_GAMES).unwrap();
    let db = dir.join("two.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    db
}

/// `(event, ply, reversed)` of each game a search finds.
fn found(db: &Path, args: &[&str]) -> Vec<(String, i64, bool)> {
    let mut all = vec!["search", "--json", "--variant", "english"];
    all.extend_from_slice(args);
    let (out, err, code) = run(db, &all);
    assert_eq!(code, 0, "{args:?}: {err}");
    json_lines(&out)
        .iter()
        .map(|hit| {
            (
                hit["tags"]["Event"].as_str().unwrap().to_string(),
                hit["ply"].as_i64().unwrap(),
                hit["reversed"].as_bool().unwrap(),
            )
        })
        .collect()
}

fn hit(event: &str, ply: i64, reversed: bool) -> (String, i64, bool) {
    (event.to_string(), ply, reversed)
}

#[test]
fn exact_positions_and_patterns_are_found_with_colours_reversed() {
    let dir = tempfile::tempdir().unwrap();
    let db = two_games(dir.path());
    for args in [
        vec!["--fen", AFTER_11_15],
        vec!["--moves", "11-15"],
        vec!["--pattern", "W:B15:E11"],
        vec![
            "--pattern-json",
            r#"{"side":"white","must":[{"square":15,"piece":"black_man"},{"square":11,"piece":"empty"}]}"#,
        ],
    ] {
        let with = |colours: &str| {
            let mut a = args.clone();
            a.extend(["--colours", colours]);
            found(&db, &a)
        };
        assert_eq!(with("as-given"), [hit("as given", 1, false)], "{args:?}");
        assert_eq!(with("reversed"), [hit("reversed", 0, true)], "{args:?}");
        assert_eq!(
            with("both"),
            [hit("as given", 1, false), hit("reversed", 0, true)],
            "{args:?}"
        );
    }
    // The FEN of a hit is the game's own position there.
    let (out, _, _) = run(
        &db,
        &[
            "search",
            "--json",
            "--variant",
            "english",
            "--fen",
            AFTER_11_15,
            "--colours",
            "reversed",
        ],
    );
    assert_eq!(
        json_lines(&out)[0]["fen"],
        "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let (out, err, code) = run(
        &db,
        &[
            "search",
            "--variant",
            "english",
            "--pattern",
            "X15",
            "--colours",
            "both",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("at ply 1, ") && out.contains("at ply 0 (colours reversed)"),
        "{out}"
    );
    assert!(err.contains("2 of 2 games"), "{err}");
}

#[test]
fn every_hit_fits_and_opens_at_its_ply() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    generate(&pdn, "english", 150, 11);
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (out, err, code) = run(
        &db,
        &[
            "search",
            "--json",
            "--limit",
            "0",
            "--pattern",
            "W:E14",
            "--material",
            "w=1-6",
            "--all-plies",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let hits = json_lines(&out);
    assert!(!hits.is_empty());
    for hit in hits.iter().take(20) {
        let plies = hit["matching_plies"].as_array().unwrap();
        assert_eq!(plies[0], hit["ply"]);
        let game = hit["game"].to_string();
        for ply in plies.iter().take(3) {
            let (show, err, code) = run(&db, &["show", &game, "--ply", &ply.to_string(), "--json"]);
            assert_eq!(code, 0, "{err}");
            let fen = json_lines(&show)[0]["fen"].as_str().unwrap().to_string();
            // White to move, at most 6 white pieces, 14 empty.
            assert!(fen.starts_with("W:W"), "{fen}");
            let white = fen.split(':').nth(1).unwrap();
            assert!(white.split(',').count() <= 6, "{fen}");
            assert!(
                !fen.split([':', ','])
                    .any(|p| p.trim_start_matches(['W', 'B', 'K']) == "14")
            );
            if ply == &hit["ply"] {
                assert_eq!(hit["fen"], fen.as_str());
            }
        }
    }
}

#[test]
fn bad_patterns_and_materials_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = two_games(dir.path());
    for (args, message) in [
        (
            vec!["--pattern", "W33"],
            "--pattern: square 33 is not on the english board (1–32), in \"W33\"",
        ),
        (
            vec!["--pattern", "WQ5"],
            "--pattern: \"Q5\" is not a square of the english board, in \"WQ5\"",
        ),
        (
            vec!["--pattern", "W9-4"],
            "--pattern: the range 9-4 is upside down, in \"W9-4\"",
        ),
        (
            vec!["--pattern", ""],
            "--pattern: the pattern has no condition",
        ),
        (
            vec!["--material", "wk=3-1"],
            "--material: the range 3-1 is upside down, in \"wk=3-1\"",
        ),
        (
            vec![
                "--pattern-json",
                r#"{"must":[{"square":5,"piece":"queen"}]}"#,
            ],
            "--pattern-json: \"queen\" is not a piece",
        ),
        (
            vec!["--fen", AFTER_11_15, "--all-plies"],
            "--all-plies: only with --pattern or --material",
        ),
    ] {
        let mut all = vec!["search", "--variant", "english"];
        all.extend_from_slice(&args);
        let (_, err, code) = run(&db, &all);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let server = Server::start(&db, &[]);
    for (query, message) in [
        (
            "pattern=W33",
            "pattern: square 33 is not on the english board (1–32), in \\\"W33\\\"",
        ),
        ("material=wq%3D1", "material: unknown key wq"),
        (
            "pattern=W5&colours=sideways",
            "colours: \\\"sideways\\\" is not a colours value",
        ),
        ("pattern=W5&fen=W:W5:B1", "not both"),
    ] {
        let r = server.get(&format!("/api/search?variant=english&{query}"));
        assert_eq!(r.status, 400, "{query}");
        assert!(r.body.contains(message), "{query}: {}", r.body);
    }
}

#[test]
fn the_api_searches_patterns_as_the_command_does() {
    let dir = tempfile::tempdir().unwrap();
    let db = two_games(dir.path());
    let server = Server::start(&db, &[]);
    let api = server.json("/api/search?variant=english&pattern=X15&colours=both&all_plies=1");
    let (out, _, _) = run(
        &db,
        &[
            "search",
            "--json",
            "--variant",
            "english",
            "--pattern",
            "X15",
            "--colours",
            "both",
            "--all-plies",
        ],
    );
    let cli = json_lines(&out);
    let api = api.as_array().unwrap();
    assert_eq!(api.len(), 2);
    assert_eq!(api.len(), cli.len());
    for (a, c) in api.iter().zip(&cli) {
        for (field, value) in c.as_object().unwrap() {
            assert_eq!(&a[field], value, "{field}");
        }
    }
    assert_eq!(api[1]["reversed"], true);
    let json = server.json(
        "/api/search?variant=english&pattern_json=%7B%22must%22%3A%5B%7B%22square%22%3A15%2C%22piece%22%3A%22black_man%22%7D%5D%7D",
    );
    assert_eq!(json.as_array().unwrap().len(), 1);
}

#[test]
fn a_database_of_the_previous_release_is_searched_before_and_after_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let from = crate::crate_path("tests/data/previous-release");
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let db = dir.path().join("previous-release.sqlite");
    let search = |db: &Path| {
        let (out, err, code) = run(
            db,
            &[
                "search",
                "--json",
                "--limit",
                "0",
                "--variant",
                "pool",
                "--material",
                "b=1-11",
                "--colours",
                "both",
                "--all-plies",
            ],
        );
        assert_eq!(code, 0, "{err}");
        out
    };
    // Games stored without summaries are replayed.
    let before = search(&db);
    assert!(!json_lines(&before).is_empty());
    let summaries = |db: &Path| -> i64 {
        rusqlite::Connection::open(db)
            .unwrap()
            .query_row("SELECT count(summary) FROM game", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(summaries(&db), 0);
    let (_, err, code) = run(&db, &["recheck"]);
    assert_eq!(code, 0, "{err}");
    assert!(summaries(&db) > 0);
    assert_eq!(search(&db), before);
}

#[test]
fn manoeuvres_are_found_in_order_from_the_command_and_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let db = two_games(dir.path());
    let m = |list: &[&str], colours: &str| {
        let mut args = vec!["--colours", colours];
        for one in list {
            args.extend(["--manoeuvre", one]);
        }
        found(&db, &args)
    };
    assert_eq!(
        m(&["B 11-15", "W 23-19"], "as-given"),
        [hit("as given", 2, false)]
    );
    assert!(m(&["W 23-19", "B 11-15"], "as-given").is_empty());
    assert_eq!(
        m(&["B M 9-14 promotes=no"], "as-given"),
        [hit("reversed", 1, false)]
    );
    // 9-14 by Black reversed is 24-19 by White: neither game plays it.
    assert!(m(&["B M 9-14"], "reversed").is_empty());
    assert_eq!(m(&["W M 24-19"], "reversed"), [hit("reversed", 1, true)]);
    let (_, err, code) = run(
        &db,
        &[
            "search",
            "--variant",
            "english",
            "--manoeuvre",
            "B 9-14 taken=1",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--manoeuvre: a plain move captures nothing, in \"B 9-14 taken=1\""),
        "{err}"
    );
    let server = Server::start(&db, &[]);
    let api = server.json("/api/search?variant=english&manoeuvre=B+11-15&manoeuvre=W+23-19");
    assert_eq!(api.as_array().unwrap().len(), 1);
    assert_eq!(api[0]["ply"], 2);
    let r = server.get("/api/search?variant=english&manoeuvre=B+46x2");
    assert_eq!(r.status, 400);
    assert!(
        r.body
            .contains("manoeuvre: square 46 is not on the english board"),
        "{}",
        r.body
    );
}

#[test]
fn manoeuvres_with_a_pattern_or_material_are_found_at_the_first_fit_from_the_last_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = two_games(dir.path());
    let m = |manoeuvre: &str, more: &[&str], colours: &str| {
        let mut args = vec!["--colours", colours, "--manoeuvre", manoeuvre];
        args.extend_from_slice(more);
        found(&db, &args)
    };
    // 11 is empty at once after 11-15; a white man stands on 19 a ply later.
    assert_eq!(
        m("B 11-15", &["--pattern", "E11"], "as-given"),
        [hit("as given", 1, false)]
    );
    assert_eq!(
        m("B 11-15", &["--pattern", "W19"], "as-given"),
        [hit("as given", 2, false)]
    );
    assert_eq!(
        m("B 11-15", &["--material", "w=12,b=12"], "both"),
        [hit("as given", 1, false)]
    );
    // A pattern fitting only before the manoeuvre is played does not count.
    assert!(m("W 23-19", &["--pattern", "W23"], "as-given").is_empty());
    assert!(m("B 11-15", &["--material", "b=11"], "as-given").is_empty());
    // Reversed, 24-19 by White is 9-14 by Black and E24 is E9.
    assert_eq!(
        m("W M 24-19", &["--pattern", "E24"], "reversed"),
        [hit("reversed", 1, true)]
    );
    assert!(m("W M 24-19", &["--pattern", "W24"], "reversed").is_empty());
    let args = ["--manoeuvre", "B 11-15", "--pattern", "E11", "--all-plies"];
    let mut all = vec!["search", "--json", "--variant", "english"];
    all.extend_from_slice(&args);
    let (out, err, code) = run(&db, &all);
    assert_eq!(code, 0, "{err}");
    let hits = json_lines(&out);
    assert_eq!(hits.len(), 1, "{out}");
    let plies: Vec<i64> = hits[0]["matching_plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert_eq!(plies, [1, 2]);
    let server = Server::start(&db, &[]);
    let api = server.json("/api/search?variant=english&manoeuvre=B+11-15&pattern=W19");
    assert_eq!(api.as_array().unwrap().len(), 1);
    assert_eq!(api[0]["ply"], 2);
}

/// Whether every game of `db` has a summary of the compact shape on 8×8
/// (its last byte `0xC0 | 4`).
fn compact(db: &Path) -> bool {
    let conn = rusqlite::Connection::open(db).unwrap();
    let other: i64 = conn
        .query_row(
            "SELECT count(*) FROM game WHERE summary IS NULL OR substr(hex(summary), -2) <> 'C4'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    other == 0
}

/// `db` without summaries, as games stored before pdndb kept them (the
/// older shapes are read as the scan's unit tests show).
fn clear_summaries(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let cleared = conn.execute("UPDATE game SET summary = NULL", []).unwrap();
    assert!(cleared > 0);
}

#[test]
fn manoeuvres_are_found_alike_with_summaries_of_moves_older_ones_and_after_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    generate(&pdn, "filipino", 300, 12);
    let db = dir.path().join("games.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let manoeuvres = [
        "B K *x* taken=2+",
        "W M *x* promotes=yes",
        "K 1/*",
        "W M 22-18",
    ];
    let search = || {
        manoeuvres
            .iter()
            .map(|m| {
                let args = ["search", "--json", "--limit", "0", "--manoeuvre", m];
                let (out, err, code) = run(&db, &args);
                assert_eq!(code, 0, "{m}: {err}");
                json_lines(&out).len()
            })
            .collect::<Vec<_>>()
    };
    assert!(compact(&db));
    let found = search();
    assert!(found.iter().all(|&n| n > 0 && n < 300), "{found:?}");
    // Without summaries: every game is replayed.
    clear_summaries(&db);
    assert_eq!(search(), found);
    let (_, err, code) = run(&db, &["recheck"]);
    assert_eq!(code, 0, "{err}");
    assert!(compact(&db));
    assert_eq!(search(), found);
}

#[test]
fn patterns_are_found_alike_with_summaries_of_phases_older_ones_and_after_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    generate(&pdn, "filipino", 300, 13);
    let db = dir.path().join("games.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let searches: [&[&str]; 4] = [
        &["--pattern", "W:W27,28:B19"],
        &[
            "--pattern",
            "W27,28:B19",
            "--all-plies",
            "--colours",
            "both",
        ],
        &["--pattern", "B:W*17:B*11:(W22|E15)"],
        &["--material", "wm=8,bm=9", "--all-plies"],
    ];
    let search = || {
        searches
            .iter()
            .map(|args| {
                let mut all = vec!["search", "--json", "--limit", "0"];
                all.extend_from_slice(args);
                let (out, err, code) = run(&db, &all);
                assert_eq!(code, 0, "{args:?}: {err}");
                out
            })
            .collect::<Vec<_>>()
    };
    assert!(compact(&db));
    let found = search();
    for (args, out) in searches.iter().zip(&found) {
        let hits = json_lines(out).len();
        assert!(hits > 0 && hits < 300, "{args:?}: {hits}");
    }
    // Without summaries: every game is replayed to the end, with the
    // same answers.
    clear_summaries(&db);
    assert_eq!(search(), found);
    let (_, err, code) = run(&db, &["recheck"]);
    assert_eq!(code, 0, "{err}");
    assert!(compact(&db));
    assert_eq!(search(), found);
}
