//! `pdndb show GAME`: a game's tags, moves and the board at one position.

use std::io::Write;
use std::path::Path;

use clap::Args;

use super::board::colour_for;
use super::error::{CliError, Exit};
use super::movetext::annotated_lines;
use super::output::write_json_line;
use super::query_args::open_store;
use super::write_file::{refuse_database, write_file};
use crate::escape::visible;
use crate::render::Board;
use crate::render::game::view_board;
use crate::replay::move_number;
use crate::rules::{Color, Rules};
use crate::store::listing::{Place, Roster, shown_result, shown_tag};
use crate::store::param::Wording;
use crate::store::view::{GameView, PlyView, ViewError};

/// Arguments of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The game id (as `search` and `report` print it).
    pub game: crate::store::GameId,
    /// Show the position after this many plies (default: the last certain
    /// position).
    #[arg(long)]
    pub ply: Option<usize>,
    /// How squares are named: numeric, vismin, luzon or dama (default: the
    /// game's own notation, numeric when it has none).
    #[arg(long, ignore_case = true, value_enum)]
    pub notation: Option<crate::notation::Notation>,
    /// Also write the board as an SVG picture to this file (the same
    /// board: last move marked, the moves where readings part as arrows).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// Leave out the comments, annotations and variations written with
    /// the moves.
    #[arg(long)]
    pub no_comments: bool,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `show`.
///
/// # Errors
/// A missing database, an unknown game, a ply beyond the game.
pub fn cmd_show(
    args: &ShowArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    if let Some(path) = &args.svg {
        refuse_database(path, db)?;
    }
    let store = open_store(db)?;
    let mut view = store
        .game_view(args.game, args.ply, args.notation)
        .map_err(|e| match e {
            ViewError::Store(e) => CliError::Store(e),
            e => CliError::Usage(e.worded(Wording::Options)),
        })?;
    if args.no_comments {
        view.comments.clear();
        strip_annotations(&mut view.annotated);
    }
    if let Some(why) = &view.no_board {
        if args.svg.is_some() {
            return Err(CliError::Usage(format!(
                "game {} has no board to show: {why}",
                args.game
            )));
        }
        if args.json {
            write_json_line(out, &view)?;
            return Ok(Exit::Success);
        }
        write_header(out, &view)?;
        writeln!(out)?;
        writeln!(out, "no board: {}", visible(why))?;
        return Ok(Exit::Success);
    }
    let (Some(reading), Some(board), Some(ply), Some(fen)) =
        (&view.reading, view_board(&view), view.ply, &view.fen)
    else {
        return Err(CliError::Usage(format!(
            "game {} has no position to show",
            args.game
        )));
    };
    if let Some(path) = &args.svg {
        write_svg(
            path,
            db,
            &board,
            &format!("game {}, position {ply}", args.game),
        )?;
    }
    if args.json {
        write_json_line(out, &view)?;
        return Ok(Exit::Success);
    }
    write_header(out, &view)?;
    writeln!(out)?;
    if args.no_comments || view.annotated.is_empty() {
        write_moves(out, &reading.rules, reading.start.side(), &view.moves)?;
    } else {
        let first = view.first_side.unwrap_or(reading.rules.first).name();
        for line in annotated_lines(&view.comments, &view.annotated, first) {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(out)?;
    let note = if view.certain {
        ""
    } else {
        " (not certain: readings differ here; the first reading is shown)"
    };
    writeln!(out, "position {ply}{note}:")?;
    let colour = colour_for(&std::io::stdout());
    write!(out, "{}", crate::render::text::render(&board, colour))?;
    writeln!(out, "FEN {fen}")?;
    Ok(Exit::Success)
}

/// Leaves out the comments, annotations and variations of a line.
fn strip_annotations(plies: &mut [PlyView]) {
    for ply in plies {
        ply.comments_before.clear();
        ply.comments.clear();
        ply.nags.clear();
        ply.glyphs.clear();
        ply.variations.clear();
    }
}

/// Writes the board as a standalone SVG file at `path`, titled `title`
/// and the side to move.
fn write_svg(path: &Path, db: &Path, board: &Board, title: &str) -> Result<(), CliError> {
    let title = format!(
        "{title}, {} to move",
        if board.position.side() == Color::White {
            "White"
        } else {
            "Black"
        }
    );
    let svg = crate::render::svg::document(board, &title);
    write_file(path, db, |w| Ok(w.write_all(svg.as_bytes())?))
}

/// The moves of a game started by `start_side`, numbered, in lines
/// shorter than 80 characters.
fn write_moves(
    out: &mut impl Write,
    rules: &Rules,
    start_side: Color,
    moves: &[String],
) -> Result<(), CliError> {
    let mut line = String::new();
    for (i, text) in moves.iter().enumerate() {
        let (number, side) = move_number(rules, start_side, i + 1);
        let item = if side == rules.first {
            format!("{number}. {text}")
        } else if i == 0 {
            format!("{number}... {text}")
        } else {
            text.clone()
        };
        if !line.is_empty() && line.len() + item.len() + 1 >= 80 {
            writeln!(out, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The game's place, rules and status, its tags (cleaned), players
/// (the side that moves first first) and result.
fn write_header(out: &mut impl Write, view: &GameView) -> Result<(), CliError> {
    let place = Place {
        file: &view.file,
        line: view.line,
        index: view.index,
    };
    writeln!(
        out,
        "{place} [id {}] ({}, {}; rules {})",
        view.game,
        visible(&view.variant),
        view.status.name(),
        view.variant_from
            .map_or("unrecorded: run `pdndb recheck`", |from| from.name())
    )?;
    for (name, value) in &view.tags {
        writeln!(
            out,
            "[{} \"{}\"]",
            visible(name),
            visible(&shown_tag(name, value.as_str().unwrap_or_default()))
        )?;
    }
    writeln!(
        out,
        "players {}",
        Roster::of(&view.tags, &view.variant).players()
    )?;
    writeln!(
        out,
        "result {}: {} (checked: {})",
        shown_result(view.result.as_deref()),
        view.outcome,
        view.result_check
    )?;
    if let (Some(name), Some(ply)) = (&view.opening, view.opening_ply) {
        writeln!(out, "opening {} (reached at ply {ply})", visible(name))?;
    }
    if let Some(ballot) = &view.ballot {
        writeln!(out, "ballot {}", visible(ballot))?;
    }
    Ok(())
}
