//! The position index's table (`posting`): chunks of position postings
//! written, read and removed. Their format is [`crate::store::codec::postings`],
//! re-exported here.

use std::ops::ControlFlow;

use rusqlite::{Connection, OptionalExtension, Transaction, params};

pub use crate::store::codec::postings::*;
use crate::store::stored::error::StoreError;

impl From<Corrupt> for StoreError {
    fn from(_: Corrupt) -> StoreError {
        StoreError::from(rusqlite::Error::InvalidColumnType(
            0,
            "posting.entries".to_string(),
            rusqlite::types::Type::Blob,
        ))
    }
}

impl CodedChunks {
    /// Stores the chunks; their buckets hold no chunk under their heads yet.
    ///
    /// # Errors
    /// A database failure.
    pub fn insert(&self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        let mut insert = tx.prepare_cached(
            "INSERT INTO posting (bucket, suffix, game, entries) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (bucket, head, bytes) in self.iter() {
            insert.execute(params![bucket, head.suffix, head.game, bytes])?;
        }
        Ok(())
    }
}

/// Writes a bucket's sorted entries as new chunks.
fn write_chunks(tx: &Transaction<'_>, bucket: i64, entries: &[Entry]) -> Result<(), StoreError> {
    let mut coded = CodedChunks::default();
    coded.add(bucket, entries);
    coded.insert(tx)
}

/// A stored chunk: where it is and its entries.
struct Chunk {
    suffix: u32,
    game: i64,
    entries: Vec<Entry>,
}

fn read_chunk(tx: &Connection, bucket: i64, suffix: u32, game: i64) -> Result<Chunk, StoreError> {
    let bytes: Vec<u8> = tx
        .prepare_cached(
            "SELECT entries FROM posting WHERE bucket = ?1 AND suffix = ?2 AND game = ?3",
        )?
        .query_row(params![bucket, suffix, game], |r| r.get(0))?;
    Ok(Chunk {
        suffix,
        game,
        entries: decode(&bytes)?,
    })
}

fn delete_chunk(tx: &Transaction<'_>, bucket: i64, chunk: &Chunk) -> Result<(), StoreError> {
    tx.prepare_cached("DELETE FROM posting WHERE bucket = ?1 AND suffix = ?2 AND game = ?3")?
        .execute(params![bucket, chunk.suffix, chunk.game])?;
    Ok(())
}

