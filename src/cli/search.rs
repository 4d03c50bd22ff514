//! `pdndb search`: every game that reaches a position.

use std::io::Write;

use clap::Args;

use super::board::print_query_board;
use super::error::{CliError, Exit};
use super::games::GameFilterArgs;
use super::output::write_json_line;
use super::query_args::{PositionArgs, open_store, warn_unindexed};
use crate::escape::visible;
use crate::render::Board;
use crate::store::listing::Roster;

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
    warn_unindexed(&store)?;
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
    if let Some(note) = query.variant.note() {
        say!("search: {note}");
    }
    // Each game is written as it is found.
    let shown = store.each_search_hit(
        &query.position,
        &query.filter,
        &filter,
        args.limit,
        |hit| -> Result<(), CliError> {
            if args.json {
                write_json_line(out, &hit)?;
            } else {
                writeln!(
                    out,
                    "{} ({}) [id {}]: at ply {}, {}, {}",
                    hit.place(),
                    Roster::of(&hit.tags, &hit.variant),
                    hit.game,
                    hit.ply,
                    hit.outcome,
                    visible(&hit.variant)
                )?;
            }
            Ok(())
        },
    )?;
    if !args.json {
        say!("{shown}");
    }
    Ok(Exit::Success)
}
