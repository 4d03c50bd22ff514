//! The position index as schema step 12 wrote it: the entries of
//! [`crate::store::stored::postings`] coded as LEB128 numbers. Written by the code that
//! applies step 12 to an older database, read by the code that applies
//! step 14, which codes every chunk as [`crate::store::stored::postings`] does now.
//!
//! A chunk is a run of LEB128 numbers: the first entry's suffix, game and
//! place; then each entry's suffix less the one before, its game less the
//! one before when the suffix is the same (else its game), and its place
//! (the ply, or [`OPEN_PLACE`] plus the ply for an open entry). Chunks are
//! cut at [`CHUNK_BYTES`], never between two entries of one suffix and
//! game.

use rusqlite::{Transaction, params};

use crate::replay::MAX_PLIES;
use crate::store::stored::StoreError;
use crate::store::stored::postings::{CHUNK_BYTES, Corrupt, Entry, SUFFIX_BITS, put, take};

/// What an open entry's coded place adds to its ply: past every ply.
pub const OPEN_PLACE: u64 = MAX_PLIES as u64 + 1;

/// Appends `entry`, coded after `previous` (the chunk's entry before it).
fn encode_entry(out: &mut Vec<u8>, previous: Option<&Entry>, entry: &Entry) {
    match previous {
        None => {
            put(out, u64::from(entry.suffix));
            put(out, entry.game as u64);
        }
        Some(p) => {
            put(out, u64::from(entry.suffix.wrapping_sub(p.suffix)));
            if entry.suffix == p.suffix {
                put(out, entry.game.wrapping_sub(p.game) as u64);
            } else {
                put(out, entry.game as u64);
            }
        }
    }
    put(
        out,
        u64::from(entry.ply) + if entry.open { OPEN_PLACE } else { 0 },
    );
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
        let place = take(bytes, &mut at)?;
        let open = place >= OPEN_PLACE;
        let ply = place - if open { OPEN_PLACE } else { 0 };
        if ply > MAX_PLIES as u64 {
            return Err(Corrupt);
        }
        out.push(Entry {
            suffix,
            game,
            ply: ply as u32,
            open,
        });
    }
    Ok(out)
}

/// Writes a bucket's sorted entries (the bucket empty before) as chunks.
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

/// Writes a bucket's sorted entries (the bucket empty before) as chunks of
/// LEB128 numbers of at most [`CHUNK_BYTES`], never cut between two entries
/// of one suffix and game (as steps 10 and 12 wrote them): `head` gives an
/// entry's suffix and game, `encode_entry` codes an entry after the one
/// before it in its chunk.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn write_leb128_bucket<E>(
    tx: &Transaction<'_>,
    bucket: i64,
    entries: &[E],
    head: impl Fn(&E) -> (u32, i64),
    encode_entry: impl Fn(&mut Vec<u8>, Option<&E>, &E),
) -> Result<(), StoreError> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO posting (bucket, suffix, game, entries) VALUES (?1, ?2, ?3, ?4)",
    )?;
    let mut bytes: Vec<u8> = Vec::new();
    let mut start = 0;
    let mut group = 0;
    while group < entries.len() {
        let group_head = head(&entries[group]);
        let end = group + entries[group..].partition_point(|e| head(e) == group_head);
        let before = bytes.len();
        for i in group..end {
            encode_entry(
                &mut bytes,
                (i > start).then(|| &entries[i - 1]),
                &entries[i],
            );
        }
        if bytes.len() > CHUNK_BYTES && group > start {
            bytes.truncate(before);
            let (suffix, game) = head(&entries[start]);
            insert.execute(params![bucket, suffix, game, bytes])?;
            bytes.clear();
            start = group;
            continue;
        }
        group = end;
    }
    if let Some(first) = entries.get(start) {
        let (suffix, game) = head(first);
        insert.execute(params![bucket, suffix, game, bytes])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry(suffix: u32, game: i64, ply: u32, open: bool) -> Entry {
        Entry {
            suffix,
            game,
            ply,
            open,
        }
    }

    fn table() -> rusqlite::Connection {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE posting (bucket INTEGER NOT NULL, suffix INTEGER NOT NULL, \
             game INTEGER NOT NULL, entries BLOB NOT NULL, PRIMARY KEY (bucket, suffix, game)) WITHOUT ROWID",
        )
        .unwrap();
        conn
    }

    #[test]
    fn written_chunks_decode_to_the_entries() {
        let mut conn = table();
        let mut entries: Vec<Entry> = (1..=3000).map(|g| entry(7, g, 2, g % 5 == 0)).collect();
        entries.extend((1..=400).map(|s| entry(7 + s, 9 * i64::from(s), s, false)));
        entries.push(entry(
            (1 << SUFFIX_BITS) - 1,
            i64::MAX,
            MAX_PLIES as u32,
            true,
        ));
        let tx = conn.transaction().unwrap();
        write_bucket(&tx, -3, &entries).unwrap();
        let mut back = Vec::new();
        let mut stmt = tx
            .prepare("SELECT suffix, game, entries FROM posting ORDER BY suffix, game")
            .unwrap();
        let mut rows = stmt.query([]).unwrap();
        let mut chunks = 0;
        while let Some(r) = rows.next().unwrap() {
            let bytes: Vec<u8> = r.get(2).unwrap();
            assert!(bytes.len() <= CHUNK_BYTES);
            let decoded = decode(&bytes).unwrap();
            assert_eq!(
                (decoded[0].suffix, decoded[0].game),
                (r.get(0).unwrap(), r.get(1).unwrap())
            );
            back.extend(decoded);
            chunks += 1;
        }
        assert!(chunks > 5);
        assert_eq!(back, entries);
    }

    #[test]
    fn damaged_chunks_are_refused() {
        let mut bytes = Vec::new();
        encode_entry(&mut bytes, None, &entry(3, 9, 1, false));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), Err(Corrupt));
        assert_eq!(decode(&[0xFF; 11]), Err(Corrupt));
        let mut big = Vec::new();
        put(&mut big, 1 << SUFFIX_BITS);
        big.extend([1, 0]);
        assert_eq!(decode(&big), Err(Corrupt));
        let mut far = vec![1, 1];
        put(&mut far, 2 * OPEN_PLACE);
        assert_eq!(decode(&far), Err(Corrupt));
    }

    proptest! {
        #[test]
        fn nothing_panics_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = decode(&bytes);
        }
    }
}
