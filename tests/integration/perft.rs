//! Perft counts from `tests/data/perft.tsv`. Counts above a leaf limit
//! (25 million leaves in release builds, 300,000 in debug builds) are
//! skipped, and the run says how many; the deepest counts are checked by
//! running `pdndb perft DEPTH` by hand.

use pdndb::rules::{Position, Preset, perft};

use crate::crate_path;

const LEAF_LIMIT: u64 = if cfg!(debug_assertions) {
    300_000
} else {
    25_000_000
};

#[test]
fn perft_table_from_data_file() {
    let text =
        std::fs::read_to_string(crate_path("tests/data/perft.tsv")).expect("perft data file");
    let (mut run, mut skipped) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let preset: Preset = fields[0].parse().expect("preset name");
        let depth: u32 = fields[1].parse().expect("depth");
        let expected: u64 = fields[2].parse().expect("count");
        if expected > LEAF_LIMIT {
            skipped += 1;
            continue;
        }
        let rules = preset.rules();
        let got = perft(&rules, &Position::initial(&rules), depth);
        assert_eq!(got, expected, "{preset} depth {depth}");
        run += 1;
    }
    // Every preset's depths 1..8 are always checked in release builds.
    assert!(
        run >= if cfg!(debug_assertions) { 30 } else { 50 },
        "only {run} counts checked"
    );
    if skipped > 0 {
        let why =
            format!("{skipped} counts above the {LEAF_LIMIT}-leaf limit not checked ({run} were)");
        crate::skip::skip("perft_table_from_data_file", &why);
    }
}
