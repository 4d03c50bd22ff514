//! Games listed by their tags (`pdndb games`), and the filter by tags that
//! `search` shares.
//!
//! Names, events and sites are matched as substrings without case or
//! accents (`jose` finds `José`; `%` and `_` are plain characters). The
//! distinct values are found through the trigram index of their folded
//! forms (schema step 23, src/store/stored/folds.rs), and the games by
//! value through an index.

use std::str::FromStr;

use rusqlite::OptionalExtension;
use rusqlite::types::Value;
use serde::Serialize;

use crate::export::{clean_tag_value, normalise_date, normalise_result};
use crate::message::RequestMessage;
use crate::replay::{ResultCheck, Status};
use crate::rules::Color;
use crate::store::codec::id_set::IdSet;
use crate::store::read::listing::{Outcome, Shown, first_side};
use crate::store::stored::aliases::{alias_map, canonical_name};
use crate::store::stored::folds::{FoldField, values_containing};
pub use crate::store::stored::game::day_of;
use crate::store::stored::id::GameId;
use crate::store::stored::param::{Param, Wording};
use crate::store::stored::{Store, StoreError};

pub use crate::store::stored::folds::fold;

/// The names of the openings (of `preset`'s table, or of every table)
/// that contain `needle`, compared as [`fold`] folds them.
pub fn opening_names(needle: &str, preset: Option<crate::rules::Preset>) -> Vec<&'static str> {
    let needle = fold(needle);
    let presets = match preset {
        Some(p) => vec![p],
        None => crate::openings::named_presets(),
    };
    let mut names = Vec::new();
    for book in presets.into_iter().filter_map(crate::openings::book) {
        let found = book
            .openings
            .iter()
            .filter(|o| fold(o.name).contains(&needle));
        names.extend(found.map(|o| o.name));
    }
    names
}

/// A range of dates, either end open: games whose known date lies wholly
/// inside it match (`2019.??.??` is inside `2019` but not inside `2019.05`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DateRange {
    /// The first day, unknown parts as `00` (`2019` → `2019.00.00`).
    from: Option<String>,
    /// The last day, unknown parts as `99` (`2019.05` → `2019.05.99`).
    to: Option<String>,
    /// The last end as written, normalised (`2019.05`): every day inside
    /// the range sorts before it followed by `~`, which an index can use.
    to_prefix: Option<String>,
}

/// Why a `--date` cannot be read: the range as written, then why (the
/// range named once: a reason that begins with it, a single date's, is
/// the whole message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DateRangeError {
    text: String,
    reason: String,
}

impl std::fmt::Display for DateRangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let named = format!("{:?}", self.text.trim());
        if self.reason.starts_with(&named) {
            f.write_str(&self.reason)
        } else {
            write!(f, "{:?}: {}", self.text, self.reason)
        }
    }
}

impl std::error::Error for DateRangeError {}

impl DateRangeError {
    /// Why, without the range as written.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// One end of a range: year, month and day as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DatePart {
    year: u32,
    month: Option<u32>,
    day: Option<u32>,
}

/// Why one end of a date range cannot be read (the end as written).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum DateProblem {
    /// Not of the shape of a date.
    #[error("{0:?} is not a date: write YYYY, YYYY.MM or YYYY.MM.DD")]
    Shape(String),
    /// A month outside 1–12.
    #[error("{0:?}: there is no month {1:02}")]
    Month(String, u32),
    /// A day its month does not have.
    #[error("{0:?}: there is no such day")]
    Day(String),
}

impl DatePart {
    // YYYY | YYYY.MM | YYYY.MM.DD
    fn parse(text: &str) -> Result<DatePart, DateProblem> {
        let shape = || DateProblem::Shape(text.to_string());
        let mut fields = text.split('.');
        let number = |field: Option<&str>, digits: usize| -> Result<Option<u32>, DateProblem> {
            match field {
                None => Ok(None),
                Some(f) if f.len() == digits && f.bytes().all(|b| b.is_ascii_digit()) => {
                    f.parse().map(Some).map_err(|_| shape())
                }
                Some(_) => Err(shape()),
            }
        };
        let year = number(fields.next(), 4)?.ok_or_else(shape)?;
        let month = number(fields.next(), 2)?;
        let day = number(fields.next(), 2)?;
        if fields.next().is_some() {
            return Err(shape());
        }
        if month.is_some_and(|m| !(1..=12).contains(&m)) {
            return Err(DateProblem::Month(text.to_string(), month.unwrap_or(0)));
        }
        if let (Some(m), Some(d)) = (month, day)
            && !(1..=days_in_month(year, m)).contains(&d)
        {
            return Err(DateProblem::Day(text.to_string()));
        }
        Ok(DatePart { year, month, day })
    }

    /// The first day it names, unknown parts as `00`.
    fn first(&self) -> String {
        format!(
            "{:04}.{:02}.{:02}",
            self.year,
            self.month.unwrap_or(0),
            self.day.unwrap_or(0)
        )
    }

    /// The date as given, normalised: `YYYY`, `YYYY.MM` or `YYYY.MM.DD`.
    fn prefix(&self) -> String {
        let mut text = format!("{:04}", self.year);
        for part in [self.month, self.day].into_iter().flatten() {
            text.push_str(&format!(".{part:02}"));
        }
        text
    }

    /// The last day it names, unknown parts as `99`.
    fn last(&self) -> String {
        format!(
            "{:04}.{:02}.{:02}",
            self.year,
            self.month.unwrap_or(99),
            self.day.unwrap_or(99)
        )
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl FromStr for DateRange {
    type Err = DateRangeError;

    /// `FROM..TO` (either end may be left out) or a single date, each
    /// `YYYY`, `YYYY.MM` or `YYYY.MM.DD`.
    fn from_str(text: &str) -> Result<DateRange, DateRangeError> {
        let err = |reason: String| DateRangeError {
            text: text.to_string(),
            reason,
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(err(
                "no date given: write FROM..TO, FROM.., ..TO or one date (YYYY, YYYY.MM or YYYY.MM.DD)"
                    .into(),
            ));
        }
        let end = |part: &str| -> Result<Option<DatePart>, DateRangeError> {
            let part = part.trim();
            if part.is_empty() {
                Ok(None)
            } else {
                DatePart::parse(part)
                    .map(Some)
                    .map_err(|e| err(e.to_string()))
            }
        };
        let (from, to) = match trimmed.split_once("..") {
            Some((from, to)) => (end(from)?, end(to)?),
            None => {
                let one = end(trimmed)?;
                (one, one)
            }
        };
        if from.is_none() && to.is_none() {
            return Err(err("give at least one end of the range".into()));
        }
        if let (Some(f), Some(t)) = (from, to)
            && f.first() > t.last()
        {
            return Err(err(format!(
                "the range is empty: {} comes after {}",
                trimmed.split_once("..").map_or(trimmed, |(f, _)| f.trim()),
                trimmed.split_once("..").map_or(trimmed, |(_, t)| t.trim()),
            )));
        }
        Ok(DateRange {
            from: from.map(|f| f.first()),
            to: to.map(|t| t.last()),
            to_prefix: to.map(|t| t.prefix()),
        })
    }
}

/// Which results a filter keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// The result as written, in its PDN form (`1-0`, `0-1`, `1/2-1/2`,
    /// `0-0`, `*`; `*` also takes games with no readable result).
    Written(&'static str),
    /// Who won, by the variant's reading of the result.
    Winner(Outcome),
}

/// A result filter that is none of those [`ResultFilter`] reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a result: write 1-0, 0-1, 1/2-1/2, 0-0, * \
     (as written), or white, black, draw (who won)"
)]
pub struct UnknownResult(pub String);

