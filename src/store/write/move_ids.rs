//! The ids of moves' names (`move_name`), added as new names are met.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction};

use crate::rules::Move;
use crate::store::stored::StoreError;

/// Move ids kept in a cache at most (about 64 bytes each).
const MOVE_IDS_CACHED: usize = 100_000;

/// The id of a move's name, added when new.
pub(in crate::store) fn move_id(
    tx: &Transaction<'_>,
    cache: &mut HashMap<Move, i64>,
    mv: &Move,
) -> Result<i64, StoreError> {
    if let Some(&id) = cache.get(mv) {
        return Ok(id);
    }
    let id = lookup_or_add_move(tx, &mv.full_numeric())?;
    if cache.len() >= MOVE_IDS_CACHED {
        // Looked up again when met again: the cache stays small however
        // many different moves an archive holds.
        cache.clear();
    }
    cache.insert(*mv, id);
    Ok(id)
}

fn lookup_or_add_move(tx: &Transaction<'_>, name: &str) -> Result<i64, StoreError> {
    if let Some(id) = tx
        .prepare_cached("SELECT id FROM move_name WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?
    {
        return Ok(id);
    }
    tx.prepare_cached("INSERT INTO move_name (name) VALUES (?1)")?
        .execute([name])?;
    Ok(tx.last_insert_rowid())
}
