//! Clean PDN 3.0 from games as read and replayed, honest about what they
//! are: every game reads back with the status, variant and plies it was
//! read with (and, when illegal, the same fault at the same ply).
//!
//! [`export_text`] turns one game, with what replay found in it, into PDN
//! text, and reads that text back to say whether it keeps its reading:
//!
//! * tags in the standard order (Event, Site, Date, Round, White, Black,
//!   Result), then `GameType` for the rules, notation and board (with
//!   `[Variant "Filipino Dama"]` for `filipino` and `[Notation "Dama"]` for
//!   the Dama notation), `SetUp` and `FEN` when the game does not start from
//!   the initial position, then the other original tags. Dates become
//!   `YYYY.MM.DD` (unknown parts `??`), results the PDN forms (`2-0` →
//!   `1-0`, `0-2` → `0-1`, `1-1` and `½-½` → `1/2-1/2`), names trimmed.
//!   Every tag value loses its control characters ([`clean_tag_value`]).
//! * Moves written afresh from the replayed moves, start and end only unless
//!   two legal moves share them; comments, annotations and variations kept
//!   where they stood (variations re-written as far as they replay;
//!   comments without blanks at their ends).
//! * An ambiguous record: its first reading as the main line, every other
//!   reading as a variation where it parts, and a comment with the count —
//!   when that reads back ambiguous where the record is; otherwise the moves
//!   before that ply written afresh and the rest as written.
//! * An illegal record: the moves up to the fault written afresh, then the
//!   rest as written (as moves), so that it reads back illegal at the same
//!   ply, with the same token. Where the chosen notation cannot keep that
//!   (the record's own tokens would mean other moves in it), the game is
//!   written in its own notation.
//! * An unreadable or unsupported record: its tags and its move text as
//!   written. With [`ExportOptions::skip_broken`] these and the illegal
//!   ones are left out instead.

use crate::notation::{MoveToken, Notation, dama_number, write_fen, write_move, write_move_among};
use crate::pdn::{
    AfterMove, Comment, CommentKind, FenSource, Game, GameResult, GameType, Line, MoveNumber, Ply,
    PlyToken, Position as TextPosition, Reader, Tag, game_to_string, guard_tag_lines,
    tags_to_string,
};
use crate::replay::{
    CheckRecord, CheckedGame, Overrides, Reading, Replay, Status, check_game, move_number, replay,
    written_moves,
};
use crate::rules::{Color, Move, Position, Preset, Rules};

/// Most variations written for the other readings of one ambiguous record;
/// past it a comment says that the rest are left out.
pub const MAX_ALTERNATIVES: usize = 64;

/// Deepest nesting of the variations written for other readings.
const MAX_ALTERNATIVE_DEPTH: usize = 32;

/// The comment that opens the variation of another reading.
const ANOTHER_READING: &str = "another reading";

/// How the note on an ambiguous record starts.
const READ_WAYS: &str = "This record can be read ";

/// How the note on an illegal record ends.
const AS_WRITTEN: &str = "From there the moves are as written.";

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
    /// How much of a capture's route is written.
    pub paths: Paths,
}

/// How much of a capture of several jumps is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Paths {
    /// Its whole route where the record wrote it whole (`26x17x10x1`),
    /// else start and end.
    #[default]
    Written,
    /// Start and end (`26x1`).
    Short,
    /// Its whole route, always.
    Full,
}

impl Paths {
    /// Every way, as `--paths` lists them.
    pub const ALL: [Paths; 3] = [Paths::Written, Paths::Short, Paths::Full];

    /// The name `--paths` takes.
    pub fn name(self) -> &'static str {
        match self {
            Paths::Written => "written",
            Paths::Short => "short",
            Paths::Full => "full",
        }
    }

    /// Whether `mv`, written in the record as `written`, is written with
    /// its whole route. Start and end only name it whatever this says
    /// when another legal move shares them.
    fn whole_route(self, mv: &Move, written: Option<&MoveToken>) -> bool {
        let jumps = mv.path().count();
        match self {
            Paths::Short => false,
            Paths::Full => mv.is_capture() && jumps > 1,
            // The replay took the token for this move: naming every
            // landing square, it is its complete route.
            Paths::Written => {
                jumps > 1 && written.is_some_and(|token| token.squares.len() == jumps + 1)
            }
        }
    }
}

