//! `pdndb export` through the real binary: round trips in every notation,
//! the seed game's readings, tags, problem games and the filters.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pdndb::pdn::{Game, Reader};

use crate::{crate_path, pdndb, run};

fn import(db: &Path, path: &Path) {
    let out = pdndb(db).arg("import").arg(path).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Exports with `args`; returns the PDN written.
fn export(db: &Path, args: &[&str]) -> String {
    let (out, err, code) = run(db, &[&["export"], args].concat());
    assert_eq!(code, 0, "{err}");
    out
}

fn read_games(text: &str) -> Vec<Game> {
    Reader::new(text.as_bytes()).map(|g| g.unwrap()).collect()
}

/// Each stored game by id: status, variant, start FEN and first reading.
type Stored = BTreeMap<i64, (String, String, Option<String>, Option<Vec<u8>>)>;

fn stored(db: &Path) -> Stored {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT id, status, variant, start_fen, moves FROM game ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| {
        Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// Imports `source`, exports it in each notation and imports the export
/// into a fresh database: every `ok` game comes back `ok` with the same
/// variant, start and moves (in the Dama notation, whose numbers name two
/// squares each, it may come back `ambiguous`, never worse); and, with
/// `twice`, in numeric, Vismin and Luzon notation a second export is the
/// same text.
fn round_trip(source: &Path, notations: &[&str], twice: bool) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.sqlite");
    import(&db, source);
    let before = stored(&db);
    assert!(before.values().any(|g| g.0 == "ok"));
    for notation in notations {
        let file = dir.path().join(format!("{notation}.pdn"));
        let file_arg = file.to_str().unwrap();
        let (out, err, code) = run(&db, &["export", "--notation", notation, "-o", file_arg]);
        assert_eq!((code, out.as_str()), (0, ""), "{err}");
        let again = dir.path().join(format!("{notation}.sqlite"));
        import(&again, &file);
        let after = stored(&again);
        // Export order is id order and no game is merged: ids match.
        assert_eq!(after.len(), before.len(), "{notation}");
        for (id, game) in &before {
            let back = &after[id];
            if game.0 != "ok" {
                let dama_doubt = *notation == "dama" && back.0 == "ambiguous";
                assert!(
                    ["ok", "unreadable", "unsupported"].contains(&back.0.as_str()) || dama_doubt,
                    "{notation}: game {id} {game:?} came back {back:?}"
                );
                continue;
            }
            if *notation == "dama" && back.0 == "ambiguous" {
                assert_eq!((&back.1, &back.2), (&game.1, &game.2), "game {id}");
                continue;
            }
            assert_eq!(back, game, "{notation}: game {id}");
        }
        if twice && *notation != "dama" {
            let first = std::fs::read_to_string(&file).unwrap();
            let second = export(&again, &["--notation", notation]);
            assert!(first == second, "{notation}: a second export differs");
        }
    }
}

#[test]
fn sample_round_trips_in_every_notation() {
    round_trip(
        &crate_path("sample-pdn"),
        &["numeric", "vismin", "luzon", "dama"],
        true,
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "corpus runs in release builds (cargo test --release)"
)]
fn oca_archive_round_trips() {
    let oca: PathBuf = crate_path("../shared/corpus/english/OCA_2.0.pdn");
    if !oca.exists() {
        eprintln!("skipped: {} is not present", oca.display());
        return;
    }
    round_trip(&oca, &["numeric", "vismin", "luzon", "dama"], false);
}

#[test]
fn the_seed_game_from_its_dama_copy() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("seed.sqlite");
    import(&db, &crate_path("sample-pdn/seed-dama.pdn"));
    let text = export(&db, &["--notation", "numeric"]);
    let games = read_games(&text);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.tag("GameType"), Some("26,W,8,8,N2,0"));
    assert_eq!(game.tag("Variant"), Some("Filipino Dama"));
    assert_eq!(game.tag("Notation"), None);
    assert_eq!(game.tag("Result"), Some("1/2-1/2"));

    let numeric = std::fs::read_to_string(crate_path("sample-pdn/seed-numeric.pdn")).unwrap();
    let numeric = &read_games(&numeric)[0];
    let tokens = |g: &Game| -> Vec<String> {
        g.plies()
            .iter()
            .map(|p| p.move_token().unwrap().to_string())
            .collect()
    };
    let (exported, original) = (tokens(game), tokens(numeric));
    assert_eq!(exported.len(), 80);
    // Move for move up to the ply where the readings part.
    assert_eq!(exported[..69], original[..69]);
    // There the other move is a variation, and the copy took one of the two.
    let at_70 = &game.plies()[69];
    let mut moves: Vec<String> = at_70
        .variations
        .iter()
        .map(|v| v.plies[0].move_token().unwrap().to_string())
        .collect();
    moves.push(exported[69].clone());
    moves.sort();
    assert_eq!(moves, ["18-25", "18-8"]);
    assert!(moves.contains(&original[69]), "{}", original[69]);
    assert!(game.plies()[..69].iter().all(|p| p.variations.is_empty()));
    // 16 readings: the main line and 15 variations, said in a comment.
    assert!(
        game.line.comments[0].text.contains("read 16 ways"),
        "{:?}",
        game.line.comments
    );
    fn count(line: &pdndb::pdn::Line) -> usize {
        line.plies
            .iter()
            .flat_map(|p| &p.variations)
            .map(|v| 1 + count(v))
            .sum()
    }
    assert_eq!(count(&game.line), 15);

    // Read back: the main line is one complete reading, every variation
    // replays.
    let file = dir.path().join("seed.pdn");
    std::fs::write(&file, &text).unwrap();
    let out = pdndb(&db)
        .args(["check", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["status"], "ok");
    assert_eq!(record["plies"], 80);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("variation"), "{err}");
}

