//! `pdndb check` through the real binary: one small file per status, the
//! seed game, the corpus (when present) and inputs that try the limits.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

use crate::crate_path;
use crate::skip::corpus;

/// Runs `pdndb check --json` with extra arguments; returns the records and
/// the exit code.
fn check_json(paths: &[&Path], extra: &[&str]) -> (Vec<Value>, i32, String) {
    let out = Command::cargo_bin("pdndb")
        .unwrap()
        .arg("check")
        .arg("--json")
        .args(extra)
        .args(paths)
        .output()
        .unwrap();
    let records = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (
        records,
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn seed_game_copies() {
    let dir = crate_path("sample-pdn");
    let mut finals = Vec::new();
    for name in ["seed-numeric.pdn", "seed-vismin.pdn", "seed-luzon.pdn"] {
        let (records, code, _) = check_json(&[&dir.join(name)], &[]);
        assert_eq!(code, 0, "{name}");
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r["status"], "ok", "{name}");
        assert_eq!(r["variant"], "filipino");
        assert_eq!(
            (r["plies"].as_u64(), r["reached"].as_u64()),
            (Some(80), Some(80))
        );
        assert_eq!(r["interpretations"], 1);
        assert_eq!(r["message"], Value::Null);
        finals.push(r["notation"].as_str().unwrap().to_string());
    }
    assert_eq!(finals, ["numeric", "vismin", "luzon"]);
    let (records, code, _) = check_json(&[&dir.join("seed-dama.pdn")], &[]);
    assert_eq!(code, 1);
    let r = &records[0];
    let expected: Value = serde_json::from_str(
        r#"{"status":"ambiguous","variant":"filipino","notation":"dama","plies":80,"reached":80,
            "interpretations":16,"ply":70,"move_number":35,"side":"black","token":"15-5",
            "fen":"B:WK6,30:B3,K18,21,K31","candidates":["18-25","18-8"],
            "resolved":[{"ply":62,"token":"8-12","candidates":["28-32","5-1","5-32"]}]}"#,
    )
    .unwrap();
    for (field, value) in expected.as_object().unwrap() {
        assert_eq!(&r[field], value, "field {field}");
    }
    assert_eq!(r["index"], 1);
    assert_eq!(r["line"], 1);
    assert_eq!(r["tags"]["Event"], "Seed game (Dama notation)");
}

#[test]
fn one_file_per_status() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ok = write(
        d,
        "ok.pdn",
        "[Event \"ok\"]\n1. 23-18 10-15 2. 21-17 6-10 *\n",
    );
    let illegal = write(
        d,
        "illegal.pdn",
        "[Event \"illegal\"]\n1. 23-18 10-15 2. 18-13 *\n",
    );
    let unknown = write(d, "unknown.pdn", "[Event \"unknown\"]\n1. 23-18 - - *\n");
    let ambiguous = write(
        d,
        "ambiguous.pdn",
        "[Event \"ambiguous\"]\n[FEN \"W:WK29:B1\"]\n[Notation \"Dama\"]\n1. 9-15 12-7 *\n",
    );
    let unreadable = write(
        d,
        "unreadable.pdn",
        "[Event \"bad fen\"]\n[FEN \"W:W18,18:B1\"]\n1. 18-14 *\n",
    );
    let unsupported = write(
        d,
        "unsupported.pdn",
        "[Event \"Turkish\"]\n[GameType \"30\"]\n1. 32-28 19-23 *\n",
    );
    let forfeit = write(
        d,
        "forfeit.pdn",
        "[Event \"forfeit\"]\n[Result \"2-0\"]\n1. 2-0\n",
    );
    let cases: [(&Path, &str, Value, Value); 7] = [
        (&ok, "ok", Value::Null, Value::from(4)),
        (&illegal, "illegal", Value::from(3), Value::from(2)),
        (&unknown, "illegal", Value::from(2), Value::from(1)),
        (&ambiguous, "ambiguous", Value::from(1), Value::from(2)),
        (&unreadable, "unreadable", Value::Null, Value::Null),
        (&unsupported, "unsupported", Value::Null, Value::Null),
        (&forfeit, "ok", Value::Null, Value::from(0)),
    ];
    for (path, status, ply, reached) in cases {
        let (records, code, stderr) = check_json(&[path], &[]);
        assert_eq!(records.len(), 1, "{path:?}: {stderr}");
        let r = &records[0];
        assert_eq!(r["status"], status, "{path:?}: {r}");
        assert_eq!(r["ply"], ply, "{path:?}: {r}");
        assert_eq!(r["reached"], reached, "{path:?}: {r}");
        assert_eq!(code, if status == "ok" { 0 } else { 1 }, "{path:?}");
        if status != "ok" {
            assert!(r["message"].is_string(), "{r}");
        }
    }
    let (records, ..) = check_json(&[&illegal], &[]);
    let r = &records[0];
    assert_eq!(r["token"], "18-13");
    assert_eq!(r["move_number"], 2);
    assert_eq!(r["side"], "white");
    assert_eq!(
        r["fen"],
        "W:W18,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,15"
    );
    assert_eq!(r["message"], "ply 3 (2.) 18-13 is illegal");
    let (records, ..) = check_json(&[&unknown], &[]);
    assert_eq!(records[0]["message"], "ply 2 (1. …) - - is an unknown move");
    let (records, ..) = check_json(&[&unsupported], &[]);
    assert_eq!(records[0]["variant"], "unknown");
    assert_eq!(records[0]["plies"], 2);
    assert_eq!(
        records[0]["message"],
        "GameType \"30\" is Turkish draughts, a game pdndb does not play"
    );
}