/// Whether a game of this status is left out by `--skip-broken`.
pub fn is_broken(status: Status) -> bool {
    matches!(
        status,
        Status::Illegal | Status::Unreadable | Status::Unsupported
    )
}

/// One exported game and how its text reads back.
#[derive(Clone, Debug)]
pub struct Exported {
    /// The PDN text, ending with a blank line.
    pub text: String,
    /// The record of the text read back by itself, as an import of it
    /// reads it; `None` when the text holds no game.
    pub back: Option<CheckRecord>,
    /// Whether it reads back as the game was read ([`keeps_reading`]).
    pub kept: bool,
    /// Whether it is written in the game's own notation instead of the one
    /// asked for, in which it would not read back as it was read.
    pub own_notation: bool,
}

/// The PDN text for `game`, as `checked` read it, and how it reads back;
/// `None` when the options leave it out.
pub fn export_text(
    game: &Game,
    checked: &CheckedGame,
    options: &ExportOptions,
) -> Option<Exported> {
    let before = &checked.record;
    if options.skip_broken && is_broken(before.outcome.status) {
        return None;
    }
    let Reading::Replayed {
        rules,
        notation,
        start,
        replay,
        ..
    } = &checked.reading
    else {
        return Some(verified(as_written_text(game), before));
    };
    let mut read = ReadGame {
        rules,
        notation: *notation,
        plies: checked.plies(game),
        start,
        replay,
        message: before.outcome.message.as_deref(),
    };
    // The record's own notation, for tokens kept as written.
    let own = ExportOptions {
        notation: *notation,
        ..*options
    };
    let from = before
        .outcome
        .ply
        .map_or(replay.reached, |p| p.saturating_sub(1));
    let mut tries = match before.outcome.status {
        Status::Illegal => vec![(*options, Some(from)), (own, Some(from))],
        Status::Ambiguous => vec![
            (*options, None),
            (*options, Some(from)),
            (own, None),
            (own, Some(from)),
        ],
        _ => vec![(*options, None)],
    };
    tries.dedup();
    let asked = *options;
    let mut last = None;
    for (options, keep_from) in tries {
        let text = game_to_string(&export_replayed(game, &read, &options, keep_from));
        let mut exported = verified(text, before);
        exported.own_notation = options != asked;
        if exported.kept {
            // The note on the fault says what the text written says (its
            // kept tokens may be wrong in another way in another notation).
            let said = exported
                .back
                .as_ref()
                .and_then(|b| b.outcome.message.as_deref());
            if keep_from.is_some() && said.is_some() && said != read.message {
                read.message = said;
                let text = game_to_string(&export_replayed(game, &read, &options, keep_from));
                let mut again = verified(text, before);
                again.own_notation = options != asked;
                if again.kept {
                    return Some(again);
                }
            }
            return Some(exported);
        }
        last = Some(exported);
    }
    last
}

/// Whether `back`, the record of an exported game read back, keeps what
/// `before` found: the same status, variant and plies; for an illegal game
/// the same fault (ply and token: the same text, or the same move where
/// both are moves, as `00-0`, written so as not to read as a result, is
/// `0-0`), for an ambiguous one the same ply where the readings part.
pub fn keeps_reading(before: &CheckRecord, back: &CheckRecord) -> bool {
    let (before, back) = (&before.outcome, &back.outcome);
    let same = before.status == back.status
        && before.variant == back.variant
        && before.plies == back.plies;
    same && match before.status {
        Status::Illegal => before.ply == back.ply && same_token(&before.token, &back.token),
        Status::Ambiguous => before.ply == back.ply,
        _ => true,
    }
}

/// Whether two faulty tokens are the same text or the same move.
fn same_token(before: &Option<String>, back: &Option<String>) -> bool {
    match (before, back) {
        (Some(a), Some(b)) if a != b => {
            matches!((a.parse::<MoveToken>(), b.parse::<MoveToken>()), (Ok(x), Ok(y)) if x == y)
        }
        _ => before == back,
    }
}

/// How one exported game's text reads back by itself.
pub fn read_back(text: &str) -> Option<CheckRecord> {
    let game = Reader::new(text.as_bytes()).next_game().ok()??;
    let overrides = Overrides {
        skip_alternatives: true,
        ..Overrides::default()
    };
    Some(check_game(&game, "", &overrides).record)
}

fn verified(text: String, before: &CheckRecord) -> Exported {
    let back = read_back(&text);
    let kept = back.as_ref().is_some_and(|b| keeps_reading(before, b));
    Exported {
        text,
        back,
        kept,
        own_notation: false,
    }
}

