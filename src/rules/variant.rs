//! Rules as data: the five presets and the switches for contested points.
//!
//! A [`Rules`] value is everything the move generator needs to know about a
//! variant. Presets fill it in; `--rules key=value,…` switches change single
//! fields on top of a preset. [`Rules::name`] gives the recorded form
//! (`filipino`, `filipino+max-capture=off+promotion=stop`).

use std::fmt;
use std::str::FromStr;

use super::board::{Color, Geometry};

/// A named set of rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Filipino Dama (the default): Brazilian rules.
    Filipino,
    /// Brazilian draughts.
    Brazilian,
    /// American pool checkers.
    Pool,
    /// Russian draughts (shashki).
    Russian,
    /// English draughts / American checkers.
    English,
}

impl Preset {
    /// Every preset, in the order of the rules table.
    pub const ALL: [Preset; 5] = [
        Preset::Filipino,
        Preset::Brazilian,
        Preset::Pool,
        Preset::Russian,
        Preset::English,
    ];

    /// The preset's name as written on the command line and stored.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Filipino => "filipino",
            Preset::Brazilian => "brazilian",
            Preset::Pool => "pool",
            Preset::Russian => "russian",
            Preset::English => "english",
        }
    }

    /// The PDN GameType number.
    pub fn game_type(self) -> u32 {
        match self {
            Preset::Filipino | Preset::Brazilian => 26,
            Preset::Pool => 23,
            Preset::Russian => 25,
            Preset::English => 21,
        }
    }

    /// The preset's rules.
    pub fn rules(self) -> Rules {
        let base = Rules {
            preset: self,
            geometry: Geometry::standard(),
            first: Color::White,
            men_capture_backward: true,
            flying_kings: true,
            max_capture: MaxCapture::On,
            king_first: KingFirst::Off,
            promotion: Promotion::ContinueMan,
        };
        match self {
            Preset::Filipino | Preset::Brazilian => base,
            Preset::Pool => Rules {
                first: Color::Black,
                max_capture: MaxCapture::Off,
                ..base
            },
            Preset::Russian => Rules {
                max_capture: MaxCapture::Off,
                promotion: Promotion::ContinueKing,
                ..base
            },
            Preset::English => Rules {
                first: Color::Black,
                men_capture_backward: false,
                flying_kings: false,
                max_capture: MaxCapture::Off,
                promotion: Promotion::Stop,
                ..base
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Preset, RulesError> {
        let lower = s.trim().to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == lower)
            .ok_or_else(|| RulesError::UnknownPreset(s.to_string()))
    }
}

/// Whether the capture that takes the most pieces is compulsory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MaxCapture {
    /// Only the captures taking the most pieces (kings count 1) are legal.
    On,
    /// Any capture may be chosen.
    Off,
}

/// Whether, among the captures left by the other rules, a king's capture
/// must be preferred to a man's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingFirst {
    /// Men and kings capture on equal terms.
    Off,
    /// When a king can make one of the allowed captures, men may not capture.
    On,
}

/// What happens to a man that reaches its crowning row in the middle of a
/// capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Promotion {
    /// It goes on capturing as a man and is crowned only if the move ends there.
    ContinueMan,
    /// The move ends there and the man is crowned.
    Stop,
    /// It is crowned at once and goes on capturing as a king.
    ContinueKing,
}

/// The full set of rules the engine plays by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The preset these rules started from.
    pub preset: Preset,
    /// The board.
    pub geometry: &'static Geometry,
    /// The side that moves first from the initial position.
    pub first: Color,
    /// Men may capture backwards.
    pub men_capture_backward: bool,
    /// Kings move and capture along whole diagonals.
    pub flying_kings: bool,
    /// The majority-capture rule.
    pub max_capture: MaxCapture,
    /// The king-first rule.
    pub king_first: KingFirst,
    /// Mid-capture promotion.
    pub promotion: Promotion,
}

impl Default for Rules {
    fn default() -> Rules {
        Preset::Filipino.rules()
    }
}

/// Why a variant or rules string cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Not one of the preset names.
    #[error("unknown variant `{0}` (expected filipino, brazilian, pool, russian or english)")]
    UnknownPreset(String),
    /// Not one of the switch names.
    #[error("unknown rules switch `{0}` (expected max-capture, king-first or promotion)")]
    UnknownSwitch(String),
    /// A value the switch does not take.
    #[error("`{value}` is not a value of `{key}` (expected {expected})")]
    BadValue {
        /// The switch.
        key: String,
        /// The value given.
        value: String,
        /// The values it takes.
        expected: &'static str,
    },
    /// A `key=value` pair without `=`.
    #[error("`{0}` is not of the form key=value")]
    NotKeyValue(String),
}