impl FromStr for ResultFilter {
    type Err = UnknownResult;

    fn from_str(text: &str) -> Result<ResultFilter, UnknownResult> {
        match text.trim().to_ascii_lowercase().as_str() {
            "white" => Ok(ResultFilter::Winner(Outcome::White)),
            "black" => Ok(ResultFilter::Winner(Outcome::Black)),
            "draw" => Ok(ResultFilter::Winner(Outcome::Draw)),
            _ => normalise_result(text)
                .map(ResultFilter::Written)
                .ok_or_else(|| UnknownResult(text.to_string())),
        }
    }
}

/// How listed games are ordered (each then by id).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameSort {
    /// By id: the order they were imported.
    #[default]
    Id,
    /// By date, games without a readable date last.
    Date,
    /// By event.
    Event,
    /// By White, then Black.
    Player,
}

impl GameSort {
    /// Every order, as `--help` lists them.
    pub const ALL: [GameSort; 4] = [
        GameSort::Id,
        GameSort::Date,
        GameSort::Event,
        GameSort::Player,
    ];

    /// The order's name: `id`, `date`, `event` or `player`.
    pub fn name(self) -> &'static str {
        match self {
            GameSort::Id => "id",
            GameSort::Date => "date",
            GameSort::Event => "event",
            GameSort::Player => "player",
        }
    }

    /// What it orders by, for people.
    pub fn about(self) -> &'static str {
        match self {
            GameSort::Id => "By id (the order of import)",
            GameSort::Date => "By date, games without a readable date last",
            GameSort::Event => "By event",
            GameSort::Player => "By White, then Black",
        }
    }
}

impl std::fmt::Display for GameSort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Rows still to skip and to list (`None`: all) of a listing read in parts.
#[derive(Clone, Copy, Debug)]
struct Page {
    offset: i64,
    limit: Option<i64>,
}

/// A name that says who played: one with a character other than `?`, `-`,
/// `.`, `*` or a space (`''`, `?`, `??`, `-`, `N.N.`… say nobody). Every
/// name that says nobody sorts before `@`, so an index on names finds them
/// all in one range (see [`UNKNOWN_WHITE`]).
fn known(column: &str) -> String {
    format!("{column} GLOB '*[^?.* -]*'")
}

/// White names nobody: a range of the index on (white, black).
const UNKNOWN_WHITE: &str = "g.white < '@' AND NOT g.white GLOB '*[^?.* -]*'";

/// The parts a listing in `sort` order is read in, one after the other:
/// each a condition and an order that an index reads in order, so that a
/// page far down the list costs a walk along the index, never a sort. By
/// player, games whose White is unknown come after the others, those
/// whose Black is unknown too last.
fn sort_parts(sort: GameSort) -> Vec<(String, String)> {
    let all = |order: &str| vec![("1".to_string(), order.to_string())];
    match sort {
        GameSort::Id => all("g.id"),
        GameSort::Date => all("g.day IS NULL, g.day, g.id"),
        GameSort::Event => all("g.event, g.id"),
        GameSort::Player => {
            let by_name = "g.white, g.black, g.id".to_string();
            vec![
                (known("g.white"), by_name.clone()),
                (
                    format!("{UNKNOWN_WHITE} AND {}", known("g.black")),
                    by_name.clone(),
                ),
                (
                    format!("{UNKNOWN_WHITE} AND NOT {}", known("g.black")),
                    by_name,
                ),
            ]
        }
    }
}

/// An order that is none of [`GameSort`]'s names (exactly, in lower case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not id, date, event or player")]
pub struct UnknownSort(pub String);

impl FromStr for GameSort {
    type Err = UnknownSort;

    fn from_str(text: &str) -> Result<GameSort, UnknownSort> {
        GameSort::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| UnknownSort(text.to_string()))
    }
}

/// Games chosen by their tags, status and variant. Empty fields choose all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// White or Black contains this.
    pub player: Option<String>,
    /// White contains this.
    pub white: Option<String>,
    /// Black contains this.
    pub black: Option<String>,
    /// The event contains this.
    pub event: Option<String>,
    /// The site contains this.
    pub site: Option<String>,
    /// The date lies in this range.
    pub date: Option<DateRange>,
    /// The result.
    pub result: Option<ResultFilter>,
    /// The status.
    pub status: Option<Status>,
    /// A preset (any switches) or a full variant string.
    pub variant: Option<String>,
    /// The game's opening's name contains this.
    pub opening: Option<String>,
    /// The side the player of `player` had (`None`: either); only with
    /// `player` (see [`GameFilter::with_colour`]).
    pub colour: Option<Color>,
}

/// A game filter as people write it (command-line options or query
/// parameters), not yet checked.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameFilterText<'a> {
    /// White or Black contains this.
    pub player: Option<&'a str>,
    /// White contains this.
    pub white: Option<&'a str>,
    /// Black contains this.
    pub black: Option<&'a str>,
    /// The event contains this.
    pub event: Option<&'a str>,
    /// The site contains this.
    pub site: Option<&'a str>,
    /// `FROM..TO` or one date.
    pub date: Option<&'a str>,
    /// A result as written, or `white`, `black`, `draw`.
    pub result: Option<&'a str>,
    /// A status name (any case).
    pub status: Option<&'a str>,
    /// A preset (any switches) or a full variant string.
    pub variant: Option<&'a str>,
    /// A part of an opening's name.
    pub opening: Option<&'a str>,
    /// `white` or `black` (any case): the side the player had.
    pub colour: Option<&'a str>,
}

