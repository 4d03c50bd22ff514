//! The one integration test binary: the library's public API and the real
//! `pdndb` binary, over data files in `tests/data/` and `sample-pdn/`.

mod browser;
mod check;
mod cli;
mod concurrency;
#[cfg(unix)]
mod database_file;
mod download;
mod duplicates;
mod editor;
mod engine;
mod escapes;
mod export;
mod files;
mod games;
mod http_load;
mod inputs;
mod jobs;
mod lidraughts;
mod lock;
mod man_pages;
mod memory;
mod names;
mod openings;
mod outputs;
mod parsers;
mod pattern;
mod perft;
mod pictures;
mod pipes;
mod playstrategy;
mod popular;
mod postings;
mod queries;
mod quirks;
mod reader;
mod readme;
mod reimport;
mod robust;
mod seed_game;
mod serve;
mod serve_load;
mod skip;
mod store;
mod tree_browser;
mod tree_filters;
mod viewer;
mod web_pages;
mod zobrist;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// A path under the crate root.
pub fn crate_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Every preset, as `--variant` names it (`generate` writes games of each).
pub fn presets() -> Vec<&'static str> {
    pdndb::rules::Preset::ALL.map(|p| p.name()).to_vec()
}

/// The `pdndb` binary with `--db DB`.
pub fn pdndb(db: &Path) -> Command {
    let mut cmd = Command::cargo_bin("pdndb").unwrap();
    cmd.arg("--db").arg(db);
    cmd
}

/// `pdndb generate --variant VARIANT --games GAMES --seed SEED -o PATH`.
pub fn generate(path: &Path, variant: &str, games: usize, seed: u64) {
    let unused = path.with_file_name("unused.sqlite");
    let out = pdndb(&unused)
        .args(["generate", "--variant", variant, "--games"])
        .arg(games.to_string())
        .arg("--seed")
        .arg(seed.to_string())
        .arg("-o")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `pdndb --db DB ARGS…`; returns stdout, stderr and the exit code.
pub fn run(db: &Path, args: &[&str]) -> (String, String, i32) {
    let out = pdndb(db).args(args).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// One JSON value per line.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Opens a database with its position index readable as the table
/// `position (key, game, ply, next)`, one row per entry, as it was before
/// the index became postings: a temporary table filled from the postings,
/// `key` the bits of the Zobrist key the index keeps, `ply` followed by
/// ` open` for an open entry, `next` NULL (the index keeps no next moves).
/// A database without the index opens as it is.
pub fn open_with_index_rows(db: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(db).unwrap();
    // Postings as step 14 writes them, decoded by `postings` (an older
    // database's are left alone).
    let has_postings: bool = conn
        .query_row(
            "SELECT count(*) > 0 AND (SELECT user_version FROM pragma_user_version) >= 14 \
             FROM sqlite_schema WHERE name = 'posting'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    if has_postings {
        let rows = postings::all(&conn);
        conn.execute_batch("CREATE TEMP TABLE position (key, game, ply, next)")
            .unwrap();
        // No next move is stored: an open entry's ply says it is open.
        let mut insert = conn
            .prepare("INSERT INTO temp.position VALUES (?1, ?2, ?3, NULL)")
            .unwrap();
        for (key, game, ply, open) in rows {
            let ply = if open {
                format!("{ply} open")
            } else {
                ply.to_string()
            };
            insert.execute(rusqlite::params![key, game, ply]).unwrap();
        }
    }
    conn
}

/// `PRAGMA integrity_check` of a database.
pub fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}
