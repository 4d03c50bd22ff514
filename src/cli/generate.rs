//! `pdndb generate`: random legal games as PDN.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::error::{CliError, Exit};
use super::write_file::{refuse_database, write_file};
use crate::generate::{GenerateOptions, generate};
use crate::notation::Notation;
use crate::rules::Rules;

/// Arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Random seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules preset to play by.
    #[arg(long, default_value = "filipino", ignore_case = true, value_enum)]
    pub variant: crate::rules::Preset,
    /// Switches on top of the preset (as for perft).
    #[arg(long, value_name = "SWITCHES")]
    pub rules: Option<crate::rules::Switches>,
    /// Notation of the moves (default: the preset's usual one, numbers or,
    /// for Russian, Brazilian and Czech draughts, algebraic squares).
    #[arg(long, ignore_case = true, value_enum)]
    pub notation: Option<Notation>,
    /// Write to this file instead of standard output (replaced only once
    /// completely written; never the database).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Runs `generate`.
///
/// # Errors
/// Bad arguments, an output file that is the database `db` (the global
/// `--db`, which generate does not open), or a failed write.
pub fn cmd_generate(
    args: &GenerateArgs,
    db: &Path,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    if let Some(path) = &args.output {
        refuse_database(path, db)?;
    }
    let rules = Rules::with_switches(args.variant, args.rules.as_ref());
    let notation = args
        .notation
        .unwrap_or_else(|| Notation::usual_for(rules.preset));
    let options = GenerateOptions {
        games: args.games,
        seed: args.seed,
        rules,
        notation,
    };
    match &args.output {
        Some(path) => write_file(path, db, |mut w| Ok(generate(&options, &mut w)?))?,
        None => generate(&options, out)?,
    }
    Ok(Exit::Success)
}
