//! The rows of the position index as an import keeps them before they
//! are written: in memory, and set aside in sorted runs (`position_run`)
//! coded a chunk at a time; the merge of sorted rows, and the count of
//! the keys that come with many rows.

use rusqlite::{OptionalExtension, Transaction};

use crate::store::codec::moves::{read_leb128, write_leb128};
use crate::store::stored::StoreError;
use crate::store::stored::postings;

/// One row of the position index, ordered as the index keeps them: by
/// kept key (see [`postings`]), game and ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexRow {
    /// Zobrist key, as stored.
    pub key: i64,
    /// Game id.
    pub game: i64,
    /// First position number at which the game is there.
    pub ply: u32,
    /// Whether the move played from there is not certain although the
    /// game's first reading plays one (see [`postings::Entry`]).
    pub open: bool,
}

#[cfg(test)]
impl IndexRow {
    /// The row of `game` at `key` from `ply` on, its next move certain.
    pub(in crate::store) fn certain(key: i64, game: i64, ply: u32) -> IndexRow {
        IndexRow {
            key,
            game,
            ply,
            open: false,
        }
    }
}

impl IndexRow {
    /// Its place in the index: kept key, game and ply.
    pub(super) fn order(&self) -> (i64, i64, u32) {
        (postings::kept(self.key), self.game, self.ply)
    }

    /// The bucket of the index it goes in.
    pub(super) fn bucket(&self) -> i64 {
        postings::split(self.key).0
    }

    /// Its entry in its bucket.
    pub(super) fn entry(&self) -> postings::Entry {
        postings::Entry {
            suffix: postings::split(self.key).1,
            game: self.game,
            ply: self.ply,
            open: self.open,
        }
    }
}

impl Ord for IndexRow {
    /// Rows at one place of the index (kept key, game, ply) are equal.
    fn cmp(&self, other: &IndexRow) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for IndexRow {
    fn partial_cmp(&self, other: &IndexRow) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Bytes one row takes in a stored run at most.
pub(super) const ROW_BYTES_MAX: usize = 10 + 4 + 10 + 10;

/// Zigzag: signed numbers near 0 to small unsigned ones.
fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

impl IndexRow {
    /// Appends the row as a stored run codes it after `previous` (the row
    /// before it in the chunk; `None` for the chunk's first): its kept key
    /// less the one before (zigzag LEB128), the key's other 32 bits
    /// (little-endian), its game less the one before when the kept key is
    /// the same, else whole (zigzag LEB128), and its ply and open bit
    /// (`ply << 1 | open`, LEB128). Sorted rows take some 10 bytes.
    fn write(&self, previous: Option<&IndexRow>, out: &mut Vec<u8>) {
        let kept = postings::kept(self.key);
        let (before, game) = match previous {
            Some(p) if postings::kept(p.key) == kept => (kept, self.game.wrapping_sub(p.game)),
            Some(p) => (postings::kept(p.key), self.game),
            None => (0, self.game),
        };
        write_leb128(out, zigzag(kept.wrapping_sub(before)));
        out.extend_from_slice(&(self.key as u32).to_le_bytes());
        write_leb128(out, zigzag(game));
        write_leb128(out, u64::from(self.ply) << 1 | u64::from(self.open));
    }

    /// Reads a row as [`IndexRow::write`] codes it from the front of
    /// `bytes`, advancing it; `None` when they are not such a row.
    pub(super) fn read(bytes: &mut &[u8], previous: Option<&IndexRow>) -> Option<IndexRow> {
        let before = previous.map_or(0, |p| postings::kept(p.key));
        let kept = before.wrapping_add(unzigzag(read_leb128(bytes)?));
        let (low, rest) = bytes.split_first_chunk::<4>()?;
        *bytes = rest;
        let key = (kept << (64 - postings::KEPT_BITS)) | i64::from(u32::from_le_bytes(*low));
        let game = unzigzag(read_leb128(bytes)?);
        let game = match previous {
            Some(p) if kept == before => p.game.wrapping_add(game),
            _ => game,
        };
        let ply_open = read_leb128(bytes)?;
        Some(IndexRow {
            key,
            game,
            ply: u32::try_from(ply_open >> 1).ok()?,
            open: ply_open & 1 == 1,
        })
    }
}

/// The rows of a stored run chunk; `None` when it is damaged.
pub(in crate::store) fn read_chunk(mut bytes: &[u8]) -> Option<Vec<IndexRow>> {
    let mut rows: Vec<IndexRow> = Vec::with_capacity(bytes.len() / 8);
    while !bytes.is_empty() {
        rows.push(IndexRow::read(&mut bytes, rows.last())?);
    }
    Some(rows)
}

/// Codes `rows` as one stored run chunk.
pub(super) fn write_chunk(rows: &[IndexRow], out: &mut Vec<u8>) {
    let mut previous = None;
    for row in rows {
        row.write(previous, out);
        previous = Some(row);
    }
}

/// The rows of two sorted slices, in order.
pub(super) struct Merged<'a> {
    low: &'a [IndexRow],
    high: &'a [IndexRow],
}

impl<'a> Merged<'a> {
    /// The rows of `low` and `high` (each sorted), in order.
    pub(super) fn new(low: &'a [IndexRow], high: &'a [IndexRow]) -> Merged<'a> {
        Merged { low, high }
    }
}

