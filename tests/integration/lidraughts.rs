//! Games as lidraughts exports them (`tests/data/lidraughts/`, see its
//! README): Frisian, Frysk!, Antidraughts and Breakthrough read by their
//! GameType, by lidraughts' `Variant` names, and inferred from the moves.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

use crate::crate_path;

/// `pdndb check --json` on one file: its records.
fn check(path: &Path, extra: &[&str]) -> Vec<Value> {
    let out = Command::cargo_bin("pdndb")
        .unwrap()
        .args(["check", "--json"])
        .args(extra)
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn data(name: &str) -> PathBuf {
    crate_path(&format!("tests/data/lidraughts/{name}"))
}

/// The file's text with its tag lines changed by `edit` (`None` drops one).
fn retagged(name: &str, dir: &Path, edit: impl Fn(&str) -> Option<String>) -> PathBuf {
    let text = std::fs::read_to_string(data(name)).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let kept = if line.starts_with('[') {
            edit(line)
        } else {
            Some(line.to_string())
        };
        if let Some(kept) = kept {
            out.push_str(&kept);
            out.push('\n');
        }
    }
    let path = dir.join(name);
    std::fs::write(&path, out).unwrap();
    path
}

/// (variant, status, variant_from) of each record.
fn summary(records: &[Value]) -> Vec<(String, String, String)> {
    records
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (s("variant"), s("status"), s("variant_from"))
        })
        .collect()
}

fn one(variant: &str, status: &str, from: &str) -> Vec<(String, String, String)> {
    vec![(variant.into(), status.into(), from.into())]
}

#[test]
fn a_frisian_game_reads_by_its_game_type_and_is_inferred_without_tags() {
    let records = check(&data("frisian.pdn"), &[]);
    assert_eq!(summary(&records), one("frisian", "ok", "tag"));
    assert_eq!(records[0]["plies"], 42);
    let dir = tempfile::tempdir().unwrap();
    let bare = retagged("frisian.pdn", dir.path(), |_| None);
    assert_eq!(
        summary(&check(&bare, &[])),
        one("frisian", "ok", "inferred")
    );
    // lidraughts' name in a Variant tag, without GameType.
    let named = retagged("frisian.pdn", dir.path(), |line| {
        Some(if line.starts_with("[GameType") {
            "[Variant \"Frisian\"]".to_string()
        } else {
            line.to_string()
        })
    });
    assert_eq!(summary(&check(&named, &[])), one("frisian", "ok", "tag"));
}

#[test]
fn an_international_tagged_frisian_game_says_it_reads_as_frisian() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = retagged("frisian.pdn", dir.path(), |line| {
        Some(line.replace("[GameType \"40\"]", "[GameType \"20\"]"))
    });
    let records = check(&wrong, &[]);
    assert_eq!(summary(&records), one("international", "illegal", "tag"));
    // 4... 14x34 takes along the file.
    assert_eq!(records[0]["ply"], 8);
    assert_eq!(records[0]["token"], "14x34");
    assert_eq!(records[0]["reads_ok_under"], serde_json::json!(["frisian"]));
}

#[test]
fn a_frysk_game_reads_by_its_game_type_and_is_inferred_without_tags() {
    let records = check(&data("frysk.pdn"), &[]);
    assert_eq!(summary(&records), one("frysk", "ok", "tag"));
    let dir = tempfile::tempdir().unwrap();
    let bare = retagged("frysk.pdn", dir.path(), |_| None);
    assert_eq!(summary(&check(&bare, &[])), one("frysk", "ok", "inferred"));
    // With its set-up but no GameType, the moves read as Frisian from
    // there: Frisian comes first.
    let set_up = retagged("frysk.pdn", dir.path(), |line| {
        line.starts_with("[FEN").then(|| line.to_string())
    });
    assert_eq!(
        summary(&check(&set_up, &[])),
        one("frisian", "ok", "inferred")
    );
    // lidraughts' Variant name, and its FEN with the counters and king
    // runs it writes for the Frisian games.
    let named = retagged("frysk.pdn", dir.path(), |line| {
        Some(if line.starts_with("[GameType") {
            "[Variant \"Frysk!\"]".to_string()
        } else if line.starts_with("[FEN") {
            "[FEN \"W:W46,47,48,49,50:B1,2,3,4,5:H0:F1:+0+0\"]".to_string()
        } else {
            line.to_string()
        })
    });
    assert_eq!(summary(&check(&named, &[])), one("frysk", "ok", "tag"));
}

#[test]
fn antidraughts_and_breakthrough_games_read_by_their_names() {
    let records = check(&data("antidraughts-breakthrough.pdn"), &[]);
    let mut expected = one("antidraughts", "ok", "tag");
    expected.extend(one("breakthrough", "ok", "tag"));
    assert_eq!(summary(&records), expected);
    let dir = tempfile::tempdir().unwrap();
    let named = retagged("antidraughts-breakthrough.pdn", dir.path(), |line| {
        Some(
            line.replace("[GameType \"98\"]", "[Variant \"Antidraughts\"]")
                .replace("[GameType \"96\"]", "[Variant \"Breakthrough\"]"),
        )
    });
    assert_eq!(summary(&check(&named, &[])), expected);
    // The moves alone cannot tell them from International.
    let bare = retagged("antidraughts-breakthrough.pdn", dir.path(), |_| None);
    let mut international = one("international", "ok", "inferred");
    international.extend(one("international", "ok", "inferred"));
    assert_eq!(summary(&check(&bare, &[])), international);
    // lidraughts calls International "Standard".
    let standard = retagged("antidraughts-breakthrough.pdn", dir.path(), |line| {
        Some(
            line.replace("[GameType \"98\"]", "[Variant \"Standard\"]")
                .replace("[GameType \"96\"]", "[Variant \"standard\"]"),
        )
    });
    let mut tagged = one("international", "ok", "tag");
    tagged.extend(one("international", "ok", "tag"));
    assert_eq!(summary(&check(&standard, &[])), tagged);
}

#[test]
fn frisian_switches_are_recorded_in_the_variant() {
    let records = check(
        &data("frisian.pdn"),
        &["--variant", "frisian", "--rules", "king-limit=off"],
    );
    assert_eq!(
        summary(&records),
        one("frisian+king-limit=off", "ok", "forced")
    );
}

#[test]
fn frisian_games_are_stored_indexed_and_found() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let out = crate::pdndb(&db)
        .args(["import", "--json"])
        .arg(crate_path("tests/data/lidraughts"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (summary["games"].as_u64(), summary["ok"].as_u64()),
        (Some(4), Some(4))
    );
    // The position after 4... 14x34, reached by the Frisian game only.
    let out = crate::pdndb(&db)
        .args(["search", "--json", "--variant", "frisian", "--moves"])
        .arg("1. 34-30 18-22 2. 30-24 19x30 3. 35x24 20x29 4. 33x24 14x34")
        .output()
        .unwrap();
    let found: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["ply"], 8);
    assert_eq!(found[0]["variant"], "frisian");
    let out = crate::pdndb(&db)
        .args(["stats", "--check"])
        .output()
        .unwrap();
    assert!(out.status.success());
}
