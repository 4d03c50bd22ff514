//! `pdndb report`: the records of problem games in the database, or the
//! groups of different games with identical moves.

use std::io::Write;

use clap::Args;

use super::error::{CliError, Exit};
use super::game_text::rules_line;
use super::output::write_json_line;
use super::query_args::open_store;
use crate::escape::visible;
use crate::replay::{Status, VariantFrom};
use crate::store::listing::{Place, Roster, Shown};

/// Arguments of `report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Only games of these statuses (repeat or comma-separate; default:
    /// every status but ok).
    #[arg(long, value_delimiter = ',', ignore_case = true, value_enum)]
    pub status: Vec<Status>,
    /// Also list ok games that had resolved ambiguities.
    #[arg(long)]
    pub resolved: bool,
    /// List groups of different games with identical moves instead.
    #[arg(long)]
    pub twins: bool,
    /// List the games whose result contradicts their moves instead: the
    /// Result tag against the result after the moves, or against the last
    /// position (`result_check`).
    #[arg(long, conflicts_with_all = ["twins", "status", "resolved"])]
    pub results: bool,
    /// One JSON object per game (per group with --twins).
    #[arg(long)]
    pub json: bool,
    /// Write the listed games as one self-contained HTML page to FILE
    /// (`-` for standard output) instead of listing them: a summary per
    /// status and file, then each game with its tags, source, the board
    /// at the fault with the candidate moves as arrows, and its move text
    /// with the faulty token highlighted.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "twins", "results"])]
    pub html: Option<std::path::PathBuf>,
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
    if let Some(path) = args
        .html
        .as_deref()
        .filter(|p| *p != std::path::Path::new("-"))
    {
        super::write_file::refuse_database(path, db)?;
    }
    let store = open_store(db)?;
    if args.twins {
        return list_twins(&store, args.json, out);
    }
    if args.results {
        return list_contradictions(&store, args.json, out);
    }
    let statuses: Vec<Status> = if args.status.is_empty() {
        Status::ALL
            .into_iter()
            .filter(|s| *s != Status::Ok)
            .collect()
    } else {
        args.status.clone()
    };
    let names: Vec<&str> = statuses.iter().map(|s| s.name()).collect();
    if let Some(path) = &args.html {
        return write_html(&store, &names, args.resolved, path, db, out);
    }
    let mut problems = false;
    // Each game is written as it is read.
    let listed = store.each_report_id(&names, args.resolved, |id| -> Result<(), CliError> {
        let Some(record) = store.record(crate::store::GameId(id))? else {
            return Ok(());
        };
        problems |= record.record.status != Status::Ok;
        if args.json {
            write_json_line(out, &record)?;
        } else {
            write_record(out, id, &record)?;
        }
        Ok(())
    })?;
    let shown = Shown {
        shown: listed,
        total: store.game_count()?,
    };
    say!("{shown} listed");
    Ok(if problems {
        Exit::Problems
    } else {
        Exit::Success
    })
}

/// Lists the games whose result contradicts their moves (`--results`):
/// exit status 1 when there is any.
fn list_contradictions(
    store: &crate::store::Store,
    json: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let listed = store.each_result_contradiction(|id| -> Result<(), CliError> {
        let Some(record) = store.record(crate::store::GameId(id))? else {
            return Ok(());
        };
        if json {
            return write_json_line(out, &record);
        }
        let source = &record.source;
        let place = Place {
            file: &source.file,
            line: i64::try_from(source.line).unwrap_or(i64::MAX),
            index: i64::try_from(source.index).unwrap_or(i64::MAX),
        };
        let roster = Roster::of(&source.tags, &record.record.variant);
        let tag = source
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("result"))
            .and_then(|(_, v)| v.as_str())
            .unwrap_or("none");
        writeln!(
            out,
            "{place} ({roster}) [id {id}]: {} (Result tag {}) [{}]",
            record.result_check,
            visible(tag),
            visible(record.record.status.name())
        )?;
        Ok(())
    })?;
    let shown = Shown {
        shown: listed,
        total: store.game_count()?,
    };
    say!("{shown} listed");
    Ok(if listed > 0 {
        Exit::Problems
    } else {
        Exit::Success
    })
}

