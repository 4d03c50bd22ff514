//! `pdndb import PATH…`: read files and folders into the database.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::ProgressBar;

use super::error::{CliError, Exit};
use super::files::{discover, open_inputs};
use super::output::write_json_line;
use super::progress::bytes_bar;
use super::query_args::open_writer;
use super::reading::ReadingArgs;
use crate::escape::visible;
use crate::store::import::{ImportSummary, Importer, Progress};
use std::time::Duration;

/// Arguments of `import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// PDN files or folders (searched for `*.pdn`, any case); `-` reads
    /// standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Read every file again, even those imported before and unchanged
    /// (their games are replaced by what reading them finds now).
    #[arg(long)]
    pub force: bool,
    /// Seconds to wait for another import (or remove, recheck) writing to
    /// the database before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::store::lock::DEFAULT_WAIT.as_secs())]
    pub wait: u64,
    #[command(flatten)]
    pub reading: ReadingArgs,
}

/// Runs `import`. Files that are not PDN are skipped with a message (not
/// an error); the summary names the database file written.
///
/// # Errors
/// Bad arguments, or a database that cannot be opened or written. Files
/// that cannot be read are reported; the others are imported, then the exit
/// status is 2. When no file at all is found (every path is missing), the
/// database is not opened, so none is created.
pub fn cmd_import(
    args: &ImportArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let overrides = args.reading.overrides();
    let found = discover(&args.paths);
    for error in &found.errors {
        say!("{error}");
    }
    if found.files.is_empty() && !found.errors.is_empty() {
        // Nothing to read: no database is created or opened.
        return Ok(Exit::Error);
    }
    let opened = open_inputs(&found.files, args.reading.encoding);
    let mut store = open_writer(db, Duration::from_secs(args.wait))?;
    let total: u64 = opened
        .inputs
        .iter()
        .filter_map(|f| std::fs::metadata(f.path()).ok())
        .map(|m| m.len())
        .sum();
    let mut bar = ImportBar {
        bar: bytes_bar(total, args.quiet),
        done_before: 0,
        current: 0,
    };
    let mut report = |p: Progress| bar.report(p);
    let (summary, failed) = Importer::new(&mut store, overrides)
        .with_encoding(args.reading.encoding)
        .with_force(args.force)
        .with_options_forgotten(args.reading.auto())
        .with_jobs(args.reading.jobs())
        .run(&opened.inputs, &mut report)?;
    bar.bar.finish_and_clear();
    for dir in args.paths.iter().filter(|p| p.is_dir()) {
        for gone in store.files_gone(dir)? {
            say!(
                "{gone}: imported before, no longer there; `pdndb remove {gone}` takes its games out"
            );
        }
    }
    let database = std::path::absolute(db).unwrap_or_else(|_| db.to_path_buf());
    if args.json {
        let json = JsonSummary {
            summary: &summary,
            database: &database,
        };
        write_json_line(out, &json)?;
    } else {
        write_summary(out, &summary, opened.not_pdn, &database)?;
    }
    Ok(
        if failed > 0 || opened.failed > 0 || !found.errors.is_empty() {
            Exit::Error
        } else {
            Exit::Success
        },
    )
}

/// The progress bar of an import: bytes read over all files.
struct ImportBar {
    bar: ProgressBar,
    /// Bytes of the files done before the current one.
    done_before: u64,
    /// Size of the file being read.
    current: u64,
}

impl ImportBar {
    /// Moves the bar on, or says (above it) what happened to a file.
    fn report(&mut self, p: Progress) {
        let bar = &self.bar;
        match p {
            Progress::File { bytes, .. } => {
                self.done_before += self.current;
                self.current = bytes;
                bar.set_position(self.done_before);
            }
            Progress::Advance { bytes, games } => {
                bar.set_position(self.done_before + bytes.min(self.current));
                bar.set_message(format!("{games} games"));
            }
            Progress::Skipped(path, pinned) => {
                bar.suspend(|| {
                    match pinned {
                        None => say!("{}: already imported, unchanged; skipped", path.display()),
                        Some(given) => say!(
                            "{}: already imported, unchanged; skipped (read with {}, given to an \
                             earlier import{})",
                            path.display(),
                            given.as_arguments(),
                            if given.choose_reading() {
                                "; --variant auto reads it by its tags and moves"
                            } else {
                                ""
                            }
                        ),
                    }
                });
                if let Ok(m) = std::fs::metadata(&path) {
                    self.done_before += m.len();
                    bar.set_position(self.done_before);
                }
            }
            Progress::ReadAgain(path, changed) => bar.suspend(|| {
                say!(
                    "{}: already imported, read again with the current rules: {changed} games changed",
                    path.display()
                )
            }),
            Progress::StartedOver(path) => bar.suspend(|| {
                say!(
                    "{}: its interrupted import read it with other options; reading it from the start with these",
                    path.display()
                )
            }),
            Progress::Problem(message) | Progress::Notice(message) => {
                bar.suspend(|| say!("{message}"))
            }
        }
    }
}

/// The summary printed by `--json`: the importer's, plus the database
/// file written.
#[derive(serde::Serialize)]
struct JsonSummary<'a> {
    #[serde(flatten)]
    summary: &'a ImportSummary,
    /// The database file, as an absolute path.
    database: &'a Path,
}

/// The summary for people: what was read and added, the files that were
/// not PDN (when any) and the database file written.
fn write_summary(
    out: &mut impl Write,
    s: &ImportSummary,
    not_pdn: usize,
    database: &Path,
) -> std::io::Result<()> {
    let not_pdn = if not_pdn > 0 {
        format!(", {not_pdn} not PDN")
    } else {
        String::new()
    };
    writeln!(
        out,
        "{} files read, {} already imported{not_pdn}; {} games added ({} ok, {} ambiguous, {} illegal, {} unreadable, {} unsupported), {} duplicates, {} positions indexed in {:.2} s into {}",
        s.files,
        s.files_skipped,
        s.games,
        s.ok,
        s.ambiguous,
        s.illegal,
        s.unreadable,
        s.unsupported,
        s.duplicates,
        s.positions,
        s.seconds,
        visible(&database.display().to_string())
    )?;
    if s.files_replaced > 0 {
        writeln!(
            out,
            "{} files imported before had changed (or were read with new options): {} games kept \
             ({} of them read differently), {} removed, {} positions taken out of the index",
            s.files_replaced, s.games_kept, s.games_changed, s.games_removed, s.positions_removed
        )?;
        if s.games_in_place > 0 {
            writeln!(
                out,
                "{} games added in the place of a removed game of their file took its id",
                s.games_in_place
            )?;
        }
    }
    if s.files_read_again > 0 {
        writeln!(
            out,
            "{} files imported before were read again with the current rules: {} games changed",
            s.files_read_again, s.games_changed
        )?;
    }
    Ok(())
}
