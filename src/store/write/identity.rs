//! When a game met in a file is one the database already holds: its
//! duplicate key.
//!
//! Two records are the same game when they read the same way under the
//! same variant from the same start, with the same players, event, site,
//! round, date and result — whatever their status, and however the text is
//! laid out: pdndb's own export of a game (tags cleaned, dates and results
//! in their PDN forms, moves written afresh) is the game it came from. What
//! a record's reading leaves open is part of it: for an ambiguous record
//! where its readings part and the moves there, for an illegal one the
//! fault and the tokens from there as written, for an unreadable or
//! unsupported one its move text and its set-up as written. So two
//! forfeits between the same players on one day in different rounds, or
//! two lessons of an unsupported game that differ only in their set-up
//! position, stay two games. The key is a hash of all that; a game found by
//! it is checked against the columns that say how it reads.

use rusqlite::{OptionalExtension, Transaction};

use crate::export::{clean_tag_value, normalise_date, normalise_result};
use crate::pdn::{Game, Ply, Reader};
use crate::replay::RecordBody;
use crate::replay::Status;
use crate::store::stored::StoreError;

/// What makes a stored game the game it is.
pub(in crate::store) struct Identity<'a> {
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
    pub site: &'a str,
    pub round: &'a str,
    /// The set-up of a game that was not replayed, as written (see
    /// [`unreplayed_setup`]); `""` for a replayed one, whose start is
    /// `start_fen`.
    pub setup: &'a str,
}

impl Identity<'_> {
    /// The key of a record read from `game` as `reading` says: what it
    /// leaves open, its round and the set-up of a game not replayed taken
    /// from there, the other parts from `self`.
    pub(in crate::store) fn of_record(self, game: &Game, reading: &Openness<'_>) -> i64 {
        let replayed = matches!(
            reading.status,
            Status::Ok | Status::Ambiguous | Status::Illegal
        );
        let setup = if replayed {
            String::new()
        } else {
            unreplayed_setup(game)
        };
        Identity {
            open_part: &open_part(game, reading),
            round: game.standard_tag("Round").unwrap_or_default(),
            setup: &setup,
            ..self
        }
        .key()
    }

    /// The duplicate key: the first 64 bits of a hash of every part.
    pub(in crate::store) fn key(&self) -> i64 {
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
        // Keys made before site, round and set-up counted stay as they
        // were for games that have none of them.
        let (site, round) = (known(self.site), known(self.round));
        let setup = one_line(self.setup);
        if !(site.is_empty() && round.is_empty() && setup.is_empty()) {
            for extra in [site, round, setup] {
                part(extra.as_bytes());
            }
        }
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

/// Text with its blanks made one and none at either end.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a record reads, as far as its duplicate key needs: its main line as
/// read ([`crate::replay::CheckedGame::plies`]), its status, the longest
/// prefix read (`reached`), where readings part (`ply`) and the moves there
/// (`candidates`), as in its check record.
pub(in crate::store) struct Openness<'a> {
    pub plies: &'a [Ply],
    pub status: Status,
    pub reached: Option<usize>,
    pub ply: Option<usize>,
    pub candidates: &'a [String],
}

/// What a record's reading leaves open, as text: empty for an `ok` game;
/// for an ambiguous one the ply where readings part and the moves there;
/// for an illegal one the fault's ply and the tokens from there, as written
/// (blanks inside left out); else the move text before its result, with its
/// blanks made one.
fn open_part(game: &Game, reading: &Openness<'_>) -> String {
    match reading.status {
        Status::Ok => String::new(),
        Status::Ambiguous => format!(
            "{} {}",
            reading.ply.unwrap_or(0),
            reading.candidates.join(" ")
        ),
        Status::Illegal => {
            let from = reading.reached.unwrap_or(0);
            let mut text = from.to_string();
            for ply in reading.plies.iter().skip(from) {
                text.push(' ');
                text.extend(game.ply_text(ply).chars().filter(|c| !c.is_whitespace()));
            }
            text
        }
        Status::Unreadable | Status::Unsupported => {
            // Without its terminator: an export writes one where there was
            // none (the result itself counts apart).
            let moves = game.movetext.trim_end();
            let result = game.result.as_ref().map(|r| r.text.as_str());
            one_line(result.and_then(|r| moves.strip_suffix(r)).unwrap_or(moves))
        }
    }
}

/// The set-up of a record that was not replayed, as its duplicate key
/// counts it: its FEN (the tag, else the set-up command) and any
/// `BoardPosition` tag, as written.
fn unreplayed_setup(game: &Game) -> String {
    let fen = game.hints.fen.as_ref().map(|f| f.fen.as_str());
    let board = game.tags_named("BoardPosition").map(|t| t.value.as_str());
    let written: Vec<&str> = fen.into_iter().chain(board).collect();
    written.join("\n")
}

/// Games whose keys [`make_keys_again`] makes at a time.
const KEYED_AT_ONCE: i64 = 5_000;

/// Makes every stored game's key again from its columns and the stored
/// text of its first copy (schema step 17, when the key came to cover site,
/// round and set-up); returns how many keys changed.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn make_keys_again(tx: &Transaction<'_>) -> Result<usize, StoreError> {
    let mut changed = 0;
    let mut after = 0_i64;
    loop {
        let games = stored_games(tx, after)?;
        let Some(last) = games.last() else {
            return Ok(changed);
        };
        after = last.id;
        for game in &games {
            let Some(key) = game.key_as_stored(tx)? else {
                continue;
            };
            if game.key != Some(key) {
                tx.prepare_cached("UPDATE game SET dup_key = ?2 WHERE id = ?1")?
                    .execute(rusqlite::params![game.id, key])?;
                changed += 1;
            }
        }
    }
}

