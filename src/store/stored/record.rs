//! A stored game's check record read back typed: the record of `check`
//! ([`CheckRecord`](crate::replay::CheckRecord)) whose outcome
//! ([`RecordBody`]) the store keeps as JSON, and with the game id and its
//! source in front, as `report --json` prints it ([`ReportRecord`]).
//!
//! The fields are those of `CheckRecord`, in its order, so that
//! `report --json` writes them as `check --json` does (the JSON stored may
//! hold them in another order; records of databases written before
//! `variant_from` and `reads_ok_under` existed lack those, and read back
//! with the game's column and an empty list).

use serde::{Deserialize, Serialize};

use crate::replay::{RecordBody, RecordSource, ResultCheck, Status};
use crate::rules::Color;

use crate::store::stored::error::{StoreError, StoredPart};
use crate::store::stored::id::GameId;

/// A stored game's record with its source in front: the object of
/// `report --json` (and of `check --json`, plus the game id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportRecord {
    /// The game id.
    pub game: GameId,
    /// Source file as given when imported (its first copy), index, line
    /// and tags.
    #[serde(flatten)]
    pub source: RecordSource,
    /// The rest of the record.
    #[serde(flatten)]
    pub record: RecordBody,
    /// The name of the game's opening (see [`crate::openings`]), as
    /// `games --json` gives it; `None` when it reaches none.
    #[serde(default)]
    pub opening: Option<String>,
    /// Its English three-move ballot, as `games --json` gives it.
    #[serde(default)]
    pub ballot: Option<String>,
    /// The game's result checked against its moves.
    #[serde(default = "unknown_check")]
    pub result_check: ResultCheck,
    /// Who moves first by the game's rules (Black in English checkers
    /// and pool; White when its variant is not known). Not read back: it
    /// follows from the variant.
    #[serde(skip_deserializing, default = "white_first")]
    pub first_side: Color,
}

/// The first side a record read back holds until its variant says.
fn white_first() -> Color {
    Color::White
}

/// A record read without its result check: `unknown`.
fn unknown_check() -> ResultCheck {
    ResultCheck::Unknown
}

/// The error of a game whose stored `what` does not read.
fn corrupt(game: GameId, what: StoredPart, why: String) -> StoreError {
    StoreError::Corrupt { game, what, why }
}

/// A game's stored status read back: exactly a status's name.
///
/// # Errors
/// [`StoreError::Corrupt`] naming the game when it is none.
pub(crate) fn parse_status(game: GameId, name: &str) -> Result<Status, StoreError> {
    Status::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            let e = crate::replay::UnknownStatus(name.to_string());
            corrupt(game, StoredPart::Status, e.to_string())
        })
}

/// A game's stored notation or source of rules (`what`) read back by its
/// exact name.
///
/// # Errors
/// [`StoreError::Corrupt`] naming the game when it is none.
pub(crate) fn parse_name<T>(
    game: GameId,
    what: StoredPart,
    name: Option<&str>,
) -> Result<Option<T>, StoreError>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    name.map(|n| {
        n.parse()
            .map_err(|e: T::Err| corrupt(game, what, e.to_string()))
    })
    .transpose()
}

/// A game's stored check record (JSON) read back.
///
/// # Errors
/// [`StoreError::Corrupt`] naming the game when it does not read.
pub(crate) fn parse_record(game: GameId, json: &str) -> Result<RecordBody, StoreError> {
    serde_json::from_str(json).map_err(|e| corrupt(game, StoredPart::Record, e.to_string()))
}

