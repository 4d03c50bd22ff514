//! Reading and replaying on several threads gives what one thread gives:
//! `check` (text, JSON, messages, exit status) and `import` (the database)
//! with `--jobs 1`, 2 and 3, on generated files of every variant, damaged
//! copies of them, `sample-pdn/`, the pathological inputs of the
//! robustness suite and, when it is there, the corpus of real archives.

use std::path::{Path, PathBuf};

use crate::reimport::assert_same;
use crate::robust::{pathological_inputs, run_measured};
use crate::{crate_path, generate, pdndb};

/// What a run of the binary gives: exit status, stdout, stderr.
type Outcome = (Option<i32>, Vec<u8>, Vec<u8>);

fn run_in(db: &Path, args: &[&str], paths: &[PathBuf]) -> Outcome {
    let out = pdndb(db).args(args).args(paths).output().unwrap();
    (out.status.code(), out.stdout, out.stderr)
}

/// Asserts `check` (text and JSON) gives the same with 2 and 3 threads as
/// with 1; returns the exit status.
fn assert_check_alike(dir: &Path, paths: &[PathBuf], context: &str) -> Option<i32> {
    let db = dir.join("unused.sqlite");
    let mut status = None;
    for json in [false, true] {
        let args = |jobs: &'static str| {
            let mut args = vec!["check", "--jobs", jobs];
            if json {
                args.push("--json");
            }
            args
        };
        let one = run_in(&db, &args("1"), paths);
        assert!(matches!(one.0, Some(0..=2)), "{context}: {one:?}");
        for jobs in ["2", "3"] {
            let many = run_in(&db, &args(jobs), paths);
            assert!(
                many == one,
                "{context}: check --jobs {jobs} (json: {json}) differs from --jobs 1\n{}",
                first_difference(&one, &many)
            );
        }
        status = one.0;
    }
    status
}

/// The first line where two runs differ, for the message of a failure.
fn first_difference(one: &Outcome, many: &Outcome) -> String {
    for (stream, a, b) in [("stdout", &one.1, &many.1), ("stderr", &one.2, &many.2)] {
        let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
        if let Some((x, y)) = a.lines().zip(b.lines()).find(|(x, y)| x != y) {
            return format!("{stream}: {x:?}\n   against {y:?}");
        }
        if a.lines().count() != b.lines().count() {
            return format!(
                "{stream}: {} lines against {}",
                a.lines().count(),
                b.lines().count()
            );
        }
    }
    format!("exit {:?} against {:?}", one.0, many.0)
}

/// Damage done to a generated file, by its number, block by block (the
/// blocks between blank lines: a game's tags, its movetext).
fn damage(text: &[u8], kind: usize) -> Vec<u8> {
    let text = String::from_utf8_lossy(text).into_owned();
    let games: Vec<&str> = text.split_inclusive("\n\n").collect();
    match kind % 6 {
        // Cut in the middle of its last game.
        0 => {
            let cut = text.len() - games.last().map_or(0, |g| g.len() / 2);
            text.as_bytes()[..cut].to_vec()
        }
        // Junk lines between games and inside movetext.
        1 => games
            .iter()
            .enumerate()
            .map(|(k, g)| match k % 4 {
                0 => format!("this is not PDN at all\n{g}"),
                1 => g.replacen("\n1. ", "\n%escaped line\n1. ", 1),
                2 => g.replacen(" 2. ", " ]]] )) 2. ", 1),
                _ => (*g).to_string(),
            })
            .collect::<String>()
            .into_bytes(),
        // A bad move in every third game.
        2 => games
            .iter()
            .enumerate()
            .map(|(k, g)| {
                if k % 3 == 0 {
                    g.replacen(" 3. ", " 3. 99-98 ", 1)
                } else {
                    (*g).to_string()
                }
            })
            .collect::<String>()
            .into_bytes(),
        // Windows-1252 bytes from the third game on, after UTF-8 ones in
        // the second: the encoding is named on the third.
        3 => {
            let mut bytes = Vec::new();
            for (k, g) in games.iter().enumerate() {
                if k == 2 {
                    bytes.extend_from_slice("[Annotator \"Müller\"]\n".as_bytes());
                } else if k >= 4 && k % 2 == 0 {
                    bytes.extend_from_slice(b"[Annotator \"M\xfcller, caf\xe9\"]\n");
                }
                bytes.extend_from_slice(g.as_bytes());
            }
            bytes
        }
        // CRLF line ends and a byte-order mark.
        4 => {
            let mut bytes = vec![0xEF, 0xBB, 0xBF];
            bytes.extend_from_slice(text.replace('\n', "\r\n").as_bytes());
            bytes
        }
        // Games without their result, and a tag never closed.
        _ => games
            .iter()
            .enumerate()
            .map(|(k, g)| match k % 5 {
                0 => g.replacen(" *\n", "\n", 1).replacen(" 1-0\n", "\n", 1),
                1 => g
                    .replacen("[Event \"", "[Event \"open ", 1)
                    .replacen("\"]\n", "\n", 1),
                _ => (*g).to_string(),
            })
            .collect::<String>()
            .into_bytes(),
    }
}