/// A part of a game filter that cannot be read: which, and why. As text
/// it is named as a query-string parameter (`date "2019.13": …`,
/// `player: …`); [`FilterError::worded`] names it either way.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.worded(Wording::Parameters))]
pub struct FilterError {
    /// The part.
    pub param: Param,
    /// Why it cannot be read.
    pub why: FilterProblem,
}

/// Why a part of a game filter cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FilterProblem {
    /// A text to look for that is empty.
    #[error("give some text to look for")]
    Empty,
    /// A date range that cannot be read.
    #[error(transparent)]
    Date(#[from] DateRangeError),
    /// A result that is none.
    #[error(transparent)]
    Result(#[from] UnknownResult),
    /// A status that is none.
    #[error(transparent)]
    Status(#[from] crate::replay::UnknownStatus),
    /// A variant that is none.
    #[error(transparent)]
    Variant(#[from] crate::rules::RulesError),
    /// A part of a name that no opening's name has.
    #[error("no opening named {needle:?}{}; try pdndb openings", under.map(|p| format!(" under {}", p.name())).unwrap_or_default())]
    NoOpening {
        /// The text looked for.
        needle: String,
        /// The variant whose openings were looked at, if one was given.
        under: Option<crate::rules::Preset>,
    },
    /// A side that is not `white` or `black`.
    #[error("{0:?} is not white or black")]
    Colour(String),
    /// A side without the player who had it.
    #[error("give a player too: the colour is the side that player had")]
    ColourWithoutPlayer,
}

impl FilterError {
    /// The message, the part named as `wording` names it.
    pub fn worded(&self, wording: Wording) -> String {
        self.said(wording).to_string()
    }

    /// The message as a code and its parts, the part named as `wording`
    /// names it.
    pub fn said(&self, wording: Wording) -> RequestMessage {
        let param = wording.name(self.param);
        match &self.why {
            FilterProblem::Date(e) => RequestMessage::BadDateRange {
                param,
                value: e.text.clone(),
                why: e.to_string(),
            },
            FilterProblem::Variant(e) => e.said(param),
            FilterProblem::ColourWithoutPlayer => RequestMessage::BadValue {
                param,
                why: format!(
                    "give {} too: the colour is the side that player had",
                    wording.name(Param::Player)
                ),
            },
            why => RequestMessage::BadValue {
                param,
                why: why.to_string(),
            },
        }
    }
}

impl GameFilterText<'_> {
    /// The filter, checked.
    ///
    /// # Errors
    /// An empty text, a malformed date range or result, an unknown status
    /// or variant.
    pub fn parse(&self) -> Result<GameFilter, FilterError> {
        let fail = |param: Param| move |why: FilterProblem| FilterError { param, why };
        let text = |param: Param, value: Option<&str>| match value {
            Some(v) if v.trim().is_empty() => Err(fail(param)(FilterProblem::Empty)),
            other => Ok(other.map(str::to_string)),
        };
        let date = self
            .date
            .map(|d| {
                d.parse::<DateRange>()
                    .map_err(|e| fail(Param::Date)(e.into()))
            })
            .transpose()?;
        let result = self
            .result
            .map(|r| {
                r.parse::<ResultFilter>()
                    .map_err(|e| fail(Param::Result)(e.into()))
            })
            .transpose()?;
        let status = self
            .status
            .map(|s| {
                // Named lower case in the message, as given in any case.
                s.to_ascii_lowercase()
                    .parse::<Status>()
                    .map_err(|e| fail(Param::Status)(e.into()))
            })
            .transpose()?;
        let preset = match self.variant {
            Some(v) => Some(
                crate::rules::Rules::parse(v)
                    .map_err(|e| fail(Param::Variant)(e.into()))?
                    .preset,
            ),
            None => None,
        };
        let opening = text(Param::Opening, self.opening)?;
        if let Some(needle) = &opening
            && opening_names(needle, preset).is_empty()
        {
            let needle = needle.clone();
            let under = preset;
            return Err(fail(Param::Opening)(FilterProblem::NoOpening {
                needle,
                under,
            }));
        }
        let colour = self
            .colour
            .map(|c| match c.to_ascii_lowercase().as_str() {
                "white" => Ok(Color::White),
                "black" => Ok(Color::Black),
                _ => Err(fail(Param::Colour)(FilterProblem::Colour(c.to_string()))),
            })
            .transpose()?;
        GameFilter {
            player: text(Param::Player, self.player)?,
            white: text(Param::White, self.white)?,
            black: text(Param::Black, self.black)?,
            event: text(Param::Event, self.event)?,
            site: text(Param::Site, self.site)?,
            date,
            result,
            status,
            variant: self.variant.map(crate::rules::Rules::stored_form),
            opening,
            colour: None,
        }
        .with_colour(colour)
    }
}

/// The games a filter's indexed terms leave.
#[derive(Debug)]
pub(in crate::store) enum Candidates {
    /// Every game: the filter has no such term.
    All,
    /// No game.
    None,
    /// These games.
    Some(IdSet),
}

/// A condition on `game g` and its parameters; `None` when no game can match.
pub(in crate::store) type Condition = Option<(String, Vec<Value>)>;

impl GameFilter {
    /// Whether it chooses every game.
    pub fn is_empty(&self) -> bool {
        *self == GameFilter::default()
    }

    /// The filter with the player of `player` on the side `colour` only
    /// (`None`: either side).
    ///
    /// # Errors
    /// A colour without a player.
    pub fn with_colour(self, colour: Option<Color>) -> Result<GameFilter, FilterError> {
        if colour.is_some() && self.player.is_none() {
            return Err(FilterError {
                param: Param::Colour,
                why: FilterProblem::ColourWithoutPlayer,
            });
        }
        Ok(GameFilter { colour, ..self })
    }

    /// The SQL condition on `game g`. With `scan`, the player test is
    /// written so that SQLite reads the games in id order rather than
    /// through the name indexes (best when the player has many games).
    pub(in crate::store) fn condition(
        &self,
        store: &Store,
        scan: bool,
    ) -> Result<Condition, StoreError> {
        let mut terms: Vec<String> = Vec::new();
        let mut params: Vec<Value> = Vec::new();
        let names = |needle: &Option<String>| -> Result<Option<Option<Value>>, StoreError> {
            match needle {
                None => Ok(None),
                Some(n) => {
                    let found = store.names_containing(n)?;
                    Ok(Some((!found.is_empty()).then(|| json_list(&found))))
                }
            }
        };
        if let Some(found) = names(&self.player)? {
            let Some(list) = found else { return Ok(None) };
            let p = param(&mut params, list);
            terms.push(player_term(self.colour, &p, scan));
        }
        let sides = match scan {
            true => [(&self.white, "+g.white"), (&self.black, "+g.black")],
            false => [(&self.white, "g.white"), (&self.black, "g.black")],
        };
        for (needle, column) in sides {
            if let Some(found) = names(needle)? {
                let Some(list) = found else { return Ok(None) };
                let p = param(&mut params, list);
                terms.push(in_list(column, &p));
            }
        }
        for (needle, field) in [(&self.event, "event"), (&self.site, "site")] {
            if let Some(n) = needle {
                let found = store.values_containing(field, n)?;
                if found.is_empty() {
                    return Ok(None);
                }
                let p = param(&mut params, json_list(&found));
                terms.push(in_list(&format!("g.{field}"), &p));
            }
        }
        if let Some(range) = &self.date {
            date_terms(range, &mut terms, &mut params);
        }
        result_terms(self.result, &mut terms, &mut params);
        if let Some(status) = self.status {
            let p = param(&mut params, Value::Text(status.name().into()));
            terms.push(format!("g.status = {p}"));
        }
        if let Some(variant) = &self.variant {
            let p = param(&mut params, Value::Text(variant.clone()));
            terms.push(format!("(g.preset = {p} OR g.variant = {p})"));
        }
        match self.opening_term(&mut params) {
            Some(None) => return Ok(None),
            Some(Some(term)) => terms.push(term),
            None => {}
        }
        let sql = if terms.is_empty() {
            "1".to_string()
        } else {
            terms.join(" AND ")
        };
        Ok(Some((sql, params)))
    }
}

impl GameFilter {
    /// The term on `game g` choosing games by opening (`None` without
    /// one; `Some(None)` when no opening's name contains the text).
    fn opening_term(&self, params: &mut Vec<Value>) -> Option<Option<String>> {
        let needle = self.opening.as_ref()?;
        let preset = (self.variant.as_deref())
            .and_then(|v| crate::rules::Rules::parse(v).ok().map(|r| r.preset));
        let names: Vec<String> = opening_names(needle, preset)
            .into_iter()
            .map(str::to_string)
            .collect();
        if names.is_empty() {
            return Some(None);
        }
        let p = param(params, json_list(&names));
        Some(Some(in_list("g.opening", &p)))
    }
}

/// The term on `game g` choosing the games of the names in the JSON array
/// parameter `p` with `colour` (either when `None`); with `scan`, tested
/// on each game's row rather than through the name indexes.
fn player_term(colour: Option<Color>, p: &str, scan: bool) -> String {
    let column = |name: &str| match scan {
        true => format!("+g.{name}"),
        false => format!("g.{name}"),
    };
    match colour {
        Some(Color::White) => in_list(&column("white"), p),
        Some(Color::Black) => in_list(&column("black"), p),
        None if scan => format!("({} OR {})", in_list("+g.white", p), in_list("+g.black", p)),
        None => format!(
            "g.id IN (SELECT id FROM game WHERE {} UNION SELECT id FROM game WHERE {})",
            in_list("white", p),
            in_list("black", p)
        ),
    }
}

/// Adds a parameter; returns its place in the SQL (`?N`).
pub(in crate::store) fn param(params: &mut Vec<Value>, value: Value) -> String {
    params.push(value);
    format!("?{}", params.len())
}

/// The test that `column` is one of the JSON array parameter `p`.
pub(in crate::store) fn in_list(column: &str, p: &str) -> String {
    format!("{column} IN (SELECT value FROM json_each({p}))")
}

/// The terms of a date range, on `game g`.
pub(in crate::store) fn date_terms(
    range: &DateRange,
    terms: &mut Vec<String>,
    params: &mut Vec<Value>,
) {
    terms.push("g.day IS NOT NULL".into());
    if let Some(from) = &range.from {
        let p = param(params, Value::Text(from.clone()));
        terms.push(format!("g.day >= {p} AND replace(g.day, '?', '0') >= {p}"));
    }
    if let (Some(to), Some(prefix)) = (&range.to, &range.to_prefix) {
        let p = param(params, Value::Text(to.clone()));
        let q = param(params, Value::Text(format!("{prefix}~")));
        // `day < prefix~` lets the index bound the scan; the exact test follows.
        terms.push(format!("g.day < {q} AND replace(g.day, '?', '9') <= {p}"));
    }
}

/// The terms of a result filter, on `game g`.
fn result_terms(result: Option<ResultFilter>, terms: &mut Vec<String>, params: &mut Vec<Value>) {
    match result {
        None => {}
        Some(ResultFilter::Winner(w)) => {
            let p = param(params, Value::Integer(w.code()));
            terms.push(format!("g.outcome = {p}"));
        }
        Some(ResultFilter::Written(r)) => {
            let forms: &[&str] = match r {
                "1-0" => &["1-0", "2-0"],
                "0-1" => &["0-1", "0-2"],
                "1/2-1/2" => &["1/2-1/2", "½-½", "1-1"],
                "0-0" => &["0-0"],
                _ => &[],
            };
            if forms.is_empty() {
                terms.push(
                    "(g.result IS NULL OR g.result NOT IN \
                     ('1-0', '2-0', '0-1', '0-2', '1/2-1/2', '½-½', '1-1', '0-0'))"
                        .into(),
                );
            } else {
                let list: Vec<String> = forms.iter().map(|f| f.to_string()).collect();
                let p = param(params, json_list(&list));
                terms.push(in_list("g.result", &p));
            }
        }
    }
}

/// A JSON array of strings, for `json_each`.
pub(in crate::store) fn json_list(values: &[String]) -> Value {
    Value::Text(serde_json::Value::from(values.to_vec()).to_string())
}

/// One game of a listing (DESIGN §6, `games`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRow {
    /// Game id.
    pub game: GameId,
    /// Source file as given when imported (its first copy).
    pub file: String,
    /// 1-based index in the file.
    pub index: i64,
    /// Line of the game's first tag or move.
    pub line: i64,
    /// The tags, cleaned, the date and result normalised as export writes them.
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// The result in its PDN form; `None` when the game has none.
    pub result: Option<String>,
    /// Who won, by the variant's reading of the result.
    pub outcome: Outcome,
    /// The game's variant.
    pub variant: String,
    /// Who moves first by the game's rules (Black in English checkers
    /// and pool; White when its variant is not known): the side a listing
    /// names first.
    pub first_side: Color,
    /// Its status.
    pub status: Status,
    /// Moves in the main line: its move tokens, a capture written one jump
    /// per token counting once.
    pub plies: Option<i64>,
    /// The name of its opening (see [`crate::openings`]); `None` when it
    /// reaches no named position.
    pub opening: Option<String>,
    /// Its three-move ballot (English games): the ballot's moves.
    pub ballot: Option<String>,
    /// The result checked against the moves (`unknown` for a game stored
    /// before the check and not rechecked since).
    pub result_check: ResultCheck,
}

/// A listed game's columns: id, result, outcome code, variant, status,
/// plies, opening, ballot, result check.
struct ListedRow {
    id: i64,
    result: Option<String>,
    outcome: i64,
    variant: String,
    status: String,
    plies: Option<i64>,
    opening: Option<String>,
    ballot: Option<String>,
    result_check: Option<String>,
}

/// The columns a [`ListedRow`] is read from, on `game g`.
const LISTED: &str =
    "g.id, g.result, g.outcome, g.variant, g.status, g.plies, g.opening, g.ballot, g.result_check";

fn listed_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ListedRow> {
    Ok(ListedRow {
        id: r.get(0)?,
        result: r.get(1)?,
        outcome: r.get(2)?,
        variant: r.get(3)?,
        status: r.get(4)?,
        plies: r.get(5)?,
        opening: r.get(6)?,
        ballot: r.get(7)?,
        result_check: r.get(8)?,
    })
}

/// A page of games and how many match in all.
#[derive(Clone, Debug, PartialEq)]
pub struct GameList {
    /// The games of the page.
    pub games: Vec<GameRow>,
    /// Every matching game.
    pub total: u64,
}

/// Tags as outputs show them: values cleaned, the date and result
/// normalised when they can be read; for a game of `variant` without
/// `White` or `Black`, that player from PlayStrategy's `P1` or `P2` as well,
/// named so just before it (as an export writes it).
pub fn clean_tags(
    tags: &serde_json::Map<String, serde_json::Value>,
    variant: &str,
) -> serde_json::Map<String, serde_json::Value> {
    use crate::rules::Color;
    let first = crate::store::read::listing::first_side(variant);
    let standard = |color| match color {
        Color::White => "White",
        Color::Black => "Black",
    };
    let absent = |color| {
        let pairs = tags
            .iter()
            .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
        crate::pdn::standard_tag(pairs, standard(color)).is_none()
    };
    let mut cleaned = serde_json::Map::new();
    for (name, value) in tags {
        let numbered = match name.to_ascii_uppercase().as_str() {
            "P1" => Some(first),
            "P2" => Some(first.opponent()),
            _ => None,
        };
        if let (Some(color), Some(text)) = (numbered, value.as_str())
            && absent(color)
        {
            cleaned.insert(standard(color).to_string(), clean_tag_value(text).into());
        }
        cleaned.insert(name.clone(), clean_value(name, value));
    }
    cleaned
}

/// A tag's value as outputs show it (see [`clean_tags`]).
fn clean_value(name: &str, value: &serde_json::Value) -> serde_json::Value {
    let Some(text) = value.as_str().map(clean_tag_value) else {
        return value.clone();
    };
    if name.eq_ignore_ascii_case("date") {
        normalise_date(&text).unwrap_or(text).into()
    } else if name.eq_ignore_ascii_case("result") {
        normalise_result(&text).map_or(text, str::to_string).into()
    } else {
        text.into()
    }
}

impl Store {
    /// The player names (as stored) whose cleaned form contains `needle`,
    /// without case or accents, with every other name of the same player
    /// (see `pdndb alias`): a canonical name finds its aliases' games, an
    /// alias its canonical name's and the other aliases'.
    ///
    /// # Errors
    /// A database failure.
    pub fn names_containing(&self, needle: &str) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut names: std::collections::BTreeSet<String> =
            values_containing(conn, FoldField::Player, needle)?
                .into_iter()
                .collect();
        let aliases = alias_map(conn)?;
        if aliases.is_empty() {
            return Ok(names.into_iter().collect());
        }
        // The players found: by a name of theirs, or by their canonical name.
        let folded = fold(needle);
        let mut found: std::collections::HashSet<String> = (names.iter())
            .map(|name| canonical_name(&aliases, name))
            .collect();
        found.extend(
            (aliases.values())
                .filter(|canonical| fold(canonical).contains(&folded))
                .cloned(),
        );
        // Their other names: the aliases and canonical names of those
        // found, stored in any spelling that cleans to them (any other
        // spelling of a name found folds as it does, so was found).
        let others: std::collections::BTreeSet<&String> = (aliases.iter())
            .filter(|(_, canonical)| found.contains(*canonical))
            .flat_map(|(alias, canonical)| [alias, canonical])
            .collect();
        for other in others {
            let spelt = values_containing(conn, FoldField::Player, other)?;
            names.extend(spelt.into_iter().filter(|s| clean_tag_value(s) == *other));
        }
        Ok(names.into_iter().collect())
    }

    /// The values of a tag kept in `tag_value` (`event`, `site`) that
    /// contain `needle`, without case or accents.
    fn values_containing(&self, field: &str, needle: &str) -> Result<Vec<String>, StoreError> {
        let field = match field {
            "site" => FoldField::Site,
            _ => FoldField::Event,
        };
        values_containing(self.conn(), field, needle)
    }

    /// The games that pass `filter`, ordered by `sort`, `offset` skipped,
    /// at most `limit` (0 = all), with how many pass in all.
    ///
    /// # Errors
    /// A database failure.
    pub fn games(
        &self,
        filter: &GameFilter,
        sort: GameSort,
        limit: usize,
        offset: usize,
    ) -> Result<GameList, StoreError> {
        let mut games = Vec::new();
        let shown = self.each_listed_game(filter, sort, limit, offset, |game| {
            games.push(game);
            Ok::<_, StoreError>(())
        })?;
        Ok(GameList {
            games,
            total: shown.total as u64,
        })
    }

    /// The games of [`Store::games`], handed to `each` as they are read;
    /// then how many were handed out of how many pass the filter.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_listed_game<E: From<StoreError>>(
        &self,
        filter: &GameFilter,
        sort: GameSort,
        limit: usize,
        offset: usize,
        mut each: impl FnMut(GameRow) -> Result<(), E>,
    ) -> Result<Shown, E> {
        let Some((condition, params)) = filter.condition(self, false)? else {
            return Ok(Shown { shown: 0, total: 0 });
        };
        let total = self.count_games(filter, &condition, &params)?;
        // A player with many games: their first games come soonest in id order.
        let scan = sort == GameSort::Id
            && self.player_games(filter)?.saturating_mul(20_000)
                >= crate::store::stored::sql_count(limit.max(1).saturating_add(offset))
                    .saturating_mul(total);
        let (condition, params) = match scan {
            true => filter.condition(self, true)?.unwrap_or((condition, params)),
            false => (condition, params),
        };
        let mut left = Page {
            offset: crate::store::stored::sql_count(offset),
            limit: (limit > 0).then(|| crate::store::stored::sql_count(limit)),
        };
        let mut shown = 0;
        let parts = sort_parts(sort);
        // The parts after the first are counted (they are few games); the
        // first holds the others.
        let mut later = Vec::with_capacity(parts.len());
        for (part, _) in &parts[1..] {
            let sql = format!("SELECT count(*) FROM game g WHERE ({condition}) AND {part}");
            let n: i64 = self
                .conn()
                .query_row(&sql, rusqlite::params_from_iter(params.iter()), |r| {
                    r.get(0)
                })
                .map_err(|e| E::from(StoreError::from(e)))?;
            later.push(n);
        }
        let first = (total - later.iter().sum::<i64>()).max(0);
        for ((part, order), games) in parts.iter().zip(std::iter::once(first).chain(later)) {
            if left.offset >= games {
                left.offset -= games;
                continue;
            }
            let condition = format!("({condition}) AND {part}");
            let (read, listed) = self.list_part(&condition, &params, order, left, &mut each)?;
            shown += listed;
            left.offset = 0;
            match &mut left.limit {
                Some(limit) if *limit <= read => break,
                Some(limit) => *limit -= read,
                None => {}
            }
        }
        Ok(Shown {
            shown,
            total: total.max(0) as usize,
        })
    }

    /// The games that pass `condition` (with `params`), in `order`, within
    /// `page`, handed to `each`; then how many rows were read and how many
    /// games listed (a game whose source is gone is not).
    fn list_part<E: From<StoreError>>(
        &self,
        condition: &str,
        params: &[Value],
        order: &str,
        page: Page,
        each: &mut impl FnMut(GameRow) -> Result<(), E>,
    ) -> Result<(i64, usize), E> {
        let mut params = params.to_vec();
        params.push(Value::Integer(page.limit.unwrap_or(-1)));
        params.push(Value::Integer(page.offset));
        let sql = format!(
            "SELECT {LISTED} FROM game g \
             WHERE {condition} ORDER BY {order} LIMIT ?{} OFFSET ?{}",
            params.len() - 1,
            params.len()
        );
        let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
        let mut stmt = self.conn().prepare(&sql).map_err(sqlite)?;
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params.iter()))
            .map_err(sqlite)?;
        let (mut read, mut listed) = (0, 0);
        while let Some(r) = rows.next().map_err(sqlite)? {
            read += 1;
            let Some(row) = self.listed_game(listed_row(r).map_err(sqlite)?)? else {
                continue;
            };
            each(row)?;
            listed += 1;
        }
        Ok((read, listed))
    }

    /// One game as `games` lists it; `None` when there is no such game.
    ///
    /// # Errors
    /// A database failure.
    pub fn game_row(&self, id: GameId) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .conn()
            .prepare_cached(&format!("SELECT {LISTED} FROM game g WHERE g.id = ?1"))?
            .query_row([id], listed_row)
            .optional()?;
        match row {
            Some(row) => self.listed_game(row),
            None => Ok(None),
        }
    }

    /// A listed game's row with its source; `None` when its source is gone.
    fn listed_game(&self, row: ListedRow) -> Result<Option<GameRow>, StoreError> {
        let game = row.id;
        let Some(source) = self.source(GameId(game))? else {
            return Ok(None);
        };
        Ok(Some(GameRow {
            game: GameId(game),
            file: source.file,
            index: source.index,
            line: source.line,
            tags: clean_tags(&source.tags, &row.variant),
            result: (row.result).map(|r| normalise_result(&r).map_or(r, str::to_string)),
            outcome: Outcome::from_code(row.outcome),
            first_side: first_side(&row.variant),
            variant: row.variant,
            status: crate::store::stored::record::parse_status(GameId(game), &row.status)?,
            plies: row.plies,
            opening: row.opening,
            ballot: row.ballot,
            result_check: ResultCheck::parse(row.result_check.as_deref())
                .unwrap_or(ResultCheck::Unknown),
        }))
    }

    /// How many games pass `filter` (whose condition is given). A filter on
    /// players alone is counted from the players' counts (`player_stat`,
    /// which counts a game once for each side the names had) less the games
    /// both of whose sides they had (read through the index on the pair):
    /// milliseconds for a player of a million games.
    fn count_games(
        &self,
        filter: &GameFilter,
        condition: &str,
        params: &[Value],
    ) -> Result<i64, StoreError> {
        let count = |sql: &str, params: &[Value]| -> Result<i64, StoreError> {
            Ok(self
                .conn()
                .query_row(sql, rusqlite::params_from_iter(params.iter()), |r| r.get(0))?)
        };
        let players_only = GameFilter {
            player: filter.player.clone(),
            ..GameFilter::default()
        };
        if filter.player.is_none() || *filter != players_only {
            return count(
                &format!("SELECT count(*) FROM game g WHERE {condition}"),
                params,
            );
        }
        let list = |column: &str| format!("{column} IN (SELECT value FROM json_each(?1))");
        let sides = count(
            &format!(
                "SELECT coalesce(sum(games), 0) FROM player_stat WHERE {}",
                list("name")
            ),
            params,
        )?;
        let both = count(
            &format!(
                "SELECT count(*) FROM game WHERE {} AND {}",
                list("white"),
                list("black")
            ),
            params,
        )?;
        Ok(sides - both)
    }

    /// An estimate of the games of the players `filter` names (by
    /// `--player`, else `--white`, else `--black`): their games in every
    /// variant and on either side; 0 without a name.
    fn player_games(&self, filter: &GameFilter) -> Result<i64, StoreError> {
        let Some(needle) = [&filter.player, &filter.white, &filter.black]
            .into_iter()
            .find_map(Option::as_ref)
        else {
            return Ok(0);
        };
        let names = self.names_containing(needle)?;
        Ok(self.conn().query_row(
            "SELECT coalesce(sum(games), 0) FROM player_stat WHERE name IN (SELECT value FROM json_each(?1))",
            [serde_json::Value::from(names).to_string()],
            |r| r.get(0),
        )?)
    }

    /// The games the terms of `filter` that a tag index answers (player,
    /// White, Black, event, site, date, opening) leave, read from those
    /// indexes alone, without a game's row; and the filter of the terms
    /// left to check on the games' rows (result, status, variant), `None`
    /// when there are none.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn candidates(
        &self,
        filter: &GameFilter,
    ) -> Result<(Candidates, Option<GameFilter>), StoreError> {
        let rest = GameFilter {
            result: filter.result,
            status: filter.status,
            variant: filter.variant.clone(),
            ..GameFilter::default()
        };
        let rest = (!rest.is_empty()).then_some(rest);
        let mut found = Candidates::All;
        let mut narrow = |ids: Option<IdSet>| {
            found = match (std::mem::replace(&mut found, Candidates::All), ids) {
                (Candidates::None, _) | (_, None) => Candidates::None,
                (Candidates::All, Some(ids)) => Candidates::Some(ids),
                (Candidates::Some(had), Some(ids)) => Candidates::Some(had.intersection(&ids)),
            };
        };
        if let Some(needle) = &filter.player {
            let names = self.names_containing(needle)?;
            let sides: &[&str] = match filter.colour {
                Some(Color::White) => &["white"],
                Some(Color::Black) => &["black"],
                None => &["white", "black"],
            };
            narrow(self.ids_with(sides, &names)?);
        }
        for (needle, column) in [(&filter.white, "white"), (&filter.black, "black")] {
            if let Some(needle) = needle {
                narrow(self.ids_with(&[column], &self.names_containing(needle)?)?);
            }
        }
        for (needle, column) in [(&filter.event, "event"), (&filter.site, "site")] {
            if let Some(needle) = needle {
                narrow(self.ids_with(&[column], &self.values_containing(column, needle)?)?);
            }
        }
        if let Some(range) = &filter.date {
            let (mut terms, mut params) = (Vec::new(), Vec::new());
            date_terms(range, &mut terms, &mut params);
            narrow(Some(self.ids_where(&terms.join(" AND "), &params)?));
        }
        let mut params = Vec::new();
        match filter.opening_term(&mut params) {
            None => {}
            Some(None) => narrow(None),
            Some(Some(term)) => narrow(Some(self.ids_where(&term, &params)?)),
        }
        Ok((found, rest))
    }

    /// The ids of the games whose `columns` (either) hold one of `values`,
    /// through their indexes; `None` when there are no values.
    fn ids_with(&self, columns: &[&str], values: &[String]) -> Result<Option<IdSet>, StoreError> {
        if values.is_empty() {
            return Ok(None);
        }
        let mut ids = IdSet::default();
        for column in columns {
            let sql = format!(
                "SELECT g.id FROM game g WHERE {}",
                in_list(&format!("g.{column}"), "?1")
            );
            let mut stmt = self.conn().prepare_cached(&sql)?;
            let mut rows = stmt.query([json_list(values)])?;
            while let Some(r) = rows.next()? {
                ids.insert(r.get(0)?);
            }
        }
        Ok(Some(ids))
    }

    /// The ids of the games that pass `condition` on `game g`.
    fn ids_where(&self, condition: &str, params: &[Value]) -> Result<IdSet, StoreError> {
        let mut stmt = self
            .conn()
            .prepare(&format!("SELECT g.id FROM game g WHERE {condition}"))?;
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
        let mut ids = IdSet::default();
        while let Some(r) = rows.next()? {
            ids.insert(r.get(0)?);
        }
        Ok(ids)
    }

    /// The ids of the games that pass `filter`, each game's row read (the
    /// terms on players tested on the row, not through the name indexes);
    /// `None` when no game can pass.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn ids_passing(
        &self,
        filter: &GameFilter,
    ) -> Result<Option<IdSet>, StoreError> {
        match filter.condition(self, true)? {
            None => Ok(None),
            Some((condition, params)) => Ok(Some(self.ids_where(&condition, &params)?)),
        }
    }

    /// Of `ids`, those that pass `filter`, each game's row read (for a few
    /// games among many that pass: the terms on players are tested on the
    /// row, not through the name indexes).
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn rows_passing(
        &self,
        filter: &GameFilter,
        ids: &[i64],
    ) -> Result<IdSet, StoreError> {
        let Some((condition, mut params)) = filter.condition(self, true)? else {
            return Ok(IdSet::default());
        };
        params.push(Value::Text(
            serde_json::Value::from(ids.to_vec()).to_string(),
        ));
        let sql = format!(
            "SELECT g.id FROM game g WHERE g.id IN (SELECT value FROM json_each(?{})) AND {condition}",
            params.len()
        );
        let mut stmt = self.conn().prepare(&sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
        let mut passing = IdSet::default();
        while let Some(r) = rows.next()? {
            passing.insert(r.get(0)?);
        }
        Ok(passing)
    }

    /// Of `ids`, those that pass `filter`, in the same order.
    ///
    /// # Errors
    /// A database failure.
    pub fn games_passing(&self, filter: &GameFilter, ids: &[i64]) -> Result<Vec<i64>, StoreError> {
        if filter.is_empty() {
            return Ok(ids.to_vec());
        }
        let Some((condition, mut params)) = filter.condition(self, false)? else {
            return Ok(Vec::new());
        };
        let list = serde_json::Value::from(ids.to_vec()).to_string();
        params.push(Value::Text(list));
        let sql = format!(
            "SELECT g.id FROM game g WHERE g.id IN (SELECT value FROM json_each(?{})) AND {condition}",
            params.len()
        );
        let mut stmt = self.conn().prepare(&sql)?;
        let passing: std::collections::HashSet<i64> = stmt
            .query_map(rusqlite::params_from_iter(params.iter()), |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids
            .iter()
            .copied()
            .filter(|id| passing.contains(id))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_is_found_by_a_part_of_its_name_in_any_case_without_accents() {
        use crate::rules::Preset;
        // ё is е with a diaeresis: a name written without it is found.
        let found = opening_names("ОБРАТНЫЙ ПЕРЕКРЕСТОК", Some(Preset::Russian));
        assert!(found.contains(&"Обратный перекрёсток"), "{found:?}");
        assert!(
            found.contains(&"Отказанный обратный перекрёсток"),
            "{found:?}"
        );
        assert!(!found.contains(&"Перекрёсток"), "{found:?}");
        assert_eq!(
            opening_names("partie CLASSIQUE", Some(Preset::International)),
            ["Partie classique"]
        );
        // Without a variant every table is looked at; with one, only its.
        assert_eq!(opening_names("laird and lady", None).len(), 2);
        assert!(opening_names("laird", Some(Preset::Russian)).is_empty());
        assert!(opening_names("no such name", None).is_empty());
    }

    #[test]
    fn filter_errors_name_their_part_for_either_front_end() {
        let parse = |text: GameFilterText<'_>| text.parse().unwrap_err();
        let e = parse(GameFilterText {
            date: Some("2019.13"),
            ..Default::default()
        });
        assert_eq!(e.param, Param::Date);
        assert_eq!(
            e.worded(Wording::Options),
            "--date \"2019.13\": there is no month 13"
        );
        // A range names the end that is wrong after the whole range.
        let e = parse(GameFilterText {
            date: Some("2019..2020.13"),
            ..Default::default()
        });
        assert_eq!(
            e.worded(Wording::Parameters),
            "date \"2019..2020.13\": \"2020.13\": there is no month 13"
        );
        assert_eq!(e.to_string(), e.worded(Wording::Parameters));
        let e = parse(GameFilterText {
            white: Some(" "),
            ..Default::default()
        });
        assert_eq!(e.param, Param::White);
        assert_eq!(e.to_string(), "white: give some text to look for");
        let e = parse(GameFilterText {
            status: Some("FINE"),
            ..Default::default()
        });
        assert_eq!(e.param, Param::Status);
        assert!(
            e.worded(Wording::Options)
                .starts_with("--status: unknown status `fine`"),
            "{e}"
        );
        let e = parse(GameFilterText {
            colour: Some("white"),
            ..Default::default()
        });
        assert_eq!(e.param, Param::Colour);
        assert_eq!(
            e.worded(Wording::Options),
            "--colour: give --player too: the colour is the side that player had"
        );
        assert_eq!(
            e.to_string(),
            "colour: give player too: the colour is the side that player had"
        );
        let e = parse(GameFilterText {
            player: Some("Tan"),
            colour: Some("red"),
            ..Default::default()
        });
        assert_eq!(e.to_string(), "colour: \"red\" is not white or black");
        let parsed = GameFilterText {
            player: Some("Tan"),
            colour: Some("Black"),
            ..Default::default()
        }
        .parse()
        .unwrap();
        assert_eq!(parsed.colour, Some(Color::Black));
        let e = parse(GameFilterText {
            result: Some("3-0"),
            ..Default::default()
        });
        assert_eq!(
            e.to_string(),
            "result: \"3-0\" is not a result: write 1-0, 0-1, 1/2-1/2, 0-0, * (as written), \
             or white, black, draw (who won)"
        );
    }

    #[test]
    fn date_ranges_read_each_form() {
        let r: DateRange = "2019".parse().unwrap();
        assert_eq!(
            (r.from.as_deref(), r.to.as_deref()),
            (Some("2019.00.00"), Some("2019.99.99"))
        );
        let r: DateRange = "2019.05..".parse().unwrap();
        assert_eq!((r.from.as_deref(), r.to), (Some("2019.05.00"), None));
        let r: DateRange = "..2020.02.29".parse().unwrap();
        assert_eq!((r.from, r.to.as_deref()), (None, Some("2020.02.29")));
        assert_eq!(r.to_prefix.as_deref(), Some("2020.02.29"));
        assert!("2019.05..2019.05".parse::<DateRange>().is_ok());
    }

    #[test]
    fn malformed_date_ranges_say_why() {
        for (text, says) in [
            ("", "no date given"),
            ("  ", "no date given"),
            ("..", "at least one end"),
            ("20x9", "not a date"),
            ("2019.13", "no month 13"),
            ("2019.00", "no month 00"),
            ("2019.02.30", "no such day"),
            ("2019...2020", "not a date"),
            ("2019..2020..2021", "not a date"),
            ("19", "not a date"),
            ("2019.5", "not a date"),
            ("2019..2018", "the range is empty"),
        ] {
            let err = text.parse::<DateRange>().unwrap_err().to_string();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn days_keep_unknown_parts_and_drop_unknown_years() {
        assert_eq!(day_of("2019.5.3").as_deref(), Some("2019.05.03"));
        assert_eq!(day_of("2019").as_deref(), Some("2019.??.??"));
        assert_eq!(day_of("????.??.??"), None);
        assert_eq!(day_of("not a date"), None);
    }

    #[test]
    fn the_player_test_reads_alike_through_the_indexes_and_in_id_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(
            &dir.path().join("db.sqlite"),
            crate::store::stored::handle::Mode::Write,
        )
        .unwrap();
        let tx = store.conn().unchecked_transaction().unwrap();
        let mut counts = crate::store::write::counts::GameCounts::default();
        for (id, white, black) in [
            (1, "Ann", "Bob"),
            (2, "Cy", "Ann"),
            (3, "Bob", "Cy"),
            (4, "Anna", "Anna"),
        ] {
            tx.execute(
                "INSERT INTO game (id, status, variant, preset, white, black) \
                 VALUES (?1, 'ok', 'english', 'english', ?2, ?3)",
                rusqlite::params![id, white, black],
            )
            .unwrap();
            counts.add_game(
                id,
                &crate::store::write::prepared::CountedGame::english(white, black, 0, None),
            );
        }
        counts.write(&tx).unwrap();
        tx.commit().unwrap();
        let ids = |filter: &GameFilter, scan: bool| -> Vec<i64> {
            let (condition, params) = filter.condition(&store, scan).unwrap().unwrap();
            let sql = format!("SELECT g.id FROM game g WHERE {condition} ORDER BY g.id");
            let mut stmt = store.conn().prepare(&sql).unwrap();
            stmt.query_map(rusqlite::params_from_iter(params.iter()), |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        for (filter, expected) in [
            (
                GameFilter {
                    player: Some("ann".into()),
                    ..GameFilter::default()
                },
                vec![1, 2, 4],
            ),
            (
                GameFilter {
                    white: Some("b".into()),
                    ..GameFilter::default()
                },
                vec![3],
            ),
            (
                GameFilter {
                    white: Some("a".into()),
                    black: Some("b".into()),
                    ..GameFilter::default()
                },
                vec![1],
            ),
        ] {
            assert_eq!(ids(&filter, false), expected);
            assert_eq!(ids(&filter, true), expected);
            let counted = store
                .count_games(
                    &filter,
                    &filter.condition(&store, false).unwrap().unwrap().0,
                    &filter.condition(&store, false).unwrap().unwrap().1,
                )
                .unwrap();
            assert_eq!(counted, expected.len() as i64);
        }
    }

    #[test]
    fn results_read_as_written_or_as_winner() {
        assert_eq!("2-0".parse(), Ok(ResultFilter::Written("1-0")));
        assert_eq!("½-½".parse(), Ok(ResultFilter::Written("1/2-1/2")));
        assert_eq!("Black".parse(), Ok(ResultFilter::Winner(Outcome::Black)));
        assert!("3-0".parse::<ResultFilter>().is_err());
    }
}
