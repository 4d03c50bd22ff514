//! `pdndb players`: each player's games and results.

use std::io::Write;

use clap::Args;

use super::error::{CliError, Exit};
use super::output::write_json_line;
use super::query_args::open_store;
use crate::escape::visible;
use crate::store::players::PlayerRow;

/// Arguments of `players`.
#[derive(Debug, Args)]
pub struct PlayersArgs {
    /// Only games of this variant: a preset name (any switches) or a full
    /// variant string.
    #[arg(long)]
    pub variant: Option<String>,
    /// Only players with at least this many games.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_games: u64,
    /// Propose groups of names that are probably one player (case,
    /// accents, initials, name order, transliteration), each name with
    /// its games, the proposed canonical name first; see `pdndb alias`.
    #[arg(long, conflicts_with = "min_games")]
    pub similar: bool,
    /// One JSON object per player (per group with --similar).
    #[arg(long)]
    pub json: bool,
}

/// Runs `players`. The count ("N players") goes to standard error.
///
/// # Errors
/// A missing database, or a variant that cannot be read.
pub fn cmd_players(
    args: &PlayersArgs,
    db: &std::path::Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    if let Some(v) = &args.variant {
        crate::rules::Rules::parse(v).map_err(|e| CliError::Usage(format!("--variant: {e}")))?;
    }
    let store = open_store(db)?;
    if args.similar {
        return list_similar(&store, args.variant.as_deref(), args.json, out);
    }
    let players = store.players(args.variant.as_deref(), args.min_games)?;
    if args.json {
        for p in &players {
            write_json_line(out, p)?;
        }
    } else {
        write_players(&players, out)?;
    }
    say!("{}", counted(players.len(), "player", "players"));
    Ok(Exit::Success)
}

/// The players as a table: a header, then one aligned row each.
fn write_players(players: &[PlayerRow], out: &mut impl Write) -> Result<(), CliError> {
    if players.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = players
        .iter()
        .map(|p| visible(&p.name).into_owned())
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, 40);
    let unknown = players.iter().any(|p| p.unknown > 0);
    let unknown_head = if unknown { "  unknown" } else { "" };
    writeln!(
        out,
        "{:<width$}  {:>6}  {:>5}  {:>5}  {:>5}{unknown_head}  {:>6}  years",
        "player", "games", "won", "drawn", "lost", "score"
    )?;
    for (p, name) in players.iter().zip(&names) {
        let pad = width.saturating_sub(name.chars().count());
        let score = p.score.map_or("-".to_string(), |s| format!("{s:.1}%"));
        let unknown = if unknown {
            format!("  {:>7}", p.unknown)
        } else {
            String::new()
        };
        let also = match p.aliases.is_empty() {
            true => String::new(),
            false => format!("  (also {})", visible(&p.aliases.join("; "))),
        };
        writeln!(
            out,
            "{name}{:pad$}  {:>6}  {:>5}  {:>5}  {:>5}{unknown}  {score:>6}  {}{also}",
            "",
            p.games,
            p.wins,
            p.draws,
            p.losses,
            years(p.first_date.as_deref(), p.last_date.as_deref()),
        )?;
    }
    Ok(())
}

/// A range of dates as far as they are known: `1946–1994`, `2019.05.03`,
/// `-` without any.
fn years(first: Option<&str>, last: Option<&str>) -> String {
    let known = |date: &str| {
        let parts: Vec<&str> = date.split('.').take_while(|p| !p.contains('?')).collect();
        visible(&parts.join(".")).into_owned()
    };
    match (first.map(known), last.map(known)) {
        (Some(a), Some(b)) if a == b => a,
        (Some(a), Some(b)) if !a.is_empty() && !b.is_empty() => format!("{a}–{b}"),
        _ => "-".to_string(),
    }
}

/// `1 player`, `2 players`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Lists the groups of names that are probably one player (`--similar`).
fn list_similar(
    store: &crate::store::Store,
    variant: Option<&str>,
    json: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let groups = store.similar_players(variant)?;
    for group in &groups {
        if json {
            write_json_line(out, group)?;
            continue;
        }
        writeln!(out, "{}:", counted(group.games as usize, "game", "games"))?;
        for name in &group.names {
            writeln!(
                out,
                "    {:<32} {:>6}",
                visible(&name.name),
                counted(name.games as usize, "game", "games")
            )?;
        }
    }
    say!("{} groups of similar names", groups.len());
    Ok(Exit::Success)
}