#[test]
fn text_report_reads_like_a_compiler_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "games.pdn",
        "[Event \"Club\"]\n[White \"Ana\"]\n[Black \"Ben\"]\n1. 23-18 10-15\n2. 18-13 *\n",
    );
    let out = Command::cargo_bin("pdndb")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "{}:5:4: game 1 (Ana (White) – Ben (Black), Club): ply 3 (2.) 18-13 is illegal [illegal]",
            path.display()
        )
    );
    assert!(text.contains("White to move"), "{text}");
    assert!(text.contains("legal moves: "), "{text}");
    assert!(text.contains("18-14"), "{text}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("checked 1 games in 1 files: 0 ok, 0 ambiguous, 1 illegal"),
        "{stderr}"
    );
}

#[test]
fn variations_are_replayed_and_faults_are_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "var.pdn",
        "[Event \"v\"]\n1. 23-18 (1. 22-17 9-13 (1... 9-12) ) 10-15 (1... 9-14 2. 18x9) 2. 21-17 6-10 *\n",
    );
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 0, "{stderr}");
    let r = &records[0];
    assert_eq!(r["status"], "ok");
    let warnings = r["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]["message"]
            .as_str()
            .unwrap()
            .contains("9-12 is illegal"),
        "{warnings:?}"
    );
    // The inner variation replaces ply 2 of the outer one, itself ply 1 of the game.
    assert!(
        stderr.contains("warning: game 1: variation at ply 2: ply 2 (1. …) 9-12 is illegal"),
        "{stderr}"
    );
}