impl Rules {
    /// Applies one switch.
    ///
    /// # Errors
    /// An unknown key or a value the key does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let key = key.trim();
        let value = value.trim();
        let bad = |expected| RulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        match key {
            "max-capture" => {
                self.max_capture = match value {
                    "on" => MaxCapture::On,
                    "off" => MaxCapture::Off,
                    _ => return Err(bad("on or off")),
                }
            }
            "king-first" => {
                self.king_first = match value {
                    "on" => KingFirst::On,
                    "off" => KingFirst::Off,
                    _ => return Err(bad("on or off")),
                }
            }
            "promotion" => {
                self.promotion = match value {
                    "continue-man" => Promotion::ContinueMan,
                    "stop" => Promotion::Stop,
                    "continue-king" => Promotion::ContinueKing,
                    _ => return Err(bad("continue-man, stop or continue-king")),
                }
            }
            _ => return Err(RulesError::UnknownSwitch(key.to_string())),
        }
        Ok(())
    }

    /// Applies a comma-separated list of `key=value` switches, as given to
    /// `--rules`.
    ///
    /// # Errors
    /// The first pair that is malformed or unknown.
    pub fn apply_switches(&mut self, switches: &str) -> Result<(), RulesError> {
        for pair in switches.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| RulesError::NotKeyValue(pair.trim().to_string()))?;
            self.set(key, value)?;
        }
        Ok(())
    }

    /// Rules from a `--variant` and an optional `--rules` string.
    ///
    /// # Errors
    /// An unknown preset or a bad switch.
    pub fn from_args(variant: Option<&str>, switches: Option<&str>) -> Result<Rules, RulesError> {
        let mut rules = match variant {
            Some(v) => Rules::parse(v)?,
            None => Rules::default(),
        };
        if let Some(s) = switches {
            rules.apply_switches(s)?;
        }
        Ok(rules)
    }

    /// Parses the recorded form: a preset name followed by `+key=value`
    /// switches (`filipino+promotion=stop`).
    ///
    /// # Errors
    /// An unknown preset or a bad switch.
    pub fn parse(recorded: &str) -> Result<Rules, RulesError> {
        let mut parts = recorded.split('+');
        let preset: Preset = parts.next().unwrap_or_default().parse()?;
        let mut rules = preset.rules();
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| RulesError::NotKeyValue(part.to_string()))?;
            rules.set(key, value)?;
        }
        Ok(rules)
    }

    /// The recorded form: preset name plus each switch that differs from the
    /// preset, in table order.
    pub fn name(&self) -> String {
        let base = self.preset.rules();
        let mut name = self.preset.name().to_string();
        if self.max_capture != base.max_capture {
            name.push_str(match self.max_capture {
                MaxCapture::On => "+max-capture=on",
                MaxCapture::Off => "+max-capture=off",
            });
        }
        if self.king_first != base.king_first {
            name.push_str(match self.king_first {
                KingFirst::On => "+king-first=on",
                KingFirst::Off => "+king-first=off",
            });
        }
        if self.promotion != base.promotion {
            name.push_str(match self.promotion {
                Promotion::ContinueMan => "+promotion=continue-man",
                Promotion::Stop => "+promotion=stop",
                Promotion::ContinueKing => "+promotion=continue-king",
            });
        }
        name
    }

    /// The side whose win `1-0` records: the side that moves first.
    pub fn one_nil_winner(&self) -> Color {
        self.first
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_the_table_values() {
        let f = Preset::Filipino.rules();
        assert_eq!(f.first, Color::White);
        assert_eq!(f.max_capture, MaxCapture::On);
        assert_eq!(f.promotion, Promotion::ContinueMan);
        let e = Preset::English.rules();
        assert_eq!(e.first, Color::Black);
        assert!(!e.flying_kings && !e.men_capture_backward);
        assert_eq!(e.promotion, Promotion::Stop);
        assert_eq!(Preset::Russian.rules().promotion, Promotion::ContinueKing);
        assert_eq!(Preset::Pool.rules().first, Color::Black);
        assert_eq!(Preset::Pool.rules().max_capture, MaxCapture::Off);
    }

    #[test]
    fn recorded_name_lists_changed_switches_in_table_order() {
        let mut r = Rules::default();
        assert_eq!(r.name(), "filipino");
        r.apply_switches("promotion=stop,max-capture=off").unwrap();
        assert_eq!(r.name(), "filipino+max-capture=off+promotion=stop");
        assert_eq!(Rules::parse(&r.name()).unwrap(), r);
        let mut r = Preset::Russian.rules();
        r.set("max-capture", "on").unwrap();
        assert_eq!(r.name(), "russian+max-capture=on");
        // Setting a switch to the preset's own value records nothing.
        let mut r = Rules::default();
        r.set("king-first", "off").unwrap();
        assert_eq!(r.name(), "filipino");
    }

    #[test]
    fn bad_switches_name_the_bad_part() {
        let err = Rules::from_args(Some("filipino"), Some("promotion=fly")).unwrap_err();
        assert!(err.to_string().contains("`fly`"), "{err}");
        let err = Rules::from_args(Some("chess"), None).unwrap_err();
        assert_eq!(err, RulesError::UnknownPreset("chess".into()));
        let err = Rules::from_args(None, Some("maxcapture")).unwrap_err();
        assert_eq!(err, RulesError::NotKeyValue("maxcapture".into()));
        let err = Rules::from_args(None, Some("speed=on")).unwrap_err();
        assert_eq!(err, RulesError::UnknownSwitch("speed".into()));
    }
}
