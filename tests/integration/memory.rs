//! Memory stays bounded however much a command reads or writes: the peak
//! resident memory of the real binary (its `VmHWM`) importing long games
//! or long tags, listing many games and removing them.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::robust::run_measured;

/// An English game of two kings going back and forth, `plies` long: legal
/// however long it goes (no rule of pdndb ends it).
fn long_game(index: usize, plies: usize) -> String {
    let mut text =
        format!("[Event \"Long game {index}\"]\n[GameType \"21\"]\n[FEN \"W:WK32:BK1\"]\n\n");
    for (ply, mv) in ["32-27", "1-6", "27-32", "6-1"]
        .iter()
        .cycle()
        .take(plies)
        .enumerate()
    {
        if ply % 2 == 0 {
            let _ = write!(text, "{}. ", ply / 2 + 1);
        }
        text.push_str(mv);
        text.push(if ply % 16 == 15 { '\n' } else { ' ' });
    }
    text.push_str("*\n\n");
    text
}

/// Full sizes in release builds, smaller in debug builds.
fn size(full: usize) -> usize {
    if cfg!(debug_assertions) {
        full / 10
    } else {
        full
    }
}

#[test]
fn importing_and_rechecking_long_games_stays_under_128_mib() {
    // 200 games of 20,000 plies (the most a game may have): 4 million
    // plies. Holding them as read, or their moves until written, takes
    // several hundred MiB.
    let dir = tempfile::tempdir().unwrap();
    let games = size(200);
    let mut text = String::new();
    for index in 1..=games {
        text.push_str(&long_game(index, 20_000));
    }
    let file = dir.path().join("long.pdn");
    std::fs::write(&file, text).unwrap();
    let db = dir.path().join("long.sqlite");
    let (out, err, code, peak) =
        run_measured(&["import", "--json", file.to_str().unwrap()], Some(&db));
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["ok"], games, "{summary}");
    assert!(peak < 128, "import of long games peaked at {peak} MiB");
    // Read again (as the next import does for a file read by an older
    // version) a game at a time.
    let (out, err, code, peak) = run_measured(&["recheck", "--json"], Some(&db));
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["games"], games, "{summary}");
    assert!(peak < 128, "recheck of long games peaked at {peak} MiB");
    let (out, _, _, _) = run_measured(&["show", "1", "--json"], Some(&db));
    let game: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(game["moves"].as_array().map(Vec::len), Some(20_000));
}

#[test]
fn checking_long_games_on_two_threads_stays_under_128_mib_and_reads_alike() {
    let dir = tempfile::tempdir().unwrap();
    let games = size(200);
    let mut text = String::new();
    for index in 1..=games {
        text.push_str(&long_game(index, 20_000));
    }
    let file = dir.path().join("long.pdn");
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let (one, err, code, _) = run_measured(&["check", "--json", "--jobs", "1", file], None);
    assert_eq!(code, 0, "{err}");
    let (two, err, code, peak) = run_measured(&["check", "--json", "--jobs", "2", file], None);
    assert_eq!(code, 0, "{err}");
    assert!(two == one, "check --jobs 2 differs from --jobs 1");
    assert!(
        peak < 128,
        "check --jobs 2 of long games peaked at {peak} MiB"
    );
}

