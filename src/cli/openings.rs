//! `pdndb openings`: each named opening's games and results; or, with
//! `--table`, the names the built-in tables give.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::error::{CliError, Exit};
use super::output::write_json_line;
use super::query_args::open_store;
use crate::escape::visible;
use crate::rules::{Preset, Rules};
use crate::store::games::GameFilterText;
use crate::store::param::Wording;

/// Arguments of `openings`.
#[derive(Debug, Args)]
pub struct OpeningsArgs {
    /// Only games of this variant: a preset name (any switches) or a full
    /// variant string.
    #[arg(long)]
    pub variant: Option<String>,
    /// Only games where White or Black contains this.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// List the openings the built-in tables name (name, moves, source)
    /// instead of the games; needs no database.
    #[arg(long)]
    pub table: bool,
    /// One JSON object per opening.
    #[arg(long)]
    pub json: bool,
}

/// One row of a built-in table, as `openings --table --json` writes it.
#[derive(Serialize)]
struct TableRow<'a> {
    variant: &'a str,
    opening: &'a str,
    moves: &'a str,
    plies: u32,
    source: &'a str,
}

/// Runs `openings`. The count ("N openings") goes to standard error.
///
/// # Errors
/// A missing database, or a variant or player that cannot be read.
pub fn cmd_openings(
    args: &OpeningsArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let filter = GameFilterText {
        player: args.player.as_deref(),
        variant: args.variant.as_deref(),
        ..GameFilterText::default()
    }
    .parse()
    .map_err(|e| CliError::Usage(e.worded(Wording::Options)))?;
    let preset = match &args.variant {
        Some(v) => Some(
            Rules::parse(v)
                .map_err(|e| CliError::Usage(e.to_string()))?
                .preset,
        ),
        None => None,
    };
    if let Some(p) = preset
        && crate::openings::book(p).is_none()
    {
        say!(
            "{}: no table of named openings (no standard naming of its openings was found); its games have no opening",
            p.name()
        );
    }
    if args.table {
        return list_tables(preset, args.json, out);
    }
    let store = open_store(db)?;
    let rows = store.openings(&filter)?;
    for row in &rows {
        if args.json {
            write_json_line(out, row)?;
            continue;
        }
        let score = row.score.map_or("-".to_string(), |s| format!("{s:.1}%"));
        writeln!(
            out,
            "{:<14} {:<32} {:>6} games {:>5.1}%  +{} ={} -{} ?{}  {:>6}",
            row.variant,
            visible(&row.opening),
            row.games,
            row.share,
            row.white_wins,
            row.draws,
            row.black_wins,
            row.unknown,
            score
        )?;
    }
    say!("{} openings", rows.len());
    Ok(Exit::Success)
}

/// Writes the rows of the built-in tables (of `preset`, or all).
fn list_tables(preset: Option<Preset>, json: bool, out: &mut impl Write) -> Result<Exit, CliError> {
    let presets = match preset {
        Some(p) => vec![p],
        None => crate::openings::named_presets(),
    };
    let mut count = 0;
    for book in presets.into_iter().filter_map(crate::openings::book) {
        for opening in &book.openings {
            let row = TableRow {
                variant: book.preset.name(),
                opening: opening.name,
                moves: opening.moves,
                plies: opening.plies(),
                source: opening.source,
            };
            if json {
                write_json_line(out, &row)?;
            } else {
                writeln!(out, "{:<14} {:<32} {}", row.variant, row.opening, row.moves)?;
            }
            count += 1;
        }
    }
    say!("{count} openings");
    Ok(Exit::Success)
}
