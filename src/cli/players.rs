//! `pdndb players`: each player's games and results.

use std::io::Write;

use clap::Args;

use super::error::{CliError, Exit};
use super::output::write_json_line;
use super::query_args::open_store;
use crate::escape::visible;

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
    for p in &players {
        if args.json {
            write_json_line(out, p)?;
            continue;
        }
        let score = p.score.map_or("-".to_string(), |s| format!("{s:.1}%"));
        let dates = match (&p.first_date, &p.last_date) {
            (Some(a), Some(b)) => format!("{} – {}", visible(a), visible(b)),
            _ => "no dates".to_string(),
        };
        let also = match p.aliases.is_empty() {
            true => String::new(),
            false => format!("  (also {})", visible(&p.aliases.join("; "))),
        };
        writeln!(
            out,
            "{:<24} {:>6} games  +{} ={} -{} ?{}  {:>6}  {}{also}",
            visible(&p.name),
            p.games,
            p.wins,
            p.draws,
            p.losses,
            p.unknown,
            score,
            dates
        )?;
    }
    say!("{} players", players.len());
    Ok(Exit::Success)
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
        writeln!(out, "{} games:", group.games)?;
        for name in &group.names {
            writeln!(
                out,
                "    {:<32} {:>6} games",
                visible(&name.name),
                name.games
            )?;
        }
    }
    say!("{} groups of similar names", groups.len());
    Ok(Exit::Success)
}
