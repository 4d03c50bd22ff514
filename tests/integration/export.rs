//! `pdndb export` through the real binary: round trips in every notation,
//! the seed game's readings, tags, problem games and the filters.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pdndb::pdn::{Game, Reader};

use serde_json::Value;

use crate::skip::corpus;
use crate::{crate_path, json_lines, pdndb, run};

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

/// Every game's record in the database, in id order.
fn records(db: &Path) -> Vec<Value> {
    let statuses = "ok,ambiguous,illegal,unreadable,unsupported";
    let (out, err, _) = run(db, &["report", "--json", "--status", statuses]);
    assert!(!out.is_empty(), "{err}");
    json_lines(&out)
}

/// What a game reads as: status, variant, plies, and where the reading
/// stops or parts (ply L, the ply of the fault or of the parting, its token).
fn reading(record: &Value) -> [&Value; 6] {
    ["status", "variant", "plies", "reached", "ply", "token"].map(|k| &record[k])
}

/// Imports `source`, exports it in each notation and imports the export
/// into a fresh database: every game comes back with the same reading
/// (status, variant, plies, fault), game by game in order, and every `ok`
/// game with the same start and moves — except, in the Dama notation
/// (whose numbers name two squares each), games that come back ambiguous,
/// which the export counts on stderr. In the other notations a second
/// export is the same text.
fn round_trip(source: &Path, notations: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.sqlite");
    import(&db, source);
    let before = records(&db);
    let stored_before = stored(&db);
    assert!(before.iter().any(|r| r["status"] == "ok"));
    for notation in notations {
        let file = dir.path().join(format!("{notation}.pdn"));
        let file_arg = file.to_str().unwrap();
        let (out, err, code) = run(&db, &["export", "--notation", notation, "-o", file_arg]);
        assert_eq!((code, out.as_str()), (0, ""), "{err}");
        assert!(!err.contains("will not read back"), "{notation}: {err}");
        let again = dir.path().join(format!("{notation}.sqlite"));
        import(&again, &file);
        let after = records(&again);
        let stored_after = stored(&again);
        assert_eq!(after.len(), before.len(), "{notation}");
        let mut doubtful = 0;
        for ((b, a), (id, game)) in before.iter().zip(&after).zip(&stored_before) {
            let place = format!("{notation}: game {} of {}", b["index"], b["file"]);
            if *notation == "dama" && a["status"] == "ambiguous" && b["status"] != "ambiguous" {
                doubtful += 1;
                assert_eq!(reading(a)[1..3], reading(b)[1..3], "{place}");
                continue;
            }
            assert_eq!(reading(a), reading(b), "{place}");
            if b["status"] == "ok" {
                // Export order is id order and no game is merged: ids match.
                assert_eq!(&stored_after[id], game, "{place}");
            }
        }
        if *notation == "dama" {
            let ambiguous = after.iter().filter(|r| r["status"] == "ambiguous").count();
            let said = format!(
                "{ambiguous} of them will read back more than one way, since a Dama number \
                 names two squares ({doubtful} of these read one way before)"
            );
            assert!(err.contains(&said), "{err}\nnot: {said}");
        } else {
            assert!(!err.contains("more than one way"), "{err}");
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
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "corpus runs in release builds (cargo test --release)"
)]
fn oca_archive_round_trips() {
    let Some(oca) = corpus("oca_archive_round_trips", "english/OCA_2.0.pdn") else {
        return;
    };
    round_trip(&oca, &["numeric", "dama"]);
}

/// One game of each status, and tags holding a terminal escape sequence.
const EACH_STATUS: &str = "\
[Event \"Illegal\"]\n1. 23-18 10-15 2. 18-13 {bad} 7-10 3. 22-17 *\n\n\
[Event \"Ambiguous\"]\n[FEN \"W:WK29:B1\"]\n[Notation \"Dama\"]\n1. 9-15 12-7 *\n\n\
[Event \"Unsupported\"]\n[GameType \"30\"]\n1. 32-28 {as  written} 19-23 2-0\n\n\
[Event \"Unreadable\"]\n[FEN \"W:W5:B5\"]\n1. 1-5 *\n\n\
[Event \"Red\u{1b}[31m Alert\"]\n[White \"Ann\u{1b}[0m\"]\n1. 22-18 11-15 *\n";

#[test]
fn each_status_survives_export_and_import() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("each.pdn");
    std::fs::write(&file, EACH_STATUS).unwrap();
    let db = dir.path().join("each.sqlite");
    import(&db, &file);
    let before = records(&db);
    let statuses: Vec<&str> = before
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["illegal", "ambiguous", "unsupported", "unreadable", "ok"]
    );
    for notation in [None, Some("numeric"), Some("vismin"), Some("dama")] {
        let args: Vec<&str> = notation.map_or(vec![], |n| vec!["--notation", n]);
        let text = export(&db, &args);
        let games = read_games(&text);
        assert_eq!(games.len(), 5, "{text}");
        // The illegal game: its moves afresh up to the fault, then as
        // written, as moves.
        let illegal = games[0].plies();
        assert_eq!(illegal.len(), 5, "{text}");
        assert_eq!(games[0].ply_text(&illegal[2]), "18-13");
        assert_eq!(illegal[2].comments()[0].text, "bad");
        assert_eq!(games[0].ply_text(&illegal[4]), "22-17");
        // The unsupported game as written.
        assert!(
            text.contains("[GameType \"30\"]\n\n1. 32-28 {as  written} 19-23 2-0\n"),
            "{text}"
        );
        assert!(text.contains("[FEN \"W:W5:B5\"]\n\n1. 1-5 *\n"), "{text}");
        // No control character in any tag.
        assert!(!text.contains('\u{1b}'), "{text}");
        assert_eq!(games[4].tag("Event"), Some("Red Alert"));
        assert_eq!(games[4].tag("White"), Some("Ann"));

        let out = dir.path().join("out.pdn");
        std::fs::write(&out, &text).unwrap();
        let again = dir
            .path()
            .join(format!("{}.sqlite", notation.unwrap_or("own")));
        import(&again, &out);
        let after = records(&again);
        assert_eq!(after.len(), 5);
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(reading(a), reading(b), "{notation:?}\n{text}");
        }
        assert_eq!(after[0]["ply"], 3);
        assert_eq!(after[0]["token"], "18-13");
        assert_eq!(after[1]["ply"], 1);
    }
    // The stored originals keep the escape sequences.
    let last = &records(&db)[4];
    assert_eq!(last["tags"]["Event"], "Red\u{1b}[31m Alert");
}

