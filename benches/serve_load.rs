//! Memory of `pdndb serve` under load, run by hand (not in CI):
//!
//! ```text
//! cargo bench --bench serve_load -- [DB] [CLIENTS] [ROUNDS] [TARGET]
//! ```
//!
//! Cargo builds the release binary first; the benchmark uses it (or the
//! binary `PDNDB_BIN` names, to measure another build). DB is a database
//! already imported, or `gen:N` (the default `gen:20000`): N games of
//! `pdndb generate --variant filipino --seed 1`, imported into a temporary
//! database. It starts `pdndb --db DB serve --port 0`, then runs ROUNDS rounds (default 5) of
//! CLIENTS requests at once (default 2,000), each on its own connection,
//! for TARGET (default `/api/search?fen=W:W21-32:B1-12&limit=1000`, a page
//! of 1,000 games at the start position). After each round it prints the
//! answers by status, the seconds the round took and the server's
//! resident memory now and at its peak (`VmRSS`, `VmHWM` from `/proc`), in
//! MB.

#[path = "../tests/integration/http_load.rs"]
#[allow(dead_code)]
mod http_load;
mod served;

use served::{Server, binary};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Runs the binary with `args`; exits if it fails.
fn pdndb(args: &[&str]) {
    let status = Command::new(binary())
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("pdndb runs");
    if !status.success() {
        eprintln!("pdndb {} failed: {status}", args.join(" "));
        std::process::exit(2);
    }
}

/// `games` generated Filipino games imported into a database in `dir`.
fn generated(dir: &Path, games: usize) -> PathBuf {
    let archive = dir.join("games.pdn");
    let db = dir.join("games.sqlite");
    let (archive_arg, db_arg) = (
        archive.to_str().expect("a UTF-8 path"),
        db.to_str().expect("a UTF-8 path"),
    );
    let games = games.to_string();
    pdndb(&[
        "--db",
        db_arg,
        "generate",
        "--variant",
        "filipino",
        "--seed",
        "1",
        "--games",
        &games,
        "-o",
        archive_arg,
    ]);
    pdndb(&["--db", db_arg, "import", "--quiet", archive_arg]);
    db
}

/// KiB as MB (10^6 bytes), as the figures are given.
fn mb(kib: u64) -> f64 {
    kib as f64 * 1024.0 / 1e6
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let db = args.first().map_or("gen:20000", String::as_str);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = match db.strip_prefix("gen:") {
        Some(games) => {
            let Ok(games) = games.parse() else {
                eprintln!(
                    "usage: cargo bench --bench serve_load -- [DB|gen:N] [CLIENTS] [ROUNDS] [TARGET]"
                );
                std::process::exit(2);
            };
            generated(dir.path(), games).to_string_lossy().into_owned()
        }
        None => db.to_string(),
    };
    let db = db.as_str();
    let clients: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2000);
    let rounds: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(5);
    let target = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| "/api/search?fen=W%3AW21-32%3AB1-12&limit=1000".to_string());
    let records = target
        .split("limit=")
        .nth(1)
        .and_then(|l| l.split('&').next())
        .and_then(|l| l.parse().ok())
        .unwrap_or(50);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let server = Server::start(db);
    let pid = server.child.id();
    let memory = || http_load::resident_kib(pid).expect("the server's /proc status");
    let (rss, peak) = memory();
    println!("{db}: {clients} clients at once, {rounds} rounds of {target}");
    println!("start: VmRSS {:.0} MB, VmHWM {:.0} MB", mb(rss), mb(peak));
    for number in 1..=rounds {
        let began = Instant::now();
        let got = runtime.block_on(http_load::round(server.address, &target, clients, records));
        let seconds = began.elapsed().as_secs_f64();
        let (rss, peak) = memory();
        println!(
            "round {number}: {:?} answers by status, {} failed, {} short pages, {seconds:.1} s; \
             VmRSS {:.0} MB, VmHWM {:.0} MB",
            got.statuses,
            got.failed,
            got.short_pages,
            mb(rss),
            mb(peak)
        );
    }
}
