//! `pdndb man`: every page renders with `man` without a warning, names
//! every option of its command, and its examples run on the sample files.

use std::path::Path;
use std::process::Command;

use crate::skip::must_run;
use crate::{crate_path, pdndb, run};

/// The commands `pdndb --help` lists (but `help`).
fn commands(db: &Path) -> Vec<String> {
    let (out, _, code) = run(db, &["--help"]);
    assert_eq!(code, 0);
    out.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The long options `pdndb ARGS… --help` lists.
fn options(db: &Path, args: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    all.push("--help");
    let (out, err, code) = run(db, &all);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l
                .strip_prefix('-')
                .filter(|r| !r.starts_with('-'))
                .map_or(l, |r| r.split_once(", ").map_or(l, |(_, rest)| rest));
            let name = l.strip_prefix("--")?;
            let name: String = name
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            (!name.is_empty()).then(|| format!("--{name}"))
        })
        .collect()
}

/// `man -l` of a page in `locale`: its text (formatting removed) and its
/// warnings.
fn render(page: &Path, locale: &str) -> (String, String) {
    let out = Command::new("man")
        .args(["-l", "--warnings"])
        .arg(page)
        .env("MANWIDTH", "80")
        .env("LC_ALL", locale)
        .env("MAN_KEEP_FORMATTING", "")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", page.display());
    let text = String::from_utf8_lossy(&out.stdout);
    // Overstruck bold and underline: `c\bc`, `_\bc`.
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    (plain, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Words of a command line as a shell splits them (double quotes only).
fn words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut started) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, started) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

#[test]
fn every_command_has_a_page_that_renders_names_its_options_and_shows_examples_that_run() {
    let test = "man_pages::every_command_has_a_page_that_renders_names_its_options_and_shows_examples_that_run";
    if Command::new("man").arg("--version").output().is_err() {
        must_run(test, "`man` (Debian's man-db) is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("man.sqlite");
    let pages = dir.path().join("pages");
    let (out, err, code) = run(&db, &["man", "--dir", pages.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let commands = commands(&db);
    assert!(commands.len() >= 19, "{commands:?}");
    assert!(
        out.contains(&format!("{} pages written", commands.len() + 1)),
        "{out}"
    );
    // The main page on standard output is the one written.
    let (main, _, _) = run(&db, &["man"]);
    assert_eq!(
        main,
        std::fs::read_to_string(pages.join("pdndb.1")).unwrap()
    );
    let (import, _, _) = run(&db, &["man", "import"]);
    assert_eq!(
        import,
        std::fs::read_to_string(pages.join("pdndb-import.1")).unwrap()
    );
    let (_, err, code) = run(&db, &["man", "nothing"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("\"nothing\" is not a command of pdndb"),
        "{err}"
    );

    let mut examples = Vec::new();
    let mut all = vec![(String::from("pdndb.1"), options(&db, &[]))];
    for name in &commands {
        all.push((format!("pdndb-{name}.1"), options(&db, &[name])));
    }
    assert_eq!(std::fs::read_dir(&pages).unwrap().count(), all.len());
    for (file, options) in &all {
        let (_, warnings) = render(&pages.join(file), "C.UTF-8");
        assert_eq!(warnings, "", "{file}");
        let (text, warnings) = render(&pages.join(file), "C");
        assert_eq!(warnings, "", "{file}");
        for option in options {
            assert!(
                text.contains(option.as_str()),
                "{file} lacks {option}:\n{text}"
            );
        }
        // The section's lines, indented, up to the next heading or the
        // footer.
        let shown: Vec<String> = text
            .lines()
            .skip_while(|l| l.trim() != "EXAMPLES")
            .skip(1)
            .take_while(|l| l.is_empty() || l.starts_with(' '))
            .map(str::trim)
            // Not the footer (`pdndb 0.1.0   pdndb(1)`).
            .filter(|l| l.starts_with("pdndb ") && !l.contains("  "))
            .map(str::to_string)
            .collect();
        assert!(!shown.is_empty(), "{file} has no examples:\n{text}");
        examples.extend(shown);
    }

    // Each example runs (but the server) on the sample files, from a
    // folder that holds them, against a database that holds them.
    let work = dir.path().join("work");
    let samples = work.join("sample-pdn");
    std::fs::create_dir_all(&samples).unwrap();
    for entry in std::fs::read_dir(crate_path("sample-pdn")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, samples.join(path.file_name().unwrap())).unwrap();
    }
    let imported = work.join("imported.sqlite");
    let out = pdndb(&imported)
        .current_dir(&work)
        .args(["import", "--quiet", "sample-pdn"])
        .output()
        .unwrap();
    assert!(out.status.success());
    for line in examples.iter().filter(|l| !l.starts_with("pdndb serve")) {
        let words = words(line);
        let db = work.join("pdndb.sqlite");
        std::fs::copy(&imported, &db).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_pdndb"))
            .current_dir(&work)
            .args(&words[1..])
            .env_remove("PDNDB_DB")
            .output()
            .unwrap();
        // `report` and `check` say 1 when they list problem games.
        let code = out.status.code();
        let listing = ["report", "check"].contains(&words[1].as_str());
        assert!(
            code == Some(0) || (listing && code == Some(1)),
            "{line}: {code:?}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