/// 100 generated files of every variant, some damaged, of 1 to about 200
/// games, and one of 3,000 games, damaged: the first games of a file
/// choose its preset whatever their number.
fn generated_files(dir: &Path) -> PathBuf {
    let files = dir.join("generated");
    std::fs::create_dir_all(&files).unwrap();
    let presets = crate::presets();
    for k in 0..100usize {
        let variant = presets[k % presets.len()];
        let path = files.join(format!("{k:03}-{variant}.pdn"));
        let games = [1, 7, 40, 63, 64, 65, 130, 200][k % 8];
        generate(&path, variant, games, 1000 + k as u64);
        if k % 3 != 0 {
            let text = std::fs::read(&path).unwrap();
            std::fs::write(&path, damage(&text, k / 3)).unwrap();
        }
    }
    let big = files.join("big-russian.pdn");
    generate(&big, "russian", 3000, 7);
    let text = std::fs::read(&big).unwrap();
    std::fs::write(&big, damage(&text, 3)).unwrap();
    files
}

#[test]
fn check_gives_the_same_on_any_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let files = generated_files(dir.path());
    let status = assert_check_alike(dir.path(), &[files], "generated files");
    assert_eq!(status, Some(1), "the damaged files hold problem games");
    let status = assert_check_alike(dir.path(), &[crate_path("sample-pdn")], "sample-pdn");
    assert_eq!(status, Some(1), "sample-pdn holds problem games");
}

#[test]
fn check_gives_the_same_on_any_number_of_threads_on_the_corpus() {
    let Some(corpus) = crate::skip::corpus(
        "check_gives_the_same_on_any_number_of_threads_on_the_corpus",
        "",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = walk(&corpus);
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        assert_check_alike(
            dir.path(),
            std::slice::from_ref(&file),
            &file.display().to_string(),
        );
    }
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
        {
            files.push(path);
        }
    }
    files
}

/// A file whose chunk starts, in chunks of a few bytes to a few hundred,
/// fall at every tricky place: `[` lines inside comments and after junk,
/// results in comments, `1-1` as a move and as a result, unterminated
/// comments and tags, games without a result, CRLF, a byte-order mark and
/// text in Windows-1252 after text in UTF-8 (the encoding named once).
fn tricky_file(dir: &Path) -> PathBuf {
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    let games: [&[u8]; 12] = [
        b"[Event \"a\"]\n1. 11-15 23-19 {a note\n1-0\n\n[Event \"in a comment\"]\n} 2. 8-11 *\n\n",
        b"[Event \"b\"]\n1. 11-15 23-19 1-0\n\nnot a game at all\n\n",
        "[White \"M\u{fc}ller\"]\n1. 11-15 23-19 0-1\n\n".as_bytes(),
        b"[Event \"d\"]\r\n1. 11-15 23-19\r\n\r\n",
        b"[Event \"e\"]\n[GameType \"26\"]\n1. 11-1 1-1\n\n",
        b"[Event \"f\"]\n1. 11-15 {never closed\n1. 9-13 *\n\n",
        b"[White \"Pe\xf1a\"]\n1. 11-15 23-19 {caf\xe9} 1/2-1/2\n\n",
        b"[Event \"h\"]\n1. 11-15 23-19 (2. 8-11 1-0\n\n[Event \"i\"]\n) *\n\n",
        b"[Event \"j\n1. 11-15 *\n\n",
        b"%escape line\n[Event \"k\"]\n1. 11-15 1-0 [Event \"l\"] 1. 9-13 0-1\n\n",
        b"1. 11-15 23-19 *\n\n",
        b"[Event \"m\"]\n1. 11-15 23-19 2-0\n\n\n\n",
    ];
    for round in 0..6 {
        for (k, game) in games.iter().enumerate() {
            if (k + round) % 5 != 0 {
                bytes.extend_from_slice(game);
            }
        }
    }
    bytes.extend_from_slice(b"junk after the last game\n");
    let path = dir.join("tricky.pdn");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `check` reading in chunks of a few bytes to a few kilobytes (their
/// starts at every place) gives what one reader gives.
#[test]
fn check_gives_the_same_in_chunks_of_any_size() {
    let dir = tempfile::tempdir().unwrap();
    let tricky = tricky_file(dir.path());
    let big = dir.path().join("big.pdn");
    generate(&big, "english", 300, 3);
    let damaged = dir.path().join("damaged.pdn");
    let text = std::fs::read(&big).unwrap();
    let mut worse = damage(&text, 1);
    worse.extend_from_slice(&damage(&text, 3));
    worse.extend_from_slice(&damage(&text, 5));
    std::fs::write(&damaged, worse).unwrap();
    let db = dir.path().join("unused.sqlite");
    for path in [&tricky, &big, &damaged] {
        for json in [false, true] {
            let mut args = vec!["check"];
            if json {
                args.push("--json");
            }
            let one = run_in(
                &db,
                &[&args[..], &["--jobs", "1"]].concat(),
                std::slice::from_ref(path),
            );
            for chunk in ["1", "13", "97", "400", "3000"] {
                let out = pdndb(&db)
                    .env("PDNDB_CHUNK_BYTES", chunk)
                    .args(&args)
                    .args(["--jobs", "2"])
                    .arg(path)
                    .output()
                    .unwrap();
                let many = (out.status.code(), out.stdout, out.stderr);
                assert!(
                    many == one,
                    "{}: chunks of {chunk} bytes (json: {json}) differ from one reader\n{}",
                    path.display(),
                    first_difference(&one, &many)
                );
            }
        }
    }
}

#[test]
fn import_stores_the_same_on_any_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let files = generated_files(dir.path());
    let paths = [files, crate_path("sample-pdn")];
    let import = |jobs: &str| {
        let db = dir.path().join(format!("jobs{jobs}.sqlite"));
        let (code, _, err) = run_in(&db, &["import", "--quiet", "--jobs", jobs], &paths);
        assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&err));
        db
    };
    let views = |db: &Path| -> Vec<Outcome> {
        [
            &["export"][..],
            &["report", "--json"],
            &["games", "--json"],
            &["stats", "--json"],
        ]
        .iter()
        .map(|args| run_in(db, args, &[]))
        .collect()
    };
    let one = import("1");
    let seen = views(&one);
    assert!(seen[0].1.len() > 100_000, "the games are exported");
    let two = import("2");
    let also = views(&two);
    for (k, (a, b)) in seen.iter().zip(&also).enumerate() {
        assert!(a == b, "view {k} differs\n{}", first_difference(a, b));
    }
    assert_same(&two, &one, "import --jobs 2");
}

