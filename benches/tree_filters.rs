//! Latency of the opening tree with the games filters (`tree --player`,
//! `--date`, `--colour`), run by hand (not in CI) on a database already
//! imported:
//!
//! ```text
//! cargo bench --bench tree_filters -- DB PLAYER YEAR MOVES [RUNS]
//! ```
//!
//! Times `Store::tree_of` in this process, RUNS times each (default 50)
//! after one call to warm the caches (a server runs warm), at the start
//! position with `player=PLAYER`, with `date=YEAR..YEAR`, with
//! `player=PLAYER&colour=white`, and at the position after MOVES with
//! `player=PLAYER`; and, for comparison, without a filter. Prints the
//! median, the 99th percentile and the slowest, in ms, with the games the
//! tree counts.

use std::time::Instant;

use pdndb::notation::Notation;
use pdndb::{GameFilterText, Mode, Store};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [db, player, year, moves, rest @ ..] = &args[..] else {
        eprintln!("usage: cargo bench --bench tree_filters -- DB PLAYER YEAR MOVES [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = rest.first().and_then(|n| n.parse().ok()).unwrap_or(50);
    let store = Store::open(std::path::Path::new(db), Mode::Read).expect("a pdndb database");
    let start = store.position_query(None, None, None).expect("the start");
    let deep = store
        .position_query(None, Some(moves), None)
        .expect("the moves");
    let dates = format!("{year}..{year}");
    let cases = [
        ("start, no filter", &start, GameFilterText::default()),
        (
            "start, player",
            &start,
            GameFilterText {
                player: Some(player),
                ..GameFilterText::default()
            },
        ),
        (
            "start, date one year",
            &start,
            GameFilterText {
                date: Some(&dates),
                ..GameFilterText::default()
            },
        ),
        (
            "start, player, white",
            &start,
            GameFilterText {
                player: Some(player),
                colour: Some("white"),
                ..GameFilterText::default()
            },
        ),
        ("moves, no filter", &deep, GameFilterText::default()),
        (
            "moves, player",
            &deep,
            GameFilterText {
                player: Some(player),
                ..GameFilterText::default()
            },
        ),
    ];
    println!(
        "{db}: {} games, {runs} runs each",
        store.game_count().unwrap()
    );
    for (name, query, text) in cases {
        let filter = text.parse().expect("a filter");
        let tree = || {
            store
                .tree_of(
                    &query.position,
                    &query.filter,
                    &filter,
                    Notation::Numeric,
                    query.rules.geometry,
                )
                .expect("a tree")
        };
        let games: i64 = tree().iter().map(|m| m.games).sum();
        let mut times: Vec<f64> = (0..runs)
            .map(|_| {
                let began = Instant::now();
                tree();
                began.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let at =
            |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
        println!(
            "{name:<22} p50 {:7.2} ms  p99 {:7.2} ms  max {:7.2} ms  ({games} games)",
            at(0.5),
            at(0.99),
            times[times.len() - 1]
        );
    }
}
