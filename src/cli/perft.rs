//! `pdndb perft DEPTH`: move-generation counts.

use std::io::Write;

use clap::Args;

use super::error::{CliError, Exit};
use crate::notation::{parse_fen_on, write_move};
use crate::rules::{Position, Rules, divide, perft};

/// Arguments of `perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// How many plies deep to count.
    pub depth: u32,
    /// Rules preset.
    #[arg(long, default_value = "filipino", ignore_case = true, value_enum)]
    pub variant: crate::rules::Preset,
    /// Switches on top of the preset: max-capture=on|off|value,
    /// king-first=off|on, promotion=continue-man|stop|continue-king,
    /// king-limit=on|off (comma-separated).
    #[arg(long, value_name = "SWITCHES")]
    pub rules: Option<crate::rules::Switches>,
    /// Start from this position instead of the initial one (numeric or
    /// algebraic FEN).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print each first move with its count before the total.
    #[arg(long)]
    pub divide: bool,
}

/// Runs `perft`: the count is printed on the last line.
///
/// # Errors
/// Bad rules or FEN, or a failed write.
pub fn cmd_perft(args: &PerftArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let rules = Rules::with_switches(args.variant, args.rules.as_ref());
    let start = match &args.fen {
        None => Position::initial(&rules),
        Some(fen) => {
            let mut setup = parse_fen_on(fen, rules.geometry)
                .map_err(|e| CliError::Usage(format!("--fen: {e}")))?;
            setup.side.get_or_insert(rules.first);
            Position::from_setup(&setup, &rules)
                .map_err(|e| CliError::Usage(format!("--fen: {e}")))?
        }
    };
    if args.divide {
        let mut total = 0;
        let mut rows: Vec<(String, u64)> = divide(&rules, &start, args.depth)
            .into_iter()
            .map(|(mv, n)| {
                (
                    write_move(
                        &mv,
                        crate::notation::Notation::Numeric,
                        rules.geometry,
                        true,
                    ),
                    n,
                )
            })
            .collect();
        rows.sort();
        for (mv, n) in rows {
            writeln!(out, "{mv}: {n}")?;
            total += n;
        }
        writeln!(out, "{total}")?;
    } else {
        writeln!(out, "{}", perft(&rules, &start, args.depth))?;
    }
    Ok(Exit::Success)
}
