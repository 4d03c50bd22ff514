//! Control characters from files (tag values, comments, move text, file
//! names) never reach the terminal raw: listings and messages show them
//! as escapes (`\x1b`), JSON escapes them and reads back the original.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{json_lines, pdndb};

const TITLE: &str = "\u{1b}]0;pwned\u{7}";
const CLEAR: &str = "\u{1b}[2J";
const CLIPBOARD: &str = "\u{1b}]52;c;ZXZpbA==\u{7}";

/// A file whose name holds a terminal sequence, with a game whose tags
/// and comment hold others, and an illegal game whose tags hold DEL and a
/// C1 control.
fn hostile_file(dir: &Path) -> PathBuf {
    let path = dir.join(format!("games{TITLE}.pdn"));
    let text = format!(
        "[Event \"Club {TITLE} night\"]\n[White \"Ann {CLEAR}Lee\"]\n[Black \"Bob{CLIPBOARD}\"]\n\
         [Result \"1-0\"]\n1. 22-18 {{look {TITLE} here}} 11-15 2. 18x11{CLEAR} 8x15 1-0\n\n\
         [Event \"Open\u{7f}\u{9b}2J\"]\n[White \"Cy\u{9b}31m\"]\n[Result \"*\"]\n\
         1. 22-18 11-15 2. 24-20 - - *\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// Standard output and error of `pdndb --db DB ARGS…`, as bytes, and the
/// exit code.
fn output(db: &Path, args: &[&str]) -> (Vec<u8>, Vec<u8>, i32) {
    let out = pdndb(db).args(args).output().unwrap();
    (out.stdout, out.stderr, out.status.code().unwrap_or(-1))
}

/// The control characters a terminal acts on, found in `bytes`: C0 but
/// tab and line feed, DEL, and C1 (encoded in UTF-8).
fn raw_controls(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    text.char_indices()
        .filter(|(_, c)| c.is_control() && *c != '\t' && *c != '\n')
        .map(|(i, c)| format!("{c:?} at {i} in …{}", &text[i.saturating_sub(30)..i]))
        .collect()
}

#[test]
fn listings_and_messages_show_control_characters_as_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_file(dir.path());
    let file_name = file.to_str().unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = output(&db, &["import", "--quiet", file_name]);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    let commands: [&[&str]; 12] = [
        &["import", "--quiet", file_name],
        &["show", "1"],
        &["show", "2"],
        &["search", "--moves", "22-18"],
        &["search", "--moves", "22-18", "--player", "Ann"],
        &["report"],
        &["report", "--twins"],
        &["check", file_name],
        &["games"],
        &["players"],
        &["tree"],
        &["stats"],
    ];
    for args in commands {
        let (out, err, code) = output(&db, args);
        assert!(code == 0 || code == 1, "{args:?}: {code}");
        for (stream, bytes) in [("stdout", &out), ("stderr", &err)] {
            let raw = raw_controls(bytes);
            assert!(raw.is_empty(), "{args:?} {stream}: {raw:?}");
        }
    }
    // The file name is shown with its escapes where a listing names it.
    let escaped = "games\\x1b]0;pwned\\x07.pdn";
    for args in [
        &["show", "1"][..],
        &["search", "--moves", "22-18"],
        &["report"],
        &["games"],
    ] {
        let (out, _, _) = output(&db, args);
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains(escaped), "{args:?}: {out}");
    }
    let (out, err, code) = output(&db, &["check", file_name]);
    assert_eq!(code, 1);
    let (out, err) = (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    );
    assert!(out.contains(escaped), "{out}");
    assert!(err.contains(escaped), "warnings name the file: {err}");
    // A message naming the file: one that cannot be read.
    let missing = dir.path().join(format!("gone{CLEAR}.pdn"));
    let (_, err, code) = output(&db, &["check", missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    let err = String::from_utf8(err).unwrap();
    assert!(err.contains("gone\\x1b[2J.pdn"), "{err}");
    assert!(raw_controls(err.as_bytes()).is_empty(), "{err}");
}

#[test]
fn json_escapes_control_characters_and_reads_back_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_file(dir.path());
    let file_name = file.to_str().unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = output(&db, &["import", "--quiet", "--json", file_name]);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    // Which game a record is, checking that its file and tags read back
    // as they were (`games` shows tags cleaned, as in its listing).
    let original = |record: &Value, cleaned: bool| {
        assert_eq!(record["file"], file_name, "{record}");
        let tags = &record["tags"];
        let first = tags["Result"] == "1-0";
        if cleaned {
            let event = if first {
                "Club ]0;pwned night"
            } else {
                "Open 2J"
            };
            assert_eq!(tags["Event"], event, "{record}");
        } else if first {
            assert_eq!(tags["Event"], format!("Club {TITLE} night"));
            assert_eq!(tags["White"], format!("Ann {CLEAR}Lee"));
            assert_eq!(tags["Black"], format!("Bob{CLIPBOARD}"));
        } else {
            assert_eq!(tags["Event"], "Open\u{7f}\u{9b}2J", "{record}");
            assert_eq!(tags["White"], "Cy\u{9b}31m", "{record}");
        }
        if first { 1 } else { 2 }
    };
    for (args, cleaned) in [
        (&["show", "1", "--json"][..], false),
        (&["show", "2", "--json"], false),
        (&["search", "--moves", "22-18", "--json"], false),
        (&["report", "--json"], false),
        (&["games", "--json"], true),
        (&["check", file_name, "--json"], false),
    ] {
        let (out, err, _) = output(&db, args);
        let raw = raw_controls(&out);
        assert!(raw.is_empty(), "{args:?}: {raw:?}");
        assert!(raw_controls(&err).is_empty(), "{args:?}");
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\\u001b"), "{args:?}: {text}");
        let records = json_lines(&text);
        assert!(!records.is_empty(), "{args:?}");
        for record in &records {
            original(record, cleaned);
        }
    }
    let (out, _, _) = output(&db, &["report", "--json"]);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Open\\u007f\\u009b2J"), "{text}");
    let (out, _, _) = output(&db, &["check", file_name, "--json"]);
    let records = json_lines(&String::from_utf8(out).unwrap());
    let games: Vec<i32> = records.iter().map(|r| original(r, false)).collect();
    assert_eq!(games, [1, 2]);
}

/// Standard output of `pdndb --db DB ARGS…` run on a terminal (through
/// `script`, from Debian's bsdutils), with the terminal's line ends made
/// plain; an error saying why where no terminal could be made.
fn on_terminal(db: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let mut command = vec![
        quote(env!("CARGO_BIN_EXE_pdndb")),
        "--db".to_string(),
        quote(db.to_str().unwrap()),
    ];
    command.extend(args.iter().map(|a| quote(a)));
    let out = std::process::Command::new("script")
        .args(["-qec", &command.join(" "), "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("`script` cannot run ({e}): install Debian's bsdutils"))?;
    if !out.status.success() {
        return Err(format!(
            "`script` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8(out.stdout)
        .unwrap()
        .replace("\r\n", "\n")
        .into_bytes())
}

#[test]
fn export_shows_control_characters_as_escapes_on_a_terminal_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let file = hostile_file(dir.path());
    let (_, err, code) = output(&db, &["import", "--quiet", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    // To a pipe or a file: the bytes as they were, the same either way.
    let (piped, _, code) = output(&db, &["export"]);
    assert_eq!(code, 0);
    let text = String::from_utf8(piped.clone()).unwrap();
    assert!(text.contains(&format!("{{look {TITLE} here}}")), "{text}");
    let target = dir.path().join("out.pdn");
    let (_, _, code) = output(&db, &["export", "-o", target.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&target).unwrap(), piped);
    // To a terminal: escapes, nothing raw.
    let shown = match on_terminal(&db, &["export"]) {
        Ok(shown) => shown,
        Err(why) => {
            let test = "export_shows_control_characters_as_escapes_on_a_terminal_only";
            crate::skip::must_run(test, &why);
            return;
        }
    };
    assert_eq!(raw_controls(&shown), Vec::<String>::new());
    let shown = String::from_utf8(shown).unwrap();
    assert!(shown.contains("{look \\x1b]0;pwned\\x07 here}"), "{shown}");
    assert_eq!(
        shown.lines().count(),
        text.lines().count() + 1,
        "the same lines, and the message: {shown}"
    );
}
