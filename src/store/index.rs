//! Writing the position index during an import.
//!
//! The positions of the games an import stores are kept in memory and
//! written to `position` in key order: at the end of the import, or
//! earlier when [`FLUSH_ROWS`] are waiting (which bounds memory whatever
//! the archive's size). Sorted inserts keep the index's pages full and
//! cost far less than inserts in game order.
//!
//! Crash safety: `index_state.indexed_through` is the last game id whose
//! positions are in the index, updated in the transaction that writes them.
//! Games stored after it (an import killed before its positions were
//! written) are indexed again from their stored text by [`index_missing`],
//! which every import runs first.

use rusqlite::{OptionalExtension, Transaction};

use super::StoreError;
use crate::pdn::Reader;
use crate::replay::{Overrides, Reading, check_game};
use crate::rules::{Move, Rules};

/// Rows kept in memory before they are written (24 bytes each).
pub const FLUSH_ROWS: usize = 4_000_000;

/// Rows written per INSERT statement.
const ROWS_PER_STATEMENT: usize = 64;

/// One row of the position index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct IndexRow {
    /// Zobrist key, as stored.
    pub key: i64,
    /// Game id.
    pub game: i64,
    /// First position number at which the game is there.
    pub ply: u32,
    /// `move_name` id of the move played from there; 0 when not certain.
    pub next: u32,
}

/// Positions waiting to be written to the index.
#[derive(Debug, Default)]
pub struct IndexBuffer {
    rows: Vec<IndexRow>,
}

impl IndexBuffer {
    /// Adds one row.
    pub fn push(&mut self, row: IndexRow) {
        self.rows.push(row);
    }

    /// Whether enough rows wait that they should be written now.
    pub fn is_full(&self) -> bool {
        self.rows.len() >= FLUSH_ROWS
    }

    /// Writes every waiting row in key order and records that every game
    /// stored so far is indexed. Returns the rows added (a game's position
    /// already there is not added twice).
    ///
    /// # Errors
    /// A database failure (the transaction is then not to be committed).
    pub fn flush(&mut self, tx: &Transaction<'_>) -> Result<usize, StoreError> {
        self.rows.sort_unstable();
        let mut added = 0;
        let mut chunks = self.rows.chunks_exact(ROWS_PER_STATEMENT);
        let mut many = tx.prepare_cached(&insert_sql(ROWS_PER_STATEMENT))?;
        for chunk in chunks.by_ref() {
            bind_rows(&mut many, chunk)?;
            added += many.raw_execute()?;
        }
        let mut one = tx.prepare_cached(&insert_sql(1))?;
        for row in chunks.remainder() {
            bind_rows(&mut one, std::slice::from_ref(row))?;
            added += one.raw_execute()?;
        }
        tx.execute(
            "UPDATE index_state SET indexed_through = (SELECT coalesce(max(id), 0) FROM game)",
            [],
        )?;
        self.rows.clear();
        if self.rows.capacity() > FLUSH_ROWS {
            self.rows.shrink_to(FLUSH_ROWS);
        }
        Ok(added)
    }
}

/// `INSERT OR IGNORE INTO position … VALUES (?,?,?,?), …` for `rows` rows.
fn insert_sql(rows: usize) -> String {
    let mut sql = String::from("INSERT OR IGNORE INTO position (key, game, ply, next) VALUES ");
    for i in 0..rows {
        sql.push_str(if i == 0 { "(?,?,?,?)" } else { ",(?,?,?,?)" });
    }
    sql
}

fn bind_rows(stmt: &mut rusqlite::CachedStatement<'_>, rows: &[IndexRow]) -> rusqlite::Result<()> {
    for (i, row) in rows.iter().enumerate() {
        let at = 4 * i + 1;
        stmt.raw_bind_parameter(at, row.key)?;
        stmt.raw_bind_parameter(at + 1, row.game)?;
        stmt.raw_bind_parameter(at + 2, row.ply)?;
        if row.next == 0 {
            stmt.raw_bind_parameter(at + 3, rusqlite::types::Null)?;
        } else {
            stmt.raw_bind_parameter(at + 3, row.next)?;
        }
    }
    Ok(())
}

/// The certain positions of a replayed game, each once (its first visit),
/// with the move played from it when certain: `(key, ply, next)`.
pub fn certain_positions(reading: &Reading) -> Vec<(i64, u32, Option<Move>)> {
    let Reading::Replayed { replay, .. } = reading else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::with_capacity(replay.certain.len());
    let mut positions = Vec::with_capacity(replay.certain.len());
    for c in &replay.certain {
        let key = c.position.zobrist() as i64;
        if seen.insert(key) {
            positions.push((key, c.ply as u32, c.next));
        }
    }
    positions
}

/// Indexes the stored games that an interrupted import left out of the
/// index: each is read again from its stored text, with the variant and
/// notation it was stored with. `move_id` names each next move.
///
/// # Errors
/// A database failure.
pub fn index_missing(
    tx: &Transaction<'_>,
    move_id: &mut dyn FnMut(&Transaction<'_>, &Move) -> Result<i64, StoreError>,
) -> Result<usize, StoreError> {
    let through: i64 = tx
        .query_row("SELECT indexed_through FROM index_state", [], |r| r.get(0))
        .optional()?
        .unwrap_or(0);
    let missing: Vec<(i64, String, Option<String>)> = {
        let mut stmt = tx.prepare(
            "SELECT id, variant, notation FROM game WHERE id > ?1 \
             AND status IN ('ok', 'ambiguous', 'illegal') ORDER BY id",
        )?;
        let rows = stmt.query_map([through], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    let mut buffer = IndexBuffer::default();
    for (id, variant, notation) in missing {
        let Some(text) = stored_text(tx, id)? else {
            continue;
        };
        let Some(game) = Reader::new(text.as_bytes()).next_game().ok().flatten() else {
            continue;
        };
        let overrides = Overrides {
            rules: Rules::parse(&variant).ok(),
            switches: None,
            notation: notation.and_then(|n| n.parse().ok()),
        };
        let checked = check_game(&game, "", &overrides);
        for (key, ply, next) in certain_positions(&checked.reading) {
            let next = match next {
                Some(mv) => move_id(tx, &mv)? as u32,
                None => 0,
            };
            buffer.push(IndexRow {
                key,
                game: id,
                ply,
                next,
            });
        }
    }
    buffer.flush(tx)
}

/// A stored game's text (tags and moves) as first read.
fn stored_text(tx: &Transaction<'_>, game: i64) -> Result<Option<String>, StoreError> {
    let row: Option<(String, Vec<u8>)> = tx
        .prepare_cached(
            "SELECT tags, text FROM provenance WHERE game = ?1 ORDER BY file, idx LIMIT 1",
        )?
        .query_row([game], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(row.map(|(tags, deflated)| super::query::game_text(&tags, &deflated)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_statements_have_four_parameters_per_row() {
        assert_eq!(insert_sql(2).matches('?').count(), 8);
        assert!(insert_sql(1).ends_with("VALUES (?,?,?,?)"));
    }

    #[test]
    fn rows_sort_by_key_then_game() {
        let a = IndexRow {
            key: -5,
            game: 9,
            ply: 3,
            next: 0,
        };
        let b = IndexRow {
            key: 2,
            game: 1,
            ply: 0,
            next: 7,
        };
        let c = IndexRow { game: 10, ..a };
        let mut rows = vec![b, c, a];
        rows.sort_unstable();
        assert_eq!(rows, vec![a, c, b]);
    }
}
