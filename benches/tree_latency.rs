//! Latency of the library calls a web explorer makes, run by hand (not in
//! CI) on a database already imported:
//!
//! ```text
//! cargo bench --bench tree_latency -- DB [POSITIONS]
//! ```
//!
//! Samples POSITIONS positions (default 300) from the database's own games:
//! a random game (seed 1), at a ply drawn from 0 to 40 (half of them from 0
//! to 6, where most games meet; a game shorter than the ply gives its last
//! position). Times `Store::tree` (with the game's preset as the variant
//! filter, as `tree --moves` uses by default, and with every variant, as
//! `tree --fen` does) and `Store::search` with a limit of 50 at each, in
//! this process, after one pass to warm the caches (a server runs warm):
//! prints the median, the 99th percentile and the slowest, in ms, and the
//! slowest past the start position (which every game of a variant reaches).

mod sample;

use std::time::Instant;

use pdndb::notation::Notation;
use pdndb::rules::{Position, Rules};
use pdndb::{GameFilter, Mode, Store, VariantFilter};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some(db) = args.first() else {
        eprintln!("usage: cargo bench --bench tree_latency -- DB [POSITIONS]");
        std::process::exit(2);
    };
    let wanted: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(300);
    let store = Store::open(std::path::Path::new(db), Mode::Read).expect("a pdndb database");
    let games = store.game_count().expect("the games");
    let positions: Vec<(Position, Rules, String, usize)> = sample::positions(&store, wanted)
        .into_iter()
        .map(|s| (s.position, s.rules, s.preset, s.ply))
        .collect();
    println!(
        "{db}: {games} games, {} positions (plies 0–40)",
        positions.len()
    );
    let every = VariantFilter(None);
    let measure = |name: &str, call: &dyn Fn(&Position, &Rules, &str) -> usize| {
        for (position, rules, preset, _) in &positions {
            call(position, rules, preset);
        }
        let mut times: Vec<(f64, usize, usize)> = positions
            .iter()
            .map(|(position, rules, preset, ply)| {
                let began = Instant::now();
                let found = call(position, rules, preset);
                (began.elapsed().as_secs_f64() * 1000.0, *ply, found)
            })
            .collect();
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let at =
            |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
        let (slowest, ply, found) = times[times.len() - 1];
        let (later, later_ply, later_found) = times
            .iter()
            .rev()
            .find(|t| t.1 > 0)
            .copied()
            .unwrap_or_default();
        println!(
            "{name:<22} p50 {:6.2} ms  p99 {:6.2} ms  max {:6.2} ms (ply {ply}, {found} games); \
             max past the start {later:6.2} ms (ply {later_ply}, {later_found} games)",
            at(0.5).0,
            at(0.99).0,
            slowest
        );
    };
    measure("tree (game's preset)", &|position, rules, preset| {
        let filter = VariantFilter::new(Some(preset));
        let tree = store
            .tree(position, &filter, Notation::Numeric, rules.geometry)
            .expect("a tree");
        tree.iter().map(|m| m.games as usize).sum()
    });
    measure("tree (every variant)", &|position, rules, _| {
        let tree = store
            .tree(position, &every, Notation::Numeric, rules.geometry)
            .expect("a tree");
        tree.iter().map(|m| m.games as usize).sum()
    });
    measure("search --limit 50", &|position, _, preset| {
        let filter = VariantFilter::new(Some(preset));
        store
            .search(position, &filter, &GameFilter::default(), 50)
            .expect("a search")
            .total
    });
}
