//! Perft speed: leaves per second from the initial position, one core.
//! Run with `cargo bench --bench perft`; each count is checked against the
//! published value before its time is reported.

use std::time::Instant;

use pdndb::rules::{Position, Preset, perft};

fn main() {
    let cases = [
        (Preset::Filipino, 10, 21_560_022u64),
        (Preset::Russian, 10, 22_444_032),
        (Preset::Pool, 10, 22_435_955),
        (Preset::English, 10, 18_391_564),
        (Preset::International, 9, 41_022_423),
    ];
    println!(
        "{:<10} {:>5} {:>12} {:>9} {:>14}",
        "preset", "depth", "leaves", "seconds", "leaves/s"
    );
    for (preset, depth, expected) in cases {
        let rules = preset.rules();
        let start = Position::initial(&rules);
        let mut best = f64::MAX;
        for _ in 0..3 {
            let began = Instant::now();
            let leaves = perft(&rules, &start, depth);
            best = best.min(began.elapsed().as_secs_f64());
            assert_eq!(leaves, expected, "{preset} perft {depth}");
        }
        println!(
            "{:<10} {:>5} {:>12} {:>9.3} {:>14.0}",
            preset.name(),
            depth,
            expected,
            best,
            expected as f64 / best
        );
    }
}