const MESSY: &str = "\
[Black \"  Cruz,  B. \"]\n[Event \"Club\"]\n[Opening \"Cross\"]\n[White \"Reyes\"]\n\
[Date \"3 May 2019\"]\n[Result \"2-0\"]\n[Round \"\"]\n\
1. 22-18 11-15 2. 18x11 8x15 2-0\n\n\
[Date \"2019-5\"]\n[Result \"0-2\"]\n1. 22-18 11-15 0-2\n\n\
[Date \"?\"]\n[Result \"½-½\"]\n1. 22-18 11-15 ½-½\n\n\
[Date \"1999\"]\n1. 22-18 11-15 1-1\n\n\
[GameType \"21\"]\n[Result \"2-0\"]\n1. 11-15 23-19 2-0\n\n\
[FEN \"W:W18,K30:B11,15\"]\n1. 18x11 0-0\n\n\
1. 22-18 11-15 *\n";

fn messy_db(dir: &Path) -> PathBuf {
    let file = dir.join("messy.pdn");
    std::fs::write(&file, MESSY).unwrap();
    let db = dir.join("messy.sqlite");
    import(&db, &file);
    db
}

#[test]
fn tags_dates_and_results_are_normalised() {
    let dir = tempfile::tempdir().unwrap();
    let db = messy_db(dir.path());
    let games = read_games(&export(&db, &[]));
    assert_eq!(games.len(), 7);
    let names: Vec<&str> = games[0].tags.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "Variant",
            "Opening"
        ]
    );
    let first = &games[0];
    assert_eq!(first.tag("Black"), Some("Cruz, B."));
    assert_eq!(first.tag("Round"), Some("?"));
    assert_eq!(first.tag("Site"), Some("?"));
    let column = |name: &str| -> Vec<&str> {
        games
            .iter()
            .map(|g| g.tag(name).unwrap_or_default())
            .collect()
    };
    assert_eq!(
        column("Date"),
        [
            "2019.05.03",
            "2019.05.??",
            "????.??.??",
            "1999.??.??",
            "????.??.??",
            "????.??.??",
            "????.??.??"
        ]
    );
    // Each keeps its variant's meaning: in English checkers 1-0 is Black's win.
    assert_eq!(
        column("Result"),
        ["1-0", "0-1", "1/2-1/2", "1/2-1/2", "1-0", "0-0", "*"]
    );
    let ends: Vec<&str> = games
        .iter()
        .map(|g| g.result.as_ref().unwrap().text.as_str())
        .collect();
    assert_eq!(ends, column("Result"));
    assert_eq!(games[4].tag("GameType"), Some("21,B,8,8,N1,0"));
    assert_eq!(games[4].tag("Variant"), None);
    // A set-up: SetUp and the canonical FEN.
    assert_eq!(games[5].tag("SetUp"), Some("1"));
    assert_eq!(games[5].tag("FEN"), Some("W:W18,K30:B11,15"));
    assert_eq!(games[0].tag("FEN"), None);
}

#[test]
fn game_type_per_notation() {
    let dir = tempfile::tempdir().unwrap();
    let db = messy_db(dir.path());
    for (notation, filipino, english, first_move) in [
        ("numeric", "26,W,8,8,N2,0", "21,B,8,8,N1,0", "22-18"),
        ("vismin", "26,W,8,8,A0,0", "21,B,8,8,A0,0", "c3-d4"),
        ("luzon", "26,W,8,8,A0,1", "21,B,8,8,A0,1", "f3-e4"),
        ("dama", "26,W,8,8,N2,0", "21,B,8,8,N1,0", "1-15"),
    ] {
        let games = read_games(&export(&db, &["--notation", notation]));
        assert_eq!(games[0].tag("GameType"), Some(filipino), "{notation}");
        assert_eq!(games[4].tag("GameType"), Some(english), "{notation}");
        let dama = (notation == "dama").then_some("Dama");
        assert_eq!(games[0].tag("Notation"), dama);
        assert_eq!(games[4].tag("Notation"), dama);
        assert_eq!(games[0].plies()[0].text, first_move, "{notation}");
    }
    // Without --notation each game keeps its own: the Dama copy stays Dama.
    let seed = dir.path().join("seed.sqlite");
    import(&seed, &crate_path("sample-pdn/seed-dama.pdn"));
    let games = read_games(&export(&seed, &[]));
    assert_eq!(games[0].tag("Notation"), Some("Dama"));
    assert_eq!(games[0].tag("GameType"), Some("26,W,8,8,N2,0"));
    assert_eq!(games[0].plies()[0].text, "2-15");
}

