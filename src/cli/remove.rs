//! `pdndb remove PATH…` / `pdndb remove --game ID…`: take files or games
//! out of the database and the index.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::{CliError, Exit};
use super::output::write_json_line;
use crate::store::StoreError;
use crate::store::remove::RemoveSummary;

/// Arguments of `remove`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("what").required(true).multiple(true))]
pub struct RemoveArgs {
    /// Imported files, by any path to them; a folder names every file
    /// imported from under it.
    #[arg(group = "what")]
    pub paths: Vec<PathBuf>,
    /// Games, by id (as `search` and `games` list them).
    #[arg(long = "game", value_name = "ID", num_args = 1.., group = "what")]
    pub games: Vec<crate::store::GameId>,
    /// Say what would go, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Seconds to wait for another import (or remove, recheck) writing to
    /// the database before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::store::lock::DEFAULT_WAIT.as_secs())]
    pub wait: u64,
}

/// Runs `remove`. Every path and id must name something stored, else
/// nothing is removed.
///
/// # Errors
/// A missing database, a path or id that names nothing stored, or a
/// database that cannot be written.
pub fn cmd_remove(
    args: &RemoveArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    if std::fs::metadata(db).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Err(StoreError::Missing(db.to_path_buf()).into());
    }
    let mut store = super::query_args::open_writer(db, std::time::Duration::from_secs(args.wait))?;
    let files = store.files_at(&args.paths)?;
    if !files.unknown.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no file imported from there; nothing removed",
            files.unknown.join(", ")
        )));
    }
    let unknown = store.unknown_games(&args.games)?;
    if !unknown.is_empty() {
        let ids: Vec<String> = unknown.iter().map(ToString::to_string).collect();
        return Err(CliError::Usage(format!(
            "no game {} in the database; nothing removed",
            ids.join(", ")
        )));
    }
    let summary = store.remove(&files.ids, &args.games, args.dry_run)?;
    if args.json {
        write_json_line(out, &summary)?;
    } else {
        write_summary(out, &summary)?;
    }
    Ok(Exit::Success)
}

fn write_summary(out: &mut impl Write, s: &RemoveSummary) -> std::io::Result<()> {
    let verb = if s.dry_run { "would remove" } else { "removed" };
    write!(
        out,
        "{verb} {} files, {} games and {} positions from the index",
        s.files, s.games, s.positions
    )?;
    if s.games_kept > 0 {
        write!(
            out,
            "; {} games of those files stay, as other files hold them too",
            s.games_kept
        )?;
    }
    writeln!(out)
}