/// A record that was not replayed (unreadable or unsupported) as written:
/// its tags (values cleaned) and its move text (no line of it starting
/// with `[`: [`guard_tag_lines`]), followed, when it has no result, by its
/// Result tag's in its PDN form (else `*`). A record without tags gets `[Event "?"]`: the text may end
/// inside a comment, which only a tag closes, and that tag must not be the
/// next game's.
fn as_written_text(game: &Game) -> String {
    let mut tags: Vec<Tag> = game.tags.iter().map(cleaned).collect();
    if tags.is_empty() {
        tags.push(tag("Event", "?"));
    }
    let mut out = tags_to_string(&tags);
    // A line that starts with `[` would start another game here; in the
    // record it did not (it stood in a comment as the framing read it).
    let mut moves = guard_tag_lines(game.movetext.trim_end());
    if moves.starts_with('%') && game.movetext_start.column > 1 {
        // Not an escape line where it stood; at the start of a line it
        // would be one.
        moves.insert(0, ' ');
    }
    let moves = moves.as_str();
    out.push_str(moves);
    if game.result.is_none() {
        let result = game
            .standard_tag("Result")
            .and_then(normalise_result)
            .unwrap_or("*");
        // On a line of its own: the text may end inside a comment.
        if !moves.is_empty() {
            out.push('\n');
        }
        out.push_str(result);
    }
    out.push_str("\n\n");
    out
}

/// What replay found in a game.
struct ReadGame<'a> {
    rules: &'a Rules,
    notation: Option<Notation>,
    /// The plies of the main line as read (a capture written one jump per
    /// move is one ply; squares named on the board the game was read on).
    plies: &'a [Ply],
    start: &'a Position,
    replay: &'a Replay,
    message: Option<&'a str>,
}

/// The clean game; with `keep_from`, the main line's plies from that one
/// (0-based) on are the record's own, as written.
fn export_replayed(
    game: &Game,
    read: &ReadGame<'_>,
    options: &ExportOptions,
    keep_from: Option<usize>,
) -> Game {
    let rules = read.rules;
    let asked = options.notation.or(read.notation);
    let out = asked
        .filter(|n| n.names_squares_of(rules.geometry))
        .unwrap_or(Notation::Numeric);
    let (tags, result, mut notes) = export_tags(game, read, asked, out);
    let mut writer = MoveWriter {
        rules,
        read: read.notation,
        out,
        paths: options.paths,
        alternatives_left: MAX_ALTERNATIVES,
        left_out: false,
    };
    let plies = export_plies(read, &mut writer, keep_from);
    replay_notes(read, keep_from, writer.left_out, &mut notes);
    let line = export_line(game, &notes, plies);
    new_game(game, tags, line, result)
}

/// The clean game's tags (the roster, then the tags replay decides, then
/// the record's other tags), its result, and the notes so far (`asked`:
/// the notation asked for; `out`: the one written).
fn export_tags(
    game: &Game,
    read: &ReadGame<'_>,
    asked: Option<Notation>,
    out: Notation,
) -> (Vec<Tag>, String, Vec<String>) {
    let rules = read.rules;
    let (mut tags, result, mut notes) = roster(game, rules.first);
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
    (tags, result, notes)
}

/// The main line's plies as written out (from `keep_from` on, as read),
/// the first numbered.
fn export_plies(
    read: &ReadGame<'_>,
    writer: &mut MoveWriter<'_>,
    keep_from: Option<usize>,
) -> Vec<Ply> {
    let rules = read.rules;
    let mut plies = writer.reading(read.plies, *read.start, read.replay, true, 0);
    if let Some(k) = keep_from {
        plies.truncate(k);
        plies.extend(read.plies.iter().skip(k).cloned());
    }
    if let Some(first) = plies.first_mut() {
        let (number, side) = move_number(rules, read.start.side(), 1);
        first.number = Some(MoveNumber {
            number: u32::try_from(number).unwrap_or(u32::MAX),
            ellipsis: side != rules.first,
        });
    }
    plies
}

