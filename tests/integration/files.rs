//! Files given to `import` and `check` that are not PDN; what `import`
//! says it wrote; the completion scripts and the manual page.

use std::path::{Path, PathBuf};

use crate::{crate_path, json_lines, run};

/// A 1×1 PNG image, whole.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00,
    0x00, 0x05, 0x00, 0x01, 0xE9, 0xFA, 0xDC, 0xD8, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44,
    0xAE, 0x42, 0x60, 0x82,
];

/// The files that are not PDN, each with the reason given for it.
fn not_pdn_files(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let empty = dir.join("empty.pdn");
    std::fs::write(&empty, b"").unwrap();
    let png = dir.join("board.png");
    std::fs::write(&png, PNG).unwrap();
    vec![
        (crate_path("Cargo.toml"), "no tag pair or move in it"),
        (assert_cmd::cargo::cargo_bin("pdndb"), "binary content"),
        (empty, "empty"),
        (png, "binary content"),
    ]
}

fn games_of(db: &Path) -> u64 {
    let (out, err, code) = run(db, &["stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    json_lines(&out)[0]["games"].as_u64().unwrap()
}

#[test]
fn files_that_are_not_pdn_are_skipped_by_import_and_check_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    for (path, why) in not_pdn_files(dir.path()) {
        let path = path.to_str().unwrap();
        let message = format!("{path}: not PDN ({why}); skipped");

        let (out, err, code) = run(&db, &["import", "--json", path]);
        assert_eq!(code, 0, "{path}: {err}");
        assert_eq!(err.lines().collect::<Vec<_>>(), [message.as_str()]);
        let summary = &json_lines(&out)[0];
        assert_eq!(summary["games"], 0, "{path}");
        assert_eq!(summary["files"], 0, "{path}");

        let (out, err, code) = run(&db, &["check", "--json", path]);
        assert_eq!(code, 0, "{path}: {err}");
        assert!(out.is_empty(), "{path}: {out}");
        assert_eq!(err.lines().next(), Some(message.as_str()), "{err}");
        assert!(err.contains("checked 0 games in 0 files"), "{err}");
    }
    assert_eq!(games_of(&db), 0);

    // Among PDN files, in a folder: the summary counts the skipped ones.
    let folder = dir.path().join("games");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a.pdn"), "1. 11-15 23-19 *\n").unwrap();
    std::fs::write(folder.join("b.pdn"), PNG).unwrap();
    let (out, err, code) = run(&db, &["import", folder.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("b.pdn: not PDN (binary content); skipped"),
        "{err}"
    );
    assert!(
        out.starts_with("1 files read, 0 already imported, 1 not PDN; 1 games added"),
        "{out}"
    );
    assert_eq!(games_of(&db), 1);
}

#[test]
fn text_in_any_encoding_and_games_without_tags_or_moves_still_import() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let text = "[White \"Müller\"]\n[Black \"Peña\"]\n1. 11-15 23-19 *\n";
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let files: [(&str, Vec<u8>); 4] = [
        (
            "cp1252.pdn",
            b"[White \"M\xFCller\"]\n[Black \"Pe\xF1a\"]\n1. 9-13 22-18 *\n".to_vec(),
        ),
        ("utf16.pdn", utf16),
        ("fen.pdn", b"[FEN \"W:W21:B1\"]\n".to_vec()),
        ("tagless.pdn", b"1. 11-15 24-20 *\n".to_vec()),
    ];
    let mut paths = Vec::new();
    for (name, bytes) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        paths.push(path.to_str().unwrap().to_string());
    }
    let mut args = vec!["import", "--json"];
    args.extend(paths.iter().map(String::as_str));
    let (out, err, code) = run(&db, &args);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("not PDN"), "{err}");
    let summary = &json_lines(&out)[0];
    assert_eq!(summary["files"], 4, "{out}");
    assert_eq!(summary["games"], 4, "{out}");
    assert_eq!(games_of(&db), 4);

    // Both encodings' names read right.
    for path in &paths[..2] {
        let (out, err, _) = run(&db, &["check", "--json", path]);
        let record = &json_lines(&out)[0];
        assert_eq!(record["tags"]["White"], "Müller", "{path}: {err}");
        assert_eq!(record["tags"]["Black"], "Peña", "{path}");
    }
}

#[test]
fn import_names_the_database_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("named.sqlite");
    let pdn = crate_path("sample-pdn/seed-numeric.pdn");
    let pdn = pdn.to_str().unwrap();
    let (out, err, code) = run(&db, &["import", pdn]);
    assert_eq!(code, 0, "{err}");
    let db_text = db.to_str().unwrap();
    assert!(
        out.trim_end().ends_with(&format!(" into {db_text}")),
        "{out}"
    );
    let (out, _, _) = run(&db, &["import", "--json", pdn]);
    assert_eq!(json_lines(&out)[0]["database"], db_text);

    // A relative --db is named by its absolute path.
    let out = crate::pdndb(Path::new("rel.sqlite"))
        .current_dir(dir.path())
        .args(["import", pdn])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let absolute = dir.path().join("rel.sqlite");
    assert!(
        text.contains(&format!(" into {}", absolute.display())),
        "{text}"
    );
}

#[test]
fn completion_scripts_name_the_subcommands() {
    let db = Path::new("unused.sqlite");
    for shell in ["bash", "zsh", "fish"] {
        let (out, err, code) = run(db, &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for name in ["import", "search", "report", "variant"] {
            assert!(out.contains(name), "{shell}: {name}");
        }
    }
    let (_, err, code) = run(db, &["completions", "cmd.exe"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value"), "{err}");
}

#[test]
fn the_manual_page_is_roff_naming_the_commands() {
    let (out, err, code) = run(Path::new("unused.sqlite"), &["man"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l.starts_with(".TH pdndb 1")), "{out}");
    assert!(out.contains(".SH NAME"), "{out}");
    for name in ["import", "search", "check", "report", "export"] {
        assert!(out.contains(name), "{name}");
    }
}