/// A stored game's columns that its key is made of.
struct StoredGame {
    id: i64,
    status: String,
    variant: String,
    start_fen: Option<String>,
    moves: Option<Vec<u8>>,
    white: String,
    black: String,
    event: String,
    site: String,
    date: String,
    result: Option<String>,
    /// The check record (JSON), `None` for an `ok` game that needs none.
    record: Option<String>,
    /// The key it has now.
    key: Option<i64>,
}

/// The next games after id `after`, in id order.
fn stored_games(tx: &Transaction<'_>, after: i64) -> Result<Vec<StoredGame>, StoreError> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, status, variant, start_fen, moves, white, black, event, site, date, result, \
         record, dup_key FROM game WHERE id > ?1 ORDER BY id LIMIT ?2",
    )?;
    let rows = stmt.query_map(rusqlite::params![after, KEYED_AT_ONCE], |r| {
        Ok(StoredGame {
            id: r.get(0)?,
            status: r.get(1)?,
            variant: r.get(2)?,
            start_fen: r.get(3)?,
            moves: r.get(4)?,
            white: r.get(5)?,
            black: r.get(6)?,
            event: r.get(7)?,
            site: r.get(8)?,
            date: r.get(9)?,
            result: r.get(10)?,
            record: r.get(11)?,
            key: r.get(12)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

impl StoredGame {
    /// Its key, its first copy read again for what the columns do not hold:
    /// only its tags for an `ok` game (its round), its whole text for
    /// another; `None` when the text cannot be read.
    fn key_as_stored(&self, tx: &Transaction<'_>) -> Result<Option<i64>, StoreError> {
        if self.status != Status::Ok.name() {
            let text = crate::store::stored::game::stored_text(tx, self.id)?.unwrap_or_default();
            return Ok(self.key(&text));
        }
        let stored: Option<Vec<u8>> = tx
            .prepare_cached(
                "SELECT text FROM provenance WHERE game = ?1 ORDER BY file, idx LIMIT 1",
            )?
            .query_row([self.id], |r| r.get(0))
            .optional()?;
        let Some(tags) = stored
            .as_deref()
            .and_then(crate::store::codec::text::decode_tags)
        else {
            return Ok(None);
        };
        let tags: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&tags).unwrap_or_default();
        let pairs = tags
            .iter()
            .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
        let round = crate::pdn::standard_tag(pairs, "Round").unwrap_or_default();
        Ok(Some(
            Identity {
                round,
                ..self.identity()
            }
            .key(),
        ))
    }

    /// Its columns as a key's parts; what the record leaves open, its
    /// round and set-up left empty.
    fn identity(&self) -> Identity<'_> {
        Identity {
            status: &self.status,
            variant: &self.variant,
            start_fen: self.start_fen.as_deref(),
            moves: self.moves.as_deref(),
            open_part: "",
            white: &self.white,
            black: &self.black,
            event: &self.event,
            date: &self.date,
            result: self.result.as_deref(),
            site: &self.site,
            round: "",
            setup: "",
        }
    }

    /// Its key, its copy's text (tags and moves) read again for what the
    /// columns do not hold; `None` when the text reads as no game.
    fn key(&self, text: &str) -> Option<i64> {
        let game = Reader::new(text.as_bytes()).next_game().ok().flatten()?;
        let status: Status = self.status.parse().unwrap_or(Status::Unreadable);
        let record: Option<RecordBody> = self
            .record
            .as_deref()
            .and_then(|json| serde_json::from_str(json).ok());
        // Stored before captures written a jump at a time were read
        // joined: the main line as written is the one read.
        let reading = Openness {
            plies: game.plies(),
            status,
            reached: record.as_ref().and_then(|r| r.reached),
            ply: record.as_ref().and_then(|r| r.ply),
            candidates: record.as_ref().map_or(&[], |r| &r.candidates),
        };
        Some(self.identity().of_record(&game, &reading))
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
            site: "",
            round: "?",
            setup: "",
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

    #[test]
    fn site_round_and_set_up_tell_games_apart() {
        let base = identity("A", "2019");
        let round_one = Identity {
            round: "1",
            ..identity("A", "2019")
        };
        let round_two = Identity {
            round: " 2 ",
            ..identity("A", "2019")
        };
        let other_site = Identity {
            site: "Cebu",
            ..identity("A", "2019")
        };
        let lesson = |setup| Identity {
            status: "unsupported",
            moves: None,
            setup,
            ..identity("A", "2019")
        };
        let keys = [
            base.key(),
            round_one.key(),
            round_two.key(),
            other_site.key(),
            lesson("W:W31-50:B1-20").key(),
            lesson("W:W46:B5").key(),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // As an export writes them: trimmed, blanks made one, `?` unknown.
        let exported = Identity {
            round: "2",
            ..identity("A", "2019")
        };
        assert_eq!(exported.key(), round_two.key());
        let unknown_site = Identity {
            site: "?",
            ..identity("A", "2019")
        };
        assert_eq!(unknown_site.key(), base.key());
        assert_eq!(lesson(" W:W46:B5 ").key(), lesson("W:W46:B5").key());
    }
}