/// Games whose rules were inferred from their moves (no GameType) read back
/// under the same variant: the export names it in `GameType`.
#[test]
fn inferred_variants_survive_export() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.sqlite");
    for (variant, games, seed) in [
        ("russian", "12", "5"),
        ("italian", "4", "3"),
        ("czech", "4", "3"),
    ] {
        let out = pdndb(&db)
            .args([
                "generate",
                "--games",
                games,
                "--seed",
                seed,
                "--variant",
                variant,
            ])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let untyped: String = text
            .lines()
            .filter(|l| !l.starts_with("[GameType"))
            .map(|l| format!("{l}\n"))
            .collect();
        let file = dir.path().join(format!("{variant}.pdn"));
        std::fs::write(&file, untyped).unwrap();
        import(&db, &file);
    }
    let before = records(&db);
    let variants: Vec<&str> = before
        .iter()
        .map(|r| r["variant"].as_str().unwrap())
        .collect();
    for variant in ["russian", "italian", "czech"] {
        assert!(variants.contains(&variant), "{variants:?}");
    }
    assert!(before.iter().all(|r| r["variant_from"] == "inferred"));
    let text = export(&db, &[]);
    let types: Vec<String> = read_games(&text)
        .iter()
        .map(|g| g.tag("GameType").unwrap_or_default().to_string())
        .collect();
    assert!(types.iter().any(|t| t.starts_with("25,")), "{types:?}");
    assert!(types.iter().any(|t| t.starts_with("22,")), "{types:?}");
    let file = dir.path().join("out.pdn");
    std::fs::write(&file, &text).unwrap();
    let again = dir.path().join("again.sqlite");
    import(&again, &file);
    let after = records(&again);
    assert_eq!(after.len(), before.len());
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(reading(a), reading(b));
        assert_eq!(a["variant_from"], "tag");
    }
}

