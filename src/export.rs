//! Clean PDN 3.0 from games as read and replayed.
//!
//! [`export_game`] turns one game, with what replay found in it, into a new
//! [`Game`] for [`crate::pdn::write_game`]:
//!
//! * tags in the standard order (Event, Site, Date, Round, White, Black,
//!   Result), then `GameType` for the rules, notation and board (with
//!   `[Variant "Filipino Dama"]` for `filipino` and `[Notation "Dama"]` for
//!   the Dama notation), `SetUp` and `FEN` when the game does not start from
//!   the initial position, then the other original tags. Dates become
//!   `YYYY.MM.DD` (unknown parts `??`), results the PDN forms (`2-0` →
//!   `1-0`, `0-2` → `0-1`, `1-1` and `½-½` → `1/2-1/2`), names trimmed.
//! * Moves written afresh from the replayed moves, start and end only unless
//!   two legal moves share them; comments, annotations and variations kept
//!   where they stood (variations re-written as far as they replay;
//!   comments without blanks at their ends).
//! * An ambiguous record: its first reading as the main line, every other
//!   reading as a variation where it parts, and a comment with the count.
//! * An illegal record: the moves up to the fault, then the rest of the text
//!   as written in a comment saying what is wrong. An unreadable or
//!   unsupported one: its tags, and its move text in a comment with the
//!   reason. With [`ExportOptions::skip_broken`] these are left out instead.

use crate::notation::{MoveToken, Notation, dama_number, write_fen, write_move, write_move_among};
use crate::pdn::{
    Comment, CommentKind, FenSource, Game, GameResult, GameType, Line, MoveNumber, Ply, PlyToken,
    Position as TextPosition, Tag,
};
use crate::replay::{CheckedGame, Reading, Replay, Status, move_number, replay, written_moves};
use crate::rules::{Move, Position, Preset, Rules};
use thin_vec::ThinVec;

/// Most variations written for the other readings of one ambiguous record;
/// past it a comment says that the rest are left out.
pub const MAX_ALTERNATIVES: usize = 64;

/// Deepest nesting of the variations written for other readings.
const MAX_ALTERNATIVE_DEPTH: usize = 32;

/// The tags written first, in this order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Tags pdndb writes itself after the roster; the original ones are replaced.
const REPLACED: [&str; 6] = ["GameType", "Variant", "Notation", "FEN", "SetUp", "Setup"];

/// How to export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// The notation of the moves; `None`: each game's own, numeric when it
    /// has none.
    pub notation: Option<Notation>,
    /// Leave out illegal, unreadable and unsupported games.
    pub skip_broken: bool,
}

/// Whether a game of this status is left out by `--skip-broken`.
pub fn is_broken(status: Status) -> bool {
    matches!(
        status,
        Status::Illegal | Status::Unreadable | Status::Unsupported
    )
}

/// The clean game to write for `game`, as `checked` read it; `None` when
/// the options leave it out.
pub fn export_game(game: &Game, checked: &CheckedGame, options: &ExportOptions) -> Option<Game> {
    match &checked.reading {
        Reading::Replayed {
            rules,
            notation,
            start,
            replay,
            ..
        } => {
            if options.skip_broken && is_broken(checked.record.status) {
                return None;
            }
            let reading = ReadGame {
                rules,
                notation: *notation,
                start,
                replay,
                message: checked.record.message.as_deref(),
            };
            Some(export_replayed(game, &reading, options))
        }
        Reading::Unsupported { message, .. } => {
            export_unread(game, Status::Unsupported, message, options)
        }
        Reading::Unreadable { message, .. } => {
            export_unread(game, Status::Unreadable, message, options)
        }
    }
}

