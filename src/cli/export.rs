//! `pdndb export`: the games of the database as clean PDN 3.0.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use clap::Args;

use super::query_args::{PositionArgs, open_store};
use super::{CliError, Exit};
use crate::export::{ExportOptions, export_game, export_unread, is_broken};
use crate::notation::Notation;
use crate::pdn::{Reader, write_game};
use crate::replay::{Overrides, Status, check_game};
use crate::rules::Rules;
use crate::store::Store;
use crate::store::query::VariantFilter;

/// Arguments of `export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// How moves are written: numeric, vismin, luzon or dama (default: each
    /// game's own notation, numeric when it has none).
    #[arg(long)]
    pub notation: Option<String>,
    /// Only games that reach a position (--fen or --moves), of a variant
    /// (--variant); without --fen and --moves, every position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Only games of this status: ok, ambiguous, illegal, unreadable or
    /// unsupported (comma-separated for several).
    #[arg(long, value_name = "S")]
    pub status: Option<String>,
    /// Only this game (repeat for several).
    #[arg(long, value_name = "ID")]
    pub game: Vec<i64>,
    /// At most this many games, by id (default: all; 0 = all).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Leave out illegal, unreadable and unsupported games instead of
    /// exporting them with their text in a comment.
    #[arg(long)]
    pub skip_broken: bool,
}

/// Runs `export`.
///
/// # Errors
/// A missing database, bad arguments, an output that cannot be written.
pub fn cmd_export(
    args: &ExportArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let usage = |m: String| CliError::Usage(m);
    let notation = match &args.notation {
        Some(n) => Some(n.parse::<Notation>().map_err(|e| usage(e.to_string()))?),
        None => None,
    };
    let statuses: Option<Vec<Status>> = match &args.status {
        Some(list) => Some(
            list.split(',')
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e: String| usage(format!("--status: {e}")))?,
        ),
        None => None,
    };
    let store = open_store(db)?;
    let ids = if args.position.fen.is_some() || args.position.moves.is_some() {
        let query = args.position.resolve(&store)?;
        store.game_ids_at(&query.position, &query.filter)?
    } else {
        if let Some(v) = &args.position.variant {
            Rules::parse(v).map_err(|e| usage(format!("--variant: {e}")))?;
        }
        store.game_ids(&VariantFilter(args.position.variant.clone()))?
    };
    let options = ExportOptions {
        notation,
        skip_broken: args.skip_broken,
    };
    let limit = args.limit.filter(|&n| n != 0).unwrap_or(usize::MAX);
    let mut file;
    let sink: &mut dyn Write = match &args.output {
        None => out,
        Some(path) => {
            file = BufWriter::new(
                File::create(path)
                    .map_err(|e| usage(format!("{}: cannot be written: {e}", path.display())))?,
            );
            &mut file
        }
    };
    let (written, skipped) = export_games(
        &store,
        &ids,
        args,
        statuses.as_deref(),
        &options,
        limit,
        sink,
    )?;
    sink.flush()?;
    if skipped > 0 {
        say!("{written} games exported ({skipped} broken games left out)");
    } else {
        say!("{written} games exported");
    }
    Ok(Exit::Success)
}

/// Writes the chosen games one at a time; returns how many were written and
/// how many `--skip-broken` left out.
fn export_games(
    store: &Store,
    ids: &[i64],
    args: &ExportArgs,
    statuses: Option<&[Status]>,
    options: &ExportOptions,
    limit: usize,
    out: &mut dyn Write,
) -> Result<(usize, usize), CliError> {
    let (mut written, mut skipped) = (0, 0);
    for &id in ids {
        if written >= limit {
            break;
        }
        if !args.game.is_empty() && !args.game.contains(&id) {
            continue;
        }
        let Some(stored) = store.game(id)? else {
            continue;
        };
        let status: Status = stored.status.parse().unwrap_or(Status::Unreadable);
        if statuses.is_some_and(|s| !s.contains(&status)) {
            continue;
        }
        if options.skip_broken && is_broken(status) {
            skipped += 1;
            continue;
        }
        let file = store.source(id)?.map(|s| s.file).unwrap_or_default();
        let text = store.original_text(id)?.unwrap_or_default();
        let Ok(Some(original)) = Reader::new(text.as_bytes()).next_game() else {
            say!("{file}: game {id} has no text to export; left out");
            continue;
        };
        let message = || {
            stored.record["message"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        };
        let game = match status {
            Status::Unreadable | Status::Unsupported => {
                export_unread(&original, status, &message(), options)
            }
            _ => {
                // Read it again the way it was imported.
                let overrides = Overrides {
                    rules: stored.rules(),
                    notation: stored.notation.as_deref().and_then(|n| n.parse().ok()),
                    skip_alternatives: true,
                    ..Overrides::default()
                };
                let checked = check_game(&original, &file, &overrides);
                export_game(&original, &checked, options)
            }
        };
        if let Some(game) = game {
            write_game(out, &game)?;
            written += 1;
        }
    }
    Ok((written, skipped))
}
