//! Real-file quirks, each from a small reproduction in `tests/data/quirks/`
//! made in the shape of the files it was met in: what `check` and `import`
//! make of it.

use std::path::Path;

use serde_json::Value;

use crate::{crate_path, json_lines, run};

/// `check --json` of a reproduction: its records, and standard error.
fn check(name: &str, args: &[&str]) -> (Vec<Value>, String) {
    let path = crate_path(&format!("tests/data/quirks/{name}"));
    let unused = Path::new("unused.sqlite");
    let mut all = vec!["check", "--json"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let (out, err, code) = run(unused, &all);
    assert!(code < 2, "{err}");
    (json_lines(&out), err)
}

fn statuses(records: &[Value]) -> Vec<&str> {
    records
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect()
}

#[test]
fn a_result_with_text_glued_to_it_is_the_result() {
    let (records, err) = check("glued-result.pdn", &[]);
    assert_eq!(statuses(&records), ["ok", "ok"]);
    assert_eq!(records[0]["plies"], 27);
    for (record, result) in records.iter().zip(["1/2-1/2", "0-2"]) {
        let warnings = record["warnings"].as_array().unwrap();
        assert_eq!(warnings.len(), 1, "{record}");
        let expected = format!("text glued to the result {result} kept as a comment: `\\r`");
        assert_eq!(warnings[0]["message"], expected.as_str());
    }
    assert!(err.contains("checked 2 games"), "{err}");
}

#[test]
fn utf16_without_a_byte_order_mark_is_read_by_its_first_character() {
    let (records, err) = check("utf16le-no-bom.pdn", &[]);
    assert_eq!(statuses(&records), ["ok"], "{err}");
    assert_eq!(records[0]["tags"]["White"], "Peñafiel, J.");
    assert_eq!(records[0]["tags"]["Event"], "Torneo de Cebú");
}

#[test]
fn a_set_up_in_the_middle_of_the_moves_does_not_start_the_game() {
    let (records, _) = check("mid-game-fen.pdn", &[]);
    assert_eq!(statuses(&records), ["ok", "illegal"]);
    let lesson = &records[1];
    assert_eq!(lesson["ply"], 3);
    assert_eq!(
        lesson["message"],
        "ply 3 (2.) 6-2 is illegal; the moves from ply 3 follow a set-up (/FEN \"W:W6:B1\"/, \
         line 15) that the game does not reach, and they read from the set-up: a game is \
         replayed from its start"
    );
    // The position before the fault is the game's own, not the set-up's.
    assert_eq!(
        lesson["fen"],
        "W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
}

#[test]
fn moves_written_with_the_other_kinds_joiner_are_noticed_once_a_file() {
    let (records, err) = check("joiners.pdn", &[]);
    assert_eq!(statuses(&records), ["ok", "ok"]);
    let notice = "joiners.pdn: notice: 1 game with quiet moves written with `x` and 2 games with \
                  captures written with `-` (the first: game 1, ply 1); read by their squares";
    assert_eq!(err.matches("notice:").count(), 1, "{err}");
    assert!(err.contains(notice), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let path = crate_path("tests/data/quirks/joiners.pdn");
    let (_, err, code) = run(&db, &["import", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("notice:").count(), 1, "{err}");
}

#[test]
fn variant_auto_returns_a_file_to_inference() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let file = dir.path().join("russian.pdn");
    crate::generate(&file, "russian", 4, 3);
    let name = file.to_str().unwrap();
    let variants = |db: &Path| -> Vec<String> {
        let (out, _, _) = run(db, &["games", "--json"]);
        json_lines(&out)
            .iter()
            .map(|g| {
                format!(
                    "{} {}",
                    g["status"].as_str().unwrap(),
                    g["variant"].as_str().unwrap()
                )
            })
            .collect()
    };
    // Read with a wrong preset given once: the file keeps it.
    let (_, err, code) = run(&db, &["import", "--variant", "english", name]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(variants(&db), ["illegal english"; 4]);
    let (_, err, _) = run(&db, &["import", name]);
    assert!(
        err.contains(&format!(
            "{name}: already imported, unchanged; skipped (read with --variant english, given \
             to an earlier import; --variant auto reads it by its tags and moves)"
        )),
        "{err}"
    );
    assert_eq!(variants(&db), ["illegal english"; 4]);
    // `--variant auto`: inferred again, and from then on.
    let (_, err, code) = run(&db, &["import", "--variant", "auto", name]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(variants(&db), ["ok russian"; 4]);
    let (_, err, _) = run(&db, &["import", name]);
    assert!(
        err.contains(&format!("{name}: already imported, unchanged; skipped\n")),
        "{err}"
    );
    // The same through recheck.
    let (_, err, code) = run(&db, &["import", "--variant", "english", name]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(variants(&db), ["illegal english"; 4]);
    let (out, err, code) = run(&db, &["recheck", "--variant", "auto"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("4  illegal english → ok russian"), "{out}");
    assert_eq!(variants(&db), ["ok russian"; 4]);
    let (_, err, _) = run(&db, &["import", name]);
    assert!(err.contains("unchanged; skipped\n"), "{err}");
}

#[test]
fn a_tag_the_moves_contradict_is_said_to_be() {
    let (records, _) = check("gametype-20-russian.pdn", &[]);
    let record = &records[0];
    // Read as the tag says, the status stays.
    assert_eq!(
        (record["status"].as_str(), record["variant"].as_str()),
        (Some("illegal"), Some("international"))
    );
    assert_eq!(record["variant_from"], "tag");
    assert_eq!(record["reads_ok_under"], serde_json::json!(["russian"]));
    assert_eq!(
        record["message"],
        "ply 1 (1.) c3-d4 is illegal; the tag says international, but the moves are on 8×8 \
         and read ok as russian"
    );
    // The rules given read it.
    let (records, _) = check("gametype-20-russian.pdn", &["--variant", "russian"]);
    assert_eq!(statuses(&records), ["ok"]);
}
