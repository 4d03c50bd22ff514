//! A stored game's columns as both the writers and the queries read
//! them: its text, start position, day and outcome.

use rusqlite::OptionalExtension;

use crate::export::normalise_date;
use crate::notation::parse_fen_on;
use crate::rules::{Color, Position, Rules};
use crate::store::stored::error::StoreError;

/// A Date tag's value as `game.day` holds it: normalised (`YYYY.MM.DD`,
/// `??` for unknown parts); `None` when it cannot be read or its year is
/// unknown (such a game matches no date filter).
pub fn day_of(date: &str) -> Option<String> {
    normalise_date(date).filter(|day| !day.starts_with("????"))
}

/// Who won, by the variant's reading of the result (DESIGN §2): 1 White,
/// 2 Black, 3 draw, 0 none.
pub fn outcome(result: Option<&str>, rules: Option<&Rules>) -> i64 {
    let first = rules.map_or(Color::White, |r| r.first);
    let (first_won, second_won) = match first {
        Color::White => (1, 2),
        Color::Black => (2, 1),
    };
    match result.map(str::trim) {
        Some("1-0" | "2-0") => first_won,
        Some("0-1" | "0-2") => second_won,
        Some("1/2-1/2" | "½-½" | "1-1") => 3,
        _ => 0,
    }
}

/// A stored game's start: the initial position, or its start FEN read by
/// `rules`; `None` when the FEN no longer reads.
pub(crate) fn start_position(rules: &Rules, start_fen: Option<&str>) -> Option<Position> {
    match start_fen {
        None => Some(Position::initial(rules)),
        Some(fen) => Position::from_setup(&parse_fen_on(fen, rules.geometry).ok()?, rules).ok(),
    }
}

/// The record of an ok game without resolved ambiguities, from its columns.
/// A game's text (tags and moves) as first read: from its first provenance.
pub(crate) fn stored_text(
    conn: &rusqlite::Connection,
    game: i64,
) -> Result<Option<String>, StoreError> {
    let row: Option<Vec<u8>> = conn
        .prepare_cached("SELECT text FROM provenance WHERE game = ?1 ORDER BY file, idx LIMIT 1")?
        .query_row([game], |r| r.get(0))
        .optional()?;
    Ok(row.map(|stored| game_text(&stored)))
}

/// A game's text rebuilt from its stored provenance text (see
/// [`crate::store::codec::text`]): the original tags, then the original move text.
pub(crate) fn game_text(stored: &[u8]) -> String {
    let (tags, movetext) = crate::store::codec::text::decode(stored).unwrap_or_default();
    let tags: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&tags).unwrap_or_default();
    let mut text = String::new();
    for (name, value) in &tags {
        let value = value
            .as_str()
            .unwrap_or_default()
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push('\n');
    text.push_str(&movetext);
    text.push('\n');
    text
}
