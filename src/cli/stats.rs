//! `pdndb stats`: what the database holds.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use crate::store::invariants::Checked;
use crate::store::query::Stats;

use super::error::{CliError, Exit};
use super::output::write_json_line;
use super::query_args::open_store;
use crate::escape::visible;

/// Arguments of `stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also check that what pdndb keeps is consistent (SQLite's quick
    /// check, the counts printed against a recount, every game from a
    /// file, complete files whole, the tree counts,
    /// index rows read again for a sample of games); exit 1 when not.
    #[arg(long)]
    pub check: bool,
}

/// The JSON record: the counts, and with `--check` what the check found.
#[derive(Serialize)]
struct StatsRecord<'a> {
    #[serde(flatten)]
    stats: &'a Stats,
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<&'a Checked>,
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
    let checked = args.check.then(|| store.check_invariants()).transpose()?;
    let exit = match &checked {
        Some(checked) if !checked.ok => Exit::Problems,
        _ => Exit::Success,
    };
    if args.json {
        let record = StatsRecord {
            stats: &stats,
            check: checked.as_ref(),
        };
        write_json_line(out, &record)?;
        return Ok(exit);
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
    if stats.unindexed > 0 {
        writeln!(
            out,
            "{} games are not indexed yet: run pdndb import again",
            stats.unindexed
        )?;
    }
    if let Some(checked) = checked {
        for problem in &checked.problems {
            writeln!(out, "check: {problem}")?;
        }
        if checked.ok {
            writeln!(
                out,
                "check: consistent ({} games' index rows read again, the tree's counts at {} popular positions recounted)",
                checked.sampled, checked.popular_sampled
            )?;
        }
    }
    Ok(exit)
}
