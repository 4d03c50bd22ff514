//! Messages for people, each a stable code and its parts beside the
//! English text made from them, so that a front end can word them in
//! another language: [`RecordMessage`] (what a check record says of a
//! game) and [`RequestMessage`] (why a request or a value given cannot be
//! used). Both are written to JSON as `{"code": "…", "parts": {…}}`, the
//! code in snake case, the parts named as the fields below; the English
//! text is their `Display`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What a check record says of a game that is not `ok`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum RecordMessage {
    /// `ply 5 (3.) 12-16 is illegal`: no reading goes on at this move.
    IllegalMove {
        /// The ply and its move number, as `5 (3.)` or `6 (3. …)`.
        ply: String,
        /// The move as written.
        token: String,
        /// What the tags say that the moves contradict, if anything.
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// `ply 5 (3.) 12/16 is not a move`.
    NotAMove {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The text where a move was expected.
        token: String,
        /// As [`RecordMessage::IllegalMove`].
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// `ply 5 (3.) - - is an unknown move`.
    UnknownMove {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The move as written.
        token: String,
        /// As [`RecordMessage::IllegalMove`].
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// `ply 5 (3.) 33-29 names a square that numeric notation does not
    /// have`.
    NoSuchSquare {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The move as written.
        token: String,
        /// The notation's name.
        notation: String,
        /// As [`RecordMessage::IllegalMove`].
        #[serde(flatten)]
        tag: Option<AgainstTag>,
    },
    /// Several moves lead to complete readings at one ply.
    Ambiguous {
        /// As [`RecordMessage::IllegalMove`].
        ply: String,
        /// The move as written.
        token: String,
        /// How many moves fit it.
        moves: usize,
        /// Those moves, canonical numeric full paths, `, ` between them.
        candidates: String,
        /// Readings in all.
        readings: u64,
    },
    /// Readings multiplied past the replay's limit of distinct positions
    /// at one ply.
    TooManyPositions {
        /// The limit.
        most: usize,
        /// The ply where it was passed.
        ply: usize,
        /// The last ply replayed.
        reached: usize,
    },
    /// Readings multiplied past the replay's limit of positions and moves
    /// kept in all.
    TooManyTracked {
        /// The limit.
        most: usize,
        /// The ply where it was passed.
        ply: usize,
        /// The last ply replayed.
        reached: usize,
    },
    /// The game's FEN cannot be used.
    UnusableFen {
        /// Why (English).
        why: String,
    },
    /// The game's text cannot be read.
    TextUnreadable {
        /// What the reader says (English).
        why: String,
    },
    /// A game over the length limit.
    TooManyPlies {
        /// Its plies.
        plies: usize,
        /// The limit.
        most: usize,
    },
    /// No rules have every square the record names.
    NoRulesFit,
}

/// The part of a message saying that the rules a game's tags name are on
/// another board than those under which its moves read `ok`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgainstTag {
    /// The preset the tag names.
    pub tag: String,
    /// The board the moves are on, as `8×8`.
    pub board: String,
    /// The rules they read `ok` under, `, ` between them.
    pub read_ok_as: String,
}

impl fmt::Display for AgainstTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "; the tag says {}, but the moves are on {} and read ok as {}",
            self.tag, self.board, self.read_ok_as
        )
    }
}

impl fmt::Display for RecordMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stops = |f: &mut fmt::Formatter<'_>, ply: &str, token: &str, why, tag: &Option<_>| {
            write!(f, "ply {ply} {token} {why}")?;
            match tag {
                Some(tag) => write!(f, "{tag}"),
                None => Ok(()),
            }
        };
        match self {
            RecordMessage::IllegalMove { ply, token, tag } => {
                stops(f, ply, token, "is illegal".to_string(), tag)
            }
            RecordMessage::NotAMove { ply, token, tag } => {
                stops(f, ply, token, "is not a move".to_string(), tag)
            }
            RecordMessage::UnknownMove { ply, token, tag } => {
                stops(f, ply, token, "is an unknown move".to_string(), tag)
            }
            RecordMessage::NoSuchSquare {
                ply,
                token,
                notation,
                tag,
            } => {
                let why = format!("names a square that {notation} notation does not have");
                stops(f, ply, token, why, tag)
            }
            RecordMessage::Ambiguous {
                ply,
                token,
                moves,
                candidates,
                readings,
            } => write!(
                f,
                "ply {ply} {token} fits {moves} moves that each lead to a complete reading \
                 ({candidates}); {readings} readings in all"
            ),
            RecordMessage::TooManyPositions { most, ply, reached } => {
                let what = format!("more than {most} positions");
                past_the_limit(f, &what, *ply, *reached)
            }
            RecordMessage::TooManyTracked { most, ply, reached } => {
                let what = format!("more than {most} positions and moves in all");
                past_the_limit(f, &what, *ply, *reached)
            }
            RecordMessage::UnusableFen { why } => write!(f, "FEN: {why}"),
            RecordMessage::TextUnreadable { why } => write!(f, "the text cannot be read: {why}"),
            RecordMessage::TooManyPlies { plies, most } => {
                write!(f, "{plies} plies: over the limit of {most} plies per game")
            }
            RecordMessage::NoRulesFit => f.write_str("no rules fit the record's squares"),
        }
    }
}

