//! What listings show of a game, the same in every front end: where it
//! came from, its tags as cleaned for people, and who won.

use std::fmt;

use serde::Serialize;

use crate::escape::visible;
use crate::export::{clean_tag_value, normalise_date, normalise_result};
use crate::rules::{Color, Rules};

/// Who won a game, by its variant's reading of the result (DESIGN §2: in
/// English checkers and pool `1-0` means Black, the side that moved first,
/// won).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// White won.
    White,
    /// Black won.
    Black,
    /// A draw.
    Draw,
    /// No result, `*` or `0-0`.
    #[default]
    Unknown,
}

impl Outcome {
    /// The outcome stored with a game (1 White, 2 Black, 3 draw, else
    /// unknown).
    pub fn from_code(code: i64) -> Outcome {
        match code {
            1 => Outcome::White,
            2 => Outcome::Black,
            3 => Outcome::Draw,
            _ => Outcome::Unknown,
        }
    }

    /// The code stored with a game (`game.outcome`).
    pub(crate) fn code(self) -> i64 {
        match self {
            Outcome::White => 1,
            Outcome::Black => 2,
            Outcome::Draw => 3,
            Outcome::Unknown => 0,
        }
    }

    /// A result as written, read under `rules` (`None`: as White-first).
    pub fn read(result: Option<&str>, rules: Option<&Rules>) -> Outcome {
        Outcome::from_code(crate::store::stored::game::outcome(result, rules))
    }

    /// The name JSON uses: `white`, `black`, `draw`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::White => "white",
            Outcome::Black => "black",
            Outcome::Draw => "draw",
            Outcome::Unknown => "unknown",
        }
    }

    /// How a listing says it: `White won`, `Black won`, `draw`,
    /// `result unknown`.
    pub fn phrase(self) -> &'static str {
        match self {
            Outcome::White => "White won",
            Outcome::Black => "Black won",
            Outcome::Draw => "draw",
            Outcome::Unknown => "result unknown",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.phrase())
    }
}

/// Where a game stands in its source file, as every listing writes it:
/// `file:line: game N` (the line of its first tag, its 1-based index in
/// the file), the file's control characters shown as escapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place<'a> {
    /// The file as given when imported.
    pub file: &'a str,
    /// Line of the game's first tag (or first move).
    pub line: i64,
    /// 1-based index of the game in the file.
    pub index: i64,
}

impl fmt::Display for Place<'_> {
    /// The file's control characters shown as escapes
    /// (`escape::visible`): a file name can hold any of them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: game {}",
            visible(self.file),
            self.line,
            self.index
        )
    }
}

/// The tags a listing shows, cleaned as export writes them: names and
/// event without control characters or extra blanks, the date as
/// `YYYY.MM.DD` when it reads as one; `?` for a tag that is absent or
/// empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Roster {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The event.
    pub event: String,
    /// The date.
    pub date: String,
    /// The side that moves first in the game's variant.
    #[serde(skip)]
    pub first: Color,
}

/// Both players of a game as every text names them: the side that moves
/// first first, each with its colour, as `Anderson (Black) – Wyllie
/// (White)` in English checkers and `Derkx (White) – Meijer (Black)`
/// elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Players<'a> {
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The side that moves first.
    pub first: Color,
}

impl fmt::Display for Players<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = |color: Color| match color {
            Color::White => (self.white, "White"),
            Color::Black => (self.black, "Black"),
        };
        let (one, one_colour) = named(self.first);
        let (other, other_colour) = named(self.first.opponent());
        write!(f, "{one} ({one_colour}) – {other} ({other_colour})")
    }
}

/// The side that moves first in a game recorded as `variant` (a preset
/// name with its switches, as stored): White when the name is not one.
pub fn first_side(variant: &str) -> Color {
    Rules::parse(variant).map_or(Color::White, |rules| rules.first)
}

/// The player of `color` among a game's original tags, the game being of
/// `variant`: `White` or `Black` (or their names in other languages), else
/// PlayStrategy's `P1` or `P2` ([`crate::pdn::player_tag`]).
pub fn player<'a>(
    tags: &'a serde_json::Map<String, serde_json::Value>,
    color: Color,
    variant: &str,
) -> Option<&'a str> {
    let pairs = tags
        .iter()
        .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
    crate::pdn::player_tag(pairs, color, first_side(variant))
}

impl Roster {
    /// The cleaned roster of a game's original tags (standard names
    /// compared without case, also through their names in other
    /// languages; the players also from PlayStrategy's `P1` and `P2`, whose
    /// colours `variant`, the game's, tells).
    pub fn of(tags: &serde_json::Map<String, serde_json::Value>, variant: &str) -> Roster {
        let raw = |name: &str| {
            let pairs = tags
                .iter()
                .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
            crate::pdn::standard_tag(pairs, name).map(clean_tag_value)
        };
        let shown = |value: Option<String>| value.filter(|v| !v.is_empty());
        let text = |name: &str| shown(raw(name)).unwrap_or_else(|| "?".to_string());
        let name = |color: Color| {
            shown(player(tags, color, variant).map(clean_tag_value))
                .unwrap_or_else(|| "?".to_string())
        };
        Roster {
            white: name(Color::White),
            black: name(Color::Black),
            event: text("Event"),
            date: shown(raw("Date"))
                .map(|d| normalise_date(&d).unwrap_or(d))
                .unwrap_or_else(|| "?".to_string()),
            first: first_side(variant),
        }
    }

