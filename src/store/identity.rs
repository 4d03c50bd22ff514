//! When a game met in a file is one the database already holds: its
//! duplicate key.
//!
//! Two records are the same game when they read the same way under the
//! same variant from the same start, with the same players, event, date and
//! result — whatever their status, and however the text is laid out: pdndb's own
//! export of a game (tags cleaned, dates and results in their PDN forms,
//! moves written afresh) is the game it came from. What a record's reading
//! leaves open is part of it: for an ambiguous record where its readings
//! part and the moves there, for an illegal one the fault and the tokens
//! from there as written, for an unreadable or unsupported one its move
//! text. The key is a hash of all that; a game found by it is checked
//! against the columns that say how it reads.

use crate::export::{clean_tag_value, normalise_date, normalise_result};
use crate::pdn::{Game, Ply};
use crate::replay::{CheckRecord, Status};

/// What makes a stored game the game it is.
pub(super) struct Identity<'a> {
    pub status: &'a str,
    pub variant: &'a str,
    pub start_fen: Option<&'a str>,
    /// The first reading, encoded (`None` when the record was not replayed).
    pub moves: Option<&'a [u8]>,
    /// What the reading leaves open (see [`open_part`]).
    pub open_part: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub event: &'a str,
    pub date: &'a str,
    /// The result as written (`None`: none written, as `*`).
    pub result: Option<&'a str>,
}

impl Identity<'_> {
    /// The duplicate key: the first 64 bits of a hash of every part.
    pub(super) fn key(&self) -> i64 {
        // The parts gathered first and hashed at once (the same hash as
        // each fed to the hasher in turn, at a fraction of the cost).
        let mut parts = Vec::with_capacity(256 + self.moves.map_or(0, <[u8]>::len));
        let mut part = |bytes: &[u8]| {
            parts.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            parts.extend_from_slice(bytes);
        };
        part(self.status.as_bytes());
        part(self.variant.as_bytes());
        part(self.start_fen.unwrap_or("").as_bytes());
        part(self.moves.unwrap_or(&[]));
        part(self.open_part.as_bytes());
        for name in [self.white, self.black, self.event] {
            part(known(name).as_bytes());
        }
        part(known_date(self.date).as_bytes());
        let result = self.result.map_or("*", str::trim);
        part(normalise_result(result).unwrap_or(result).as_bytes());
        let bytes = blake3::hash(&parts);
        let mut first = [0u8; 8];
        first.copy_from_slice(&bytes.as_bytes()[..8]);
        i64::from_le_bytes(first)
    }
}

/// A tag value as an export writes it, `""` when unknown (`?`).
fn known(value: &str) -> String {
    let clean = clean_tag_value(value);
    if clean == "?" { String::new() } else { clean }
}

/// A date in its PDN form, `""` when nothing of it is known.
fn known_date(date: &str) -> String {
    let clean = known(date);
    let date = normalise_date(&clean).unwrap_or(clean);
    if date == "????.??.??" {
        String::new()
    } else {
        date
    }
}

/// What a record's reading leaves open, as text: empty for an `ok` game;
/// for an ambiguous one the ply where readings part and the moves there;
/// for an illegal one the fault's ply and the tokens from there, as written
/// (blanks inside left out; `plies` are the main line's plies as read,
/// [`crate::replay::CheckedGame::plies`]); else the move text with its
/// blanks made one.
pub(super) fn open_part(game: &Game, plies: &[Ply], record: &CheckRecord) -> String {
    match record.status {
        Status::Ok => String::new(),
        Status::Ambiguous => format!(
            "{} {}",
            record.ply.unwrap_or(0),
            record.candidates.join(" ")
        ),
        Status::Illegal => {
            let from = record.reached.unwrap_or(0);
            let mut text = from.to_string();
            for ply in plies.iter().skip(from) {
                text.push(' ');
                text.extend(game.ply_text(ply).chars().filter(|c| !c.is_whitespace()));
            }
            text
        }
        Status::Unreadable | Status::Unsupported => game
            .movetext
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of `identity("Juan dela Cruz", "1987.05.03")` as released.
    const PINNED: i64 = 3_466_109_719_717_742_367;

    fn identity<'a>(white: &'a str, date: &'a str) -> Identity<'a> {
        Identity {
            status: "ok",
            variant: "filipino",
            start_fen: None,
            moves: Some(&[1, 2, 3]),
            open_part: "",
            white,
            black: "B",
            event: "?",
            date,
            result: Some("2-0"),
        }
    }

    #[test]
    fn the_key_is_the_one_stored_keys_were_made_with() {
        // Stored in every game's row: it must never change.
        assert_eq!(identity("Juan dela Cruz", "1987.05.03").key(), PINNED);
    }

    #[test]
    fn tags_count_as_an_export_writes_them() {
        let stored = identity("  Juan  dela Cruz", "1987-5-3").key();
        assert_eq!(identity("Juan dela Cruz", "1987.05.03").key(), stored);
        assert_ne!(identity("Juan de la Cruz", "1987.05.03").key(), stored);
        assert_eq!(identity("A", "").key(), identity("A", "????.??.??").key());
        let written_as_pdn = Identity {
            result: Some("1-0"),
            ..identity("A", "")
        };
        assert_eq!(written_as_pdn.key(), identity("A", "").key());
        let unknown = Identity {
            result: Some("*"),
            ..identity("A", "")
        };
        let none = Identity {
            result: None,
            ..identity("A", "")
        };
        assert_eq!(unknown.key(), none.key());
        assert_ne!(unknown.key(), identity("A", "").key());
        let no_event = Identity {
            event: "",
            ..identity("A", "")
        };
        assert_eq!(no_event.key(), identity("A", "").key());
    }

    #[test]
    fn every_part_counts() {
        let base = identity("A", "");
        let other_moves = Identity {
            moves: Some(&[1, 2]),
            ..identity("A", "")
        };
        let other_status = Identity {
            status: "illegal",
            ..identity("A", "")
        };
        let other_open = Identity {
            open_part: "3 9-14",
            ..identity("A", "")
        };
        for other in [other_moves, other_status, other_open] {
            assert_ne!(other.key(), base.key());
        }
    }
}