/// The Dama copy of the seed game reads 16 ways. Asked for in numbers, its
/// first reading would read one way: it is written in its own notation,
/// with its other readings as variations, and reads back as ambiguous.
#[test]
fn the_seed_game_from_its_dama_copy() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("seed.sqlite");
    import(&db, &crate_path("sample-pdn/seed-dama.pdn"));
    let (text, err, code) = run(&db, &["export", "--notation", "numeric"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("1 of them are written in their own notation"),
        "{err}"
    );
    let games = read_games(&text);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.tag("GameType"), Some("26,W,8,8,N2,0"));
    assert_eq!(game.tag("Variant"), Some("Filipino Dama"));
    assert_eq!(game.tag("Notation"), Some("Dama"));
    assert_eq!(game.tag("Result"), Some("1/2-1/2"));

    let dama = std::fs::read_to_string(crate_path("sample-pdn/seed-dama.pdn")).unwrap();
    let dama = &read_games(&dama)[0];
    let tokens = |g: &Game| -> Vec<String> {
        g.plies()
            .iter()
            .map(|p| p.move_token().unwrap().to_string())
            .collect()
    };
    let (exported, original) = (tokens(game), tokens(dama));
    assert_eq!(exported.len(), 80);
    assert_eq!(exported[..70], original[..70]);
    // At ply 70 the other move is a variation, named in numbers.
    let at_70 = &game.plies()[69];
    assert_eq!(at_70.variations().len(), 1);
    assert_eq!(
        at_70.variations()[0].comments[0].text.replace('\n', " "),
        "another reading: 18-8 in numeric notation"
    );
    assert!(game.plies()[..69].iter().all(|p| p.variations().is_empty()));
    // 16 readings: the main line and 15 variations, said in a comment.
    assert!(
        game.line.comments[0].text.contains("read 16 ways"),
        "{:?}",
        game.line.comments
    );
    fn count(line: &pdndb::pdn::Line) -> usize {
        line.plies
            .iter()
            .flat_map(|p| p.variations())
            .map(|v| 1 + count(v))
            .sum()
    }
    assert_eq!(count(&game.line), 15);

    // Read back: ambiguous where the copy is, every variation replays.
    let file = dir.path().join("seed.pdn");
    std::fs::write(&file, &text).unwrap();
    let out = pdndb(&db)
        .args(["check", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["status"], "ambiguous");
    assert_eq!(record["plies"], 80);
    assert_eq!(record["ply"], 70);
    assert_eq!(record["interpretations"], 16);
    assert_eq!(record["candidates"], serde_json::json!(["18-25", "18-8"]));
    // Variations in Dama numbers may read several ways, but all replay.
    let err = String::from_utf8_lossy(&out.stderr);
    let warnings = err.lines().filter(|l| l.contains("warning"));
    assert!(warnings.clone().all(|l| l.contains("ways")), "{err}");
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
        assert_eq!(
            games[0].ply_text(&games[0].plies()[0]),
            first_move,
            "{notation}"
        );
    }
    // Without --notation each game keeps its own: the Dama copy stays Dama.
    let seed = dir.path().join("seed.sqlite");
    import(&seed, &crate_path("sample-pdn/seed-dama.pdn"));
    let games = read_games(&export(&seed, &[]));
    assert_eq!(games[0].tag("Notation"), Some("Dama"));
    assert_eq!(games[0].tag("GameType"), Some("26,W,8,8,N2,0"));
    assert_eq!(games[0].ply_text(&games[0].plies()[0]), "2-15");
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
    // The illegal game: the moves up to the fault, then the rest as
    // written, as moves; a note says so.
    let illegal = &games[1];
    assert_eq!(illegal.plies().len(), 7);
    assert_eq!(illegal.ply_text(&illegal.plies()[5]), "- -");
    assert_eq!(illegal.ply_text(&illegal.plies()[6]), "21-17");
    let note = illegal.line.comments[0].text.replace('\n', " ");
    assert_eq!(
        note,
        "ply 6 (3. …) - - is an unknown move. From there the moves are as written."
    );
    // The International game: replayed, written afresh for the 10×10 board.
    let international = games
        .iter()
        .find(|g| g.tag("Event") == Some("International 10x10"))
        .unwrap();
    assert_eq!(international.tag("GameType"), Some("20,W,10,10,N2,0"));
    assert_eq!(international.plies().len(), 6);
    assert_eq!(international.ply_text(&international.plies()[4]), "43-38");

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
    // Errors: exit 2; a bad value clap reads names its option and itself.
    for (args, flag) in [
        (
            &["export", "--status", "ok,fine"][..],
            "'fine' for '--status",
        ),
        (
            &["export", "--notation", "chess"],
            "'chess' for '--notation",
        ),
    ] {
        let (_, err, code) = run(&db, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("error: invalid value "), "{err}");
        assert!(err.contains(flag), "{err}");
    }
    for args in [
        &["export", "--variant", "chess"][..],
        &["export", "-o", dir.path().to_str().unwrap()],
    ] {
        let (_, err, code) = run(&db, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("pdndb: "), "{err}");
    }
    let (_, _, code) = run(&dir.path().join("missing.sqlite"), &["export"]);
    assert_eq!(code, 2);
}

