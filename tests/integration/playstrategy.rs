//! English draughts as PlayStrategy (playstrategy.org) exports it, through
//! the real binary: `[P1]`/`[P2]` players, `[Variant "American/English"]`,
//! algebraic squares on the board turned 180° and captures written one jump
//! per move (`tests/data/playstrategy-english.pdn`, whose header cites the
//! exporter's code).

use serde_json::Value;

use crate::{crate_path, json_lines, run};

const FILE: &str = "tests/data/playstrategy-english.pdn";

/// The warning on captures written one jump per move.
const JOINED: &str = "captures written one jump per move (as PlayStrategy exports them): \
                      read joined, each capture as one ply";

/// The warning on the turned board.
const TURNED: &str = "algebraic squares named on the board turned 180° (Black on ranks 1–3, \
                      as PlayStrategy exports English draughts); read so";

fn warnings(record: &Value) -> Vec<String> {
    record["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_game_reads_ok_as_english_with_one_warning_for_its_split_captures() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("unused.sqlite");
    let path = crate_path(FILE);
    let (out, err, code) = run(&db, &["check", "--json", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let records = json_lines(&out);
    assert_eq!(records.len(), 3);
    let mut plies = Vec::new();
    for r in &records {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["variant"], "english");
        assert_eq!(r["variant_from"], "tag");
        assert_eq!(r["notation"], "vismin");
        assert_eq!(r["plies"], r["reached"]);
        let said = warnings(r);
        assert_eq!(said.len(), 2, "{said:?}");
        assert_eq!(said[0], TURNED);
        assert!(said[1].starts_with(JOINED), "{said:?}");
        plies.push(r["plies"].as_u64().unwrap());
    }
    // A capture is one ply however many jumps it is written as.
    assert_eq!(plies, [36, 38, 49]);
    assert!(warnings(&records[0])[1].ends_with("(3 captures)"));
    assert!(warnings(&records[1])[1].ends_with("(1 capture)"));
    // The warning stands where the first split capture starts: `a3xc5`.
    let w = &records[0]["warnings"][1];
    assert_eq!(
        (w["line"].as_u64(), w["column"].as_u64()),
        (Some(37), Some(49))
    );
    assert!(
        err.contains(&format!("{FILE}:37:49: warning: game 1: {JOINED}")),
        "{err}"
    );
}

#[test]
fn without_the_variant_tag_the_games_are_still_read_as_english() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(crate_path(FILE)).unwrap();
    let untagged: String = text
        .lines()
        .filter(|l| !l.starts_with("[Variant"))
        .map(|l| format!("{l}\n"))
        .collect();
    let path = dir.path().join("untagged.pdn");
    std::fs::write(&path, untagged).unwrap();
    let db = dir.path().join("unused.sqlite");
    let (out, err, code) = run(&db, &["check", "--json", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for r in json_lines(&out) {
        assert_eq!(
            (&r["status"], &r["variant"], &r["variant_from"]),
            (&"ok".into(), &"english".into(), &"inferred".into())
        );
    }
}

#[test]
fn a_wrong_jump_is_reported_at_its_capture_with_both_tokens() {
    let dir = tempfile::tempdir().unwrap();
    // 9-14 23-19 6-9 26-23 2-6 19-16, then Black's double jump 12x19x26
    // written with a wrong second jump.
    let text = "[P1 \"Ann\"]\n[P2 \"Bob\"]\n[Variant \"American/English\"]\n\n\
                1. g3-f4 d6-c5 2. f2-g3 e7-d6 3. e1-f2 c5-b4 4. a3xc5 c5xa7 5. f8xd6 0-1\n";
    let path = dir.path().join("wrong.pdn");
    std::fs::write(&path, text).unwrap();
    let db = dir.path().join("unused.sqlite");
    let (out, err, code) = run(&db, &["check", "--json", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let r = &json_lines(&out)[0];
    assert_eq!(r["status"], "illegal");
    assert_eq!((r["plies"].as_u64(), r["ply"].as_u64()), (Some(8), Some(7)));
    assert_eq!(r["token"], "a3xc5 c5xa7");
    assert_eq!(r["message"], "ply 7 (4.) a3xc5 c5xa7 is illegal");
    // The text report points at the capture's first jump, names the players.
    let (out, _, code) = run(&db, &["check", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    let line = out
        .lines()
        .find(|l| l.contains("[illegal]"))
        .unwrap_or_default();
    assert!(
        line.contains(":5:49: game 1 (Ann (Black) – Bob (White), ?)"),
        "{out}"
    );
}

#[test]
fn imported_games_have_p1_as_black_p2_as_white_and_positions_by_joined_plies() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let path = crate_path(FILE);
    let (_, err, code) = run(&db, &["import", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let ids = |args: &[&str]| -> Vec<u64> {
        let mut all = vec!["games", "--json"];
        all.extend_from_slice(args);
        let (out, err, code) = run(&db, &all);
        assert_eq!(code, 0, "{err}");
        json_lines(&out)
            .iter()
            .map(|g| g["game"].as_u64().unwrap())
            .collect()
    };
    // P1 moves first: Black in English draughts; P2 is White.
    assert_eq!(ids(&["--white", "Mariposa77"]), [1]);
    assert_eq!(ids(&["--black", "Mariposa77"]), [2]);
    assert_eq!(ids(&["--black", "checkerfan_ph"]), [1]);
    assert_eq!(ids(&["--white", "old_dundee"]), [2]);
    assert_eq!(ids(&["--player", "old_dundee"]), [2, 3]);
    // The listings' cleaned tags name them (the web pages show those).
    let (out, _, _) = run(&db, &["games", "--json", "--limit", "1"]);
    let tags = &json_lines(&out)[0]["tags"];
    assert_eq!(
        (tags["White"].as_str(), tags["Black"].as_str()),
        (Some("Mariposa77"), Some("checkerfan_ph"))
    );
    assert_eq!(tags["P1"], "checkerfan_ph");
    let (out, _, _) = run(&db, &["games"]);
    assert!(
        out.contains("checkerfan_ph (Black) – Mariposa77 (White)  1/2-1/2 (draw)"),
        "{out}"
    );
    assert!(
        out.contains("Mariposa77 (Black) – old_dundee (White)  0-1 (White won)"),
        "{out}"
    );
    // Positions count a capture as one ply: after Black's 12x19x26 (written
    // `a3xc5 c5xe7`) and 30x23 the game is at position 8.
    let moves = "1. 9-14 23-19 2. 6-9 26-23 3. 2-6 19-16 4. 12x26 30x23";
    let (out, err, code) = run(&db, &["search", "--json", "--moves", moves]);
    assert_eq!(code, 0, "{err}");
    let hits = json_lines(&out);
    assert_eq!(hits.len(), 1, "{out}");
    assert_eq!(
        (hits[0]["game"].as_u64(), hits[0]["ply"].as_u64()),
        (Some(1), Some(8))
    );
}

#[test]
fn an_export_reads_back_as_plain_english_with_the_players_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let path = crate_path(FILE);
    let (_, err, code) = run(&db, &["import", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let out_path = dir.path().join("out.pdn");
    let (_, err, code) = run(&db, &["export", "-o", out_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out_path).unwrap();
    assert!(
        text.contains("[White \"Mariposa77\"]\n[Black \"checkerfan_ph\"]"),
        "{text}"
    );
    let (out, err, code) = run(&db, &["check", "--json", out_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let plies: Vec<u64> = json_lines(&out)
        .iter()
        .map(|r| {
            assert_eq!(r["variant"], "english");
            assert!(warnings(r).is_empty(), "{r}");
            r["plies"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(plies, [36, 38, 49]);
}