impl Iterator for Merged<'_> {
    type Item = IndexRow;

    fn next(&mut self) -> Option<IndexRow> {
        let from_high = match (self.low.first(), self.high.first()) {
            (Some(low), Some(high)) => high < low,
            (None, Some(_)) => true,
            (_, None) => false,
        };
        let side = if from_high {
            &mut self.high
        } else {
            &mut self.low
        };
        let (&row, rest) = side.split_first()?;
        *side = rest;
        Some(row)
    }
}

/// A run's first chunk after a row id (through `position_run_run`).
pub(super) const TAKE_RUN_CHUNK: &str =
    "SELECT id, rows FROM position_run WHERE run = ?1 AND id > ?2 ORDER BY id LIMIT 1";

/// The chunk of stored run `run` after the one of row id `after` (its
/// row id and bytes), deleted: its pages are free at once for the index
/// being written. `None` past the run's last.
///
/// # Errors
/// A database failure.
pub(super) fn take_run_chunk(
    tx: &Transaction<'_>,
    run: i64,
    after: i64,
) -> Result<Option<(i64, Vec<u8>)>, StoreError> {
    let chunk: Option<(i64, Vec<u8>)> = tx
        .prepare_cached(TAKE_RUN_CHUNK)?
        .query_row(rusqlite::params![run, after], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    if let Some((id, _)) = &chunk {
        tx.prepare_cached("DELETE FROM position_run WHERE id = ?1")?
            .execute([id])?;
    }
    Ok(chunk)
}

/// The failure of a stored run chunk that does not decode.
pub(super) fn damaged_run() -> StoreError {
    StoreError::from(rusqlite::Error::InvalidColumnType(
        0,
        "position_run.rows".to_string(),
        rusqlite::types::Type::Blob,
    ))
}

/// The number of rows of each key, counted as rows come in index order a
/// kept key at a time: the keys with `floor` rows or more are kept, with
/// their number, in order of key. Holds the keys of one kept key at once
/// (nearly always one).
pub(super) struct KeyCounts {
    floor: i64,
    /// The kept key being counted.
    kept: Option<i64>,
    /// Its keys and their rows so far.
    keys: Vec<(i64, i64)>,
    /// Keys with `floor` rows or more, of the kept keys counted.
    found: Vec<(i64, i64)>,
}

impl KeyCounts {
    /// Counts keys with `floor` rows or more.
    pub(super) fn new(floor: i64) -> KeyCounts {
        KeyCounts {
            floor,
            kept: None,
            keys: Vec::new(),
            found: Vec::new(),
        }
    }

    /// Counts one row of `key` (rows in index order).
    pub(super) fn count(&mut self, key: i64) {
        let kept = postings::kept(key);
        if self.kept != Some(kept) {
            self.end_kept();
            self.kept = Some(kept);
        }
        match self.keys.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => self.keys.push((key, 1)),
        }
    }

    /// Keeps the counted kept key's keys with enough rows.
    fn end_kept(&mut self) {
        self.keys.sort_unstable();
        let floor = self.floor;
        self.found
            .extend(self.keys.drain(..).filter(|&(_, n)| n >= floor));
    }

    /// The keys with `floor` rows or more, in order of key.
    pub(super) fn finish(mut self) -> Vec<(i64, i64)> {
        self.end_kept();
        self.found.sort_unstable();
        self.found
    }
}