/// The tags (a JSON object) of a copy of a game, from its stored text.
///
/// # Errors
/// [`StoreError::Corrupt`] naming the game when the text or the tags do
/// not read.
pub(crate) fn parse_tags(
    game: GameId,
    stored: &[u8],
) -> Result<serde_json::Map<String, serde_json::Value>, StoreError> {
    let tags = crate::store::codec::text::decode_tags(stored).ok_or_else(|| {
        corrupt(
            game,
            StoredPart::Text,
            "not a text this version stores".into(),
        )
    })?;
    serde_json::from_str(&tags).map_err(|e| corrupt(game, StoredPart::Tags, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_records_and_tags_that_do_not_read_name_their_game() {
        let mut coder = crate::store::codec::text::TextEncoder::new();
        let good = coder.encode(r#"{"White":"A"}"#, "1. 11-15 *");
        assert_eq!(parse_tags(GameId(3), &good).unwrap()["White"], "A");
        let bad_json = coder.encode(r#"{"White":"A""#, "1. 11-15 *");
        for (stored, what) in [
            (bad_json.as_slice(), StoredPart::Tags),
            (&[0xff, 0], StoredPart::Text),
        ] {
            match parse_tags(GameId(7), stored) {
                Err(StoreError::Corrupt {
                    game: GameId(7),
                    what: w,
                    ..
                }) => assert_eq!(w, what),
                other => panic!("{other:?}"),
            }
        }
        let e = parse_record(GameId(9), r#"{"variant":"russ"#).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("game 9: its stored check record cannot be read ("),
            "{e}"
        );
        let ok = r#"{"variant":"russian","notation":null,"status":"illegal","plies":null,"reached":null,"interpretations":null,"ply":null,"move_number":null,"side":null,"token":null,"fen":null,"candidates":[],"resolved":[],"message":null}"#;
        assert_eq!(
            parse_record(GameId(9), ok).unwrap().status,
            crate::replay::Status::Illegal
        );
    }

    use crate::pdn::Reader;
    use crate::replay::{Overrides, check_game};

    /// The JSON import stores for a game's record (its fields in the
    /// order removing the source's fields leaves them), and the record of
    /// `check --json` without those fields.
    fn stored_json(pdn: &str) -> (String, String) {
        let game = Reader::new(pdn.as_bytes()).next_game().unwrap().unwrap();
        let checked = check_game(&game, "f.pdn", &Overrides::default());
        let mut stored = serde_json::to_value(&checked.record).unwrap();
        let mut checked = stored.clone();
        for field in ["file", "index", "line", "tags"] {
            stored.as_object_mut().unwrap().remove(field);
            checked.as_object_mut().unwrap().shift_remove(field);
        }
        (stored.to_string(), checked.to_string())
    }

    #[test]
    fn a_check_record_reads_back_whole_and_as_stored() {
        let ambiguous = "[GameType \"21\"]\n1. 9-14 22-18 2. 14x23 27x18 *";
        let illegal = "[White \"A\"]\n1. 22-18 11-15 2. 18-13 *";
        for pdn in [ambiguous, illegal, "1. 11-15 24-20 *"] {
            let game = Reader::new(pdn.as_bytes()).next_game().unwrap().unwrap();
            let record = check_game(&game, "f.pdn", &Overrides::default()).record;
            let json = serde_json::to_string(&record).unwrap();
            let back: crate::replay::CheckRecord = serde_json::from_str(&json).unwrap();
            assert_eq!(back, record);
            let (stored, _) = stored_json(pdn);
            assert_eq!(parse_record(GameId(5), &stored).unwrap(), record.outcome);
        }
    }

    #[test]
    fn stored_records_with_unknown_names_name_their_game() {
        let (stored, _) = stored_json("1. 22-18 11-15 2. 18-13 *");
        for (field, name) in [
            ("variant_from", "told"),
            ("notation", "chess"),
            ("side", "red"),
        ] {
            let mut value: serde_json::Value = serde_json::from_str(&stored).unwrap();
            value[field] = serde_json::Value::from(name);
            match parse_record(GameId(12), &value.to_string()) {
                Err(
                    e @ StoreError::Corrupt {
                        game: GameId(12),
                        what: StoredPart::Record,
                        ..
                    },
                ) => assert!(e.to_string().contains(name), "{e}"),
                other => panic!("{field}: {other:?}"),
            }
        }
        let e =
            parse_name::<crate::notation::Notation>(GameId(3), StoredPart::Notation, Some("chess"));
        assert!(
            e.unwrap_err()
                .to_string()
                .starts_with("game 3: its stored notation cannot be read ("),
        );
    }

    #[test]
    fn a_record_read_back_has_every_field_in_the_order_of_check() {
        let ambiguous = "[GameType \"21\"]\n1. 9-14 22-18 2. 14x23 27x18 *";
        let illegal = "1. 22-18 11-15 2. 18-13 *";
        for pdn in [ambiguous, illegal, "[FEN \"W:WK29:B1\"]\n1. 9-15 12-7 *"] {
            let (stored, checked) = stored_json(pdn);
            let record: RecordBody = serde_json::from_str(&stored).unwrap();
            assert_eq!(serde_json::to_string(&record).unwrap(), checked);
        }
    }

    #[test]
    fn records_of_older_databases_gain_the_newer_fields() {
        let old = r#"{"variant":"filipino","notation":"numeric","status":"illegal","plies":3,"reached":2,"interpretations":1,"ply":3,"move_number":2,"side":"white","token":"18-13","fen":"W:W1:B2","candidates":[],"resolved":[{"ply":1,"token":"x","candidates":["a","b"]}],"message":"m"}"#;
        let record: RecordBody = serde_json::from_str(old).unwrap();
        assert_eq!(record.status, Status::Illegal);
        assert_eq!(record.resolved[0].candidates, ["a", "b"]);
        let again = serde_json::to_string(&record).unwrap();
        assert_eq!(
            again,
            format!(
                "{},\"message_key\":null,\"variant_from\":null,\"reads_ok_under\":[]}}",
                &old[..old.len() - 1]
            )
        );
        let report = ReportRecord {
            game: GameId(4),
            source: RecordSource {
                file: "a.pdn".into(),
                index: 1,
                line: 2,
                tags: serde_json::Map::new(),
            },
            record,
            opening: Some("Old Fourteenth".into()),
            ballot: None,
            result_check: ResultCheck::ContradictsMovetext,
            first_side: Color::White,
        };
        let json = serde_json::to_string(&report).unwrap();
        assert!(
            json.starts_with(
                r#"{"game":4,"file":"a.pdn","index":1,"line":2,"tags":{},"variant":"filipino","#
            ),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<ReportRecord>(&json).unwrap(), report);
    }
}