#[test]
fn check_options_override_detection() {
    let dir = tempfile::tempdir().unwrap();
    // Numbers that read as English checkers by default (first move from 1..12).
    let path = write(dir.path(), "e.pdn", "1. 11-15 23-19 2. 8-11 22-17 *\n");
    let (records, ..) = check_json(&[&path], &[]);
    assert_eq!(records[0]["variant"], "english");
    let (records, ..) = check_json(&[&path], &["--variant", "pool"]);
    assert_eq!(records[0]["variant"], "pool");
    assert_eq!(records[0]["status"], "ok");
    let (records, ..) = check_json(&[&path], &["--rules", "promotion=stop"]);
    assert_eq!(records[0]["variant"], "english");
    let (records, ..) = check_json(
        &[&path],
        &["--variant", "filipino", "--rules", "max-capture=off"],
    );
    assert_eq!(records[0]["variant"], "filipino+max-capture=off");
    assert_eq!(records[0]["status"], "illegal");
    let (_, code, stderr) = check_json(&[&path], &["--notation", "chess"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("invalid value 'chess' for '--notation"),
        "{stderr}"
    );
    let (_, code, stderr) = check_json(&[&dir.path().join("missing.pdn")], &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.pdn: no such file"), "{stderr}");
}

#[test]
fn limits_give_clear_messages_and_the_next_game_still_replays() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A long king endgame written in Dama numbers: readings multiply.
    let kings = king_shuffle_in_dama(400);
    let mut text = format!(
        "[Event \"kings\"]\n[FEN \"W:WK29,K4,K13:BK1,K32,K20\"]\n[Notation \"Dama\"]\n{kings} *\n\n"
    );
    // 100,000 plies.
    text.push_str("[Event \"long\"]\n");
    for _ in 0..25_000 {
        text.push_str("1. 23-18 10-15 18-23 15-10 ");
    }
    text.push_str("*\n\n");
    // 40 kings in a FEN.
    let many: Vec<String> = (1..=40).map(|s| format!("K{s}")).collect();
    text.push_str(&format!(
        "[Event \"crowd\"]\n[FEN \"W:W{}:B\"]\n*\n\n",
        many.join(",")
    ));
    text.push_str(&format!(
        "[Event \"crowd 8x8\"]\n[GameType \"26,W,8,8,N2,0\"]\n[FEN \"W:W{}:B\"]\n*\n\n",
        many.join(",")
    ));
    text.push_str("[Event \"after\"]\n1. 23-18 10-15 *\n");
    let path = write(d, "limits.pdn", &text);
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(records.len(), 5, "{stderr}\n{records:#?}");
    assert_eq!(records[0]["status"], "ambiguous", "{}", records[0]);
    assert!(records[0]["plies"].as_u64().unwrap() > 20, "{}", records[0]);
    assert!(records[0]["message"].as_str().unwrap().len() > 10);
    assert_eq!(records[1]["status"], "unreadable");
    assert!(
        records[1]["message"]
            .as_str()
            .unwrap()
            .contains("limit of 20000 plies"),
        "{}",
        records[1]
    );
    // Without a GameType, squares above 32 mean the 10×10 board, where
    // 40 white pieces are too many as well.
    assert_eq!(records[2]["status"], "unreadable");
    assert_eq!(records[2]["variant"], "international");
    let message = records[2]["message"].as_str().unwrap();
    assert!(
        message.contains("40 white pieces (at most 20)"),
        "{message}"
    );
    assert_eq!(records[3]["status"], "unreadable");
    let message = records[3]["message"].as_str().unwrap();
    assert!(
        message.contains("square 33 is not on the board")
            && message.contains("32 white pieces (at most 12)"),
        "{message}"
    );
    assert_eq!(records[4]["status"], "ok");
}

/// Random king moves from `W:WK29,K4,K13:BK1,K32,K20`, written in Dama numbers.
pub(crate) fn king_shuffle_in_dama(plies: usize) -> String {
    use pdndb::notation::{Notation, parse_fen, write_move};
    use pdndb::rules::{Position, Rules};
    let rules = Rules::default();
    let mut p =
        Position::from_setup(&parse_fen("W:WK29,K4,K13:BK1,K32,K20").unwrap(), &rules).unwrap();
    let mut rng = pdndb::generate::SplitMix64::new(1);
    let mut words = Vec::new();
    for _ in 0..plies {
        // Quiet moves after which the other side has no capture either.
        let quiet: Vec<_> = p
            .legal_moves(&rules)
            .into_iter()
            .filter(|m| {
                !m.is_capture() && !p.play(m).legal_moves(&rules).iter().any(|n| n.is_capture())
            })
            .collect();
        if quiet.is_empty() {
            break;
        }
        let mv = quiet[rng.below(quiet.len())];
        words.push(write_move(&mv, Notation::Dama, rules.geometry, false));
        p = p.play(&mv);
    }
    assert!(words.len() > 20, "the shuffle lasts: {}", words.len());
    // `1-1` is also a result: followed by more moves it reads as the move.
    assert!(words.iter().any(|w| w == "1-1"), "the shuffle plays 1-1");
    words.join(" ")
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "corpus runs in release builds (cargo test --release)"
)]
fn oca_archive_is_all_ok_as_english() {
    let Some(oca) = corpus("oca_archive_is_all_ok_as_english", "english/OCA_2.0.pdn") else {
        return;
    };
    let (records, code, stderr) = check_json(&[&oca], &["--variant", "english"]);
    assert_eq!(records.len(), 22_621, "{stderr}");
    let not_ok: Vec<&Value> = records
        .iter()
        .filter(|r| r["status"] != "ok")
        .take(3)
        .collect();
    assert!(not_ok.is_empty(), "{not_ok:?}");
    assert_eq!(code, 0);
    assert!(records.iter().all(|r| r["variant_from"] == "forced"));
    // Inference alone (no --variant) reads them as English too.
    let (records, code, _) = check_json(&[&oca], &[]);
    assert_eq!(code, 0);
    assert!(
        records
            .iter()
            .all(|r| r["variant"] == "english" && r["variant_from"] == "inferred")
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "corpus runs in release builds (cargo test --release)"
)]
fn international_tournament_files_replay_under_fmjd_rules() {
    let Some(folder) = corpus(
        "international_tournament_files_replay_under_fmjd_rules",
        "international",
    ) else {
        return;
    };
    let (records, code, stderr) = check_json(&[&folder], &[]);
    assert_eq!(code, 0, "{stderr}");
    // 7 + 37 + 59 + 51 + 4 + 7 + 7 + 7 + 34 + 1 games in ten files.
    assert_eq!(records.len(), 214, "{stderr}");
    for r in &records {
        assert_eq!(
            (r["status"].as_str(), r["variant"].as_str()),
            (Some("ok"), Some("international")),
            "{r}"
        );
        let tagged = r["tags"].get("GameType").is_some();
        let from = if tagged { "tag" } else { "inferred" };
        assert_eq!(r["variant_from"], from, "{r}");
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "corpus runs in release builds (cargo test --release)"
)]
fn pdn3_suite_reads_as_its_readme_says() {
    let Some(suite) = corpus("pdn3_suite_reads_as_its_readme_says", "pdn3-suite") else {
        return;
    };
    let (records, code, stderr) = check_json(&[&suite], &[]);
    assert_ne!(code, 2, "{stderr}");
    let of = |file: &str| -> Vec<&Value> {
        records
            .iter()
            .filter(|r| r["file"].as_str().unwrap().ends_with(file))
            .collect()
    };
    let summary = |r: &Value| {
        format!(
            "{} {} {}",
            r["status"].as_str().unwrap(),
            r["variant"].as_str().unwrap(),
            r["variant_from"].as_str().unwrap()
        )
    };
    // International games with their GameType replay under FMJD rules.
    for ten_by_ten in [
        "DUTCH96H.pdn",
        "PROF2.pdn",
        "candidate95.pdn",
        "wk2003.pdn",
        "nk2003-amsterdam.pdn",
    ] {
        let games = of(ten_by_ten);
        assert!(!games.is_empty(), "{ten_by_ten}");
        for game in games {
            assert_eq!(summary(game), "ok international tag", "{game}");
        }
    }
    // 10×10 opening moves without a GameType (every square up to 32):
    // illegal on 8×8, so inferred as International.
    for syntax in [
        "gameterminator.pdn",
        "string.pdn",
        "unicode.pdn",
        "movestrength.pdn",
        "linecomment.pdn",
        "variation.pdn",
    ] {
        let games = of(syntax);
        assert_eq!(games.len(), 1, "{syntax}");
        assert_eq!(summary(games[0]), "ok international inferred", "{syntax}");
    }
    let fen = of("fen.pdn");
    assert_eq!(
        fen.iter().map(|r| summary(r)).collect::<Vec<_>>(),
        [
            "ok english inferred",
            "ok english inferred",
            "ok international inferred"
        ]
    );
    let alpha = of("alphanumeric.pdn");
    assert_eq!(
        (alpha[0]["status"].as_str(), alpha[0]["plies"].as_u64()),
        (Some("ok"), Some(1))
    );
    // Russian games without tags: inferred as Russian, all 153.
    let ussr = of("ussr1947.pdn");
    assert_eq!(ussr.len(), 153);
    for game in ussr {
        assert_eq!(summary(game), "ok russian inferred", "{game}");
    }
    // The English problem collections (set-ups without moves, or with
    // moves): English. The records that are not ok have a man on its own
    // crowning row in their FEN.
    for problems in [
        "bridges.pdn",
        "goulds.pdn",
        "lpc.pdn",
        "gem.pdn",
        "beginner.pdn",
        "borderclassics.pdn",
        "Principles of Strategy.pdn",
    ] {
        for game in of(problems) {
            let ok = summary(game) == "ok english inferred";
            let defective = game["status"] == "unreadable"
                && game["message"]
                    .as_str()
                    .unwrap()
                    .contains("its own crowning row");
            assert!(ok || defective, "{problems}: {game}");
        }
    }
    let (russian, code, _) = check_json(&[&suite.join("ussr1947.pdn")], &["--variant", "russian"]);
    assert_eq!(russian.len(), 153);
    assert!(russian.iter().all(|r| r["status"] == "ok"));
    assert_eq!(code, 0);
}

