//! `pdndb report`: the records of problem games in the database, or the
//! groups of different games with identical moves.

use std::io::Write;

use clap::Args;

use super::query_args::open_store;
use super::{CliError, Exit};
use crate::replay::Status;

/// Arguments of `report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Only games of these statuses (repeat or comma-separate; default:
    /// every status but ok).
    #[arg(long, value_delimiter = ',')]
    pub status: Vec<String>,
    /// Also list ok games that had resolved ambiguities.
    #[arg(long)]
    pub resolved: bool,
    /// List groups of different games with identical moves instead.
    #[arg(long)]
    pub twins: bool,
    /// One JSON object per game (per group with --twins).
    #[arg(long)]
    pub json: bool,
}

/// Runs `report`: exit status 0 when every listed game is ok, 1 when any
/// is not.
///
/// # Errors
/// A missing database or an unknown status.
pub fn cmd_report(
    args: &ReportArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let store = open_store(db)?;
    if args.twins {
        let groups = store.twins()?;
        for group in &groups {
            if args.json {
                super::write_json_line(out, group)?;
            } else {
                writeln!(
                    out,
                    "{} games with the same {} plies ({}):",
                    group.games.len(),
                    group.plies,
                    group.variant
                )?;
                for m in &group.members {
                    let tag = |n: &str| super::tag_text(Some(&m.tags), n);
                    writeln!(
                        out,
                        "    game {} {}:{} {} – {}, {} {}",
                        m.game,
                        m.file,
                        m.index,
                        tag("White"),
                        tag("Black"),
                        tag("Event"),
                        tag("Date")
                    )?;
                }
            }
        }
        let games: usize = groups.iter().map(|g| g.games.len()).sum();
        eprintln!("{} groups holding {games} games", groups.len());
        return Ok(Exit::Success);
    }
    let statuses: Vec<Status> = if args.status.is_empty() {
        Status::ALL
            .into_iter()
            .filter(|s| *s != Status::Ok)
            .collect()
    } else {
        args.status
            .iter()
            .map(|s| s.parse())
            .collect::<Result<_, String>>()
            .map_err(CliError::Usage)?
    };
    let names: Vec<&str> = statuses.iter().map(|s| s.name()).collect();
    let ids = store.report_ids(&names, args.resolved)?;
    let mut problems = false;
    for id in &ids {
        let Some(record) = store.record(*id)? else {
            continue;
        };
        let status = record
            .get("status")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        problems |= status != "ok";
        if args.json {
            super::write_json_line(out, &record)?;
        } else {
            let get = |k: &str| {
                record
                    .get(k)
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .unwrap_or_default()
            };
            let tag = |n: &str| super::tag_text(record.get("tags").and_then(|t| t.as_object()), n);
            let message = record.get("message").and_then(|v| v.as_str()).map_or_else(
                || {
                    let resolved = record
                        .get("resolved")
                        .and_then(|r| r.as_array())
                        .map_or(0, Vec::len);
                    format!("{resolved} resolved ambiguities")
                },
                str::to_string,
            );
            writeln!(
                out,
                "{}:{}: game {} ({} – {}, {}) [id {}]: {} [{}]",
                get("file"),
                get("line"),
                get("index"),
                tag("White"),
                tag("Black"),
                tag("Event"),
                id,
                message,
                status
            )?;
        }
    }
    eprintln!("{} games listed", ids.len());
    Ok(if problems {
        Exit::Problems
    } else {
        Exit::Success
    })
}
