//! Reading speed: the PDN reader alone (framing, decoding, grammar, hints)
//! over the Open Checkers Archive, or over the files given as arguments.
//!
//! Run in release: `cargo bench --bench read` (or
//! `cargo bench --bench read -- FILE…`). The input is read into memory
//! first, so the numbers are the reader's, not the disk's. Each file is
//! read several times; the best pass is reported as games/s and MB/s.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pdndb::pdn::Reader;

/// Passes over each file; the fastest counts. `READ_PASSES` in the
/// environment changes it (1 under a profiler or instruction counter).
const PASSES: usize = 7;

fn main() {
    let args: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    let files = if args.is_empty() {
        let oca =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/english/OCA_2.0.pdn");
        if !oca.exists() {
            eprintln!(
                "skipped: {} is absent (give PDN files as arguments)",
                oca.display()
            );
            return;
        }
        vec![oca]
    } else {
        args
    };
    for path in files {
        let data = match std::fs::read(&path) {
            Ok(data) => data,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                continue;
            }
        };
        let mut best = Duration::MAX;
        let mut counts = (0u64, 0usize, 0usize);
        let passes = std::env::var("READ_PASSES")
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(PASSES);
        for _ in 0..passes {
            let start = Instant::now();
            let (mut games, mut plies, mut diagnostics) = (0u64, 0usize, 0usize);
            for game in Reader::new(&data[..]) {
                let game = game.expect("reading from memory cannot fail");
                games += 1;
                plies += game.plies().len();
                diagnostics += game.diagnostics.len();
            }
            best = best.min(start.elapsed());
            counts = (games, plies, diagnostics);
        }
        let (games, plies, diagnostics) = counts;
        let seconds = best.as_secs_f64();
        println!(
            "{}: {games} games, {plies} plies, {diagnostics} diagnostics, {:.1} MB in {:.3} s: {:.0} games/s, {:.1} MB/s",
            path.display(),
            data.len() as f64 / 1e6,
            seconds,
            games as f64 / seconds,
            data.len() as f64 / 1e6 / seconds,
        );
        if path.ends_with("english/OCA_2.0.pdn") {
            assert_eq!(
                games, 22_621,
                "the Open Checkers Archive holds 22,621 games"
            );
        }
    }
}
