//! The options of every command that reads PDN.

use super::error::CliError;
use super::values;

/// How to read games, for every command that reads PDN: these override
/// what each game's tags and moves suggest.
#[derive(Debug, Default, clap::Args)]
pub struct ReadingArgs {
    /// Read every game by this rules preset (default: the game's tags, else
    /// inferred from its moves; `auto`: so, even for a file imported
    /// before with a preset or other options, which it then forgets).
    #[arg(long, ignore_case = true, value_enum)]
    pub variant: Option<values::PresetOrAuto>,
    /// Rules switches: max-capture=on|off|value, king-first=off|on,
    /// promotion=continue-man|stop|continue-king, king-limit=on|off
    /// (comma-separated).
    #[arg(long)]
    pub rules: Option<String>,
    /// Read every game's moves in this notation.
    #[arg(long, ignore_case = true, value_enum)]
    pub notation: Option<crate::notation::Notation>,
    /// Read the files' text in this encoding (utf-8, windows-1252,
    /// windows-1251, iso-8859-2, koi8-r, utf-16le, utf-16be, …) instead of
    /// detecting it.
    #[arg(long, value_name = "NAME", value_parser = crate::pdn::encoding_for_label)]
    pub encoding: Option<&'static crate::pdn::Encoding>,
    /// Threads that read and replay games (default: one per core); the
    /// output is the same for every number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
}

impl ReadingArgs {
    /// The threads to read and replay games on: `--jobs`, else one per
    /// core.
    pub fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            usize::from,
        )
    }

    /// Whether `--variant auto` was given.
    pub fn auto(&self) -> bool {
        self.variant == Some(values::PresetOrAuto::Auto)
    }

    /// `--variant`, unless `auto`.
    fn preset(&self) -> Option<crate::rules::Preset> {
        match self.variant {
            Some(values::PresetOrAuto::Preset(p)) => Some(p),
            _ => None,
        }
    }

    /// The overrides these arguments ask for.
    ///
    /// # Errors
    /// An unknown preset, switch or notation.
    pub fn overrides(&self) -> Result<crate::replay::Overrides, CliError> {
        let usage = |e: &dyn std::fmt::Display| CliError::Usage(e.to_string());
        let rules = match self.preset() {
            Some(p) => Some(
                crate::rules::Rules::from_args(Some(p.name()), self.rules.as_deref())
                    .map_err(|e| usage(&e))?,
            ),
            None => None,
        };
        let switches = match (self.preset(), &self.rules) {
            (None, Some(s)) => {
                crate::rules::Rules::default()
                    .apply_switches(s)
                    .map_err(|e| usage(&e))?;
                Some(s.clone())
            }
            _ => None,
        };
        let notation = self.notation;
        Ok(crate::replay::Overrides {
            rules,
            switches,
            notation,
            skip_alternatives: false,
            positions: crate::replay::KeptPositions::All,
        })
    }
}