/// `readings multiply past the replay limit (WHAT at ply PLY): replay
/// stopped after ply REACHED`.
fn past_the_limit(
    f: &mut fmt::Formatter<'_>,
    what: &str,
    ply: usize,
    reached: usize,
) -> fmt::Result {
    write!(
        f,
        "readings multiply past the replay limit ({what} at ply {ply}): \
         replay stopped after ply {reached}"
    )
}

/// Why a request, or a value given in it, cannot be used. `param` is the
/// name of the value as the front end calls it (a parameter of the web
/// API); `value` a value as given, quoted and cut at 40 characters; `why`
/// the library's own explanation (English).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "parts", rename_all = "snake_case")]
pub enum RequestMessage {
    /// A parameter the route does not take.
    UnknownParameter {
        /// The name given, quoted.
        name: String,
        /// The names the route takes, `, ` between them.
        takes: String,
    },
    /// A parameter given twice.
    GivenTwice {
        /// Its name.
        param: String,
    },
    /// A value longer than is read.
    TooLong {
        /// Its name.
        param: String,
        /// Its length in bytes.
        bytes: usize,
        /// The most read.
        most: usize,
    },
    /// A query string that is not UTF-8.
    NotUtf8,
    /// Not a whole number in the range.
    NotInRange {
        /// Its name.
        param: String,
        /// The value given.
        value: String,
        /// The least allowed.
        low: String,
        /// The most allowed.
        high: String,
    },
    /// Not `1` or `0`.
    NotAFlag {
        /// Its name.
        param: String,
        /// The value given.
        value: String,
    },
    /// A sort that is none.
    BadSort {
        /// Its name.
        param: String,
        /// The value given.
        value: String,
    },
    /// A game id that is none.
    NotAGameId {
        /// The value given.
        value: String,
    },
    /// Both a FEN and moves.
    FenAndMoves,
    /// A position and search criteria.
    PositionAndCriteria,
    /// A FEN that cannot be read or set up.
    BadFen {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
    /// Moves that cannot be read or played.
    BadMoves {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
    /// A move that is not legal where a line plays it.
    MoveNotLegalHere {
        /// Its name.
        param: String,
        /// The ply (1-based).
        ply: usize,
        /// The move given, quoted.
        token: String,
        /// The legal moves there, `, ` between them.
        legal: String,
    },
    /// A move of a line played where the game is over.
    NoMoveLeft {
        /// Its name.
        param: String,
        /// The ply (1-based).
        ply: usize,
        /// The move given, quoted.
        token: String,
    },
    /// Moves illegal under the variant used but legal under others.
    LegalElsewhere {
        /// Its name.
        param: String,
        /// Why they do not read (English).
        why: String,
        /// The variant used.
        variant: String,
        /// The presets under which they read, `, ` between them.
        legal_under: String,
        /// The name of the variant's parameter.
        variant_param: String,
        /// The first of those presets.
        first: String,
    },
    /// A variant that is no preset.
    UnknownVariant {
        /// Its name.
        param: String,
        /// The name given.
        value: String,
        /// The presets, `, ` between them.
        expected: String,
        /// Why (English).
        why: String,
    },
    /// Rules switches that cannot be read.
    BadRules {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
    /// A variant no stored game has.
    VariantAbsent {
        /// Its name.
        param: String,
        /// The variant asked for.
        asked: String,
        /// What the database holds (English).
        holdings: String,
    },
    /// A date range that cannot be read (its `why` begins with the value
    /// given).
    BadDateRange {
        /// Its name.
        param: String,
        /// The range as given.
        value: String,
        /// Why.
        why: String,
    },
    /// A pattern, material or manoeuvre that cannot be read.
    BadPattern {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
    /// A game without a board to show.
    NoBoard {
        /// Why (English).
        why: String,
    },
    /// Any other value that cannot be used.
    BadValue {
        /// Its name.
        param: String,
        /// Why.
        why: String,
    },
}

impl fmt::Display for RequestMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RequestMessage as M;
        match self {
            M::UnknownParameter { name, takes } => {
                write!(f, "unknown parameter {name}; this route takes: {takes}")
            }
            M::GivenTwice { param } => write!(f, "{param}: given twice"),
            M::TooLong { param, bytes, most } => {
                write!(f, "{param}: {bytes} bytes; at most {most} are read")
            }
            M::NotUtf8 => f.write_str("the query string cannot be read: it is not UTF-8"),
            M::NotInRange {
                param,
                value,
                low,
                high,
            } => write!(
                f,
                "{param}: {value} is not a whole number from {low} to {high}"
            ),
            M::NotAFlag { param, value } => write!(f, "{param}: {value} is not 1 or 0"),
            M::BadSort { param, value } => {
                write!(f, "{param}: {value} is not id, date, event or player")
            }
            M::NoBoard { why } => f.write_str(why),
            M::NotAGameId { value } => write!(f, "{value} is not a game id (a number from 1)"),
            M::FenAndMoves => f.write_str("give fen or moves, not both"),
            M::PositionAndCriteria => {
                f.write_str("give fen or moves, or pattern, material and manoeuvre, not both")
            }
            M::MoveNotLegalHere {
                param,
                ply,
                token,
                legal,
            } => write!(
                f,
                "{param}: ply {ply}: {token} is not a legal move here (legal: {legal})"
            ),
            M::NoMoveLeft { param, ply, token } => write!(
                f,
                "{param}: ply {ply}: {token} is not a legal move here \
                 (legal: none, the game is over)"
            ),
            M::LegalElsewhere {
                param,
                why,
                variant,
                legal_under,
                variant_param,
                first,
            } => write!(
                f,
                "{param}: {why} under {variant}; legal under {legal_under}: \
                 add {variant_param} {first}"
            ),
            M::VariantAbsent {
                param,
                asked,
                holdings,
            } => write!(
                f,
                "{param} {asked}: no game in the database is {asked}; {holdings}"
            ),
            M::BadDateRange { param, why, .. } => write!(f, "{param} {why}"),
            M::BadFen { param, why }
            | M::BadMoves { param, why }
            | M::UnknownVariant { param, why, .. }
            | M::BadRules { param, why }
            | M::BadPattern { param, why }
            | M::BadValue { param, why } => write!(f, "{param}: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_its_code_and_parts_beside_its_english() {
        let said = RecordMessage::IllegalMove {
            ply: "5 (3.)".into(),
            token: "12-16".into(),
            tag: Some(AgainstTag {
                tag: "international".into(),
                board: "8×8".into(),
                read_ok_as: "russian".into(),
            }),
        };
        assert_eq!(
            said.to_string(),
            "ply 5 (3.) 12-16 is illegal; the tag says international, but the moves are on \
             8×8 and read ok as russian"
        );
        let json = serde_json::to_value(&said).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"code": "illegal_move", "parts": {"ply": "5 (3.)",
                "token": "12-16", "tag": "international", "board": "8×8",
                "read_ok_as": "russian"}})
        );
        assert_eq!(serde_json::from_value::<RecordMessage>(json).unwrap(), said);
        let plain = RecordMessage::NotAMove {
            ply: "1 (1.)".into(),
            token: "x".into(),
            tag: None,
        };
        let json = serde_json::to_value(&plain).unwrap();
        assert_eq!(
            json["parts"],
            serde_json::json!({"ply": "1 (1.)", "token": "x"})
        );
        assert_eq!(
            serde_json::from_value::<RecordMessage>(json).unwrap(),
            plain
        );
        let limit = RecordMessage::TooManyPositions {
            most: 4096,
            ply: 30,
            reached: 29,
        };
        assert_eq!(
            serde_json::to_value(&limit).unwrap()["code"],
            "too_many_positions"
        );
        assert_eq!(
            limit.to_string(),
            "readings multiply past the replay limit (more than 4096 positions at ply 30): \
             replay stopped after ply 29"
        );
    }

    #[test]
    fn requests_are_worded_as_before_and_coded() {
        let m = RequestMessage::BadDateRange {
            param: "date".into(),
            value: "2019.13".into(),
            why: "\"2019.13\": not a date".into(),
        };
        assert_eq!(m.to_string(), "date \"2019.13\": not a date");
        assert_eq!(serde_json::to_value(&m).unwrap()["code"], "bad_date_range");
        let m = RequestMessage::NoMoveLeft {
            param: "moves".into(),
            ply: 2,
            token: "\"1-5\"".into(),
        };
        assert_eq!(
            m.to_string(),
            "moves: ply 2: \"1-5\" is not a legal move here (legal: none, the game is over)"
        );
        let m = RequestMessage::FenAndMoves;
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            serde_json::json!({"code": "fen_and_moves"})
        );
    }
}
