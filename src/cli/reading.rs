//! The options of every command that reads PDN.

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
    #[arg(long, value_name = "SWITCHES")]
    pub rules: Option<crate::rules::Switches>,
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
    pub fn overrides(&self) -> crate::replay::Overrides {
        let rules = self
            .preset()
            .map(|p| crate::rules::Rules::with_switches(p, self.rules.as_ref()));
        let switches = match self.preset() {
            None => self.rules.clone(),
            Some(_) => None,
        };
        crate::replay::Overrides {
            rules,
            switches,
            notation: self.notation,
            skip_alternatives: false,
            positions: crate::replay::KeptPositions::All,
        }
    }
}