/// The clean game for a record that was not replayed (unreadable or
/// unsupported): its tags (the roster normalised, the rest as written) and
/// its move text in a comment with the reason; `None` with
/// [`ExportOptions::skip_broken`].
pub fn export_unread(
    game: &Game,
    status: Status,
    message: &str,
    options: &ExportOptions,
) -> Option<Game> {
    if options.skip_broken {
        return None;
    }
    let (mut tags, result, mut notes) = roster(game);
    tags.extend(
        game.tags
            .iter()
            .filter(|t| !is_named(&t.name, &ROSTER))
            .cloned(),
    );
    let why = format!("{}: {message}", status.name());
    let mut line = Line::default();
    if game.plies().is_empty() {
        // No moves: the comments and set-ups are kept as they are (a record
        // exported before already says why).
        if !game.line.comments.iter().any(|c| c.text.starts_with(&why)) {
            notes.insert(0, why);
        }
        line.comments = notes.into_iter().map(comment).collect();
        line.comments.extend(game.line.comments.iter().cloned());
        line.setups = game.line.setups.clone();
    } else {
        let moves = as_written(game, None);
        notes.insert(0, format!("{why}. The moves as written: {moves}"));
        line.comments = notes.into_iter().map(comment).collect();
    }
    Some(new_game(game, tags, line, result))
}

/// What replay found in a game.
struct ReadGame<'a> {
    rules: &'a Rules,
    notation: Option<Notation>,
    start: &'a Position,
    replay: &'a Replay,
    message: Option<&'a str>,
}

fn export_replayed(game: &Game, read: &ReadGame<'_>, options: &ExportOptions) -> Game {
    let rules = read.rules;
    let asked = options.notation.or(read.notation);
    let out = asked
        .filter(|n| n.names_squares_of(rules.geometry))
        .unwrap_or(Notation::Numeric);
    let (mut tags, result, mut notes) = roster(game);
    if let Some(asked) = asked.filter(|n| *n != out) {
        notes.push(format!(
            "written in numbers: the {asked} notation has no names for the squares of the {}x{} board",
            rules.geometry.width(),
            rules.geometry.height()
        ));
    }
    tags.push(tag("GameType", &GameType::value_for(rules, out)));
    if rules.preset == Preset::Filipino {
        tags.push(tag("Variant", "Filipino Dama"));
    }
    if out == Notation::Dama {
        tags.push(tag("Notation", "Dama"));
    }
    if *read.start != Position::initial(rules) {
        tags.push(tag("SetUp", "1"));
        tags.push(tag("FEN", &write_fen(read.start)));
    }
    tags.extend(
        game.tags
            .iter()
            .filter(|t| !is_named(&t.name, &ROSTER) && !is_named(&t.name, &REPLACED))
            .cloned(),
    );

    let mut writer = MoveWriter {
        rules,
        read: read.notation,
        out,
        alternatives_left: MAX_ALTERNATIVES,
        left_out: false,
    };
    let replay = read.replay;
    let mut plies = writer.reading(game.plies(), *read.start, replay, true, 0);
    if let Some(first) = plies.first_mut() {
        let (number, side) = move_number(rules, read.start.side(), 1);
        first.number = Some(MoveNumber {
            number: u32::try_from(number).unwrap_or(u32::MAX),
            ellipsis: side != rules.first,
        });
    }
    if replay.interpretations.is_some_and(|n| n > 1) {
        let n = replay.interpretations.unwrap_or_default();
        let at = replay
            .divergence
            .as_ref()
            .map_or(String::new(), |(ply, _)| format!(" (first at ply {ply})"));
        let mut note = format!(
            "This record can be read {n} ways: the main line is the first reading; \
             the other readings are given as variations where they part from it{at}."
        );
        if writer.left_out {
            note.push_str(&format!(
                " Only {MAX_ALTERNATIVES} of them are written; the others are left out."
            ));
        }
        notes.insert(0, note);
    }
    if replay.reached < replay.plies {
        let why = read.message.map_or_else(
            || format!("ply {} cannot be read", replay.reached + 1),
            str::to_string,
        );
        let rest = as_written(game, Some(replay.reached));
        let text = format!("{why}. The record goes on as written: {rest}");
        match plies.last_mut() {
            Some(last) => last.comments.push(comment(text)),
            None => notes.push(text),
        }
    }
    let mut comments: Vec<Comment> = notes.into_iter().map(comment).collect();
    comments.extend(game.line.comments.iter().map(trimmed));
    // A set-up command that gave the start position is now the FEN tag.
    let mut setups = game.line.setups.clone();
    if game
        .hints
        .fen
        .as_ref()
        .is_some_and(|f| f.source == FenSource::Command)
        && let Some(k) = setups.iter().position(|s| s.fen.is_some())
    {
        setups.remove(k);
    }
    let line = Line {
        position: TextPosition::START,
        comments,
        setups,
        plies,
    };
    new_game(game, tags, line, result)
}