/// Puts the notes on what replay found first: the readings (`left_out`:
/// some were not written) and where reading stopped.
fn replay_notes(
    read: &ReadGame<'_>,
    keep_from: Option<usize>,
    left_out: bool,
    notes: &mut Vec<String>,
) {
    let replay = read.replay;
    let at = replay
        .divergence
        .as_ref()
        .map_or(String::new(), |(ply, _)| format!(" (first at ply {ply})"));
    if let Some(n) = replay.interpretations.filter(|&n| n > 1) {
        let mut note = match keep_from {
            None => format!(
                "{READ_WAYS}{n} ways: the main line is the first reading; \
                 the other readings are given as variations where they part from it{at}."
            ),
            Some(k) => format!(
                "{READ_WAYS}{n} ways{at}: the moves from ply {} on are as written.",
                k + 1
            ),
        };
        if left_out && keep_from.is_none() {
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
        notes.insert(0, format!("{why}. {AS_WRITTEN}"));
    }
}

/// The main line: the notes, then the record's own comments (without the
/// notes of an earlier export), its set-up commands and `plies`.
fn export_line(game: &Game, notes: &[String], plies: Vec<Ply>) -> Line {
    let mut comments: Vec<Comment> = notes.iter().cloned().map(comment).collect();
    // The notes of an earlier export are written afresh, not kept.
    let earlier = |c: &Comment| {
        let words = c.text.split_whitespace().collect::<Vec<_>>().join(" ");
        words.ends_with(AS_WRITTEN) || words.starts_with(READ_WAYS)
    };
    comments.extend(
        game.line
            .comments
            .iter()
            .filter(|c| !earlier(c))
            .map(trimmed),
    );
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
    Line {
        position: TextPosition::START,
        comments,
        setups,
        plies,
    }
}

/// Writes moves, and the other readings of a line as variations.
struct MoveWriter<'a> {
    rules: &'a Rules,
    /// The notation the record was read in.
    read: Option<Notation>,
    /// The notation written.
    out: Notation,
    /// How much of a capture's route is written.
    paths: Paths,
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
            let written = originals.get(k).and_then(Ply::move_token);
            let original = originals.get(k).filter(|_| annotate);
            let mut ply = self.ply(&position, &step.chosen, written, original);
            if let Some(original) = original {
                // Other readings written by an earlier export are written
                // again below, not kept.
                let earlier = |v: &&Line| {
                    !step.alternatives.is_empty()
                        && v.comments
                            .first()
                            .is_some_and(|c| c.text.trim_start().starts_with(ANOTHER_READING))
                };
                for variation in original.variations().iter().filter(|v| !earlier(v)) {
                    let variation = self.variation(variation, position);
                    ply.after_mut().variations.push(variation);
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
                let mut plies = vec![self.ply(&position, alternative, None, None)];
                plies.extend(self.reading(rest, after, &sub, false, depth + 1));
                // Dama numbers may write both readings alike: name the move.
                let note = if self.out == Notation::Dama {
                    format!(
                        "{ANOTHER_READING}: {} in numeric notation",
                        alternative.full_numeric()
                    )
                } else {
                    ANOTHER_READING.to_string()
                };
                ply.after_mut().variations.push(Line {
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

    /// A ply for `mv` played from `before` (written `written` in the
    /// record), with the annotations of `original` when given.
    fn ply(
        &self,
        before: &Position,
        mv: &Move,
        written: Option<&MoveToken>,
        original: Option<&Ply>,
    ) -> Ply {
        let text = if self.paths.whole_route(mv, written) {
            write_move(mv, self.out, self.rules.geometry, true)
        } else {
            write_among(mv, &before.legal_moves(self.rules), self.out, self.rules)
        };
        let token = match text.parse::<MoveToken>() {
            Ok(token) => PlyToken::Move(token),
            Err(err) => PlyToken::Invalid(Box::new(err)),
        };
        let mut ply = Ply::made(&text, token);
        if let Some(original) = original {
            ply.set_after(AfterMove {
                nags: original.nags().to_vec(),
                comments: original.comments().iter().map(trimmed).collect(),
                setups: original.setups().to_vec(),
                variations: Vec::new(),
            });
        }
        ply
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
/// made one space, so that it holds nothing for
/// `escape::visible` to escape. The stored original is never
/// changed.
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
    let text = text.trim();
    if is_normal_date(text) {
        // Only the two separators can be `-` or `/`.
        return Some(text.replace(['-', '/'], "."));
    }
    read_date(text)
}

/// Whether `text` is a date as [`normalise_date`] writes it, but for its
/// separators (the commonest cases, which it gives back with dots):
/// `YYYY.MM.DD`, `YYYY-MM-DD` or `YYYY/MM/DD`, each part digits or all
/// `?`, a month 1 to 12 and a day 1 to 31.
fn is_normal_date(text: &str) -> bool {
    let b = text.as_bytes();
    let part = |range: std::ops::Range<usize>, valid: std::ops::RangeInclusive<u32>| {
        let digits = &b[range];
        if digits.iter().all(|&d| d == b'?') {
            return true;
        }
        digits.iter().all(u8::is_ascii_digit)
            && valid.contains(&digits.iter().fold(0, |v, &d| v * 10 + u32::from(d - b'0')))
    };
    b.len() == 10
        && matches!(b[4], b'.' | b'-' | b'/')
        && b[7] == b[4]
        && part(0..4, 0..=9999)
        && part(5..7, 1..=12)
        && part(8..10, 1..=31)
}

/// [`normalise_date`] of any text it reads.
fn read_date(text: &str) -> Option<String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Part {
        Year(Option<u32>),
        Number(Option<u32>),
        Month(u32),
    }
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
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

/// The roster tags of a game whose first side is `first`, normalised (the
/// players also from PlayStrategy's `P1` and `P2`: [`Game::player`]); the
/// result for the terminator; notes about what could not be normalised.
fn roster(game: &Game, first: Color) -> (Vec<Tag>, String, Vec<String>) {
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
        let written = match name {
            "White" => game.player(Color::White, first),
            "Black" => game.player(Color::Black, first),
            _ => game.standard_tag(name),
        };
        let written = written.map(str::trim).filter(|v| !v.is_empty());
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

/// A tag with its value cleaned ([`clean_tag_value`]).
fn cleaned(t: &Tag) -> Tag {
    Tag {
        value: clean_tag_value(&t.value).into(),
        ..t.clone()
    }
}

fn new_game(original: &Game, tags: Vec<Tag>, line: Line, result: String) -> Game {
    Game {
        index: original.index,
        start: TextPosition::START,
        tags: tags.iter().map(cleaned).collect(),
        line,
        result: Some(GameResult {
            text: result,
            position: TextPosition::START,
        }),
        // The plies kept as written (after a fault, in variations) have
        // their text there.
        movetext: original.movetext.clone(),
        movetext_start: TextPosition::START,
        movetext_map: Default::default(),
        encoding: original.encoding,
        hints: Default::default(),
        diagnostics: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::Reader;
    use crate::replay::{Overrides, check_game};

    fn export(text: &str, options: &ExportOptions) -> Option<String> {
        let game = Reader::new(text.as_bytes()).next_game().unwrap().unwrap();
        let checked = check_game(&game, "t.pdn", &Overrides::default());
        export_text(&game, &checked, options).map(|e| e.text)
    }

    #[test]
    fn playstrategys_english_is_written_on_pdndbs_board_with_its_players() {
        // 9-14 23-19 6-9 26-23 2-6 19-16 12x19x26 30x23 as PlayStrategy
        // writes it: P1 is Black, the board turned, a double jump split.
        let text = "[P1 \"Ann\"]\n[P2 \"Bob\"]\n[Variant \"American/English\"]\n\
                    1. g3-f4 d6-c5 2. f2-g3 e7-d6 3. e1-f2 c5-b4 4. a3xc5 {one} c5xe7 {two} \
                    5. f8xd6 1-0\n";
        let out = export(text, &ExportOptions::default()).unwrap();
        assert!(out.contains("[White \"Bob\"]\n[Black \"Ann\"]"), "{out}");
        assert!(out.contains("[GameType \"21,B,8,8,A0,0\"]"), "{out}");
        assert!(out.contains("[P1 \"Ann\"]"), "{out}");
        // 12x19x26 as one move, its route as written, with both comments.
        assert!(out.contains("4. h6xf4xd2 {one} {two} 4... c1xe3"), "{out}");
        let numeric = ExportOptions {
            notation: Some(Notation::Numeric),
            ..ExportOptions::default()
        };
        let out = export(text, &numeric).unwrap();
        assert!(
            out.contains("1. 9-14 23-19 2. 6-9 26-23 3. 2-6 19-16 4. 12x19x26"),
            "{out}"
        );
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

    /// Four digits without a joiner are written back as they were read,
    /// not as `1-1`, which reads as a result once zero-padded.
    #[test]
    fn a_move_written_without_a_joiner_reads_back_the_same() {
        let game = Reader::new(&b"1. 0101? *\n"[..])
            .next_game()
            .unwrap()
            .unwrap();
        let checked = check_game(&game, "t.pdn", &Overrides::default());
        let exported = export_text(&game, &checked, &ExportOptions::default()).unwrap();
        assert!(exported.kept, "{}", exported.text);
        assert!(exported.text.contains("1. 0101?"), "{}", exported.text);
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
            &ExportOptions::default(),
        )
        .unwrap();
        assert!(out.contains("[SetUp \"1\"]\n[FEN \"W:WK29:B1\"]"), "{out}");
        assert!(out.contains("[Notation \"Dama\"]"), "{out}");
        assert!(out.contains("read 2 ways"), "{out}");
        assert!(
            out.contains(
                "1. 9-15 ({another reading: 29-18 in numeric notation} 1. 9-15 12-7) \
                 1... 12-7 *"
            ),
            "{out}"
        );
        assert_eq!(
            fault(&out),
            (Status::Ambiguous, Some(1), Some("9-15".into()))
        );
        // Exported again: the same text, the other reading not doubled.
        assert_eq!(export(&out, &ExportOptions::default()).unwrap(), out);
    }

    /// The status, ply and token of a text read back.
    fn fault(text: &str) -> (Status, Option<usize>, Option<String>) {
        let back = read_back(text).unwrap();
        (back.outcome.status, back.outcome.ply, back.outcome.token)
    }

    #[test]
    fn an_illegal_record_keeps_the_rest_as_moves() {
        let text = "1. 23-18 10-15 2. 18-13 {bad} 7-10 3. 22-17 *";
        let out = export(text, &ExportOptions::default()).unwrap();
        assert!(
            out.replace('\n', " ").contains(
                "{ply 3 (2.) 18-13 is illegal. From there the moves are as written.} \
                 1. 23-18 10-15 2. 18-13 {bad} 2... 7-10 3. 22-17 *"
            ),
            "{out}"
        );
        assert_eq!(
            fault(&out),
            (Status::Illegal, Some(3), Some("18-13".to_string()))
        );
        // Exported again: the same text.
        assert_eq!(export(&out, &ExportOptions::default()).unwrap(), out);
        let skip = ExportOptions {
            skip_broken: true,
            ..ExportOptions::default()
        };
        assert_eq!(export(text, &skip), None);
    }

    #[test]
    fn the_faulty_token_keeps_its_form() {
        // `d4:f6` is illegal; written afresh it would be `d4xf6`.
        let text = "1. e3-d4 d6-c5 2. d4:f6 g7:e5 *";
        for notation in [None, Some(Notation::Numeric), Some(Notation::Luzon)] {
            let options = ExportOptions {
                notation,
                ..ExportOptions::default()
            };
            let out = export(text, &options).unwrap();
            assert!(out.contains("2. d4:f6 g7:e5 *"), "{out}");
            assert_eq!(
                fault(&out),
                (Status::Illegal, Some(3), Some("d4:f6".to_string())),
                "{out}"
            );
        }
    }

    #[test]
    fn an_illegal_record_keeps_its_own_notation_where_another_would_read_it() {
        // `22-18` is no Dama move (22 is not a Dama number), but in numbers
        // it is the first move of the game.
        let text = "[Notation \"Dama\"]\n1. 22-18 *";
        let numeric = ExportOptions {
            notation: Some(Notation::Numeric),
            ..ExportOptions::default()
        };
        let out = export(text, &numeric).unwrap();
        assert!(out.contains("[Notation \"Dama\"]"), "{out}");
        assert_eq!(
            fault(&out),
            (Status::Illegal, Some(1), Some("22-18".to_string()))
        );
    }

    #[test]
    fn an_ambiguous_record_reads_back_ambiguous_in_numbers() {
        // Dama 9-15 from W:WK29:B1 names 29-15 and 29-18.
        let text = "[FEN \"W:WK29:B1\"]\n[Notation \"Dama\"]\n1. 9-15 12-7 *";
        let numeric = ExportOptions {
            notation: Some(Notation::Numeric),
            ..ExportOptions::default()
        };
        let out = export(text, &numeric).unwrap();
        // Its first reading in numbers would read one way: the ambiguous
        // move and the rest are as written.
        assert!(out.contains("1. 9-15 12-7 *"), "{out}");
        assert_eq!(
            fault(&out),
            (Status::Ambiguous, Some(1), Some("9-15".into()))
        );
        assert!(out.contains("read 2 ways"), "{out}");
    }

    #[test]
    fn an_unsupported_record_is_written_as_it_was() {
        let text = "[GameType \"30\"]\n[Result \"2-0\"]\n1. 32-28 {a  b} 19-23 2-0";
        let out = export(text, &ExportOptions::default()).unwrap();
        assert_eq!(
            out,
            "[GameType \"30\"]\n[Result \"2-0\"]\n\n1. 32-28 {a  b} 19-23 2-0\n\n"
        );
        assert_eq!(fault(&out).0, Status::Unsupported);
    }

    #[test]
    fn an_unreadable_record_is_written_as_it_was() {
        let text = "[White \"a\u{1b}[31mb\"]\n[FEN \"W:W5:B5\"]\n1. 1-5";
        let out = export(text, &ExportOptions::default()).unwrap();
        assert_eq!(out, "[White \"ab\"]\n[FEN \"W:W5:B5\"]\n\n1. 1-5\n*\n\n");
        assert_eq!(fault(&out).0, Status::Unreadable);
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
            (checked.record.outcome.status, moves)
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
                        let text = export_text(&game, &checked, &options).unwrap().text;
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

    #[test]
    fn a_date_in_the_normal_form_or_with_dashes_or_slashes_reads_as_the_general_reader_reads_it() {
        let parts = |width: usize| {
            (0..10u32.pow(width as u32))
                .map(move |v| format!("{v:0width$}"))
                .chain(std::iter::once("?".repeat(width)))
        };
        for year in ["0000", "1987", "????"] {
            for month in parts(2) {
                for day in parts(2) {
                    for (a, b) in [('.', '.'), ('-', '-'), ('/', '/'), ('-', '.'), ('.', '/')] {
                        for text in [
                            format!("{year}{a}{month}{b}{day}"),
                            format!(" {year}{a}{month}{b}{day} "),
                        ] {
                            assert_eq!(normalise_date(&text), read_date(&text), "{text}");
                        }
                    }
                }
            }
        }
    }

    /// What goes wrong when the games read from `text` are exported (in
    /// their own notation and in Dama notation) and read back: a game that
    /// does not keep its reading, or another count of games.
    fn round_trip_fault(text: &str) -> Option<String> {
        let games: Vec<Game> = Reader::new(text.as_bytes()).map(Result::unwrap).collect();
        let mut written = 0;
        let mut out = String::new();
        for game in &games {
            let checked = check_game(game, "t.pdn", &Overrides::default());
            for notation in [None, Some(Notation::Dama)] {
                let options = ExportOptions {
                    notation,
                    ..ExportOptions::default()
                };
                let exported = export_text(game, &checked, &options).unwrap();
                if notation.is_none() && !exported.kept {
                    return Some(format!(
                        "not kept: {:?}\n{}\n{:?}",
                        checked.record, exported.text, exported.back
                    ));
                }
                out.push_str(&exported.text);
                written += 1;
            }
        }
        let back = Reader::new(out.as_bytes()).count();
        (back != written).then(|| format!("{written} games written, {back} read back:\n{out}"))
    }

    #[test]
    fn broken_records_keep_their_reading_and_their_count() {
        for text in [
            // Unreadable; a line of its move text starts with `[`.
            "{{}[{{\n,\n[a\"{",
            "{{}[]h\n[x\"{",
            // Unreadable; its move text starts with `%` after a blank.
            ",(\n[\n %{",
            // Unreadable; its move text starts with an escape line.
            "[\n%{\n(}*\nW{",
            // Unreadable; words at the end of a line before an escape line.
            "]\n[\n: \n%{\n*{",
            // Illegal; its tokens as written would read as one move
            // (`0 x0`, `0x 0K`) on one line.
            "{00?(0a}0}x0(",
            "x\n[\nB\n!0x\n0K",
            // Illegal at a move written with a blank in it (`0x 0`).
            "\n0x 0?",
            // Illegal at a move written as a result would be (`0-0`).
            "B\n0-0*",
            // Illegal at an unknown move written `--`.
            "K\n{},{}--[",
        ] {
            assert_eq!(round_trip_fault(text), None, "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_exports_and_reads_back(text in "[0-9x:. {}()\\[\\]\"*/?!$abcdhWBK,;%\n-]{0,160}") {
            let fault = round_trip_fault(&text);
            proptest::prop_assert!(fault.is_none(), "{}", fault.unwrap_or_default());
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
