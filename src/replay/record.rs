//! The per-game record of `check` and `report`: status, where readings stop
//! or part, and a message for people.

use serde::{Deserialize, Serialize};

use super::detect::{Reading, VariantFrom};
use super::interpret::Limit;
use crate::message::{AgainstTag, RecordMessage};
use crate::notation::{Notation, write_fen};
use crate::pdn::{Game, Ply};
use crate::rules::{Color, Move, Rules};

/// The status of a record (DESIGN §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every move read, one reading.
    Ok,
    /// Every move read, several readings (or replay stopped at its limit).
    Ambiguous,
    /// Some move fits no reading.
    Illegal,
    /// Text or set-up that cannot be used.
    Unreadable,
    /// A variant the engine does not play.
    Unsupported,
}

impl Status {
    /// The status name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Ambiguous => "ambiguous",
            Status::Illegal => "illegal",
            Status::Unreadable => "unreadable",
            Status::Unsupported => "unsupported",
        }
    }

    /// Every status, in report order.
    pub const ALL: [Status; 5] = [
        Status::Ok,
        Status::Ambiguous,
        Status::Illegal,
        Status::Unreadable,
        Status::Unsupported,
    ];
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A status name that is none of [`Status::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown status `{0}` (expected ok, ambiguous, illegal, unreadable or unsupported)")]
pub struct UnknownStatus(pub String);

impl std::str::FromStr for Status {
    type Err = UnknownStatus;

    /// A status by name, without regard to case or surrounding spaces.
    fn from_str(s: &str) -> Result<Status, UnknownStatus> {
        Status::ALL
            .into_iter()
            .find(|st| st.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| UnknownStatus(s.to_string()))
    }
}

/// A ply where several moves fitted and one survived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedRecord {
    /// The ply (1-based).
    pub ply: usize,
    /// The move as written.
    pub token: String,
    /// Every fitting move, canonical numeric full paths, sorted.
    pub candidates: Vec<String>,
}

/// Where a record came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSource {
    /// The file as given.
    pub file: String,
    /// 1-based game index in the file.
    pub index: usize,
    /// Line of the game's first tag (or first move), 1-based.
    pub line: u64,
    /// The original tags, names as written (first of duplicates kept).
    pub tags: serde_json::Map<String, serde_json::Value>,
}

/// One game's record: the JSON object of `check --json` (DESIGN §6), its
/// source first, then what reading it found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// Where the game came from.
    #[serde(flatten)]
    pub source: RecordSource,
    /// What reading it found: the part the store keeps.
    #[serde(flatten)]
    pub outcome: RecordBody,
}

/// What reading a game found: every field of its record but the source.
///
/// The store keeps it as JSON (whose fields may come in another order)
/// and reads it back with serde; records of databases written before
/// `variant_from` and `reads_ok_under` existed lack those, and read back
/// with `None` and an empty list. Names that are none of their type's
/// fail to read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordBody {
    /// Preset name plus non-default switches; `international` or `unknown`.
    pub variant: String,
    /// The notation the moves were read in.
    #[serde(default, serialize_with = "name_or_null", deserialize_with = "by_name")]
    pub notation: Option<Notation>,
    /// The status.
    pub status: Status,
    /// Moves in the main line: its move tokens, a capture written one jump
    /// per token counting once.
    pub plies: Option<usize>,
    /// Longest prefix some reading covers.
    pub reached: Option<usize>,
    /// Readings covering `reached` moves.
    pub interpretations: Option<u64>,
    /// Where readings part (ambiguous) or stop (illegal).
    pub ply: Option<usize>,
    /// The move number of `ply`, counted from the first side's moves.
    pub move_number: Option<usize>,
    /// Who plays `ply`: `white` or `black`.
    #[serde(default, serialize_with = "name_or_null", deserialize_with = "by_name")]
    pub side: Option<Color>,
    /// The move of `ply` as written.
    pub token: Option<String>,
    /// Canonical FEN of the position before `ply`, when certain.
    pub fen: Option<String>,
    /// The moves readings take at `ply` (ambiguous).
    pub candidates: Vec<String>,
    /// Resolved ambiguities.
    pub resolved: Vec<ResolvedRecord>,
    /// A line for people; `None` when ok.
    pub message: Option<String>,
    /// The same as a code and its parts, for front ends that word it in
    /// another language (`None` when ok, and in records stored before
    /// messages had codes).
    #[serde(default)]
    pub message_key: Option<RecordMessage>,
    /// Where the rules came from: `forced`, `tag`, `inferred`, `default`
    /// (`None` in a stored record of a game stored before rules were
    /// inferred, until `recheck`).
    #[serde(default)]
    pub variant_from: Option<VariantFrom>,
    /// For a game that is not `ok`: the presets and switch settings under
    /// which it reads `ok`.
    #[serde(default)]
    pub reads_ok_under: Vec<String>,
}

impl RecordBody {
    /// Sets the record's message: its text and its code.
    pub fn say(&mut self, message: RecordMessage) {
        self.message = Some(message.to_string());
        self.message_key = Some(message);
    }

    /// The record of an `ok` game of `plies` plies without resolved
    /// ambiguities (what the store's columns say of a game that keeps no
    /// record).
    pub fn ok(variant: String, notation: Option<Notation>, plies: Option<usize>) -> RecordBody {
        RecordBody {
            variant,
            notation,
            status: Status::Ok,
            plies,
            reached: plies,
            interpretations: Some(1),
            ply: None,
            move_number: None,
            side: None,
            token: None,
            fen: None,
            candidates: Vec::new(),
            resolved: Vec::new(),
            message: None,
            message_key: None,
            variant_from: None,
            reads_ok_under: Vec::new(),
        }
    }
}

/// A value written in records by one of a few names.
trait Named: Copy + Sized + 'static {
    /// What the names name, for errors.
    const WHAT: &'static str;
    /// Every value.
    const ALL: &'static [Self];
    /// The value's name.
    fn name(self) -> &'static str;
}

impl Named for Notation {
    const WHAT: &'static str = "notation";
    const ALL: &'static [Notation] = &Notation::ALL;
    fn name(self) -> &'static str {
        Notation::name(self)
    }
}

impl Named for Color {
    const WHAT: &'static str = "side";
    const ALL: &'static [Color] = &[Color::White, Color::Black];
    fn name(self) -> &'static str {
        Color::name(self)
    }
}

/// Serde of an optional [`Named`] value: its name, or null.
fn name_or_null<T: Named, S: serde::Serializer>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.serialize_some(v.name()),
        None => s.serialize_none(),
    }
}

/// Serde of an optional [`Named`] value: the value of exactly its name,
/// an unknown name an error; null reads as `None`.
fn by_name<'de, T: Named, D: serde::Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
    use serde::de::Error as _;
    let Some(name) = Option::<String>::deserialize(d)? else {
        return Ok(None);
    };
    T::ALL
        .iter()
        .copied()
        .find(|v| v.name() == name)
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("unknown {} `{name}`", T::WHAT)))
}

impl CheckRecord {
    /// Builds the record of `game` from how it was read; `plies` are the
    /// plies of its main line as read (see [`super::CheckedGame::plies`]).
    pub fn build(
        source: RecordSource,
        plies: &[Ply],
        game: &Game,
        reading: &Reading,
    ) -> CheckRecord {
        let mut record = CheckRecord::begun(source, plies.len(), reading.variant_from());
        let (rules, notation, start, replay, other_rules) = match reading {
            Reading::Unsupported {
                variant, message, ..
            } => {
                record.outcome.variant = variant.to_string();
                record.outcome.status = Status::Unsupported;
                record.outcome.say(message.clone());
                return record;
            }
            Reading::Unreadable { rules, message, .. } => {
                record.outcome.variant = rules.map_or_else(|| "unknown".to_string(), |r| r.name());
                record.outcome.status = Status::Unreadable;
                record.outcome.plies = None;
                record.outcome.say(message.clone());
                return record;
            }
            Reading::Replayed {
                rules,
                notation,
                start,
                replay,
                reads_ok_under,
                ..
            } => (rules, notation, start, replay, reads_ok_under),
        };
        let read = Read {
            plies,
            game,
            rules,
            start_side: start.side(),
            replay,
        };
        record.outcome.reads_ok_under = other_rules.iter().map(Rules::name).collect();
        record.outcome.variant = rules.name();
        record.outcome.notation = *notation;
        record.outcome.reached = Some(replay.reached);
        record.outcome.interpretations = replay.interpretations;
        record.outcome.resolved = replay
            .resolved
            .iter()
            .map(|r| ResolvedRecord {
                ply: r.ply,
                token: read.token(r.ply).unwrap_or_default(),
                candidates: names(&r.candidates),
            })
            .collect();
        if let Some(limit) = replay.limit {
            read.past_the_limit(&mut record.outcome, limit);
        } else if replay.reached < replay.plies {
            let contradiction = (reading.variant_from() == VariantFrom::Tag)
                .then(|| tag_contradicted(rules, other_rules))
                .flatten();
            read.illegal(&mut record.outcome, *notation, contradiction);
        } else {
            read.ambiguous(&mut record.outcome);
        }
        record
    }

    /// The record of an `ok` game of `plies` plies, before its reading
    /// says more.
    fn begun(source: RecordSource, plies: usize, variant_from: VariantFrom) -> CheckRecord {
        let mut outcome = RecordBody::ok(String::new(), None, Some(plies));
        outcome.reached = None;
        outcome.interpretations = None;
        outcome.variant_from = Some(variant_from);
        CheckRecord { source, outcome }
    }
}

/// A replayed game, as its record is built.
struct Read<'a> {
    /// The plies of its main line as read.
    plies: &'a [Ply],
    /// The game.
    game: &'a Game,
    /// The rules it was read by.
    rules: &'a Rules,
    /// Who moves at its start.
    start_side: Color,
    /// What replay found.
    replay: &'a super::interpret::Replay,
}

impl Read<'_> {
    /// The move of `ply` (1-based) as written.
    fn token(&self, ply: usize) -> Option<String> {
        self.plies
            .get(ply - 1)
            .map(|p| self.game.ply_text(p).to_string())
    }

    /// Sets where the record's readings part or stop: at `ply`.
    fn set_ply(&self, record: &mut RecordBody, ply: usize) {
        let (number, side) = move_number(self.rules, self.start_side, ply);
        record.ply = Some(ply);
        record.move_number = Some(number);
        record.side = Some(side);
        record.token = self.token(ply);
        record.fen = self
            .replay
            .certain_at(ply - 1)
            .map(|c| write_fen(&c.position));
    }

    /// Readings multiplied past the replay's `limit`: ambiguous.
    fn past_the_limit(&self, record: &mut RecordBody, limit: Limit) {
        let replay = self.replay;
        record.status = Status::Ambiguous;
        if let Some((ply, moves)) = &replay.divergence {
            self.set_ply(record, *ply);
            record.candidates = names(moves);
        }
        let (ply, reached) = (replay.reached + 1, replay.reached);
        record.say(match limit {
            Limit::PositionsPerPly => RecordMessage::TooManyPositions {
                most: super::interpret::MAX_POSITIONS_PER_PLY,
                ply,
                reached,
            },
            Limit::Tracked => RecordMessage::TooManyTracked {
                most: super::interpret::MAX_TRACKED,
                ply,
                reached,
            },
        });
    }

    /// No reading goes on past `reached`: illegal; `contradiction` is
    /// what to add when the tags name rules on another board.
    fn illegal(
        &self,
        record: &mut RecordBody,
        notation: Option<Notation>,
        contradiction: Option<AgainstTag>,
    ) {
        record.status = Status::Illegal;
        let ply = self.replay.reached + 1;
        self.set_ply(record, ply);
        let token = self
            .plies
            .get(ply - 1)
            .map_or("", |p| self.game.ply_text(p));
        let written = self.plies.get(ply - 1).and_then(Ply::move_token);
        record.say(why_illegal(
            ply_label(self.rules, self.start_side, ply),
            token,
            written,
            notation,
            self.rules,
            contradiction,
        ));
    }

    /// Every move read: ambiguous when several complete readings part.
    fn ambiguous(&self, record: &mut RecordBody) {
        let replay = self.replay;
        if let (Some(n), Some((ply, moves))) = (replay.interpretations, &replay.divergence)
            && n > 1
        {
            record.status = Status::Ambiguous;
            self.set_ply(record, *ply);
            record.candidates = names(moves);
            let label = ply_label(self.rules, self.start_side, *ply);
            record.say(RecordMessage::Ambiguous {
                ply: label,
                token: record.token.clone().unwrap_or_default(),
                moves: moves.len(),
                candidates: record.candidates.join(", "),
                readings: n,
            });
        }
    }
}

/// Why `token`, the written move (when it reads as one) at `ply` (its
/// label) where no reading goes on, is not a move there; `tag`, what the
/// tags say that the moves contradict.
fn why_illegal(
    ply: String,
    token: &str,
    written: Option<&crate::notation::MoveToken>,
    notation: Option<Notation>,
    rules: &Rules,
    tag: Option<AgainstTag>,
) -> RecordMessage {
    let token = token.to_string();
    match (written, notation) {
        (None, _) if is_unknown_move(&token) => RecordMessage::UnknownMove { ply, token, tag },
        (None, _) => RecordMessage::NotAMove { ply, token, tag },
        (Some(t), Some(n)) if t.square_sets(n, rules.geometry).is_err() => {
            RecordMessage::NoSuchSquare {
                ply,
                token,
                notation: n.to_string(),
                tag,
            }
        }
        _ => RecordMessage::IllegalMove { ply, token, tag },
    }
}

/// When the rules a record's tags name are on another board than those
/// under which it reads ok (`others`): what to add to its message, as
/// `; the tag says international, but the moves are on 8×8 and read ok as
/// russian`.
fn tag_contradicted(tagged: &Rules, others: &[Rules]) -> Option<AgainstTag> {
    let board = |r: &Rules| (r.geometry.width(), r.geometry.height());
    let elsewhere: Vec<&Rules> = others
        .iter()
        .filter(|r| board(r) != board(tagged))
        .collect();
    let (width, height) = board(elsewhere.first()?);
    let names: Vec<String> = elsewhere.iter().map(|r| r.name()).collect();
    Some(AgainstTag {
        tag: tagged.preset.name().to_string(),
        board: format!("{width}×{height}"),
        read_ok_as: names.join(", "),
    })
}

/// Whether a written move stands for an unknown move (`- -`).
fn is_unknown_move(token: &str) -> bool {
    token.chars().all(|c| c == '-' || c.is_whitespace()) && token.contains('-')
}

/// Canonical numeric full paths, sorted as strings.
fn names(moves: &[Move]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(Move::full_numeric).collect();
    names.sort();
    names
}

/// The move number and mover of a ply: 1 at ply 1, plus 1 before each move
/// of the rules' first side.
pub fn move_number(rules: &Rules, start_side: Color, ply: usize) -> (usize, Color) {
    let mover = if ply % 2 == 1 {
        start_side
    } else {
        start_side.opponent()
    };
    let first_side_moves_after_first = if start_side == rules.first {
        (ply - 1) / 2
    } else {
        ply / 2
    };
    (1 + first_side_moves_after_first, mover)
}

/// `16.` or `16. …` for a ply, as a person would write it.
pub fn ply_label(rules: &Rules, start_side: Color, ply: usize) -> String {
    let (number, side) = move_number(rules, start_side, ply);
    if side == rules.first {
        format!("{ply} ({number}.)")
    } else {
        format!("{ply} ({number}. …)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn statuses_read_back_by_name_and_others_are_refused() {
        for status in Status::ALL {
            assert_eq!(status.to_string().parse::<Status>(), Ok(status));
        }
        assert_eq!(" Illegal".parse::<Status>(), Ok(Status::Illegal));
        let err = "fine".parse::<Status>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown status `fine` (expected ok, ambiguous, illegal, unreadable or unsupported)"
        );
    }

    #[test]
    fn move_numbers_count_the_first_sides_moves() {
        let f = Rules::default();
        assert_eq!(move_number(&f, Color::White, 1), (1, Color::White));
        assert_eq!(move_number(&f, Color::White, 2), (1, Color::Black));
        assert_eq!(move_number(&f, Color::White, 3), (2, Color::White));
        assert_eq!(move_number(&f, Color::White, 70), (35, Color::Black));
        // A set-up with Black to move in a White-first game.
        assert_eq!(move_number(&f, Color::Black, 1), (1, Color::Black));
        assert_eq!(move_number(&f, Color::Black, 2), (2, Color::White));
        assert_eq!(move_number(&f, Color::Black, 3), (2, Color::Black));
        let e = Preset::English.rules();
        assert_eq!(move_number(&e, Color::Black, 2), (1, Color::White));
        assert_eq!(ply_label(&f, Color::White, 32), "32 (16. …)");
        assert_eq!(ply_label(&f, Color::White, 31), "31 (16.)");
    }
}
