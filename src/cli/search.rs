//! `pdndb search`: every game that reaches a position.

use std::io::Write;

use clap::Args;

use super::board::print_query_board;
use super::games::GameFilterArgs;
use super::query_args::{PositionArgs, open_store};
use super::{CliError, Exit};
use crate::render::Board;

/// Arguments of `search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub games: GameFilterArgs,
    /// At most this many games, by id (0 = all).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// One JSON object per game.
    #[arg(long)]
    pub json: bool,
    /// Print the board of the queried position above the results (numeric square numbers;
    /// the last move of --moves marked). With --json the board goes to
    /// standard error, so standard output stays JSON lines.
    #[arg(long)]
    pub board: bool,
}

/// Runs `search`.
///
/// # Errors
/// A missing database, or a position that cannot be read.
pub fn cmd_search(
    args: &SearchArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let store = open_store(db)?;
    let query = args.position.resolve(&store)?;
    let filter = args.games.filter(None)?;
    if args.board {
        let mut board = Board::new(
            query.position,
            query.rules.geometry,
            crate::notation::Notation::Numeric,
        );
        board.last_move = query.last_move;
        print_query_board(&board, args.json, out)?;
    }
    let hits = if filter.is_empty() {
        store.search(&query.position, &query.filter, args.limit)?
    } else {
        let mut hits = store.search(&query.position, &query.filter, 0)?;
        let ids: Vec<i64> = hits.iter().map(|h| h.game).collect();
        let passing: std::collections::HashSet<i64> =
            store.games_passing(&filter, &ids)?.into_iter().collect();
        hits.retain(|h| passing.contains(&h.game));
        if args.limit != 0 {
            hits.truncate(args.limit);
        }
        hits
    };
    for hit in &hits {
        if args.json {
            super::write_json_line(out, hit)?;
        } else {
            let tag = |n: &str| super::tag_text(Some(&hit.tags), n);
            writeln!(
                out,
                "game {:<6} {}:{} at ply {:<3} {} – {}, {} {}  {}  {}",
                hit.game,
                hit.file,
                hit.index,
                hit.ply,
                tag("White"),
                tag("Black"),
                tag("Event"),
                tag("Date"),
                hit.result.as_deref().unwrap_or("*"),
                hit.variant
            )?;
        }
    }
    if !args.json {
        say!("{} games", hits.len());
    }
    Ok(Exit::Success)
}