#[test]
fn boards_and_games_that_do_not_fit_say_so_and_cost_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let text = "\
[Event \"FEN beyond every board\"]\n[FEN \"W:W18,60:B1\"]\n1. 18-14 *\n\n\
[Event \"FEN beyond 8x8 with an 8x8 GameType\"]\n[GameType \"21\"]\n[FEN \"W:W18,40:B1\"]\n*\n\n\
[Event \"Unknown game\"]\n[GameType \"77\"]\n1. 22-18 *\n\n\
[Event \"Turkish\"]\n[GameType \"30\"]\n1. 32-28 *\n\n\
[Event \"10x10 with an 8x8 GameType\"]\n[GameType \"26,W,8,8,N2,0\"]\n1. 32-28 18-23 2. 38-32 *\n\n\
[Event \"8x8\"]\n1. 22-18 11-15 *\n\n\
[Event \"10x10\"]\n1. 32-28 18-23 2. 38-32 *\n\n\
[Event \"8x8 again\"]\n1. 22-18 11-15 *\n";
    let path = write(dir.path(), "boards.pdn", text);
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 1, "{stderr}");
    let seen: Vec<(&str, &str, &str)> = records
        .iter()
        .map(|r| {
            (
                r["status"].as_str().unwrap(),
                r["variant"].as_str().unwrap(),
                r["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                "unsupported",
                "unknown",
                "square 60 lies beyond every board pdndb plays (8x8 and 10x10)"
            ),
            (
                "unreadable",
                "english",
                "FEN: invalid position: square 40 is not on the board"
            ),
            (
                "unsupported",
                "unknown",
                "GameType \"77\" names no game pdndb knows"
            ),
            (
                "unsupported",
                "unknown",
                "GameType \"30\" is Turkish draughts, a game pdndb does not play"
            ),
            (
                "illegal",
                "brazilian",
                "ply 1 (1.) 32-28 is illegal; the tag says brazilian, but the moves are on 10×10 \
                 and read ok as international"
            ),
            ("ok", "filipino", ""),
            ("ok", "international", ""),
            ("ok", "filipino", ""),
        ]
    );
    // The 10×10 record under an 8×8 GameType: what would read it.
    assert_eq!(
        records[4]["reads_ok_under"],
        serde_json::json!(["international"])
    );
    assert_eq!(records[4]["variant_from"], "tag");
}

