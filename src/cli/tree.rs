//! `pdndb tree`: the moves played from a position and how they scored.

use std::io::Write;

use clap::Args;

use super::board::print_query_board;
use super::error::{CliError, Exit};
use super::games::GameFilterArgs;
use super::output::write_json_line;
use super::query_args::{PositionArgs, open_store, warn_unindexed};
use crate::escape::visible;
use crate::notation::Notation;
use crate::render::Board;
use crate::rules::Color;
use crate::store::param::Wording;

/// Arguments of `tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The tree of the games that pass these filters only (counts,
    /// shares and scores over them).
    #[command(flatten)]
    pub games: GameFilterArgs,
    /// With --player: only the games where that player had this colour
    /// (white or black): the player's repertoire with that side.
    #[arg(long, ignore_case = true, value_enum)]
    pub colour: Option<Color>,
    /// Notation of the moves: numeric, vismin, luzon or dama (default: the
    /// variant's usual one, algebraic for Russian, Brazilian and Czech).
    #[arg(long, ignore_case = true, value_enum)]
    pub notation: Option<Notation>,
    /// One JSON object per move.
    #[arg(long)]
    pub json: bool,
    /// Print the board of the queried position above the results (squares named in --notation;
    /// the last move of --moves marked). With --json the board goes to
    /// standard error, so standard output stays JSON lines.
    #[arg(long)]
    pub board: bool,
}

/// Runs `tree`.
///
/// # Errors
/// A missing database, or a position that cannot be read.
pub fn cmd_tree(
    args: &TreeArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let games = args
        .games
        .filter(None)?
        .with_colour(args.colour)
        .map_err(|e| CliError::Usage(e.worded(Wording::Options)))?;
    let store = open_store(db)?;
    let query = args.position.resolve(&store)?;
    warn_unindexed(&store)?;
    if let Some(note) = query.variant.note() {
        say!("tree: {note}");
    }
    let notation = args.notation.unwrap_or_else(|| query.usual_notation());
    if args.board {
        let mut board = Board::new(query.position, query.rules.geometry, notation);
        board.last_move = query.last_move;
        print_query_board(&board, args.json, out)?;
    }
    let moves = store.tree_of(
        &query.position,
        &query.filter,
        &games,
        notation,
        query.rules.geometry,
    )?;
    if moves.is_empty() {
        if games.is_empty() {
            say!("tree: no game in the database reaches this position");
        } else {
            say!("tree: no game that passes the filters continues from this position");
        }
        return Ok(Exit::Success);
    }
    if !args.json {
        writeln!(
            out,
            "{:<24} {:>7} {:>6} {:>7} {:>7} {:>7} {:>7} {:>6}",
            "move", "games", "share", "white", "draws", "black", "unknown", "score"
        )?;
    }
    for m in &moves {
        if args.json {
            write_json_line(out, m)?;
        } else {
            let score = m
                .score
                .map_or_else(|| "-".to_string(), |s| format!("{s:.1}"));
            writeln!(
                out,
                "{:<24} {:>7} {:>5.1}% {:>7} {:>7} {:>7} {:>7} {:>6}",
                visible(&m.mv),
                m.games,
                m.share,
                m.white_wins,
                m.draws,
                m.black_wins,
                m.unknown,
                score
            )?;
        }
    }
    Ok(Exit::Success)
}
