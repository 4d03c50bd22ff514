//! The position index as schema step 10 wrote it (40 bits of the key, the
//! next move's `move_name` id in every entry): written by the code that
//! applies step 10 to an older database, read by the code that applies
//! step 12, which turns it into the postings of [`crate::store::stored::postings`].
//!
//! A chunk is a run of LEB128 numbers: the first entry's suffix, game,
//! ply, next; then each entry's suffix less the one before, its game less
//! the one before when the suffix is the same (else its game), ply, next
//! (0 when not certain). Chunks are cut as [`crate::store::stored::postings`] cuts them.

use rusqlite::Transaction;

use crate::store::schema::legacy::postings12::write_leb128_bucket;
use crate::store::stored::StoreError;
use crate::store::stored::postings::Corrupt;
use crate::store::stored::postings::{put, take};

/// Bits of a Zobrist key kept in the index of step 10.
pub const KEPT_BITS: u32 = 40;

/// Bits of the kept key stored in each entry (16 name the bucket).
pub const SUFFIX_BITS: u32 = KEPT_BITS - crate::store::stored::postings::BUCKET_BITS;

/// The bucket and suffix of a Zobrist key.
pub fn split(key: i64) -> (i64, u32) {
    let kept = key >> (64 - KEPT_BITS);
    (
        kept >> SUFFIX_BITS,
        (kept & ((1 << SUFFIX_BITS) - 1)) as u32,
    )
}

/// One entry of step 10, within its bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// The low [`SUFFIX_BITS`] bits of the kept key.
    pub suffix: u32,
    /// Game id.
    pub game: i64,
    /// First position number at which the game is there.
    pub ply: u32,
    /// `move_name` id of the move played from there; 0 when not certain.
    pub next: u32,
}

fn encode_entry(out: &mut Vec<u8>, previous: Option<&Entry>, entry: &Entry) {
    match previous {
        None => put(out, u64::from(entry.suffix)),
        Some(p) => put(out, u64::from(entry.suffix.wrapping_sub(p.suffix))),
    }
    match previous {
        Some(p) if p.suffix == entry.suffix => put(out, entry.game.wrapping_sub(p.game) as u64),
        _ => put(out, entry.game as u64),
    }
    put(out, u64::from(entry.ply));
    put(out, u64::from(entry.next));
}

/// Decodes one chunk.
///
/// # Errors
/// [`Corrupt`] when the bytes are not a chunk.
pub fn decode(bytes: &[u8]) -> Result<Vec<Entry>, Corrupt> {
    let mut out: Vec<Entry> = Vec::new();
    let mut at = 0;
    let small = |n: u64| u32::try_from(n).map_err(|_| Corrupt);
    while at < bytes.len() {
        let delta = small(take(bytes, &mut at)?)?;
        let game = take(bytes, &mut at)? as i64;
        let (suffix, game) = match out.last() {
            None => (delta, game),
            Some(p) if delta == 0 => (p.suffix, p.game.wrapping_add(game)),
            Some(p) => (p.suffix.checked_add(delta).ok_or(Corrupt)?, game),
        };
        if suffix >= 1 << SUFFIX_BITS {
            return Err(Corrupt);
        }
        out.push(Entry {
            suffix,
            game,
            ply: small(take(bytes, &mut at)?)?,
            next: small(take(bytes, &mut at)?)?,
        });
    }
    Ok(out)
}

/// Writes a bucket's sorted entries (the bucket empty before) as chunks of
/// at most [`CHUNK_BYTES`](crate::store::stored::postings::CHUNK_BYTES), never cut between
/// two entries of one suffix and game.
///
/// # Errors
/// A database failure.
pub fn write_bucket(
    tx: &Transaction<'_>,
    bucket: i64,
    entries: &[Entry],
) -> Result<(), StoreError> {
    write_leb128_bucket(tx, bucket, entries, |e| (e.suffix, e.game), encode_entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_chunks_decode_to_the_entries() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE posting (bucket INTEGER NOT NULL, suffix INTEGER NOT NULL, \
             game INTEGER NOT NULL, entries BLOB NOT NULL, PRIMARY KEY (bucket, suffix, game)) WITHOUT ROWID",
        )
        .unwrap();
        let mut entries: Vec<Entry> = (1..=400)
            .map(|g| Entry {
                suffix: 9,
                game: g,
                ply: 2,
                next: (g % 3) as u32,
            })
            .collect();
        entries.push(Entry {
            suffix: (1 << SUFFIX_BITS) - 1,
            game: 1 << 40,
            ply: 20_000,
            next: 70_000,
        });
        let tx = conn.transaction().unwrap();
        write_bucket(&tx, -3, &entries).unwrap();
        let mut back = Vec::new();
        let mut stmt = tx
            .prepare("SELECT entries FROM posting WHERE bucket = -3 ORDER BY suffix, game")
            .unwrap();
        let mut rows = stmt.query([]).unwrap();
        let mut chunks = 0;
        while let Some(r) = rows.next().unwrap() {
            let bytes: Vec<u8> = r.get(0).unwrap();
            assert!(bytes.len() <= crate::store::stored::postings::CHUNK_BYTES);
            back.extend(decode(&bytes).unwrap());
            chunks += 1;
        }
        assert!(chunks > 1);
        assert_eq!(back, entries);
        assert_eq!(decode(&[0x80]), Err(Corrupt));
        assert_eq!(split(-1), (-1, (1 << SUFFIX_BITS) - 1));
    }
}