#[test]
fn a_filipino_record_played_without_the_majority_rule_is_found() {
    let dir = tempfile::tempdir().unwrap();
    // White's 27 can take two (27x18x11); the record takes one with 26.
    let text = "[Event \"club\"]\n[GameType \"26,W,8,8,N2,0\"]\n[Variant \"Filipino Dama\"]\n\
                [FEN \"W:W26,27:B1,15,22,23\"]\n1. 26x17 *\n";
    let path = write(dir.path(), "majority.pdn", text);
    let (records, _, _) = check_json(&[&path], &[]);
    assert_eq!(records[0]["status"], "illegal");
    assert_eq!(
        records[0]["reads_ok_under"],
        serde_json::json!([
            "english",
            "russian",
            "pool",
            "czech",
            "filipino+max-capture=off"
        ])
    );
    let out = Command::cargo_bin("pdndb")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "read as filipino (tag); reads ok under english, russian, pool, czech, filipino+max-capture=off"
        ),
        "{text}"
    );
}

#[test]
fn untagged_games_of_every_preset_are_inferred_as_that_preset() {
    let dir = tempfile::tempdir().unwrap();
    let presets = [
        "filipino",
        "english",
        "russian",
        "pool",
        "czech",
        "italian",
        "spanish",
        "international",
        // Brazilian rules are Filipino rules: the tie goes to Filipino.
        "brazilian",
    ];
    for variant in presets {
        let out = Command::cargo_bin("pdndb")
            .unwrap()
            .args([
                "generate",
                "--games",
                "30",
                "--seed",
                "3",
                "--variant",
                variant,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        // The tags that name the rules taken out.
        let text: String = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("[GameType") && !l.starts_with("[Variant"))
            .map(|l| format!("{l}\n"))
            .collect();
        let path = write(dir.path(), &format!("{variant}.pdn"), &text);
        let (records, code, stderr) = check_json(&[&path], &[]);
        assert_eq!(code, 0, "{variant}: {stderr}");
        assert_eq!(records.len(), 30);
        let expected = if variant == "brazilian" {
            "filipino"
        } else {
            variant
        };
        for r in &records {
            assert_eq!(r["variant"], expected, "{r}");
            assert_eq!(r["variant_from"], "inferred", "{r}");
        }
    }
}

// ------------------------------------------ quirks of real files, end to end

/// The legal game of `one_file_per_status`, under the tags given.
fn legal_game(tags: &str, result: &str) -> String {
    format!("{tags}1. 23-18 10-15 2. 21-17 6-10 {result}\n\n")
}

#[test]
fn a_malformed_tag_is_a_warning_and_the_game_is_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "empty.pdn",
        &legal_game("[Event \"Open\"]\n[Empty]\n[Site]\n[Round \"1\n", "*"),
    );
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 0, "{stderr}");
    let r = &records[0];
    assert_eq!(r["status"], "ok", "{r}");
    assert_eq!(r["plies"], 4);
    assert_eq!(
        r["tags"],
        serde_json::json!({"Event": "Open", "Round": "1"})
    );
    let warnings: Vec<&str> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        warnings,
        [
            "malformed tag skipped: `[Empty]`",
            "malformed tag skipped: `[Site]`",
            "tag `Round`: its value is not closed by `\"`"
        ]
    );
    assert!(stderr.contains("empty.pdn:2:1: warning: game 1: malformed tag skipped: `[Empty]`"));
}

