//! The tree's counts kept at popular positions: after every writer, the
//! tree of a position counted there is the tree counted game by game.
//!
//! The same for the total of a search there ("1 of 150 games", the API's
//! `X-Total-Count`), read at a popular key from the rows counted there.
//!
//! Each test writes two databases alike: one where a key is popular from
//! 3 index rows (`PDNDB_TEST_POPULAR_GAMES`, so that small archives have
//! popular positions), one with the default threshold, which these
//! archives never reach (every tree there is counted game by game).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::serve::Server;
use crate::{crate_path, json_lines, pdndb, run};

/// Runs a writer on both databases: `popular` with a threshold of 3.
fn both(popular: &Path, plain: &Path, args: &[&str]) {
    let out = pdndb(popular)
        .env("PDNDB_TEST_POPULAR_GAMES", "3")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, err, code) = run(plain, args);
    assert_eq!(code, 0, "{args:?}: {err}");
}

fn generated(dir: &Path, name: &str, games: usize, seed: u64) -> PathBuf {
    let path = dir.join(name);
    crate::generate(&path, "filipino", games, seed);
    path
}

/// The positions of some games at their first plies, as FENs.
fn positions(db: &Path, games: &[i64]) -> Vec<String> {
    let mut fens = Vec::new();
    for game in games {
        for ply in [0, 1, 2, 3, 4, 6] {
            let (out, _, code) = run(
                db,
                &[
                    "show",
                    &game.to_string(),
                    "--ply",
                    &ply.to_string(),
                    "--json",
                ],
            );
            if code != 0 {
                continue;
            }
            let shown: Value = serde_json::from_str(&out).unwrap();
            if let Some(fen) = shown["fen"].as_str()
                && !fens.iter().any(|f| f == fen)
            {
                fens.push(fen.to_string());
            }
        }
    }
    fens
}

/// Positions counted at popular positions (rows of `popular_move`).
fn popular_rows(db: &Path) -> i64 {
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row("SELECT count(*) FROM popular_move", [], |r| r.get(0))
        .unwrap()
}

