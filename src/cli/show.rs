//! `pdndb show GAME`: a game's tags, moves and the board at one position.

use std::io::Write;

use clap::Args;

use super::board::{colour_for, reading_board, with_candidates};
use super::query_args::open_store;
use super::write_file::{refuse_database, write_file};
use super::{CliError, Exit};
use crate::escape::visible;
use crate::notation::{Notation, write_fen, write_move_among};
use crate::pdn::Reader;
use crate::replay::{Overrides, Reading, check_game, move_number};
use crate::store::listing::{shown_result, shown_tag};
use crate::store::query::{Source, StoredGame};

/// Arguments of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The game id (as `search` and `report` print it).
    pub game: i64,
    /// Show the position after this many plies (default: the last certain
    /// position).
    #[arg(long)]
    pub ply: Option<usize>,
    /// How squares are named: numeric, vismin, luzon or dama (default: the
    /// game's own notation, numeric when it has none).
    #[arg(long)]
    pub notation: Option<String>,
    /// Also write the board as an SVG picture to this file (the same
    /// board: last move marked, the moves where readings part as arrows).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
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
    let usage = |m: String| CliError::Usage(m);
    let game = store
        .game(args.game)?
        .ok_or_else(|| usage(format!("no game {} in the database", args.game)))?;
    let source = store
        .source(args.game)?
        .ok_or_else(|| usage(format!("game {} has no source", args.game)))?;
    let notation = match &args.notation {
        Some(n) => n.parse::<Notation>().map_err(|e| usage(e.to_string()))?,
        None => game
            .notation
            .as_deref()
            .and_then(|n| n.parse().ok())
            .unwrap_or(Notation::Numeric),
    };
    if let Some(why) = game.no_board() {
        return show_without_board(args, &game, &source, &why, out);
    }
    let Some((rules, start, moves)) = game.reading() else {
        return Err(usage(format!(
            "game {} is {}: it has no moves to show",
            args.game, game.status
        )));
    };
    // Which positions are certain: every one for an ok game; else replay
    // the original text again.
    let certain: Vec<usize> = if game.status == "ok" {
        (0..=moves.len()).collect()
    } else {
        let text = store.original_text(args.game)?.unwrap_or_default();
        let overrides = Overrides {
            rules: Some(rules),
            notation: game.notation.as_deref().and_then(|n| n.parse().ok()),
            skip_alternatives: true,
            ..Overrides::default()
        };
        match Reader::new(text.as_bytes()).next_game() {
            Ok(Some(original)) => match check_game(&original, &source.file, &overrides).reading {
                Reading::Replayed { replay, .. } => replay.certain.iter().map(|c| c.ply).collect(),
                _ => vec![0],
            },
            _ => vec![0],
        }
    };
    let ply = args
        .ply
        .unwrap_or_else(|| certain.last().copied().unwrap_or(0));
    if ply > moves.len() {
        return Err(usage(format!(
            "game {} has {} plies: there is no position {ply}",
            args.game,
            moves.len()
        )));
    }
    let Some(board) = reading_board(&start, &moves, ply, rules.geometry, notation) else {
        return Err(usage(format!("game {} has no position {ply}", args.game)));
    };
    let board = with_candidates(board, &game.record, &rules, ply);
    let position = board.position;
    let is_certain = certain.contains(&ply);
    let written: Vec<String> = moves
        .iter()
        .map(|(before, mv)| {
            write_move_among(mv, &before.legal_moves(&rules), notation, rules.geometry)
        })
        .collect();
    if let Some(path) = &args.svg {
        let title = format!(
            "game {}, position {ply}, {} to move",
            args.game,
            if position.side() == crate::rules::Color::White {
                "White"
            } else {
                "Black"
            }
        );
        let svg = crate::render::svg::document(&board, &title);
        write_file(path, db, |w| Ok(w.write_all(svg.as_bytes())?))?;
    }
    if args.json {
        let value = show_json(
            args.game,
            &game,
            &source,
            serde_json::json!({
                "notation": notation.name(),
                "moves": written,
                "ply": ply,
                "certain": is_certain,
                "fen": write_fen(&position),
                "no_board": null,
            }),
        );
        super::write_json_line(out, &value)?;
        return Ok(Exit::Success);
    }
    write_header(out, args.game, &game, &source)?;
    writeln!(out)?;
    let mut line = String::new();
    for (i, text) in written.iter().enumerate() {
        let (number, side) = move_number(&rules, start.side(), i + 1);
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
    writeln!(out)?;
    let note = if is_certain {
        ""
    } else {
        " (not certain: readings differ here; the first reading is shown)"
    };
    writeln!(out, "position {ply}{note}:")?;
    let colour = colour_for(&std::io::stdout());
    write!(out, "{}", crate::render::text::render(&board, colour))?;
    writeln!(out, "FEN {}", write_fen(&position))?;
    Ok(Exit::Success)
}

/// The game's place, rules and status, its tags (cleaned) and result.
fn write_header(
    out: &mut impl Write,
    id: i64,
    game: &StoredGame,
    source: &Source,
) -> Result<(), CliError> {
    writeln!(
        out,
        "{} [id {id}] ({}, {}; rules {})",
        source.place(),
        visible(&game.variant),
        visible(&game.status),
        visible(
            game.variant_from
                .as_deref()
                .unwrap_or("unrecorded: run `pdndb recheck`")
        )
    )?;
    for (name, value) in &source.tags {
        writeln!(
            out,
            "[{} \"{}\"]",
            visible(name),
            visible(&shown_tag(name, value.as_str().unwrap_or_default()))
        )?;
    }
    writeln!(
        out,
        "result {}: {}",
        shown_result(game.result.as_deref()),
        game.outcome()
    )?;
    Ok(())
}

/// The record of `show --json`: which game it is, then `rest` (its
/// moves and the position shown, or why there is none).
fn show_json(
    id: i64,
    game: &StoredGame,
    source: &Source,
    rest: serde_json::Value,
) -> serde_json::Value {
    let mut value = serde_json::json!({
        "game": id,
        "file": source.file,
        "index": source.index,
        "line": source.line,
        "tags": source.tags,
        "outcome": game.outcome(),
        "variant": game.variant,
        "variant_from": game.variant_from,
        "status": game.status,
    });
    if let (Some(map), serde_json::Value::Object(rest)) = (value.as_object_mut(), rest) {
        map.extend(rest);
    }
    value
}

/// Shows a game that has no position to show: its tags and why there is
/// no board.
fn show_without_board(
    args: &ShowArgs,
    game: &StoredGame,
    source: &Source,
    why: &str,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    if args.ply.is_some() || args.svg.is_some() {
        return Err(CliError::Usage(format!(
            "game {} has no board to show: {why}",
            args.game
        )));
    }
    if args.json {
        let value = show_json(
            args.game,
            game,
            source,
            serde_json::json!({
                "notation": game.notation,
                "moves": [],
                "ply": null,
                "certain": false,
                "fen": null,
                "no_board": why,
            }),
        );
        super::write_json_line(out, &value)?;
        return Ok(Exit::Success);
    }
    write_header(out, args.game, game, source)?;
    writeln!(out)?;
    writeln!(out, "no board: {}", visible(why))?;
    Ok(Exit::Success)
}