/// Two English games: one writing a double capture's whole route
/// (`26x17x10`), one writing the same capture by its ends (`26x10`).
const ROUTES: &str = r#"[Event "Whole"]
[White "Tinsley, M."]
[Black "Long, A."]
[GameType "21"]
[FEN "W:W26:B22,14"]
[Result "0-1"]
1. 26x17x10 0-1

[Event "Ends"]
[White "Hellman, W."]
[Black "Ryan, T."]
[GameType "21"]
[FEN "W:W26:B22,14"]
[Result "0-1"]
1. 26x10 0-1
"#;

#[test]
fn a_capture_keeps_its_written_route_and_filters_choose_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("routes.pdn");
    std::fs::write(&pdn, ROUTES).unwrap();
    let db = dir.path().join("db.sqlite");
    import(&db, &pdn);
    let moves = |args: &[&str]| -> Vec<String> {
        read_games(&export(&db, args))
            .iter()
            .map(|g| {
                g.plies()
                    .iter()
                    .map(|p| p.move_token().unwrap().to_string())
                    .collect()
            })
            .collect()
    };
    assert_eq!(moves(&[]), ["26x17x10", "26x10"]);
    assert_eq!(moves(&["--paths", "written"]), ["26x17x10", "26x10"]);
    assert_eq!(moves(&["--paths", "short"]), ["26x10", "26x10"]);
    assert_eq!(moves(&["--paths", "full"]), ["26x17x10", "26x17x10"]);
    // The filters of `games`.
    assert_eq!(moves(&["--player", "tinsley"]), ["26x17x10"]);
    assert_eq!(moves(&["--black", "Ryan", "--paths", "full"]), ["26x17x10"]);
    assert_eq!(moves(&["--event", "ends", "--result", "white"]), ["26x10"]);
    assert!(moves(&["--player", "Chinook"]).is_empty());
    let (_, err, code) = run(&db, &["export", "--paths", "long"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--paths") && err.contains("written, short, full"),
        "{err}"
    );
}