/// The heads (suffix, game) of a bucket's chunks, in order.
fn heads(tx: &Connection, bucket: i64) -> Result<Vec<(u32, i64)>, StoreError> {
    let mut stmt = tx.prepare_cached(
        "SELECT suffix, game FROM posting WHERE bucket = ?1 ORDER BY suffix, game",
    )?;
    let rows = stmt.query_map([bucket], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Adds a bucket's new entries (sorted, without repeats); `fresh` says the
/// bucket is known to be empty. Entries already stored are not added
/// again: `added[i]` says whether `entries[i]` was.
///
/// # Errors
/// A database failure, or a chunk that does not decode.
pub fn add(
    tx: &Transaction<'_>,
    bucket: i64,
    entries: &[Entry],
    fresh: bool,
) -> Result<Vec<bool>, StoreError> {
    let heads = if fresh {
        Vec::new()
    } else {
        heads(tx, bucket)?
    };
    if heads.is_empty() {
        write_chunks(tx, bucket, entries)?;
        return Ok(vec![true; entries.len()]);
    }
    let mut added = vec![false; entries.len()];
    // Each new entry goes to the last chunk whose head is not after it.
    let mut at = 0;
    while at < entries.len() {
        let e = &entries[at];
        let chunk = heads
            .partition_point(|&h| h <= (e.suffix, e.game))
            .saturating_sub(1);
        let end = heads
            .get(chunk + 1)
            .map_or(entries.len(), |&next| {
                at + entries[at..].partition_point(|e| (e.suffix, e.game) < next)
            })
            .max(at + 1);
        let (suffix, game) = heads[chunk];
        let mut stored = read_chunk(tx, bucket, suffix, game)?;
        let before = stored.entries.len();
        for (i, e) in entries[at..end].iter().enumerate() {
            if stored.entries.binary_search(e).is_err() {
                added[at + i] = true;
            }
        }
        stored.entries.extend(
            entries[at..end]
                .iter()
                .zip(&added[at..end])
                .filter(|(_, a)| **a)
                .map(|(e, _)| *e),
        );
        if stored.entries.len() > before {
            stored.entries.sort_unstable();
            delete_chunk(tx, bucket, &stored)?;
            write_chunks(tx, bucket, &stored.entries)?;
        }
        at = end;
    }
    Ok(added)
}

/// Takes out game `game`'s entry at `ply` under `key`; returns whether it
/// was open when it was there.
///
/// # Errors
/// A database failure, or a chunk that does not decode.
pub fn remove(
    tx: &Transaction<'_>,
    key: i64,
    game: i64,
    ply: u32,
) -> Result<Option<bool>, StoreError> {
    let (bucket, suffix) = split(key);
    let head: Option<(u32, i64)> = tx
        .prepare_cached(
            "SELECT suffix, game FROM posting WHERE bucket = ?1 AND (suffix < ?2 OR (suffix = ?2 AND game <= ?3)) \
             ORDER BY suffix DESC, game DESC LIMIT 1",
        )?
        .query_row(params![bucket, suffix, game], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((head_suffix, head_game)) = head else {
        return Ok(None);
    };
    let mut chunk = read_chunk(tx, bucket, head_suffix, head_game)?;
    let Some(i) = chunk
        .entries
        .iter()
        .position(|e| (e.suffix, e.game, e.ply) == (suffix, game, ply))
    else {
        return Ok(None);
    };
    let gone = chunk.entries.remove(i);
    delete_chunk(tx, bucket, &chunk)?;
    write_chunks(tx, bucket, &chunk.entries)?;
    Ok(Some(gone.open))
}

/// Hands each entry under `key`'s kept key to `each`, in order of game
/// (and ply), reading a chunk at a time, until `each` breaks.
///
/// # Errors
/// A database failure, a chunk that does not decode, or `each`'s error.
pub fn each_at<E: From<StoreError>>(
    conn: &Connection,
    key: i64,
    mut each: impl FnMut(&Entry) -> Result<ControlFlow<()>, E>,
) -> Result<(), E> {
    let (bucket, suffix) = split(key);
    let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
    let corrupt = |e: Corrupt| E::from(StoreError::from(e));
    let mut entries = Vec::new();
    // The chunk before the key's first head may end with its entries.
    let before: Option<Vec<u8>> = conn
        .prepare_cached(
            "SELECT entries FROM posting WHERE bucket = ?1 AND suffix < ?2 \
             ORDER BY suffix DESC, game DESC LIMIT 1",
        )
        .map_err(sqlite)?
        .query_row(params![bucket, suffix], |r| r.get(0))
        .optional()
        .map_err(sqlite)?;
    let mut stmt = conn
        .prepare_cached(
            "SELECT entries FROM posting WHERE bucket = ?1 AND suffix = ?2 ORDER BY game",
        )
        .map_err(sqlite)?;
    let mut rows = stmt.query(params![bucket, suffix]).map_err(sqlite)?;
    let mut bytes = before;
    loop {
        let Some(chunk) = bytes.take() else {
            match rows.next().map_err(sqlite)? {
                Some(r) => bytes = Some(r.get(0).map_err(sqlite)?),
                None => return Ok(()),
            }
            continue;
        };
        entries.clear();
        decode_into(&chunk, &mut entries).map_err(corrupt)?;
        for entry in entries.iter().filter(|e| e.suffix == suffix) {
            if each(entry)?.is_break() {
                return Ok(());
            }
        }
    }
}

/// The entries under `key`'s kept key, in order of game.
///
/// # Errors
/// A database failure, or a chunk that does not decode.
#[cfg(test)]
pub fn entries_at(conn: &Connection, key: i64) -> Result<Vec<Entry>, StoreError> {
    let mut out = Vec::new();
    each_at::<StoreError>(conn, key, |e| {
        out.push(*e);
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(out)
}

/// How many entries are under `key`'s kept key.
///
/// # Errors
/// A database failure, or a chunk that does not decode.
pub fn count_at(conn: &Connection, key: i64) -> Result<i64, StoreError> {
    let mut n = 0;
    each_at::<StoreError>(conn, key, |_| {
        n += 1;
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(n)
}

/// Hands every chunk of the index to `each`, in order, with its bucket.
///
/// # Errors
/// A database failure, a chunk that does not decode, or `each`'s error.
pub fn each_chunk(
    conn: &Connection,
    mut each: impl FnMut(i64, &[Entry]) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut stmt =
        conn.prepare("SELECT bucket, entries FROM posting ORDER BY bucket, suffix, game")?;
    let mut rows = stmt.query([])?;
    let mut entries = Vec::new();
    while let Some(r) = rows.next()? {
        let bucket: i64 = r.get(0)?;
        entries.clear();
        let bytes = r.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
        decode_into(bytes, &mut entries)?;
        each(bucket, &entries)?;
    }
    Ok(())
}

/// Every entry of the index as (kept key, game, ply, open), in order of
/// kept key and game.
///
/// # Errors
/// A database failure, or a chunk that does not decode.
#[cfg(test)]
pub fn all(conn: &Connection) -> Result<Vec<(i64, i64, u32, bool)>, StoreError> {
    let mut out = Vec::new();
    each_chunk(conn, |bucket, entries| {
        out.extend(entries.iter().map(|e| {
            (
                (bucket << SUFFIX_BITS) | i64::from(e.suffix),
                e.game,
                e.ply,
                e.open,
            )
        }));
        Ok(())
    })?;
    Ok(out)
}

/// How many entries the index holds.
///
/// # Errors
/// A database failure, or a chunk that does not decode.
#[cfg(test)]
pub fn count(conn: &Connection) -> Result<i64, StoreError> {
    let mut n = 0;
    each_chunk(conn, |_, entries| {
        n += entries.len() as i64;
        Ok(())
    })?;
    Ok(n)
}

/// Entries of the chunks a removal by one pass over the index holds at
/// once, at most (some 24 bytes each: 6 MiB), besides the one chunk that
/// takes it past them.
const REMOVAL_ENTRIES: usize = 1 << 18;

/// Takes out every entry of the games `leaving` says, by one pass over the
/// index; each entry taken out is handed to `gone` with its kept key first.
///
/// The pass goes in batches: it reads chunks in order until those that
/// hold leaving entries hold [`REMOVAL_ENTRIES`], rewrites them without
/// those entries, and reads on after the last chunk read. Memory stays
/// bounded whatever the size of the index; a chunk rewritten holds no
/// leaving entry, so reading it again changes nothing.
///
/// # Errors
/// A database failure, or a chunk that does not decode.
pub fn remove_games(
    tx: &Transaction<'_>,
    leaving: impl Fn(i64) -> bool,
    mut gone: impl FnMut(i64, &Entry) -> Result<(), StoreError>,
) -> Result<usize, StoreError> {
    let mut removed = 0;
    let mut after = (i64::MIN, i64::MIN, i64::MIN);
    loop {
        let (touched, read_to) = chunks_touched(tx, after, &leaving)?;
        for (bucket, mut chunk) in touched {
            delete_chunk(tx, bucket, &chunk)?;
            for e in chunk.entries.iter().filter(|e| leaving(e.game)) {
                gone((bucket << SUFFIX_BITS) | i64::from(e.suffix), e)?;
                removed += 1;
            }
            chunk.entries.retain(|e| !leaving(e.game));
            write_chunks(tx, bucket, &chunk.entries)?;
        }
        match read_to {
            Some(last) => after = last,
            None => return Ok(removed),
        }
    }
}

/// Where a chunk is stored: its bucket, and the suffix and game of its
/// first entry (the key of `posting`).
type ChunkPlace = (i64, i64, i64);

/// Chunks read, each with its bucket.
type BucketChunks = Vec<(i64, Chunk)>;

/// The chunks after `after`, in order, that hold
/// entries of leaving games, until they hold [`REMOVAL_ENTRIES`]; with the
/// place of the last chunk read (`None`: none was left to read).
fn chunks_touched(
    tx: &Transaction<'_>,
    after: ChunkPlace,
    leaving: &impl Fn(i64) -> bool,
) -> Result<(BucketChunks, Option<ChunkPlace>), StoreError> {
    let mut stmt = tx.prepare_cached(
        "SELECT bucket, suffix, game, entries FROM posting \
         WHERE (bucket, suffix, game) > (?1, ?2, ?3) ORDER BY bucket, suffix, game",
    )?;
    let mut rows = stmt.query(params![after.0, after.1, after.2])?;
    let mut touched = Vec::new();
    let mut held = 0;
    let mut read_to = None;
    let mut entries = Vec::new();
    while held < REMOVAL_ENTRIES {
        let Some(r) = rows.next()? else {
            break;
        };
        let (bucket, suffix, game): (i64, i64, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
        read_to = Some((bucket, suffix, game));
        entries.clear();
        let bytes = r.get_ref(3)?.as_blob().map_err(rusqlite::Error::from)?;
        decode_into(bytes, &mut entries)?;
        if entries.iter().any(|e| leaving(e.game)) {
            held += entries.len();
            touched.push((
                bucket,
                Chunk {
                    suffix: suffix as u32,
                    game,
                    entries: entries.clone(),
                },
            ));
        }
    }
    Ok((touched, read_to))
}