#[test]
fn a_repeated_tag_is_kept_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "twice.pdn",
        &legal_game("[Event \"First\"]\n[Site \"x\"]\n[Event \"Second\"]\n", "*"),
    );
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 0, "{stderr}");
    let r = &records[0];
    assert_eq!(r["status"], "ok");
    // The record's tags hold the first; the warning names both lines.
    assert_eq!(r["tags"]["Event"], "First");
    assert_eq!(
        r["warnings"],
        serde_json::json!([{"line": 3, "column": 1,
            "message": "tag `Event` repeated (first on line 1): both kept, the first one counts"}])
    );
}

#[test]
fn stray_text_after_tags_keeps_one_game_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for k in 1..=3 {
        let tags = format!(
            "[Event \"Open\"]\\r\n[Site \"Lyon\"]\\r\n[Round \"{k}\"]\\r\n[White \"A{k}\"]\\r\n[Black \"B{k}\"]\\r\n[Result \"*\"]\\r\n"
        );
        text.push_str(&legal_game(&tags, "*"));
    }
    let path = write(dir.path(), "french.pdn", &text);
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(records.len(), 3, "{stderr}");
    for (k, r) in records.iter().enumerate() {
        let k = k + 1;
        assert_eq!(r["status"], "ok");
        assert_eq!(
            r["tags"],
            serde_json::json!({"Event": "Open", "Site": "Lyon", "Round": k.to_string(),
                "White": format!("A{k}"), "Black": format!("B{k}"), "Result": "*"})
        );
        assert_eq!(r["warnings"].as_array().unwrap().len(), 1, "{r}");
    }
    let line = |k: usize| {
        format!(
            "french.pdn:{}:15: warning: game {k}: text after a tag skipped: `\\r` (and after 5 more tags)",
            8 * (k - 1) + 1
        )
    };
    for k in 1..=3 {
        assert!(stderr.contains(&line(k)), "{stderr}");
    }
}

