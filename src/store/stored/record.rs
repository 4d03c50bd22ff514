//! A stored game's check record read back typed: the record of `check`
//! without its source ([`StoredRecord`]), and with it, as `report --json`
//! prints it ([`ReportRecord`]).
//!
//! The fields are those of [`CheckRecord`](crate::replay::CheckRecord), in
//! its order, so that `report --json` writes them as `check --json` does
//! (the JSON stored may hold them in another order; records of databases
//! written before `variant_from` and `reads_ok_under` existed lack those,
//! and read back with the game's column and an empty list).

use serde::{Deserialize, Serialize};

use crate::replay::{ResolvedRecord, Status};
use crate::store::stored::error::{StoreError, StoredPart};

/// The check record of a stored game, without file, index, line and tags.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredRecord {
    /// Preset name plus non-default switches; `international` or `unknown`.
    pub variant: String,
    /// The notation the moves were read in.
    pub notation: Option<String>,
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
    /// The move number of `ply`.
    pub move_number: Option<usize>,
    /// Who plays `ply`: `white` or `black`.
    pub side: Option<String>,
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
    /// Where the rules came from (the game's column; `None` for games
    /// stored before rules were inferred, until `recheck`).
    #[serde(default)]
    pub variant_from: Option<String>,
    /// For a game that is not `ok`: the presets and switch settings under
    /// which it reads `ok`.
    #[serde(default)]
    pub reads_ok_under: Vec<String>,
}

impl StoredRecord {
    /// The record of an `ok` game without resolved ambiguities, which
    /// follows from the game's columns (such games keep no record).
    pub fn ok(variant: String, notation: Option<String>, plies: Option<usize>) -> StoredRecord {
        StoredRecord {
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
            variant_from: None,
            reads_ok_under: Vec::new(),
        }
    }
}

/// A stored game's record with its source in front: the object of
/// `report --json` (and of `check --json`, plus the game id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportRecord {
    /// The game id.
    pub game: i64,
    /// Source file as given when imported (its first copy).
    pub file: String,
    /// 1-based game index in the file.
    pub index: i64,
    /// Line of the game's first tag or move.
    pub line: i64,
    /// The original tags, names as written.
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// The rest of the record.
    #[serde(flatten)]
    pub record: StoredRecord,
}

/// The error of a game whose stored `what` does not read.
fn corrupt(game: i64, what: StoredPart, why: String) -> StoreError {
    StoreError::Corrupt { game, what, why }
}

/// A game's stored status read back: exactly a status's name.
///
/// # Errors
/// [`StoreError::Corrupt`] naming the game when it is none.
pub(crate) fn parse_status(game: i64, name: &str) -> Result<Status, StoreError> {
    Status::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            let e = crate::replay::UnknownStatus(name.to_string());
            corrupt(game, StoredPart::Status, e.to_string())
        })
}

/// A game's stored check record (JSON) read back.
///
/// # Errors
/// [`StoreError::Corrupt`] naming the game when it does not read.
pub(crate) fn parse_record(game: i64, json: &str) -> Result<StoredRecord, StoreError> {
    serde_json::from_str(json).map_err(|e| corrupt(game, StoredPart::Record, e.to_string()))
}

/// The tags (a JSON object) of a copy of a game, from its stored text.
///
/// # Errors
/// [`StoreError::Corrupt`] naming the game when the text or the tags do
/// not read.
pub(crate) fn parse_tags(
    game: i64,
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
        assert_eq!(parse_tags(3, &good).unwrap()["White"], "A");
        let bad_json = coder.encode(r#"{"White":"A""#, "1. 11-15 *");
        for (stored, what) in [
            (bad_json.as_slice(), StoredPart::Tags),
            (&[0xff, 0], StoredPart::Text),
        ] {
            match parse_tags(7, stored) {
                Err(StoreError::Corrupt {
                    game: 7, what: w, ..
                }) => assert_eq!(w, what),
                other => panic!("{other:?}"),
            }
        }
        let e = parse_record(9, r#"{"variant":"russ"#).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("game 9: its stored check record cannot be read ("),
            "{e}"
        );
        let ok = r#"{"variant":"russian","notation":null,"status":"illegal","plies":null,"reached":null,"interpretations":null,"ply":null,"move_number":null,"side":null,"token":null,"fen":null,"candidates":[],"resolved":[],"message":null}"#;
        assert_eq!(
            parse_record(9, ok).unwrap().status,
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
    fn a_record_read_back_has_every_field_in_the_order_of_check() {
        let ambiguous = "[GameType \"21\"]\n1. 9-14 22-18 2. 14x23 27x18 *";
        let illegal = "1. 22-18 11-15 2. 18-13 *";
        for pdn in [ambiguous, illegal, "[FEN \"W:WK29:B1\"]\n1. 9-15 12-7 *"] {
            let (stored, checked) = stored_json(pdn);
            let record: StoredRecord = serde_json::from_str(&stored).unwrap();
            assert_eq!(serde_json::to_string(&record).unwrap(), checked);
        }
    }

    #[test]
    fn records_of_older_databases_gain_the_newer_fields_at_the_end() {
        let old = r#"{"variant":"filipino","notation":"numeric","status":"illegal","plies":3,"reached":2,"interpretations":1,"ply":3,"move_number":2,"side":"white","token":"18-13","fen":"W:W1:B2","candidates":[],"resolved":[{"ply":1,"token":"x","candidates":["a","b"]}],"message":"m"}"#;
        let record: StoredRecord = serde_json::from_str(old).unwrap();
        assert_eq!(record.status, Status::Illegal);
        assert_eq!(record.resolved[0].candidates, ["a", "b"]);
        let again = serde_json::to_string(&record).unwrap();
        assert_eq!(
            again,
            format!(
                "{},\"variant_from\":null,\"reads_ok_under\":[]}}",
                &old[..old.len() - 1]
            )
        );
        let report = ReportRecord {
            game: 4,
            file: "a.pdn".into(),
            index: 1,
            line: 2,
            tags: serde_json::Map::new(),
            record,
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