/// Lists the groups of different games with identical moves (`--twins`).
fn list_twins(
    store: &crate::store::Store,
    json: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let (mut groups, mut games) = (0, 0);
    store.each_twin_group(|group| -> Result<(), CliError> {
        groups += 1;
        games += group.games.len();
        if json {
            write_json_line(out, &group)?;
        } else {
            writeln!(
                out,
                "{} games with the same {} plies ({}):",
                group.games.len(),
                group.plies,
                visible(&group.variant)
            )?;
            for m in group.members() {
                let m = m?;
                writeln!(
                    out,
                    "    {} ({}) [id {}]",
                    m.place(),
                    Roster::of(&m.tags, &group.variant),
                    m.game
                )?;
            }
        }
        Ok(())
    })?;
    let shown = Shown {
        shown: games,
        total: store.game_count()?,
    };
    say!("{groups} groups holding {shown}");
    Ok(Exit::Success)
}

/// The two lines of a listed game: where, who, its message and status;
/// then the rules it was read by.
fn write_record(
    out: &mut impl Write,
    id: i64,
    record: &crate::store::record::ReportRecord,
) -> Result<(), CliError> {
    let r = &record.record;
    let source = &record.source;
    let roster = Roster::of(&source.tags, &record.record.variant);
    let place = Place {
        file: &source.file,
        line: i64::try_from(source.line).unwrap_or(i64::MAX),
        index: i64::try_from(source.index).unwrap_or(i64::MAX),
    };
    let message = r
        .message
        .clone()
        .unwrap_or_else(|| format!("{} resolved ambiguities", r.resolved.len()));
    writeln!(
        out,
        "{place} ({roster}) [id {id}]: {} [{}]",
        visible(&message),
        visible(r.status.name())
    )?;
    let rules = rules_line(
        &r.variant,
        r.variant_from.map(VariantFrom::name),
        &r.reads_ok_under,
    );
    writeln!(out, "{rules}")?;
    Ok(())
}

/// Writes the HTML page of the games listed (as `each_report_id` lists
/// them) to `path` (`-`: `out`). The games are read twice: once to count
/// them for the summary at the top and group them by file, then each
/// written as it is read again, so that memory does not grow with them.
fn write_html(
    store: &crate::store::Store,
    statuses: &[&str],
    resolved: bool,
    path: &std::path::Path,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    use crate::render::html::{Page, SummaryBuilder};
    // Grouped by file, files in order of their first game; the ids of
    // each file's games, in order.
    let mut files: Vec<(String, Vec<i64>)> = Vec::new();
    let mut file_index: std::collections::HashMap<String, usize> = Default::default();
    let mut summary = SummaryBuilder::default();
    let mut problems = false;
    store.each_report_id(statuses, resolved, |id| -> Result<(), CliError> {
        let Some(record) = store.record(crate::store::GameId(id))? else {
            return Ok(());
        };
        let file = &record.source.file;
        let index = *file_index.entry(file.clone()).or_insert_with(|| {
            files.push((file.clone(), Vec::new()));
            files.len() - 1
        });
        files[index].1.push(id);
        summary.add((index, id), &record);
        problems |= record.record.status != Status::Ok;
        Ok(())
    })?;
    drop(file_index);
    let summary = summary.finish();
    let subtitle = format!("Database {}.", db.display());
    let write_page = |sink: &mut dyn Write| -> Result<(), CliError> {
        let mut page = Page::begin(sink, "pdndb report", &subtitle, &summary)?;
        for (file, ids) in &files {
            page.file(file, ids.len())?;
            for &id in ids {
                if let Some(record) = store.record(crate::store::GameId(id))? {
                    page.game(&crate::render::game::problem(
                        store,
                        crate::store::GameId(id),
                        record,
                    )?)?;
                }
            }
        }
        page.finish()?;
        Ok(())
    };
    if path == std::path::Path::new("-") {
        write_page(out)?;
    } else {
        super::write_file::write_file(path, db, write_page)?;
        say!(
            "{} games written to {}",
            summary.total,
            super::write_file::visible_path(path)
        );
    }
    Ok(if problems {
        Exit::Problems
    } else {
        Exit::Success
    })
}