/// The trees of `fens` (of every variant, and of `variant`) are the same
/// in both databases, some of them are counted at popular positions, so
/// are the totals of a search there (by the command and by the API), and
/// `stats --check` finds the counts right.
fn same_trees(popular: &Path, plain: &Path, fens: &[String], variant: &str) {
    assert!(
        popular_rows(popular) > 0,
        "nothing is counted at popular positions"
    );
    let mut moves = 0;
    for fen in fens {
        for filter in [&[][..], &["--variant", variant][..]] {
            let mut args = vec!["tree", "--json", "--fen", fen];
            args.extend_from_slice(filter);
            let (counted, err, code) = run(popular, &args);
            assert_eq!(code, 0, "{err}");
            let (by_game, _, _) = run(plain, &args);
            assert_eq!(counted, by_game, "tree {fen} {filter:?}");
            moves += json_lines(&counted).len();
        }
    }
    assert!(moves > 0);
    same_totals(popular, plain, fens, variant);
    let (out, err, code) = run(popular, &["stats", "--check", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let stats: Value = serde_json::from_str(&out).unwrap();
    assert!(
        stats["check"]["popular_sampled"].as_i64().unwrap() > 0,
        "{stats}"
    );
}

/// The games a search at `fen` lists out of how many: the line `search`
/// writes for people ("1 of 150 games").
fn search_total(db: &Path, fen: &str, filter: &[&str]) -> String {
    let mut args = vec!["search", "--limit", "1", "--fen", fen];
    args.extend_from_slice(filter);
    let (_, err, code) = run(db, &args);
    assert_eq!(code, 0, "{err}");
    err.lines()
        .find(|l| l.ends_with(" games") && l.contains(" of "))
        .unwrap_or_else(|| panic!("no total in {err:?}"))
        .to_string()
}

/// Searches at `fens` (of every variant, and of `variant`) give the same
/// totals in both databases, by the command and by the API, and some of
/// them list one game of several (so the total is counted, not listed).
fn same_totals(popular: &Path, plain: &Path, fens: &[String], variant: &str) {
    let servers = [Server::start(popular, &[]), Server::start(plain, &[])];
    let mut counted = 0;
    for fen in fens {
        for (filter, query) in [
            (&[][..], String::new()),
            (&["--variant", variant][..], format!("&variant={variant}")),
        ] {
            let total = search_total(popular, fen, filter);
            assert_eq!(
                total,
                search_total(plain, fen, filter),
                "search {fen} {filter:?}"
            );
            counted += usize::from(!total.starts_with("1 of 1 "));
            let target = format!(
                "/api/search?fen={}&limit=1{query}",
                fen.replace(':', "%3A").replace(',', "%2C")
            );
            let headers: Vec<String> = servers
                .iter()
                .map(|server| {
                    let response = server.get(&target);
                    assert_eq!(response.status, 200, "{target}: {}", response.body);
                    response.header("x-total-count").unwrap().to_string()
                })
                .collect();
            assert_eq!(headers[0], headers[1], "{target}");
            assert!(
                total.ends_with(&format!(" of {} games", headers[0])),
                "{total} {target}"
            );
        }
    }
    assert!(counted > 0, "every search listed all its games");
}

#[test]
fn the_tree_counted_at_popular_positions_follows_imports_replacements_and_removals() {
    let dir = tempfile::tempdir().unwrap();
    let (popular, plain) = (
        dir.path().join("popular.sqlite"),
        dir.path().join("plain.sqlite"),
    );
    let a = generated(dir.path(), "a.pdn", 150, 21);
    let b = generated(dir.path(), "b.pdn", 120, 22);
    both(
        &popular,
        &plain,
        &["import", "--quiet", a.to_str().unwrap()],
    );
    let fens = positions(&plain, &[1, 2, 3, 50, 149]);
    same_trees(&popular, &plain, &fens, "filipino");
    // A second import adds games under keys already popular and new ones.
    both(
        &popular,
        &plain,
        &["import", "--quiet", b.to_str().unwrap()],
    );
    let fens = [fens, positions(&plain, &[151, 200])].concat();
    same_trees(&popular, &plain, &fens, "filipino");
    // The file replaced by other games (half of them the same).
    let text = std::fs::read_to_string(&a).unwrap();
    let half: Vec<&str> = text.split("\n\n[").collect();
    let other = std::fs::read_to_string(generated(dir.path(), "c.pdn", 60, 23)).unwrap();
    std::fs::write(
        &a,
        format!("{}\n\n[{}\n\n{other}", half[0], half[1..75].join("\n\n[")),
    )
    .unwrap();
    both(
        &popular,
        &plain,
        &["import", "--quiet", a.to_str().unwrap()],
    );
    same_trees(&popular, &plain, &fens, "filipino");
    both(&popular, &plain, &["remove", b.to_str().unwrap()]);
    same_trees(&popular, &plain, &fens, "filipino");
    both(&popular, &plain, &["remove", "--game", "2", "3", "7", "11"]);
    same_trees(&popular, &plain, &fens, "filipino");
    both(&popular, &plain, &["remove", a.to_str().unwrap()]);
    assert_eq!(popular_rows(&popular), 0);
    both(
        &popular,
        &plain,
        &["import", "--quiet", b.to_str().unwrap()],
    );
    same_trees(&popular, &plain, &fens, "filipino");
}

#[test]
fn the_tree_counted_at_popular_positions_is_right_after_an_import_killed_and_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let (popular, plain) = (
        dir.path().join("popular.sqlite"),
        dir.path().join("plain.sqlite"),
    );
    let a = generated(dir.path(), "a.pdn", 300, 31);
    let b = generated(dir.path(), "b.pdn", 5000, 32);
    both(
        &popular,
        &plain,
        &["import", "--quiet", a.to_str().unwrap()],
    );
    // Killed once more than 2,000 games are committed.
    for db in [&popular, &plain] {
        let out = pdndb(db)
            .env("PDNDB_TEST_POPULAR_GAMES", "3")
            .env("PDNDB_TEST_ABORT_AFTER", "2000")
            .args(["import", "--quiet"])
            .arg(&b)
            .output()
            .unwrap();
        assert!(!out.status.success());
    }
    both(
        &popular,
        &plain,
        &["import", "--quiet", b.to_str().unwrap()],
    );
    let fens = positions(&plain, &[1, 2, 301, 2500, 5300]);
    same_trees(&popular, &plain, &fens, "filipino");
    // Thousands of games removed at once: by one pass over the index.
    both(&popular, &plain, &["remove", b.to_str().unwrap()]);
    same_trees(&popular, &plain, &fens, "filipino");
}

#[test]
fn the_tree_counted_at_popular_positions_follows_a_recheck_of_an_older_database() {
    let dir = tempfile::tempdir().unwrap();
    let from = crate_path("tests/data/previous-release");
    let mut dbs = Vec::new();
    for name in ["popular", "plain"] {
        let to = dir.path().join(name);
        std::fs::create_dir(&to).unwrap();
        for entry in std::fs::read_dir(&from).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
        dbs.push(to.join("previous-release.sqlite"));
    }
    // The recheck reads the Russian games as Russian: their index rows
    // leave and enter again; it also counts the popular positions of the
    // older database, which had none.
    both(&dbs[0], &dbs[1], &["recheck"]);
    let (out, _, _) = run(&dbs[1], &["games", "--variant", "russian", "--json"]);
    let russian: Vec<i64> = json_lines(&out)
        .iter()
        .map(|g| g["game"].as_i64().unwrap())
        .collect();
    assert!(!russian.is_empty());
    let fens = positions(&dbs[1], &russian[..russian.len().min(8)]);
    same_trees(&dbs[0], &dbs[1], &fens, "russian");
}

#[test]
fn a_wrong_count_of_the_rows_at_a_popular_key_is_found_by_stats_check() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("popular.sqlite");
    let a = generated(dir.path(), "a.pdn", 150, 21);
    let out = pdndb(&db)
        .env("PDNDB_TEST_POPULAR_GAMES", "3")
        .args(["import", "--quiet"])
        .arg(&a)
        .output()
        .unwrap();
    assert!(out.status.success());
    let (out, err, code) = run(&db, &["stats", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
    // Every game is at the start position: 150 rows under its key.
    let start = &positions(&db, &[1])[0];
    assert_eq!(search_total(&db, start, &[]), "1 of 150 games");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE popular_rows SET rows = rows + 1", [])
        .unwrap();
    let (out, err, code) = run(&db, &["stats", "--check"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("popular keys recounted have other counts than stored"),
        "{out}{err}"
    );
}