/// Writes moves, and the other readings of a line as variations.
struct MoveWriter<'a> {
    rules: &'a Rules,
    /// The notation the record was read in.
    read: Option<Notation>,
    /// The notation written.
    out: Notation,
    alternatives_left: usize,
    left_out: bool,
}

impl MoveWriter<'_> {
    /// The plies of the first reading of `originals` from `start` (as
    /// `replay` found it), each with its other readings as variations; with
    /// `annotate`, the original plies' comments, annotations and variations.
    fn reading(
        &mut self,
        originals: &[Ply],
        start: Position,
        replay: &Replay,
        annotate: bool,
        depth: usize,
    ) -> Vec<Ply> {
        let mut out = Vec::with_capacity(replay.reading.len());
        let mut position = start;
        for (k, step) in replay.reading.iter().enumerate() {
            let original = originals.get(k).filter(|_| annotate);
            let mut ply = self.ply(&position, &step.chosen, original);
            if let Some(original) = original {
                for variation in &original.variations {
                    ply.variations.push(self.variation(variation, position));
                }
            }
            for alternative in &step.alternatives {
                if self.alternatives_left == 0 || depth >= MAX_ALTERNATIVE_DEPTH {
                    self.left_out = true;
                    continue;
                }
                self.alternatives_left -= 1;
                let after = position.play(alternative);
                let rest = originals.get(k + 1..).unwrap_or_default();
                let sub = self.replay(rest, after);
                let mut plies = vec![self.ply(&position, alternative, None)];
                plies.extend(self.reading(rest, after, &sub, false, depth + 1));
                // Dama numbers may write both readings alike: name the move.
                let note = if self.out == Notation::Dama {
                    format!(
                        "another reading: {} in numeric notation",
                        alternative.full_numeric()
                    )
                } else {
                    "another reading".to_string()
                };
                ply.variations.push(Line {
                    comments: vec![comment(note)],
                    plies,
                    ..Line::default()
                });
            }
            out.push(ply);
            position = position.play(&step.chosen);
        }
        out
    }

    /// An original variation from the position before the ply it replaces:
    /// re-written as far as it replays (its first reading), the rest kept as
    /// written.
    fn variation(&mut self, line: &Line, before: Position) -> Line {
        let sub = self.replay(&line.plies, before);
        let mut comments = Vec::new();
        if let Some(n) = sub.interpretations.filter(|&n| n > 1) {
            comments.push(comment(format!(
                "this variation can be read {n} ways; the first reading is written"
            )));
        }
        comments.extend(line.comments.iter().map(trimmed));
        // Alternatives of a variation are not expanded: its first reading only.
        let saved = std::mem::replace(&mut self.alternatives_left, 0);
        let left_out = self.left_out;
        let mut plies = self.reading(&line.plies, before, &sub, true, MAX_ALTERNATIVE_DEPTH);
        self.alternatives_left = saved;
        self.left_out = left_out;
        plies.extend(line.plies.iter().skip(sub.reached).cloned());
        Line {
            position: TextPosition::START,
            comments,
            setups: line.setups.clone(),
            plies,
        }
    }

    /// Replays written plies from `start` in the record's notation.
    fn replay(&self, plies: &[Ply], start: Position) -> Replay {
        let tokens: Vec<Option<&MoveToken>> = plies.iter().map(Ply::move_token).collect();
        replay(
            self.rules,
            start,
            &written_moves(&tokens, self.read, self.rules),
        )
    }

    /// A ply for `mv` played from `before`, with the annotations of
    /// `original` when given.
    fn ply(&self, before: &Position, mv: &Move, original: Option<&Ply>) -> Ply {
        let legal = before.legal_moves(self.rules);
        let text = write_among(mv, &legal, self.out, self.rules);
        let token = match text.parse::<MoveToken>() {
            Ok(token) => PlyToken::Move(token),
            Err(err) => PlyToken::Invalid(err),
        };
        Ply {
            number: None,
            text: text.into(),
            token,
            position: TextPosition::START,
            nags: original.map(|p| p.nags.clone()).unwrap_or_default(),
            comments: original
                .map(|p| p.comments.iter().map(trimmed).collect())
                .unwrap_or_default(),
            setups: original.map(|p| p.setups.clone()).unwrap_or_default(),
            variations: ThinVec::new(),
        }
    }
}