    /// Both players, the side that moves first first, each with its
    /// colour.
    pub fn players(&self) -> Players<'_> {
        Players {
            white: &self.white,
            black: &self.black,
            first: self.first,
        }
    }
}

impl fmt::Display for Roster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {} {}", self.players(), self.event, self.date)
    }
}

/// A result as export writes it (`1-0`, `0-1`, `1/2-1/2`, `0-0`, `*`);
/// other text cleaned; `*` when there is none.
pub fn shown_result(result: Option<&str>) -> String {
    match result {
        None => "*".to_string(),
        Some(r) => normalise_result(r).map_or_else(|| clean_tag_value(r), str::to_string),
    }
}

/// A tag's value as people see it: cleaned, a `Date` or `Result`
/// normalised as export writes it.
pub fn shown_tag(name: &str, value: &str) -> String {
    let value = clean_tag_value(value);
    if name.eq_ignore_ascii_case("Date") {
        normalise_date(&value).unwrap_or(value)
    } else if name.eq_ignore_ascii_case("Result") {
        shown_result(Some(&value))
    } else {
        value
    }
}

/// How many of how many games a listing shows: `50 of 873 games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// Games listed.
    pub shown: usize,
    /// Games that matched.
    pub total: usize,
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {} games", self.shown, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn results_are_read_for_their_variant() {
        let english = Preset::English.rules();
        let filipino = Preset::Filipino.rules();
        assert_eq!(Outcome::read(Some("1-0"), Some(&english)), Outcome::Black);
        assert_eq!(Outcome::read(Some("1-0"), Some(&filipino)), Outcome::White);
        assert_eq!(Outcome::read(Some("0-2"), Some(&english)), Outcome::White);
        assert_eq!(Outcome::read(Some("½-½"), Some(&english)), Outcome::Draw);
        assert_eq!(Outcome::read(Some("0-0"), None), Outcome::Unknown);
        assert_eq!(Outcome::read(None, None), Outcome::Unknown);
        assert_eq!(Outcome::Black.phrase(), "Black won");
        assert_eq!(
            serde_json::to_string(&Outcome::Unknown).unwrap(),
            "\"unknown\""
        );
    }

    #[test]
    fn players_are_named_first_mover_first_with_their_colours() {
        let tags = serde_json::json!({"White": "Wyllie", "Black": " Anderson "});
        let tags = tags.as_object().unwrap();
        let players = |variant: &str| Roster::of(tags, variant).players().to_string();
        assert_eq!(players("english"), "Anderson (Black) – Wyllie (White)");
        assert_eq!(
            players("pool+max-capture=on"),
            "Anderson (Black) – Wyllie (White)"
        );
        assert_eq!(players("filipino"), "Wyllie (White) – Anderson (Black)");
        assert_eq!(
            Roster::of(&serde_json::Map::new(), "international")
                .players()
                .to_string(),
            "? (White) – ? (Black)"
        );
        let tags = serde_json::json!({"White": "Wyllie", "Black": "Anderson", "Event": "Club"});
        assert_eq!(
            Roster::of(tags.as_object().unwrap(), "english").to_string(),
            "Anderson (Black) – Wyllie (White), Club ?"
        );
    }

    #[test]
    fn rosters_are_cleaned() {
        let tags = serde_json::json!({
            "white": "  Ann\u{1b}[31m  Lee\t",
            "Black": "",
            "Date": "3/5/2019",
            "Event": "Club\nnight"
        });
        let roster = Roster::of(tags.as_object().unwrap(), "filipino");
        assert_eq!(roster.white, "Ann Lee");
        assert_eq!(roster.black, "?");
        // PlayStrategy's players: P1 moves first, Black in English draughts.
        let tags = serde_json::json!({"P1": "Ann", "P2": " Bob "});
        let tags = tags.as_object().unwrap();
        let english = Roster::of(tags, "english");
        assert_eq!(
            (english.white.as_str(), english.black.as_str()),
            ("Bob", "Ann")
        );
        let russian = Roster::of(tags, "russian");
        assert_eq!(
            (russian.white.as_str(), russian.black.as_str()),
            ("Ann", "Bob")
        );
        assert_eq!(first_side("unknown"), Color::White);
        assert_eq!(roster.event, "Club night");
        assert_eq!(roster.date, normalise_date("3/5/2019").unwrap());
        assert_eq!(
            Place {
                file: "a.pdn",
                line: 7,
                index: 2
            }
            .to_string(),
            "a.pdn:7: game 2"
        );
        assert_eq!(
            Place {
                file: "a\u{1b}]0;x\u{7}.pdn",
                line: 1,
                index: 1
            }
            .to_string(),
            "a\\x1b]0;x\\x07.pdn:1: game 1"
        );
        assert_eq!(shown_result(Some("2-0")), "1-0");
        assert_eq!(shown_result(None), "*");
        assert_eq!(shown_tag("date", " 3/5/2019 "), roster.date);
        assert_eq!(shown_tag("Result", "½-½"), "1/2-1/2");
        assert_eq!(shown_tag("Site", " a\u{7}b "), "a b");
        assert_eq!(
            Shown {
                shown: 50,
                total: 873
            }
            .to_string(),
            "50 of 873 games"
        );
    }
}
