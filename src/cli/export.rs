//! `pdndb export`: the games of the database as clean PDN 3.0.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::query_args::{PositionArgs, open_store};
use super::write_file::{refuse_database, write_file};
use super::{CliError, Exit};
use crate::export::{ExportOptions, export_text, is_broken};
use crate::notation::Notation;
use crate::pdn::Reader;
use crate::replay::{Overrides, Status, check_game};
use crate::rules::Rules;
use crate::store::Store;
use crate::store::query::VariantFilter;

/// Arguments of `export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write to this file instead of standard output (replaced only once
    /// completely written; never the database).
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
    /// exporting them with their moves as written.
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
    if let Some(path) = &args.output {
        refuse_database(path, db)?;
    }
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
    let export = |sink: &mut dyn Write| -> Result<Tally, CliError> {
        let tally = export_games(
            &store,
            &ids,
            args,
            statuses.as_deref(),
            &options,
            limit,
            sink,
        )?;
        sink.flush()?;
        Ok(tally)
    };
    let tally = match &args.output {
        None => export(out)?,
        Some(path) => write_file(path, db, export)?,
    };
    let Tally {
        written,
        skipped,
        doubtful,
        doubtful_new,
        own,
        changed,
    } = tally;
    if skipped > 0 {
        say!("{written} games exported ({skipped} broken games left out)");
    } else {
        say!("{written} games exported");
    }
    if notation == Some(Notation::Dama) && written > 0 {
        say!(
            "{doubtful} of them will read back more than one way, since a Dama number names \
             two squares ({doubtful_new} of these read one way before)"
        );
    }
    if own > 0 {
        say!(
            "{own} of them are written in their own notation: in the one asked for they \
             would not read back as they were read"
        );
    }
    if !changed.is_empty() {
        let shown: Vec<String> = changed.iter().take(10).map(i64::to_string).collect();
        let more = if changed.len() > shown.len() {
            ", …"
        } else {
            ""
        };
        say!(
            "warning: {} games will not read back as they were read (games {}{more})",
            changed.len(),
            shown.join(", ")
        );
    }
    Ok(Exit::Success)
}

/// What an export wrote.
#[derive(Default)]
struct Tally {
    written: usize,
    /// Left out by `--skip-broken`.
    skipped: usize,
    /// Written games that read back ambiguous in the Dama notation.
    doubtful: usize,
    /// Those of them that were not ambiguous as stored.
    doubtful_new: usize,
    /// Games written in their own notation instead of the one asked for.
    own: usize,
    /// Games (ids) that read back otherwise than they were read, those
    /// the Dama notation makes ambiguous aside.
    changed: Vec<i64>,
}

/// Writes the chosen games one at a time, each checked by reading its text
/// back.
fn export_games(
    store: &Store,
    ids: &[i64],
    args: &ExportArgs,
    statuses: Option<&[Status]>,
    options: &ExportOptions,
    limit: usize,
    out: &mut dyn Write,
) -> Result<Tally, CliError> {
    let mut tally = Tally::default();
    for &id in ids {
        if tally.written >= limit {
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
            tally.skipped += 1;
            continue;
        }
        let file = store.source(id)?.map(|s| s.file).unwrap_or_default();
        let text = store.original_text(id)?.unwrap_or_default();
        let Ok(Some(original)) = Reader::new(text.as_bytes()).next_game() else {
            say!("{file}: game {id} has no text to export; left out");
            continue;
        };
        // Read it again the way it was imported.
        let overrides = Overrides {
            rules: stored.rules(),
            notation: stored.notation.as_deref().and_then(|n| n.parse().ok()),
            skip_alternatives: true,
            ..Overrides::default()
        };
        let checked = check_game(&original, &file, &overrides);
        let Some(exported) = export_text(&original, &checked, options) else {
            continue;
        };
        out.write_all(exported.text.as_bytes())?;
        tally.written += 1;
        if exported.own_notation {
            tally.own += 1;
        }
        let back = exported.back.as_ref().map(|b| b.status);
        let dama = options.notation == Some(Notation::Dama);
        let doubtful = dama && back == Some(Status::Ambiguous);
        if doubtful {
            tally.doubtful += 1;
        }
        let new_doubt = doubtful && checked.record.status != Status::Ambiguous;
        if new_doubt {
            tally.doubtful_new += 1;
        } else if !exported.kept {
            tally.changed.push(id);
        }
    }
    Ok(tally)
}
