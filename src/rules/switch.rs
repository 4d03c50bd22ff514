//! The rules switches as values: what `--rules` and the recorded form of
//! a variant (`filipino+promotion=stop`) set on top of a preset.

use crate::message::SwitchMessage;
use std::fmt;
use std::str::FromStr;

/// Whether the capture that takes the most is compulsory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MaxCapture {
    /// Only the captures taking the most pieces (kings count 1) are legal.
    On,
    /// Any capture may be chosen.
    Off,
    /// Only the captures of the highest value are legal, a king worth more
    /// than one man and less than two (Frisian art. 11): a man counts 100,
    /// a king 199, as lidraughts counts them. So two men outweigh a king,
    /// and three kings outweigh five men but not six.
    Value,
}

/// Frisian art. 17: whether a side that still has men may make more than
/// three plain moves in a row with the same king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingLimit {
    /// No limit.
    Off,
    /// After three plain moves in a row with one king, while its side has
    /// men, that king may not make a fourth (it may still capture); a
    /// capture, a man's move or another king's move lifts the ban.
    On,
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

/// Why a switch cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwitchError {
    /// Not one of the switch names.
    #[error("{}", self.said())]
    UnknownSwitch(String),
    /// A value the switch does not take.
    #[error("{}", self.said())]
    BadValue {
        /// The switch.
        key: String,
        /// The value given.
        value: String,
        /// The values it takes.
        expected: &'static [&'static str],
    },
    /// A `key=value` pair without `=`.
    #[error("{}", self.said())]
    NotKeyValue(String),
}

/// The switches' names.
const SWITCHES: [&str; 4] = ["max-capture", "king-first", "promotion", "king-limit"];

impl SwitchError {
    /// The error as a code and its parts.
    pub fn said(&self) -> SwitchMessage {
        let names = |list: &[&str]| list.iter().map(|n| (*n).to_string()).collect();
        match self {
            SwitchError::UnknownSwitch(name) => SwitchMessage::UnknownSwitch {
                name: name.clone(),
                expected: names(&SWITCHES),
            },
            SwitchError::BadValue {
                key,
                value,
                expected,
            } => SwitchMessage::NotAValueOf {
                key: key.clone(),
                value: value.clone(),
                expected: names(expected),
            },
            SwitchError::NotKeyValue(text) => SwitchMessage::NotKeyValue { text: text.clone() },
        }
    }
}

/// One switch with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Switch {
    /// `max-capture=on|off|value`.
    MaxCapture(MaxCapture),
    /// `king-first=on|off`.
    KingFirst(KingFirst),
    /// `promotion=continue-man|stop|continue-king`.
    Promotion(Promotion),
    /// `king-limit=on|off`.
    KingLimit(KingLimit),
}

impl Switch {
    /// The switch named `key` set to `value` (both trimmed).
    ///
    /// # Errors
    /// An unknown key or a value the key does not take.
    pub fn parse(key: &str, value: &str) -> Result<Switch, SwitchError> {
        let key = key.trim();
        let value = value.trim();
        let bad = |expected| SwitchError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        Ok(match key {
            "max-capture" => Switch::MaxCapture(match value {
                "on" => MaxCapture::On,
                "off" => MaxCapture::Off,
                "value" => MaxCapture::Value,
                _ => return Err(bad(&["on", "off", "value"])),
            }),
            "king-first" => Switch::KingFirst(match value {
                "on" => KingFirst::On,
                "off" => KingFirst::Off,
                _ => return Err(bad(&["on", "off"])),
            }),
            "promotion" => Switch::Promotion(match value {
                "continue-man" => Promotion::ContinueMan,
                "stop" => Promotion::Stop,
                "continue-king" => Promotion::ContinueKing,
                _ => return Err(bad(&["continue-man", "stop", "continue-king"])),
            }),
            "king-limit" => Switch::KingLimit(match value {
                "on" => KingLimit::On,
                "off" => KingLimit::Off,
                _ => return Err(bad(&["on", "off"])),
            }),
            _ => return Err(SwitchError::UnknownSwitch(key.to_string())),
        })
    }
}

/// `key=value`, as `--rules` takes it.
impl fmt::Display for Switch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Switch::MaxCapture(MaxCapture::On) => "max-capture=on",
            Switch::MaxCapture(MaxCapture::Off) => "max-capture=off",
            Switch::MaxCapture(MaxCapture::Value) => "max-capture=value",
            Switch::KingFirst(KingFirst::On) => "king-first=on",
            Switch::KingFirst(KingFirst::Off) => "king-first=off",
            Switch::Promotion(Promotion::ContinueMan) => "promotion=continue-man",
            Switch::Promotion(Promotion::Stop) => "promotion=stop",
            Switch::Promotion(Promotion::ContinueKing) => "promotion=continue-king",
            Switch::KingLimit(KingLimit::On) => "king-limit=on",
            Switch::KingLimit(KingLimit::Off) => "king-limit=off",
        })
    }
}

/// The switches of `--rules`, in the order given (a later one wins).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Switches(pub Vec<Switch>);

/// A comma-separated list of `key=value` pairs; empty pieces are skipped.
impl FromStr for Switches {
    type Err = SwitchError;

    fn from_str(text: &str) -> Result<Switches, SwitchError> {
        text.split(',')
            .filter(|pair| !pair.trim().is_empty())
            .map(|pair| {
                let (key, value) = pair
                    .split_once('=')
                    .ok_or_else(|| SwitchError::NotKeyValue(pair.trim().to_string()))?;
                Switch::parse(key, value)
            })
            .collect::<Result<_, _>>()
            .map(Switches)
    }
}

/// Comma-separated `key=value` pairs, as [`FromStr`] reads them.
impl fmt::Display for Switches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, switch) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(",")?;
            }
            write!(f, "{switch}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn every_switch_reads_back_what_it_writes() {
        for preset in Preset::ALL {
            for switch in preset.rules().switches() {
                let text = switch.to_string();
                let (key, value) = text.split_once('=').unwrap();
                assert_eq!(Switch::parse(key, value), Ok(switch), "{text}");
            }
        }
        let list: Switches = " promotion=stop, ,king-first=on".parse().unwrap();
        assert_eq!(list.to_string(), "promotion=stop,king-first=on");
        assert_eq!(list.to_string().parse::<Switches>(), Ok(list));
    }

    #[test]
    fn a_later_switch_wins() {
        let mut rules = Preset::Filipino.rules();
        "promotion=stop,promotion=continue-king"
            .parse::<Switches>()
            .map(|s| rules.apply_switches(&s))
            .unwrap();
        assert_eq!(rules.promotion, Promotion::ContinueKing);
    }

    #[test]
    fn bad_lists_name_the_bad_pair() {
        assert_eq!(
            "promotion".parse::<Switches>(),
            Err(SwitchError::NotKeyValue("promotion".into()))
        );
        assert_eq!(
            "colour=red".parse::<Switches>(),
            Err(SwitchError::UnknownSwitch("colour".into()))
        );
        assert!(matches!(
            "king-first=maybe".parse::<Switches>(),
            Err(SwitchError::BadValue { .. })
        ));
    }
}
