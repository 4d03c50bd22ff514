//! `pdndb export`: the games of the database as clean PDN 3.0.

use std::collections::HashMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::Args;

use super::error::{CliError, Exit};
use super::games::TagFilterArgs;
use super::query_args::{PositionArgs, open_store};
use super::terminal_text::{Visible, escapes_for, stdout_is_terminal};
use super::write_file::{refuse_database, write_file};
use crate::export::{ExportOptions, Paths, export_text, is_broken};
use crate::notation::Notation;
use crate::pdn::Reader;
use crate::replay::{Overrides, Status, check_game};
use crate::rules::Rules;
use crate::store::Store;
use crate::store::games::GameFilter;
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
    let statuses = (!args.status.is_empty()).then_some(args.status.as_slice());
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
    let canonical: HashMap<String, String> = match args.canonical_names {
        true => store
            .aliases()?
            .into_iter()
            .flat_map(|g| g.aliases.into_iter().map(move |a| (a, g.canonical.clone())))
            .collect(),
        false => HashMap::new(),
    };
    let export = |sink: &mut dyn Write| -> Result<Tally, CliError> {
        let mut export = Export {
            store: &store,
            args,
            statuses,
            options: &options,
            tags: &tags,
            pending: Vec::new(),
            limit,
            canonical: &canonical,
            out: sink,
            tally: Tally::default(),
        };
        // The games are written as they are found.
        match &at {
            Some(query) => {
                store.each_game_id_at(&query.position, &query.filter, |id| export.offer(id))?
            }
            None => store.each_game_id(&VariantFilter(args.position.variant.clone()), |id| {
                export.offer(id)
            })?,
        }
        // The last batch: what it says about the limit no longer matters.
        let _ = export.flush()?;
        let tally = export.tally;
        sink.flush()?;
        Ok(tally)
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

/// Writes the canonical name of each alias (cleaned) found in `game`'s
/// `White` and `Black` tags in its place.
fn canonical_players(game: &mut crate::pdn::Game, canonical: &HashMap<String, String>) {
    if canonical.is_empty() {
        return;
    }
    for tag in &mut game.tags {
        let player =
            tag.name.eq_ignore_ascii_case("white") || tag.name.eq_ignore_ascii_case("black");
        if let Some(name) = canonical.get(&crate::export::clean_tag_value(&tag.value))
            && player
        {
            tag.value = name.as_str().into();
        }
    }
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
    } = tally;
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
    /// Games that read back otherwise than they were read, those the Dama
    /// notation makes ambiguous aside.
    changed: Changed,
}

/// Games that read back otherwise than they were read: how many, and the
/// first ids (as many as the warning names).
#[derive(Default)]
struct Changed {
    count: usize,
    first: Vec<i64>,
}

impl Changed {
    /// Ids the warning names at most.
    const NAMED: usize = 10;

    fn note(&mut self, id: i64) {
        self.count += 1;
        if self.first.len() < Changed::NAMED {
            self.first.push(id);
        }
    }
}

/// An export under way: the chosen games written one at a time, each
/// checked by reading its text back.
struct Export<'a> {
    store: &'a Store,
    args: &'a ExportArgs,
    statuses: Option<&'a [Status]>,
    options: &'a ExportOptions,
    /// The filter by tags, applied to batches of ids.
    tags: &'a GameFilter,
    /// Ids offered and not yet filtered by tags.
    pending: Vec<i64>,
    limit: usize,
    /// Each alias with its canonical name, for `--canonical-names`.
    canonical: &'a HashMap<String, String>,
    out: &'a mut dyn Write,
    tally: Tally,
}

impl Export<'_> {
    /// Ids filtered by tags at once.
    const BATCH: usize = 512;

    /// Takes game `id`, in id order: written now without a filter by tags,
    /// else with the next batch.
    fn offer(&mut self, id: i64) -> Result<ControlFlow<()>, CliError> {
        if self.tags.is_empty() {
            return self.game(id);
        }
        self.pending.push(id);
        if self.pending.len() < Self::BATCH {
            return Ok(ControlFlow::Continue(()));
        }
        self.flush()
    }

    /// Writes the pending games that pass the filter by tags.
    fn flush(&mut self) -> Result<ControlFlow<()>, CliError> {
        let pending = std::mem::take(&mut self.pending);
        for id in self.store.games_passing(self.tags, &pending)? {
            if self.game(id)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Writes game `id` if it is one of those chosen; breaks once `limit`
    /// games are written.
    fn game(&mut self, id: i64) -> Result<ControlFlow<()>, CliError> {
        let (store, args, options, tally) = (self.store, self.args, self.options, &mut self.tally);
        if tally.written >= self.limit {
            return Ok(ControlFlow::Break(()));
        }
        if !args.game.is_empty() && !args.game.contains(&crate::store::GameId(id)) {
            return Ok(ControlFlow::Continue(()));
        }
        let Some(stored) = store.game(crate::store::GameId(id))? else {
            return Ok(ControlFlow::Continue(()));
        };
        let status = stored.status;
        if self.statuses.is_some_and(|s| !s.contains(&status)) {
            return Ok(ControlFlow::Continue(()));
        }
        if options.skip_broken && is_broken(status) {
            tally.skipped += 1;
            return Ok(ControlFlow::Continue(()));
        }
        let file = store
            .source(crate::store::GameId(id))?
            .map(|s| s.file)
            .unwrap_or_default();
        let text = store
            .original_text(crate::store::GameId(id))?
            .unwrap_or_default();
        let Ok(Some(mut original)) = Reader::new(text.as_bytes()).next_game() else {
            say!("{file}: game {id} has no text to export; left out");
            return Ok(ControlFlow::Continue(()));
        };
        canonical_players(&mut original, self.canonical);
        // Read it again the way it was imported.
        let overrides = Overrides {
            rules: stored.rules(),
            notation: stored.notation,
            skip_alternatives: true,
            ..Overrides::default()
        };
        let checked = check_game(&original, &file, &overrides);
        let Some(exported) = export_text(&original, &checked, options) else {
            return Ok(ControlFlow::Continue(()));
        };
        self.out.write_all(exported.text.as_bytes())?;
        tally.written += 1;
        if exported.own_notation {
            tally.own += 1;
        }
        let back = exported.back.as_ref().map(|b| b.outcome.status);
        let dama = options.notation == Some(Notation::Dama);
        let doubtful = dama && back == Some(Status::Ambiguous);
        if doubtful {
            tally.doubtful += 1;
        }
        let new_doubt = doubtful && checked.record.outcome.status != Status::Ambiguous;
        if new_doubt {
            tally.doubtful_new += 1;
        } else if !exported.kept {
            tally.changed.note(id);
        }
        Ok(ControlFlow::Continue(()))
    }
}