/// A move in `notation`, start and end only unless another legal move is
/// written with the same start and end, then with its full route.
pub fn write_among(mv: &Move, legal: &[Move], notation: Notation, rules: &Rules) -> String {
    if notation != Notation::Dama {
        return write_move_among(mv, legal, notation, rules.geometry);
    }
    // A Dama number names two squares: moves share it more often.
    let ends = |m: &Move| (dama_number(m.from()), dama_number(m.to()));
    let shared = legal.iter().any(|o| o != mv && ends(o) == ends(mv));
    write_move(mv, notation, rules.geometry, shared)
}

/// A tag value as every output shows it: control characters (terminal
/// escapes, tabs, line breaks) removed, blanks trimmed and runs of them
/// made one space. The stored original is never changed.
pub fn clean_tag_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            // A terminal control sequence: ESC [ parameters final-byte.
            chars.next();
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else if c.is_whitespace() || c.is_control() {
            blank = true;
        } else {
            if blank && !out.is_empty() {
                out.push(' ');
            }
            blank = false;
            out.push(c);
        }
    }
    out
}

/// A result in its PDN form: `1-0`, `0-1`, `1/2-1/2`, `0-0` or `*`; `None`
/// for text that is not a result. Its meaning (who won) stays the variant's.
pub fn normalise_result(text: &str) -> Option<&'static str> {
    match text.trim() {
        "1-0" | "2-0" => Some("1-0"),
        "0-1" | "0-2" => Some("0-1"),
        "1-1" | "½-½" | "1/2-1/2" => Some("1/2-1/2"),
        "0-0" => Some("0-0"),
        // A lone `-` where the result stands: unknown, as `*`.
        "*" | "-" => Some("*"),
        _ => None,
    }
}