/// An import reading its files in chunks (their starts at every place)
/// stores what one reader stores.
#[test]
fn import_stores_the_same_in_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let tricky = tricky_file(dir.path());
    let big = dir.path().join("big.pdn");
    generate(&big, "russian", 500, 11);
    let paths = [tricky, big];
    let import = |jobs: &str, chunk: &str| {
        let db = dir.path().join(format!("jobs{jobs}-{chunk}.sqlite"));
        let out = pdndb(&db)
            .env("PDNDB_CHUNK_BYTES", chunk)
            .args(["import", "--quiet", "--jobs", jobs])
            .args(&paths)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        db
    };
    let one = import("1", "0");
    for chunk in ["7", "500"] {
        let many = import("2", chunk);
        for args in [&["export"][..], &["report", "--json"], &["games", "--json"]] {
            let (a, b) = (run_in(&one, args, &[]), run_in(&many, args, &[]));
            assert!(a == b, "{args:?} differs\n{}", first_difference(&a, &b));
        }
        assert_same(&many, &one, "import in chunks");
    }
}

#[test]
fn pathological_inputs_read_alike_on_two_threads_in_bounded_memory() {
    const BEFORE: &str = "[Event \"before\"]\n1. 23-18 10-15 *\n\n";
    const AFTER: &str = "\n\n[Event \"after\"]\n1. 23-18 10-15 *\n";
    let dir = tempfile::tempdir().unwrap();
    // All of them in one file too: each between two sound games.
    let mut all = Vec::new();
    for (name, middle) in pathological_inputs() {
        let mut bytes = BEFORE.as_bytes().to_vec();
        bytes.extend_from_slice(&middle);
        bytes.extend_from_slice(AFTER.as_bytes());
        all.extend_from_slice(&bytes);
        let path = dir.path().join("input.pdn");
        std::fs::write(&path, &bytes).unwrap();
        assert_measured_alike(&path, name);
    }
    let path = dir.path().join("all.pdn");
    std::fs::write(&path, &all).unwrap();
    assert_measured_alike(&path, "all in one file");
}

/// `check --json` of a file with 1 and 2 threads: the same output, and
/// memory bounded as for one.
fn assert_measured_alike(path: &Path, name: &str) {
    let file = path.to_str().unwrap();
    let (out1, err1, code1, _) = run_measured(&["check", "--json", "--jobs", "1", file], None);
    let (out2, err2, code2, peak) = run_measured(&["check", "--json", "--jobs", "2", file], None);
    assert!(!err2.contains("panicked"), "{name}: {err2}");
    assert_eq!(code2, code1, "{name}");
    assert!(out2 == out1, "{name}: stdout differs");
    assert!(err2 == err1, "{name}: stderr differs\n{err1}\n{err2}");
    assert!(peak < 300, "{name}: check --jobs 2 peaked at {peak} MiB");
}
