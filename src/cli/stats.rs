//! `pdndb stats`: what the database holds.

use std::io::Write;

use clap::Args;

use super::query_args::open_store;
use super::{CliError, Exit};
use crate::escape::visible;

/// Arguments of `stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `stats`.
///
/// # Errors
/// A missing database.
pub fn cmd_stats(
    args: &StatsArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let store = open_store(db)?;
    let stats = store.stats()?;
    if args.json {
        super::write_json_line(out, &stats)?;
        return Ok(Exit::Success);
    }
    writeln!(
        out,
        "{} files, {} games ({} duplicates met), {} positions indexed, {} bytes",
        stats.files, stats.games, stats.duplicates, stats.positions, stats.bytes
    )?;
    let list = |map: &serde_json::Map<String, serde_json::Value>| {
        map.iter()
            .map(|(k, v)| format!("{v} {}", visible(k)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    writeln!(out, "by status: {}", list(&stats.by_status))?;
    writeln!(out, "by variant: {}", list(&stats.by_variant))?;
    Ok(Exit::Success)
}