/// A date as `YYYY.MM.DD`, unknown parts `??` (`????.??.??` when nothing is
/// known). Reads `1987.05.03`, `1987-5-3`, `1987/05`, `1987`, `3.5.1987`,
/// `3 May 1987`, `May 3, 1987`; `None` for a date it cannot read.
pub fn normalise_date(text: &str) -> Option<String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Part {
        Year(Option<u32>),
        Number(Option<u32>),
        Month(u32),
    }
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let text = text.trim();
    let mut parts = Vec::new();
    for word in text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '?'))
        .filter(|w| !w.is_empty())
    {
        let digits = word.bytes().all(|b| b.is_ascii_digit());
        let unknown = word.bytes().all(|b| b == b'?');
        let part = match word.len() {
            4 if digits => Part::Year(word.parse().ok()),
            4 if unknown => Part::Year(None),
            1 | 2 if digits => Part::Number(word.parse().ok()),
            1 | 2 if unknown => Part::Number(None),
            3.. if word.bytes().all(|b| b.is_ascii_alphabetic()) => {
                let lower = word.to_ascii_lowercase();
                let k = MONTHS.iter().position(|m| lower.starts_with(m))?;
                Part::Month(k as u32 + 1)
            }
            _ => return None,
        };
        parts.push(part);
    }
    if parts.len() > 3 {
        return None;
    }
    if parts
        .iter()
        .all(|p| matches!(p, Part::Year(None) | Part::Number(None)))
    {
        return Some("????.??.??".to_string());
    }
    let year = |p: &Part| match p {
        Part::Year(y) => Some(*y),
        _ => None,
    };
    let number = |p: &Part| match p {
        Part::Number(n) => Some(*n),
        _ => None,
    };
    let month_name = parts.iter().find_map(|p| match p {
        Part::Month(m) => Some(*m),
        _ => None,
    });
    let years: Vec<Option<u32>> = parts.iter().filter_map(year).collect();
    let numbers: Vec<Option<u32>> = parts.iter().filter_map(number).collect();
    let (y, m, d) = match (years.as_slice(), month_name, numbers.as_slice()) {
        ([], None, []) => (None, None, None),
        ([y], Some(m), []) => (*y, Some(m), None),
        ([y], Some(m), [d]) => (*y, Some(m), *d),
        ([y], None, []) => (*y, None, None),
        ([y], None, [m]) => (*y, *m, None),
        ([y], None, [a, b]) if year(&parts[0]).is_some() => (*y, *a, *b),
        // Day first, unless the middle number cannot be a month.
        ([y], None, [a, b]) => match (a, b) {
            (Some(a), Some(b)) if *b > 12 && *a <= 12 => (*y, Some(*a), Some(*b)),
            _ => (*y, *b, *a),
        },
        _ => return None,
    };
    if m.is_some_and(|m| !(1..=12).contains(&m)) || d.is_some_and(|d| !(1..=31).contains(&d)) {
        return None;
    }
    let show = |v: Option<u32>, width: usize| match v {
        Some(v) => format!("{v:0width$}"),
        None => "?".repeat(width),
    };
    Some(format!("{}.{}.{}", show(y, 4), show(m, 2), show(d, 2)))
}

/// The roster tags of a game, normalised; the result for the terminator;
/// notes about what could not be normalised.
fn roster(game: &Game) -> (Vec<Tag>, String, Vec<String>) {
    let mut notes = Vec::new();
    let written_tag = game
        .standard_tag("Result")
        .map(str::trim)
        .filter(|r| !r.is_empty());
    let written_end = game.result.as_ref().map(|r| r.text.as_str());
    let from_tag = written_tag.and_then(normalise_result);
    let from_end = written_end.and_then(normalise_result);
    if let Some(raw) = written_tag
        && from_tag.is_none()
        && raw != "?"
    {
        notes.push(format!("the Result tag was \"{raw}\""));
    }
    if let (Some(t), Some(e), Some(raw)) = (from_tag, from_end, written_end)
        && t != e
    {
        notes.push(format!("the moves ended with the result {raw}"));
    }
    let result = from_tag.or(from_end).unwrap_or("*").to_string();
    let mut tags = Vec::with_capacity(ROSTER.len() + 4);
    for name in ROSTER {
        // Also from the tag's names in other languages (kept as written
        // among the other tags).
        let written = game
            .standard_tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty());
        let value = match name {
            "Result" => result.clone(),
            "Date" => match written {
                None => "????.??.??".to_string(),
                Some(date) => normalise_date(date).unwrap_or_else(|| date.to_string()),
            },
            // Names trimmed, runs of blanks inside made one space.
            _ => written.map_or_else(
                || "?".to_string(),
                |v| v.split_whitespace().collect::<Vec<_>>().join(" "),
            ),
        };
        tags.push(tag(name, &value));
    }
    (tags, result, notes)
}

