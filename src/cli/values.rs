//! The library's named values as clap reads them: each option's value is
//! parsed once, into its type, with the names listed in `--help` and a bad
//! value refused naming the option. The lower layers do not know clap;
//! the impls live here.

use std::sync::LazyLock;

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::notation::Notation;
use crate::replay::Status;
use crate::rules::{Color, Preset};
use crate::store::games::GameSort;

/// `--variant auto`: each game's rules from its tags, else inferred from
/// its moves, whatever options were remembered with its file.
pub const AUTO: &str = "auto";

impl ValueEnum for Notation {
    fn value_variants<'a>() -> &'a [Notation] {
        &Notation::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

impl ValueEnum for Color {
    fn value_variants<'a>() -> &'a [Color] {
        &[Color::White, Color::Black]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

impl ValueEnum for Status {
    fn value_variants<'a>() -> &'a [Status] {
        &Status::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

impl ValueEnum for Preset {
    fn value_variants<'a>() -> &'a [Preset] {
        &Preset::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).aliases(self.aliases()))
    }
}

impl ValueEnum for crate::export::Paths {
    fn value_variants<'a>() -> &'a [crate::export::Paths] {
        &crate::export::Paths::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

impl ValueEnum for GameSort {
    fn value_variants<'a>() -> &'a [GameSort] {
        &GameSort::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.about()))
    }
}

/// `--variant` of the commands that read PDN: a preset, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresetOrAuto {
    /// Each game's rules from its tags, else inferred from its moves,
    /// whatever options were remembered with its file.
    Auto,
    /// Every game by this preset.
    Preset(Preset),
}

/// Every preset, then `auto`, as `--help` lists them.
static PRESETS_OR_AUTO: LazyLock<Vec<PresetOrAuto>> = LazyLock::new(|| {
    Preset::ALL
        .into_iter()
        .map(PresetOrAuto::Preset)
        .chain([PresetOrAuto::Auto])
        .collect()
});

impl ValueEnum for PresetOrAuto {
    fn value_variants<'a>() -> &'a [PresetOrAuto] {
        &PRESETS_OR_AUTO
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            PresetOrAuto::Auto => PossibleValue::new(AUTO),
            PresetOrAuto::Preset(p) => PossibleValue::new(p.name()).aliases(p.aliases()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_by_their_names_in_any_case() {
        assert_eq!(Notation::from_str("Vismin", true), Ok(Notation::Vismin));
        assert_eq!(Status::from_str("ILLEGAL", true), Ok(Status::Illegal));
        assert_eq!(Preset::from_str("russian", true), Ok(Preset::Russian));
        assert_eq!(Color::from_str("Black", true), Ok(Color::Black));
        assert!(Color::from_str("red", true).is_err());
        assert_eq!(PresetOrAuto::from_str("AUTO", true), Ok(PresetOrAuto::Auto));
        assert_eq!(
            PresetOrAuto::from_str("pool", true),
            Ok(PresetOrAuto::Preset(Preset::Pool))
        );
        assert!(Notation::from_str("chess", true).is_err());
        for sort in GameSort::ALL {
            assert_eq!(
                <GameSort as ValueEnum>::from_str(sort.name(), false),
                Ok(sort)
            );
            assert_eq!(sort.name().parse::<GameSort>(), Ok(sort));
        }
        assert_eq!(
            "colour".parse::<GameSort>().unwrap_err().to_string(),
            "\"colour\" is not id, date, event or player"
        );
        // Every preset and auto, once each.
        assert_eq!(PresetOrAuto::value_variants().len(), Preset::ALL.len() + 1);
    }
}