#[test]
fn problem_games_are_exported_honestly_or_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sample.sqlite");
    import(&db, &crate_path("sample-pdn/messy-records.pdn"));
    import(&db, &crate_path("sample-pdn/quirks-notations.pdn"));
    let text = export(&db, &[]);
    let games = read_games(&text);
    assert_eq!(games.len(), 6);
    // The illegal game: the moves up to the fault, then the rest as written.
    let illegal = &games[1];
    assert_eq!(illegal.plies().len(), 5);
    let last = illegal.plies()[4].comments[0].text.replace('\n', " ");
    assert_eq!(
        last,
        "ply 6 (3. …) - - is an unknown move. The record goes on as written: - - 4. 21-17"
    );
    // The International game: replayed, written afresh for the 10×10 board.
    let international = games
        .iter()
        .find(|g| g.tag("Event") == Some("International 10x10"))
        .unwrap();
    assert_eq!(international.tag("GameType"), Some("20,W,10,10,N2,0"));
    assert_eq!(international.plies().len(), 6);
    assert_eq!(international.plies()[4].text, "43-38");

    let (out, err, code) = run(&db, &["export", "--skip-broken"]);
    assert_eq!(code, 0);
    let kept = read_games(&out);
    assert_eq!(kept.len(), 3, "{out}");
    assert!(
        err.contains("3 games exported (3 broken games left out)"),
        "{err}"
    );
    // What is left reads ok.
    let file = dir.path().join("kept.pdn");
    std::fs::write(&file, &out).unwrap();
    let check = pdndb(&db).arg("check").arg(&file).output().unwrap();
    assert_eq!(check.status.code(), Some(0));
}

#[test]
fn filters_limit_and_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("many.sqlite");
    let generated = dir.path().join("generated.pdn");
    let out = pdndb(&db)
        .args(["generate", "--games", "60", "--seed", "7"])
        .output()
        .unwrap();
    std::fs::write(&generated, &out.stdout).unwrap();
    import(&db, &generated);
    import(&db, &crate_path("sample-pdn/messy-records.pdn"));
    // No --limit: every game, not 50.
    assert_eq!(read_games(&export(&db, &[])).len(), 62);
    assert_eq!(read_games(&export(&db, &["--limit", "0"])).len(), 62);
    assert_eq!(read_games(&export(&db, &["--limit", "5"])).len(), 5);
    // --game and --status.
    let one = read_games(&export(&db, &["--game", "61"]));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].tag("White"), Some("Reyes, A."));
    let illegal = read_games(&export(&db, &["--status", "illegal"]));
    assert_eq!(illegal.len(), 1);
    assert_eq!(illegal[0].tag("White"), Some("Cruz, B."));
    assert_eq!(read_games(&export(&db, &["--status", "ok"])).len(), 61);
    // Filters of search: a position, a variant.
    let at = read_games(&export(
        &db,
        &[
            "--moves",
            "1. 22-18 11-15 2. 18x11",
            "--variant",
            "filipino",
        ],
    ));
    let players: Vec<&str> = at.iter().filter_map(|g| g.tag("White")).collect();
    assert!(players.contains(&"Reyes, A."), "{players:?}");
    assert!(players.contains(&"Cruz, B."), "{players:?}");
    assert!(at.len() < 62);
    let (out, err, code) = run(&db, &["export", "--variant", "english"]);
    assert_eq!((out.as_str(), code), ("", 0), "{err}");
    // Nothing matches: success.
    let (out, _, code) = run(&db, &["export", "--status", "unreadable"]);
    assert_eq!((out.as_str(), code), ("", 0));
    // -o FILE.
    let file = dir.path().join("out.pdn");
    let (out, _, code) = run(
        &db,
        &["export", "--game", "62", "-o", file.to_str().unwrap()],
    );
    assert_eq!((out.as_str(), code), ("", 0));
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(read_games(&written).len(), 1);
    assert!(written.lines().all(|l| l.chars().count() < 80));
    // Errors: exit 2.
    for args in [
        &["export", "--status", "fine"][..],
        &["export", "--notation", "chess"],
        &["export", "--variant", "checkers"],
        &["export", "-o", dir.path().to_str().unwrap()],
    ] {
        let (_, err, code) = run(&db, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("pdndb: "), "{err}");
    }
    let (_, _, code) = run(&dir.path().join("missing.sqlite"), &["export"]);
    assert_eq!(code, 2);
}
