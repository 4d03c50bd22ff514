//! `pdndb openings`: how often each named opening was played, and how it
//! scored.

use serde::Serialize;

use crate::store::read::games::GameFilter;
use crate::store::stored::{Store, StoreError};

/// One opening of one variant as `openings` lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningRow {
    /// The variant's preset.
    pub variant: String,
    /// The opening's name.
    pub opening: String,
    /// Games that reach it (as their opening).
    pub games: u64,
    /// Their share of the variant's games chosen, in percent (one decimal).
    pub share: f64,
    /// Games White won.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Games without a result.
    pub unknown: u64,
    /// White's score: 100 × (wins + ½ draws) / decided games, one decimal;
    /// `None` without a decided game.
    pub score: Option<f64>,
}

impl Store {
    /// The openings of the games `filter` chooses, per variant: most
    /// played first (ties by variant, then name).
    ///
    /// # Errors
    /// A database failure.
    pub fn openings(&self, filter: &GameFilter) -> Result<Vec<OpeningRow>, StoreError> {
        let Some((condition, params)) = filter.condition(self, false)? else {
            return Ok(Vec::new());
        };
        let sql = format!(
            "SELECT g.preset, g.opening, count(*), sum(g.outcome = 1), sum(g.outcome = 3), \
             sum(g.outcome = 2), sum(g.outcome NOT IN (1, 2, 3)) \
             FROM game g WHERE {condition} GROUP BY g.preset, g.opening"
        );
        let mut stmt = self.conn().prepare(&sql)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(params.iter()), |r| {
            let count = |i: usize| {
                r.get::<_, Option<i64>>(i)
                    .map(|n| n.unwrap_or(0).max(0) as u64)
            };
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                [count(2)?, count(3)?, count(4)?, count(5)?, count(6)?],
            ))
        })?;
        let mut all: std::collections::HashMap<String, u64> = Default::default();
        let mut named = Vec::new();
        for row in rows {
            let (variant, opening, counts) = row?;
            *all.entry(variant.clone()).or_default() += counts[0];
            if let Some(opening) = opening {
                named.push((variant, opening, counts));
            }
        }
        let mut list: Vec<OpeningRow> = named
            .into_iter()
            .map(|(variant, opening, counts)| {
                let of = all.get(&variant).copied().unwrap_or(1).max(1);
                row(variant, opening, counts, of)
            })
            .collect();
        list.sort_by(|a, b| {
            (b.games.cmp(&a.games))
                .then_with(|| a.variant.cmp(&b.variant))
                .then_with(|| a.opening.cmp(&b.opening))
        });
        Ok(list)
    }
}

/// The row of an opening from its counts `[games, white, draws, black,
/// unknown]`, `of` games of its variant in all.
fn row(variant: String, opening: String, counts: [u64; 5], of: u64) -> OpeningRow {
    let [games, white, draws, black, unknown] = counts;
    let decided = white + draws + black;
    let score = (decided > 0)
        .then(|| (1000.0 * (white as f64 + draws as f64 / 2.0) / decided as f64).round() / 10.0);
    OpeningRow {
        variant,
        opening,
        games,
        share: (1000.0 * games as f64 / of as f64).round() / 10.0,
        white_wins: white,
        draws,
        black_wins: black,
        unknown,
        score,
    }
}