/// The move text as written (from main-line ply `from`, 0-based, when
/// given), without the result, on one line, braces made parentheses so that
/// it can stand in a comment.
fn as_written(game: &Game, from: Option<usize>) -> String {
    let text = game.movetext.as_str();
    let from_ply = from.unwrap_or(0);
    let offset = match from.map(|k| game.plies().get(k)) {
        None => Some(0),
        Some(None) => None,
        Some(Some(ply)) => {
            usize::try_from(ply.position.byte.saturating_sub(game.movetext_start.byte))
                .ok()
                .filter(|&k| k <= text.len() && text.is_char_boundary(k))
        }
    };
    let mut rest = match offset {
        Some(k) => text[k..].trim_end(),
        // Positions that do not fit the text: the tokens instead.
        None => "",
    }
    .to_string();
    if offset.is_none() {
        rest = game
            .plies()
            .iter()
            .skip(from_ply)
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
    } else if let Some(result) = &game.result
        && rest.ends_with(result.text.as_str())
    {
        rest.truncate(rest.len() - result.text.len());
    }
    rest.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('{', "(")
        .replace('}', ")")
}

fn is_named(name: &str, names: &[&str]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(name.trim()))
}

fn tag(name: &str, value: &str) -> Tag {
    Tag {
        name: name.into(),
        value: value.into(),
        position: TextPosition::START,
    }
}

fn comment(text: String) -> Comment {
    Comment {
        text,
        kind: CommentKind::Brace,
        position: TextPosition::START,
    }
}

/// A comment without blanks at its ends.
fn trimmed(c: &Comment) -> Comment {
    Comment {
        text: c.text.trim().to_string(),
        ..c.clone()
    }
}

