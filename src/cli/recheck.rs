//! `pdndb recheck [PATH…]`: read the stored games again with the current
//! rules and their inference.

use std::io::Write;

use clap::Args;

use super::error::{CliError, Exit};
use super::output::write_json_line;
use super::progress::count_bar;
use crate::escape::visible;
use crate::store::recheck::RecheckSummary;

/// Arguments of `recheck`.
#[derive(Debug, Args)]
pub struct RecheckArgs {
    /// Only the games of these files (any path to them; a folder: the
    /// files imported from under it; default: every file).
    pub paths: Vec<std::path::PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// `auto`: read the games by their tags and moves, forgetting the
    /// rules and notation given when their files were imported.
    #[arg(long, ignore_case = true, value_parser = [super::values::AUTO])]
    pub variant: Option<String>,
    /// Seconds to wait for another import (or remove, recheck) writing to
    /// the database before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::store::lock::DEFAULT_WAIT.as_secs())]
    pub wait: u64,
}

/// Runs `recheck`.
///
/// # Errors
/// A missing database, a path that names no imported file, or a database
/// that cannot be written.
pub fn cmd_recheck(
    args: &RecheckArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    if std::fs::metadata(db).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Err(crate::store::StoreError::Missing(db.to_path_buf()).into());
    }
    let mut store = super::query_args::open_writer(db, std::time::Duration::from_secs(args.wait))?;
    let files = if args.paths.is_empty() {
        None
    } else {
        let files = store.files_at(&args.paths)?;
        if let Some(path) = files.unknown.first() {
            return Err(CliError::Usage(format!(
                "{path}: no file of that path was imported"
            )));
        }
        Some(files.ids)
    };
    let bar = count_bar(store.file_count(files.as_deref())?, args.quiet);
    let forget_options = args.variant.is_some();
    let summary = store.recheck(files.as_deref(), forget_options, &mut |path| {
        bar.inc(1);
        bar.set_message(visible(path).into_owned());
    })?;
    bar.finish_and_clear();
    if args.json {
        write_json_line(out, &summary)?;
    } else {
        write_summary(out, &summary)?;
    }
    Ok(Exit::Success)
}

fn write_summary(out: &mut impl Write, s: &RecheckSummary) -> std::io::Result<()> {
    writeln!(
        out,
        "{} games of {} files read again in {:.2} s: {} changed ({} merged into an equal game), \
         {} positions indexed, {} taken out of the index",
        s.games, s.files, s.seconds, s.changed, s.merged, s.positions_added, s.positions_removed
    )?;
    if s.split > 0 {
        writeln!(
            out,
            "  {} copies stored as a game they are not (merged by an older pdndb although their \
             site, round or set-up differ) were taken apart",
            s.split
        )?;
    }
    for (change, games) in &s.changes {
        writeln!(out, "  {games:>7}  {}", visible(change))?;
    }
    Ok(())
}