/// Generated games with White's third move made illegal.
fn problem_games(dir: &Path, games: usize) -> std::path::PathBuf {
    let file = dir.join("problems.pdn");
    let (_, err, code, _) = run_measured(
        &[
            "generate",
            "--games",
            &games.to_string(),
            "--seed",
            "5",
            "-o",
            file.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut broken = String::with_capacity(text.len());
    for game in text.split_inclusive("\n\n[") {
        let at = game
            .find("\n3. ")
            .or_else(|| game.find(" 3. "))
            .map(|at| at + 4);
        match at {
            Some(at) => {
                let end = game[at..].find([' ', '\n']).map_or(game.len(), |e| at + e);
                broken.push_str(&game[..at]);
                broken.push_str("9-13");
                broken.push_str(&game[end..]);
            }
            None => broken.push_str(game),
        }
    }
    std::fs::write(&file, broken).unwrap();
    file
}

#[test]
fn listing_many_games_stays_under_32_mib() {
    // Each listing writes its games as it reads them: holding them (their
    // records, tags and boards) takes 2 to 13 KiB a game.
    let dir = tempfile::tempdir().unwrap();
    let games = size(20_000);
    let file = problem_games(dir.path(), games);
    let db = dir.path().join("problems.sqlite");
    let (out, err, code, _) =
        run_measured(&["import", "--json", file.to_str().unwrap()], Some(&db));
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["illegal"], games, "{summary}");
    let page = dir.path().join("report.html");
    let start = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let listings: [(&[&str], usize); 5] = [
        (&["report", "--html", page.to_str().unwrap()], 0),
        (&["report", "--json"], games),
        (&["search", "--limit", "0", "--json", "--fen", start], games),
        (&["games", "--limit", "0", "--json"], games),
        (&["export"], 0),
    ];
    for (args, lines) in listings {
        let (out, err, code, peak) = run_measured(args, Some(&db));
        assert!(code == 0 || code == 1, "{args:?}: exit {code}\n{err}");
        if lines > 0 {
            assert_eq!(out.lines().count(), lines, "{args:?}");
        }
        assert!(peak < 32, "{args:?} peaked at {peak} MiB");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<details class=\"game\"").count(), games);
}

/// Writes `games` generated games (seed `seed`) to `file`.
fn generated(file: &Path, games: usize, seed: u64) {
    let (_, err, code, _) = run_measured(
        &[
            "generate",
            "--games",
            &games.to_string(),
            "--seed",
            &seed.to_string(),
            "-o",
            file.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn removing_a_file_of_many_games_stays_under_80_mib() {
    // Taking 50,000 games out of the index at once: holding every chunk of
    // the index that has one of their entries takes some 1.2 KiB a game
    // (100 MiB here), rewriting them batch by batch a few MiB.
    let dir = tempfile::tempdir().unwrap();
    let (kept, leaving) = (dir.path().join("kept.pdn"), dir.path().join("leaving.pdn"));
    generated(&kept, size(2_000), 6);
    generated(&leaving, size(50_000), 5);
    let db = dir.path().join("db.sqlite");
    let (_, err, code, _) = run_measured(
        &[
            "import",
            "--quiet",
            kept.to_str().unwrap(),
            leaving.to_str().unwrap(),
        ],
        Some(&db),
    );
    assert_eq!(code, 0, "{err}");
    let (out, err, code, peak) =
        run_measured(&["remove", "--json", leaving.to_str().unwrap()], Some(&db));
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["games"], size(50_000), "{summary}");
    assert!(peak < 80, "removal peaked at {peak} MiB");
    let (out, err, code, _) = run_measured(&["stats", "--check"], Some(&db));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("check: consistent"), "{out}");
}

#[test]
fn importing_games_with_tags_of_1_mb_stays_under_256_mib() {
    // 160 games whose White is some 1 MB long (under the 1 MiB a tag may
    // take): counting players until the transaction ends, or sorting
    // their names in memory to build the index on them, takes 300 MiB.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tags.pdn");
    let games = size(160);
    generated(&file, games, 11);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut long = String::with_capacity(games * 1_000_100);
    for (n, line) in text.lines().enumerate() {
        match line.strip_prefix("[White \"") {
            Some(name) => {
                let mut value = String::with_capacity(1_000_000);
                for i in 0.. {
                    if value.len() >= 1_000_000 {
                        break;
                    }
                    let _ = write!(value, "{} {n} {i} ", name.trim_end_matches("\"]"));
                }
                let _ = writeln!(long, "[White \"{value}\"]");
            }
            None => {
                long.push_str(line);
                long.push('\n');
            }
        }
    }
    std::fs::write(&file, long).unwrap();
    let db = dir.path().join("tags.sqlite");
    let (out, err, code, peak) =
        run_measured(&["import", "--json", file.to_str().unwrap()], Some(&db));
    assert_eq!(code, 0, "{err}");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["ok"], games, "{summary}");
    assert!(peak < 256, "import of long tags peaked at {peak} MiB");
    // Checking the players' counts reads the names in order through
    // their index, a player at a time, instead of sorting them.
    let (out, err, code, peak) = run_measured(&["stats", "--check"], Some(&db));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("check: consistent"), "{out}");
    assert!(peak < 64, "stats --check on long tags peaked at {peak} MiB");
}
