#![allow(dead_code)] // each benchmark uses part of it

//! Positions sampled from a database's own games, shared by the latency
//! benchmarks: a random game (seed 1), at a ply drawn from 0 to 40 (half
//! of them from 0 to 6, where most games meet; a game shorter than the ply
//! gives its last position).

use pdndb::Store;
use pdndb::generate::SplitMix64;
use pdndb::rules::{Position, Rules};

/// A position some game of the database reaches.
pub struct Sampled {
    /// The position.
    pub position: Position,
    /// The game's rules.
    pub rules: Rules,
    /// The game's preset name (the variant filter `tree --moves` uses).
    pub preset: String,
    /// The ply at which the game is there.
    pub ply: usize,
    /// The game's id.
    pub game: i64,
}

/// Up to `wanted` positions from the games of `store` (fewer when too
/// few games can be replayed).
pub fn positions(store: &Store, wanted: usize) -> Vec<Sampled> {
    let games = store.game_count().expect("the games") as u64;
    let mut rng = SplitMix64::new(1);
    let mut positions = Vec::new();
    let mut tries = 0;
    while positions.len() < wanted && tries < wanted * 20 {
        tries += 1;
        let id = 1 + (rng.next_u64() % games.max(1)) as i64;
        let ply = if positions.len().is_multiple_of(2) {
            (rng.next_u64() % 7) as usize
        } else {
            (rng.next_u64() % 41) as usize
        };
        let Some(game) = store.game(pdndb::store::GameId(id)).expect("a game") else {
            continue;
        };
        let Some((rules, start, moves)) = game.reading() else {
            continue;
        };
        let (position, ply) = match moves.get(ply) {
            Some((position, _)) => (*position, ply),
            None => match moves.last() {
                Some((position, mv)) => (position.play(mv), moves.len()),
                None => (start, 0),
            },
        };
        positions.push(Sampled {
            position,
            rules,
            preset: rules.preset.name().to_string(),
            ply,
            game: id,
        });
    }
    positions
}

/// The median, the 99th percentile and the largest of `times` (sorted
/// here), by the nearest-rank method.
pub fn percentiles(times: &mut [f64]) -> (f64, f64, f64) {
    if times.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    (at(0.5), at(0.99), times[times.len() - 1])
}