fn new_game(original: &Game, tags: Vec<Tag>, line: Line, result: String) -> Game {
    Game {
        index: original.index,
        start: TextPosition::START,
        tags,
        line,
        result: Some(GameResult {
            text: result,
            position: TextPosition::START,
        }),
        movetext: String::new(),
        movetext_start: TextPosition::START,
        encoding: original.encoding,
        hints: Default::default(),
        diagnostics: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::{Reader, game_to_string};
    use crate::replay::{Overrides, check_game};

    fn export(text: &str, options: &ExportOptions) -> Option<String> {
        let game = Reader::new(text.as_bytes()).next_game().unwrap().unwrap();
        let checked = check_game(&game, "t.pdn", &Overrides::default());
        export_game(&game, &checked, options).map(|g| game_to_string(&g))
    }

    #[test]
    fn dates() {
        let d = |s: &str| normalise_date(s);
        assert_eq!(d("1987.05.03").as_deref(), Some("1987.05.03"));
        assert_eq!(d("1987-5-3").as_deref(), Some("1987.05.03"));
        assert_eq!(d(" 1987/05 ").as_deref(), Some("1987.05.??"));
        assert_eq!(d("1987").as_deref(), Some("1987.??.??"));
        assert_eq!(d("1987.??.??").as_deref(), Some("1987.??.??"));
        assert_eq!(d("3.5.1987").as_deref(), Some("1987.05.03"));
        assert_eq!(d("5/23/1987").as_deref(), Some("1987.05.23"));
        assert_eq!(d("3 May 1987").as_deref(), Some("1987.05.03"));
        assert_eq!(d("May 3, 1987").as_deref(), Some("1987.05.03"));
        assert_eq!(d("?").as_deref(), Some("????.??.??"));
        assert_eq!(d("").as_deref(), Some("????.??.??"));
        assert_eq!(d("1987.13.01"), None);
        assert_eq!(d("last summer"), None);
        assert_eq!(d("87.5.3"), None);
    }

    #[test]
    fn results() {
        assert_eq!(normalise_result("2-0"), Some("1-0"));
        assert_eq!(normalise_result("0-2"), Some("0-1"));
        assert_eq!(normalise_result("1-1"), Some("1/2-1/2"));
        assert_eq!(normalise_result("½-½"), Some("1/2-1/2"));
        assert_eq!(normalise_result("0-0"), Some("0-0"));
        assert_eq!(normalise_result(" * "), Some("*"));
        assert_eq!(normalise_result("-"), Some("*"));
        assert_eq!(normalise_result("White wins"), None);
    }

    #[test]
    fn game_types() {
        let game_type = GameType::value_for;
        let f = Preset::Filipino.rules();
        let e = Preset::English.rules();
        assert_eq!(game_type(&f, Notation::Numeric), "26,W,8,8,N2,0");
        assert_eq!(game_type(&f, Notation::Dama), "26,W,8,8,N2,0");
        assert_eq!(game_type(&f, Notation::Vismin), "26,W,8,8,A0,0");
        assert_eq!(game_type(&f, Notation::Luzon), "26,W,8,8,A0,1");
        assert_eq!(game_type(&e, Notation::Numeric), "21,B,8,8,N1,0");
        assert_eq!(
            game_type(&Preset::Pool.rules(), Notation::Numeric),
            "23,B,8,8,N1,0"
        );
    }

    #[test]
    fn a_plain_game_is_rewritten_with_its_comments() {
        let out = export(
            "[White \" Ann \"]\n[Date \"1987-5-3\"]\n[Result \"2-0\"]\n[Opening \"x\"]\n\
             1.23-18 $1 {good} 10-15 (9-13 {other}) 2. 21x17 2-0",
            &ExportOptions::default(),
        )
        .unwrap();
        assert_eq!(
            out,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"1987.05.03\"]\n[Round \"?\"]\n[White \"Ann\"]\n\
             [Black \"?\"]\n[Result \"1-0\"]\n[GameType \"26,W,8,8,N2,0\"]\n\
             [Variant \"Filipino Dama\"]\n[Opening \"x\"]\n\n\
             1. 23-18 $1 {good} 1... 10-15 (1... 9-13 {other}) 2. 21-17 1-0\n\n"
        );
    }

    #[test]
    fn an_ambiguous_record_carries_its_other_readings() {
        // Dama 9-15 from W:WK29:B1 names 29-15 and 29-18.
        let out = export(
            "[FEN \"W:WK29:B1\"]\n[Notation \"Dama\"]\n1. 9-15 12-7 *",
            &ExportOptions {
                notation: Some(Notation::Numeric),
                ..ExportOptions::default()
            },
        )
        .unwrap();
        assert!(out.contains("[SetUp \"1\"]\n[FEN \"W:WK29:B1\"]"), "{out}");
        assert!(!out.contains("Notation"), "{out}");
        assert!(out.contains("read 2 ways"), "{out}");
        assert!(
            out.contains("1. 29-15 ({another reading} 1. 29-18 1-6) 1... 1-6 *"),
            "{out}"
        );
    }

    #[test]
    fn an_illegal_record_keeps_the_rest_in_a_comment() {
        let text = "1. 23-18 10-15 2. 18-13 {bad} 7-10 3. 22-17 *";
        let out = export(text, &ExportOptions::default())
            .unwrap()
            .replace('\n', " ");
        assert!(
            out.contains(
                "1. 23-18 10-15 {ply 3 (2.) 18-13 is illegal. The record goes on as written: \
                 18-13 (bad) 7-10 3. 22-17} *"
            ),
            "{out}"
        );
        let skip = ExportOptions {
            skip_broken: true,
            ..ExportOptions::default()
        };
        assert_eq!(export(text, &skip), None);
    }

    #[test]
    fn an_unsupported_record_keeps_its_tags_and_moves() {
        let text = "[GameType \"40\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2-0";
        let out = export(text, &ExportOptions::default())
            .unwrap()
            .replace('\n', " ");
        assert!(out.contains("[GameType \"40\"]"), "{out}");
        assert!(
            out.contains(
                "{unsupported: GameType \"40\" is Frisian draughts, a game pdndb does not play."
            ),
            "{out}"
        );
        assert!(
            out.contains("The moves as written: 1. 32-28 19-23} 1-0"),
            "{out}"
        );
    }

    /// Random legal games of every preset, written in every notation, come
    /// back from an export in every notation with the same moves.
    #[test]
    fn random_games_survive_export_in_every_notation() {
        use crate::generate::{GenerateOptions, generate};
        use crate::replay::Reading;
        let first_reading = |game: &Game| -> (Status, Vec<Move>) {
            let checked = check_game(game, "t.pdn", &Overrides::default());
            let moves = match &checked.reading {
                Reading::Replayed { replay, .. } => {
                    replay.reading.iter().map(|r| r.chosen).collect()
                }
                _ => Vec::new(),
            };
            (checked.record.status, moves)
        };
        let mut checked_games = 0;
        for preset in Preset::ALL {
            for written in Notation::ALL {
                if written == Notation::Dama && preset != Preset::Filipino {
                    continue; // generate writes Dama without a Notation tag
                }
                let options = GenerateOptions {
                    games: 3,
                    seed: 11,
                    rules: preset.rules(),
                    notation: written,
                };
                let mut text = Vec::new();
                generate(&options, &mut text).unwrap();
                for game in Reader::new(&text[..]).map(Result::unwrap) {
                    let (status, moves) = first_reading(&game);
                    assert_eq!(status, Status::Ok, "{preset:?} {written:?}");
                    let checked = check_game(&game, "t.pdn", &Overrides::default());
                    checked_games += 1;
                    for out in Notation::ALL {
                        let options = ExportOptions {
                            notation: Some(out),
                            ..ExportOptions::default()
                        };
                        let exported = export_game(&game, &checked, &options).unwrap();
                        let text = game_to_string(&exported);
                        let again = Reader::new(text.as_bytes()).next_game().unwrap().unwrap();
                        let (status_again, moves_again) = first_reading(&again);
                        if out == Notation::Dama && status_again == Status::Ambiguous {
                            assert_eq!(moves_again.len(), moves.len());
                            continue;
                        }
                        assert_eq!(status_again, Status::Ok, "{preset:?} {out:?}\n{text}");
                        assert_eq!(moves_again, moves, "{preset:?} {out:?}");
                    }
                }
            }
        }
        // Three notations per preset, and the Dama notation for Filipino.
        assert_eq!(checked_games, (Preset::ALL.len() * 3 + 1) * 3);
    }

    proptest::proptest! {
        /// Any text: exporting never panics, and what is written reads
        /// back as as many games.
        #[test]
        fn any_text_exports_and_reads_back(text in "[0-9x:. {}()\\[\\]\"*/?!$abcdhWBK,;%\n-]{0,160}") {
            let games: Vec<Game> = Reader::new(text.as_bytes()).map(Result::unwrap).collect();
            let mut written = 0;
            let mut out = String::new();
            for game in &games {
                let checked = check_game(game, "t.pdn", &Overrides::default());
                for notation in [None, Some(Notation::Dama)] {
                    let options = ExportOptions { notation, skip_broken: false };
                    let exported = export_game(game, &checked, &options).unwrap();
                    out.push_str(&game_to_string(&exported));
                    written += 1;
                }
            }
            proptest::prop_assert_eq!(Reader::new(out.as_bytes()).count(), written);
        }
    }

    #[test]
    fn clean_tag_values_lose_control_characters_and_extra_blanks() {
        assert_eq!(
            clean_tag_value("  Ann\u{1b}[1;31m  Lee\t\r\n\u{1b}[0m"),
            "Ann Lee"
        );
        assert_eq!(clean_tag_value("Jos\u{e9}  Cruz"), "Jos\u{e9} Cruz");
        assert_eq!(clean_tag_value("\u{7}\u{0}"), "");
    }
}
