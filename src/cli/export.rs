//! `pdndb export`: the games of the database as clean PDN 3.0.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::{CliError, Exit};
use super::games::TagFilterArgs;
use super::query_args::{PositionArgs, open_store};
use super::terminal_text::{Visible, escapes_for, stdout_is_terminal};
use super::write_file::{refuse_database, write_file};
use crate::export::{ExportOptions, Paths};
use crate::notation::Notation;
use crate::replay::Status;
use crate::rules::Rules;
use crate::store::export::{ExportChoice, ExportError, Tally};
use crate::store::query::VariantFilter;

/// Arguments of `export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write to this file instead of standard output (replaced only once
    /// completely written; never the database). Written to a terminal,
    /// control characters read from files (escape sequences in comments)
    /// are shown as escapes (`\x1b`); to a file or a pipe, the text is
    /// written unchanged.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// How moves are written: numeric, vismin, luzon or dama (default: each
    /// game's own notation, numeric when it has none).
    #[arg(long, ignore_case = true, value_enum)]
    pub notation: Option<Notation>,
    /// Only games that reach a position (--fen or --moves), of a variant
    /// (--variant); without --fen and --moves, every position.
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub tags: TagFilterArgs,
    /// Only games of this status: ok, ambiguous, illegal, unreadable or
    /// unsupported (comma-separated for several).
    #[arg(
        long,
        value_name = "S",
        value_delimiter = ',',
        ignore_case = true,
        value_enum
    )]
    pub status: Vec<Status>,
    /// Only this game (repeat for several).
    #[arg(long, value_name = "ID")]
    pub game: Vec<crate::store::GameId>,
    /// At most this many games, by id (default: all; 0 = all).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Leave out illegal, unreadable and unsupported games instead of
    /// exporting them with their moves as written.
    #[arg(long)]
    pub skip_broken: bool,
    /// How much of a capture of several jumps is written: its whole route
    /// where the record wrote it whole (written), start and end (short), or
    /// always its whole route (full).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Paths::Written)]
    pub paths: Paths,
    /// Write each player's canonical name (see `pdndb alias`) in the
    /// White and Black tags instead of the name as stored.
    #[arg(long)]
    pub canonical_names: bool,
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
    let notation = args.notation;
    if let Some(path) = &args.output {
        refuse_database(path, db)?;
    }
    let store = open_store(db)?;
    let at = if args.position.fen.is_some() || args.position.moves.is_some() {
        Some(args.position.resolve(&store)?)
    } else {
        if let Some(v) = &args.position.variant {
            Rules::parse(v).map_err(|e| usage(format!("--variant: {e}")))?;
        }
        None
    };
    let options = ExportOptions {
        notation,
        skip_broken: args.skip_broken,
        paths: args.paths,
    };
    let tags = args.tags.filter(None)?;
    let limit = args.limit.filter(|&n| n != 0).unwrap_or(usize::MAX);
    let canonical = match args.canonical_names {
        true => store.canonical_names()?,
        false => HashMap::new(),
    };
    let choice = ExportChoice {
        at,
        variant: VariantFilter(args.position.variant.clone()),
        tags,
        statuses: args.status.clone(),
        games: args.game.clone(),
        limit,
        canonical,
        options,
    };
    let export = |sink: &mut dyn Write| -> Result<Tally, CliError> {
        store.export_games(&choice, sink).map_err(|e| match e {
            ExportError::Store(e) => CliError::Store(e),
            ExportError::Write(e) => CliError::Io(e),
        })
    };
    let visible = escapes_for(stdout_is_terminal(), args.output.is_some());
    let tally = match &args.output {
        None if visible => export(&mut Visible::new(out))?,
        None => export(out)?,
        Some(path) => write_file(path, db, export)?,
    };
    say_tally(&tally, notation);
    Ok(Exit::Success)
}

/// Says on standard error what an export wrote (`notation`: the one asked
/// for): how many games, and those that may not read back as they were.
fn say_tally(tally: &Tally, notation: Option<Notation>) {
    let Tally {
        written,
        skipped,
        doubtful,
        doubtful_new,
        own,
        changed,
        textless,
    } = tally;
    for (file, id) in textless {
        say!("{file}: game {id} has no text to export; left out");
    }
    if *skipped > 0 {
        say!("{written} games exported ({skipped} broken games left out)");
    } else {
        say!("{written} games exported");
    }
    if notation == Some(Notation::Dama) && *written > 0 {
        say!(
            "{doubtful} of them will read back more than one way, since a Dama number names \
             two squares ({doubtful_new} of these read one way before)"
        );
    }
    if *own > 0 {
        say!(
            "{own} of them are written in their own notation: in the one asked for they \
             would not read back as they were read"
        );
    }
    if changed.count > 0 {
        let shown: Vec<String> = changed.first.iter().map(i64::to_string).collect();
        let more = if changed.count > shown.len() {
            ", …"
        } else {
            ""
        };
        say!(
            "warning: {} games will not read back as they were read (games {}{more})",
            changed.count,
            shown.join(", ")
        );
    }
}
