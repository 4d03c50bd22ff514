//! The tables built in: `data/openings/<preset>.tsv`, and for English the
//! three-move deck, `data/openings/english-ballots.tsv`.

use crate::rules::Preset;

/// Each variant with a table: its openings and its ballots (empty but for
/// the header where it has none).
pub(super) const TABLES: &[(Preset, &str, &str)] = &[
    (
        Preset::English,
        include_str!("../../data/openings/english.tsv"),
        include_str!("../../data/openings/english-ballots.tsv"),
    ),
    (
        Preset::Russian,
        include_str!("../../data/openings/russian.tsv"),
        "",
    ),
    (
        Preset::International,
        include_str!("../../data/openings/international.tsv"),
        "",
    ),
];