#[test]
fn a_lone_dash_result_and_a_tag_without_its_bracket() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{}{}",
        legal_game("[Event \"dash\"]\n", "-"),
        legal_game(
            "[Event \"bracket\"]\nWhite \"Ana\"]\n[Black \"Ben\"]\n",
            "*"
        )
    );
    let path = write(dir.path(), "quirks.pdn", &text);
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(records.len(), 2, "{stderr}");
    assert_eq!(records[0]["status"], "ok");
    assert_eq!(records[0]["plies"], 4);
    assert_eq!(records[0]["warnings"], serde_json::json!([]));
    assert_eq!(records[1]["status"], "ok");
    assert_eq!(
        records[1]["tags"],
        serde_json::json!({"Event": "bracket", "White": "Ana", "Black": "Ben"})
    );
    assert_eq!(
        records[1]["warnings"][0]["message"],
        "tag `White` lacks its opening `[`: read as a tag"
    );
}

#[test]
fn tags_in_italian_are_kept_and_read_as_the_standard_ones() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{}[Evento \"Campionato\"]\n[Bianco \"Neri\"]\n[Nero \"Gialli\"]\n1. 23-18 10-15 2. 18-13 *\n",
        legal_game(
            "[Dati \"Campionato\"]\n[Anno \"1998\"]\n[Bianco \"Rossi\"]\n[Nero \"Verdi\"]\n[Risultato \"1-0\"]\n",
            "1-0"
        )
    );
    let path = write(dir.path(), "italiano.pdn", &text);
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(records[0]["status"], "ok");
    // The record lists the tags as written.
    let names: Vec<&String> = records[0]["tags"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["Dati", "Anno", "Bianco", "Nero", "Risultato"]);
    // The report of a problem game names the players.
    let out = Command::cargo_bin("pdndb")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "game 2 (Neri (White) – Gialli (Black), Campionato): ply 3 (2.) 18-13 is illegal"
        ),
        "{text}"
    );
    // The database's columns take the mapped values.
    let db = dir.path().join("db.sqlite");
    let (_, stderr, code) = crate::run(&db, &["import", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let row: (String, String, String, String, Option<String>) = conn
        .query_row(
            "SELECT white, black, event, date, result FROM game ORDER BY id LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .unwrap();
    assert_eq!(
        row,
        (
            "Rossi".into(),
            "Verdi".into(),
            "Campionato".into(),
            "1998".into(),
            Some("1-0".into())
        )
    );
    // The result counts: White won the game that starts with 23-18.
    let (out, stderr, code) = crate::run(&db, &["tree", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let moves = crate::json_lines(&out);
    let first = moves.iter().find(|m| m["move"] == "23-18").unwrap();
    assert_eq!(first["white_wins"], 1, "{out}");
}

/// Writes `text` encoded in Windows-1251.
fn write_cp1251(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1251.encode(text);
    assert!(!unmappable);
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    path
}

const RUSSIAN: &str =
    "[Event \"Чемпионат города\"]\n[White \"Иванов Пётр\"]\n[Black \"Сидоров Алексей\"]\n";

#[test]
fn a_windows_1251_file_is_detected_and_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{}{}", legal_game(RUSSIAN, "*"), legal_game(RUSSIAN, "*"));
    let path = write_cp1251(dir.path(), "russian.pdn", &text);
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(
            r["tags"],
            serde_json::json!({"Event": "Чемпионат города", "White": "Иванов Пётр",
                "Black": "Сидоров Алексей"})
        );
    }
    assert_eq!(
        records[0]["warnings"],
        serde_json::json!([{"line": 1, "column": 9,
            "message": "the file is not UTF-8: its text is read as windows-1251, the encoding detected for it"}])
    );
    assert_eq!(records[1]["warnings"], serde_json::json!([]));
    assert_eq!(stderr.matches("windows-1251").count(), 1, "{stderr}");
}

#[test]
fn a_bad_byte_in_a_utf8_file_is_replaced_where_it_stands() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = legal_game(RUSSIAN, "*").into_bytes();
    bytes.extend_from_slice(b"[Event \"Open\"]\n[White \"Jos");
    bytes.push(0xE9);
    bytes.extend_from_slice(legal_game(" Łukasz\"]\n[Black \"Müller\"]\n", "*").as_bytes());
    let path = dir.path().join("damaged.pdn");
    std::fs::write(&path, &bytes).unwrap();
    let (records, code, stderr) = check_json(&[&path], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(records[0]["tags"]["White"], "Иванов Пётр");
    assert_eq!(records[0]["warnings"], serde_json::json!([]));
    assert_eq!(
        records[1]["tags"],
        serde_json::json!({"Event": "Open", "White": "Jos\u{FFFD} Łukasz", "Black": "Müller"})
    );
    assert!(
        stderr.contains(
            "damaged.pdn:7:12: warning: game 2: byte \\xE9 not valid UTF-8, the input's encoding: read as U+FFFD"
        ),
        "{stderr}"
    );
}

#[test]
fn the_encoding_can_be_given() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_cp1251(dir.path(), "russian.pdn", &legal_game(RUSSIAN, "*"));
    let (records, code, stderr) = check_json(&[&path], &["--encoding", "windows-1251"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(records[0]["tags"]["White"], "Иванов Пётр");
    assert_eq!(records[0]["warnings"], serde_json::json!([]));
    // Given, it wins over what the bytes suggest.
    let (records, ..) = check_json(&[&path], &["--encoding", "latin1"]);
    assert_eq!(records[0]["tags"]["White"], "Èâàíîâ Ï¸òð");
    // So for an import.
    let db = dir.path().join("db.sqlite");
    let (_, stderr, code) = crate::run(
        &db,
        &["import", "--encoding", "cp1251", path.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let white: String = conn
        .query_row("SELECT white FROM game", [], |r| r.get(0))
        .unwrap();
    assert_eq!(white, "Иванов Пётр");
    // A name no encoding has is a usage error that names it.
    for command in ["check", "import"] {
        let (_, stderr, code) = crate::run(
            &db,
            &[command, "--encoding", "nonsense", path.to_str().unwrap()],
        );
        assert_eq!(code, 2, "{command}");
        assert!(
            stderr.contains(
                "invalid value 'nonsense' for '--encoding <NAME>': unknown encoding `nonsense`"
            ),
            "{stderr}"
        );
    }
    let (_, stderr, code) = crate::run(&db, &["check", "--encoding", "shift_jis", "x.pdn"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("encoding `shift_jis` cannot be read"),
        "{stderr}"
    );
}

#[test]
fn a_huge_fen_gives_a_short_message_that_names_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::serve::sample_db(dir.path());
    let repeated = format!("W:W{}:B1", vec!["21"; 18_000].join(","));
    let unreadable = format!("W:W{}:B1", "zz".repeat(40_000));
    for (fen, problem) in [
        (
            &repeated,
            "two pieces on square 21 (and 17,998 more like it",
        ),
        (&unreadable, "(80,000 bytes)` is not a square"),
    ] {
        // Given on the command line.
        let (_, err, code) = crate::run(&db, &["search", "--fen", fen]);
        assert_eq!(code, 2, "{err}");
        assert!(err.len() < 1000, "{} bytes: {}", err.len(), &err[..300]);
        assert!(err.contains(problem), "{err}");
        // Read from a file.
        let file = dir.path().join("huge.pdn");
        std::fs::write(
            &file,
            format!("[FEN \"{fen}\"]\n[Result \"*\"]\n1. 22-18 *\n"),
        )
        .unwrap();
        let (out, err, code) = crate::run(&db, &["check", file.to_str().unwrap()]);
        assert_eq!(code, 1, "{err}");
        assert!(out.len() < 1000, "{} bytes: {}", out.len(), &out[..300]);
        assert!(out.contains(problem), "{out}");
    }
}
