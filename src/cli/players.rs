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
    /// One JSON object per player.
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
        writeln!(
            out,
            "{:<24} {:>6} games  +{} ={} -{} ?{}  {:>6}  {}",
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
