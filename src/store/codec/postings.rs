//! The position index as postings (schema steps 10 and 12): the one
//! reader and writer of table `posting`.
//!
//! Layout. An index entry says that game `game` is at a position at
//! position number `ply` (its first visit), and whether the move played
//! from there is *open* (not certain, though the game's first reading plays
//! one: readings part there). Entries are kept
//! under the top [`KEPT_BITS`] bits of the position's Zobrist key (the
//! *kept key*): the top [`BUCKET_BITS`] of them name a bucket, the other
//! [`SUFFIX_BITS`] the entry's suffix. A bucket's entries, sorted by
//! (suffix, game, ply), are cut into chunks of at most [`CHUNK_BYTES`]
//! encoded bytes (one SQLite row each, under the bucket and the suffix and
//! game of its first entry), each coded as bits (schema step 14):
//!
//! ```text
//! header:       suffix order, game bits, game order, ply order
//!               (its top bit: entries carry an open bit), one byte each;
//!               the number of entries, LEB128
//! first entry:  suffix (SUFFIX_BITS), game (game bits)
//! then each:    suffix - previous suffix (Exp-Golomb, suffix order), then
//!               game - previous game (Exp-Golomb, game order)
//!                                      when the suffix is the same,
//!               game (game bits)       otherwise
//! every entry:  then ply (Exp-Golomb, ply order), [open bit]
//! ```
//!
//! most significant bit first, the last byte padded with zeros (see
//! [`crate::store::codec::bits`]). The orders and the game width are chosen for the
//! entries a write cuts, so that they take the fewest bits: in a large
//! index a random game id costs its 20-odd bits rather than three bytes,
//! a suffix some hundred past the one before some 9 bits rather than one
//! or two bytes, and a game one past the one before under a popular key a
//! couple of bits. Steps 10 and 12 coded entries as LEB128 numbers
//! (src/store/postings10.rs, src/store/postings12.rs).
//!
//! The move played from an entry's position is not stored: it is the
//! game's stored move at that ply (`game.moves`, its first reading), which
//! the check of every hit against the game reaches anyway. Where the next
//! move is certain the first reading plays it, so that move is the one
//! every reading plays; an open entry has none; an entry at the end of the
//! first reading has none either (no move is stored past it).
//!
//! Why so. One row per (key, game), as before step 10, costs some 23 bytes
//! a position, most of it the 8-byte key and SQLite's cell overhead. Here
//! a row holds a few dozen entries, the key is not stored whole (a bucket
//! fixes 16 bits, the sorted suffixes cost the difference from their
//! neighbour) and a hit is checked against the game anyway (a key shared
//! by two positions costs one replay, as a full-key collision did); a key
//! in every game is read in bounded chunks in game order, so a page of a
//! search stops early. Chunks stay under SQLite's local payload limit for
//! 4 KiB pages, so no row spills to an overflow page. Step 12 kept 32 bits
//! of the key instead of 40 (a suffix's difference from its neighbour
//! takes 1–2 bytes instead of 3) and left out the next move (1–2 bytes):
//! a position sharing the 32 bits costs one more replay, which fails.
//! Step 14 wrote the same entries in bits rather than whole bytes
//! (5.3 → 4.5 bytes an entry in an index of 200,000 games).
//!
//! Writers add entries bucket by bucket (new games, having higher ids,
//! land in the last chunk of their key, which alone is rewritten) and take
//! them out by rewriting the chunks that hold them.

use crate::replay::MAX_PLIES;
use crate::store::codec::bits::{self, BitReader, BitWriter, OutOfBits};

/// Bits of a Zobrist key kept in the index.
pub const KEPT_BITS: u32 = 32;

/// Bits of the kept key that name a bucket.
pub const BUCKET_BITS: u32 = 16;

/// Bits of the kept key stored in each entry.
pub const SUFFIX_BITS: u32 = KEPT_BITS - BUCKET_BITS;

/// Encoded bytes of a chunk at most (a chunk whose first entries alone are
/// longer holds just those): under the 1,002 bytes a row of a WITHOUT
/// ROWID table keeps on a 4 KiB page.
pub const CHUNK_BYTES: usize = 900;

const SUFFIX_MASK: i64 = (1 << SUFFIX_BITS) - 1;

/// The kept key of a Zobrist key (as stored, a signed 64-bit integer): its
/// top [`KEPT_BITS`] bits, in the same order as the keys.
pub fn kept(key: i64) -> i64 {
    key >> (64 - KEPT_BITS)
}

/// The bucket and suffix of a Zobrist key.
pub fn split(key: i64) -> (i64, u32) {
    let kept = kept(key);
    (kept >> SUFFIX_BITS, (kept & SUFFIX_MASK) as u32)
}

/// The least and greatest Zobrist keys with the kept key of `key`.
pub fn key_range(key: i64) -> (i64, i64) {
    let low = kept(key) << (64 - KEPT_BITS);
    (low, low | ((1 << (64 - KEPT_BITS)) - 1))
}

/// One index entry, within its bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    /// The low [`SUFFIX_BITS`] bits of the kept key.
    pub suffix: u32,
    /// Game id.
    pub game: i64,
    /// First position number at which the game is there (at most
    /// [`MAX_PLIES`]).
    pub ply: u32,
    /// Whether the move played from there is not certain although the
    /// game's first reading plays one.
    pub open: bool,
}

/// A chunk that does not decode: the database was damaged or written by
/// something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a chunk of the position index does not decode")]
pub struct Corrupt;

impl From<OutOfBits> for Corrupt {
    fn from(_: OutOfBits) -> Corrupt {
        Corrupt
    }
}

/// The Exp-Golomb orders and game width a chunk's entries are coded with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Coding {
    /// Order of the suffix differences.
    suffix_order: u32,
    /// Bits of a game id written whole.
    game_bits: u32,
    /// Order of the game differences under one suffix.
    game_order: u32,
    /// Order of the plies.
    ply_order: u32,
    /// Whether each entry carries its open bit.
    open_bits: bool,
}

/// Bytes of a chunk's coding, its first bytes; the number of its entries
/// follows as LEB128, then their bits.
const HEADER_BYTES: usize = 4;

/// Entries in one chunk at most (a chunk never holds more entries than a
/// cut allows, nor one suffix and game more plies than a game has).
const MAX_CHUNK_ENTRIES: u64 = 1 << 21;

impl Coding {
    /// The coding that takes the fewest bits for sorted `entries`.
    fn for_entries(entries: &[Entry]) -> Coding {
        let mut suffixes = [0u64; 33];
        let mut games = [0u64; 65];
        let mut plies = [0u64; 33];
        let mut widest = 0;
        let mut open_bits = false;
        for (i, e) in entries.iter().enumerate() {
            match i.checked_sub(1).map(|p| &entries[p]) {
                Some(p) if p.suffix == e.suffix => {
                    suffixes[0] += 1;
                    games[bits::length(e.game.wrapping_sub(p.game) as u64)] += 1;
                }
                Some(p) => suffixes[bits::length(u64::from(e.suffix.wrapping_sub(p.suffix)))] += 1,
                None => {}
            }
            widest = widest.max(bits::length(e.game as u64));
            plies[bits::length(u64::from(e.ply))] += 1;
            open_bits |= e.open;
        }
        Coding {
            suffix_order: bits::best_order(&suffixes, SUFFIX_BITS),
            game_bits: widest.max(1) as u32,
            game_order: bits::best_order(&games, 40),
            ply_order: bits::best_order(&plies, 15),
            open_bits,
        }
    }

    /// The bits `entry` takes coded after `previous` (the chunk's entry
    /// before it).
    fn entry_bits(&self, previous: Option<&Entry>, entry: &Entry) -> u64 {
        let key = match previous {
            None => SUFFIX_BITS + self.game_bits,
            Some(p) if p.suffix == entry.suffix => {
                bits::exp_golomb_bits(0, self.suffix_order)
                    + bits::exp_golomb_bits(entry.game.wrapping_sub(p.game) as u64, self.game_order)
            }
            Some(p) => {
                bits::exp_golomb_bits(
                    u64::from(entry.suffix.wrapping_sub(p.suffix)),
                    self.suffix_order,
                ) + self.game_bits
            }
        };
        u64::from(
            key + bits::exp_golomb_bits(u64::from(entry.ply), self.ply_order)
                + u32::from(self.open_bits),
        )
    }

    /// Encodes sorted `entries` as one chunk.
    #[cfg(test)]
    fn encode(&self, entries: &[Entry]) -> Vec<u8> {
        self.encode_onto(
            entries,
            Vec::with_capacity(HEADER_BYTES + 3 + entries.len() * 5),
        )
    }

    /// [`Coding::encode`], appending to `header`'s bytes.
    fn encode_onto(&self, entries: &[Entry], mut header: Vec<u8>) -> Vec<u8> {
        header.extend([
            self.suffix_order as u8,
            self.game_bits as u8,
            self.game_order as u8,
            self.ply_order as u8 | if self.open_bits { 0x80 } else { 0 },
        ]);
        put(&mut header, entries.len() as u64);
        let mut out = BitWriter::new(header);
        for (i, e) in entries.iter().enumerate() {
            match i.checked_sub(1).map(|p| &entries[p]) {
                None => {
                    out.put(u64::from(e.suffix), SUFFIX_BITS);
                    out.put(e.game as u64, self.game_bits);
                }
                Some(p) if p.suffix == e.suffix => {
                    out.exp_golomb(0, self.suffix_order);
                    out.exp_golomb(e.game.wrapping_sub(p.game) as u64, self.game_order);
                }
                Some(p) => {
                    out.exp_golomb(
                        u64::from(e.suffix.wrapping_sub(p.suffix)),
                        self.suffix_order,
                    );
                    out.put(e.game as u64, self.game_bits);
                }
            }
            out.exp_golomb(u64::from(e.ply), self.ply_order);
            if self.open_bits {
                out.put(u64::from(e.open), 1);
            }
        }
        out.finish()
    }

    /// Reads a chunk's coding and number of entries; returns the bits of its
    /// entries.
    fn read(bytes: &[u8]) -> Result<(Coding, u64, &[u8]), Corrupt> {
        let [suffix_order, game_bits, game_order, ply, ..] = *bytes else {
            return Err(Corrupt);
        };
        let coding = Coding {
            suffix_order: u32::from(suffix_order),
            game_bits: u32::from(game_bits),
            game_order: u32::from(game_order),
            ply_order: u32::from(ply & 0x7F),
            open_bits: ply & 0x80 != 0,
        };
        if coding.suffix_order > SUFFIX_BITS
            || !(1..=64).contains(&coding.game_bits)
            || coding.game_order > 63
            || coding.ply_order > 15
        {
            return Err(Corrupt);
        }
        let mut at = HEADER_BYTES;
        let count = take(bytes, &mut at)?;
        let rest = &bytes[at..];
        // Every entry takes a few bits: more than a bit each is damage (and
        // would have decoding reserve room for nothing).
        if count > MAX_CHUNK_ENTRIES || count > 8 * rest.len() as u64 {
            return Err(Corrupt);
        }
        Ok((coding, count, rest))
    }
}

/// Encodes sorted entries as one chunk.
#[cfg(test)]
pub fn encode(entries: &[Entry]) -> Vec<u8> {
    Coding::for_entries(entries).encode(entries)
}

/// Decodes one chunk, appending its entries to `out`.
///
/// # Errors
/// [`Corrupt`] when the bytes are not a chunk.
pub fn decode_into(bytes: &[u8], out: &mut Vec<Entry>) -> Result<(), Corrupt> {
    let (coding, count, rest) = Coding::read(bytes)?;
    let mut input = BitReader::new(rest);
    let mut previous: Option<Entry> = None;
    out.reserve(count as usize);
    for _ in 0..count {
        let (suffix, game) = match previous {
            None => (
                input.get(SUFFIX_BITS)? as u32,
                input.get(coding.game_bits)? as i64,
            ),
            Some(p) => {
                let delta = input.exp_golomb(coding.suffix_order)?;
                if delta == 0 {
                    let game = input.exp_golomb(coding.game_order)? as i64;
                    (p.suffix, p.game.wrapping_add(game))
                } else {
                    let suffix = u64::from(p.suffix) + delta;
                    if suffix > SUFFIX_MASK as u64 {
                        return Err(Corrupt);
                    }
                    (suffix as u32, input.get(coding.game_bits)? as i64)
                }
            }
        };
        let ply = input.exp_golomb(coding.ply_order)?;
        if ply > MAX_PLIES as u64 {
            return Err(Corrupt);
        }
        let open = coding.open_bits && input.get(1)? == 1;
        let entry = Entry {
            suffix,
            game,
            ply: ply as u32,
            open,
        };
        out.push(entry);
        previous = Some(entry);
    }
    if !input.only_padding_left() {
        return Err(Corrupt);
    }
    Ok(())
}

/// Decodes one chunk.
///
/// # Errors
/// [`Corrupt`] when the bytes are not a chunk.
pub fn decode(bytes: &[u8]) -> Result<Vec<Entry>, Corrupt> {
    let mut out = Vec::new();
    decode_into(bytes, &mut out)?;
    Ok(out)
}

/// Coded chunks of buckets, their bytes one after another in one buffer
/// (two allocations for any number of them): a bucket's sorted entries are
/// cut into chunks of at most [`CHUNK_BYTES`] (never between two entries of
/// one suffix and game), each encoded; the chunks of a bucket share the
/// coding that suits its entries as a whole.
#[derive(Debug, Default)]
pub struct CodedChunks {
    /// Each chunk's bucket, first entry and the end of its bytes.
    heads: Vec<(i64, Entry, usize)>,
    bytes: Vec<u8>,
}

impl CodedChunks {
    /// Adds the chunks of a bucket's sorted entries.
    pub fn add(&mut self, bucket: i64, entries: &[Entry]) {
        let coding = Coding::for_entries(entries);
        let bytes = |entries: u64, bits: u64| {
            HEADER_BYTES as u64 + if entries < 1 << 14 { 2 } else { 3 } + bits.div_ceil(8)
        };
        let chunk = |coded: &mut CodedChunks, entries: &[Entry]| {
            coded.bytes = coding.encode_onto(entries, std::mem::take(&mut coded.bytes));
            coded.heads.push((bucket, entries[0], coded.bytes.len()));
        };
        let mut start = 0;
        let mut bits = 0;
        let mut group = 0;
        while group < entries.len() {
            let head = (entries[group].suffix, entries[group].game);
            let end = group + entries[group..].partition_point(|e| (e.suffix, e.game) == head);
            let group_bits: u64 = (group..end)
                .map(|i| coding.entry_bits((i > start).then(|| &entries[i - 1]), &entries[i]))
                .sum();
            if bytes((end - start) as u64, bits + group_bits) > CHUNK_BYTES as u64 && group > start
            {
                // The group starts the next chunk.
                chunk(self, &entries[start..group]);
                start = group;
                bits = 0;
                continue;
            }
            bits += group_bits;
            group = end;
        }
        if start < entries.len() {
            chunk(self, &entries[start..]);
        }
    }

    /// Each chunk: its bucket, first entry and bytes, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (i64, Entry, &[u8])> {
        let starts = std::iter::once(0).chain(self.heads.iter().map(|&(_, _, end)| end));
        self.heads
            .iter()
            .zip(starts)
            .map(|(&(bucket, head, end), start)| (bucket, head, &self.bytes[start..end]))
    }
}

/// Appends `n` as LEB128.
pub(crate) fn put(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads a LEB128 number at `at`, moving `at` past it.
pub(crate) fn take(bytes: &[u8], at: &mut usize) -> Result<u64, Corrupt> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at).ok_or(Corrupt)?;
        *at += 1;
        let bits = u64::from(byte & 0x7F);
        if shift == 63 && bits > 1 {
            return Err(Corrupt);
        }
        n |= bits << shift;
        if byte & 0x80 == 0 {
            return Ok(n);
        }
    }
    Err(Corrupt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::stored::postings::*;
    use rusqlite::Connection;

    /// A bucket's entries cut into chunks, each with its first entry.
    fn chunks(entries: &[Entry]) -> Vec<(Entry, Vec<u8>)> {
        let mut coded = CodedChunks::default();
        coded.add(0, entries);
        coded
            .iter()
            .map(|(_, head, bytes)| (head, bytes.to_vec()))
            .collect()
    }

    #[test]
    fn buckets_coded_together_are_each_coded_as_alone() {
        let bucket = |n: u32, plies: u32| -> Vec<Entry> {
            (0..n)
                .flat_map(|g| (0..plies).map(move |p| entry(g % 7, i64::from(g), p, p % 5 == 0)))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        let buckets = [
            (3, bucket(1, 1)),
            (-9, bucket(40, 3)),
            (12, bucket(4_000, 2)),
        ];
        let mut together = CodedChunks::default();
        for (b, entries) in &buckets {
            together.add(*b, entries);
        }
        let mut alone = Vec::new();
        for (b, entries) in &buckets {
            let mut one = CodedChunks::default();
            one.add(*b, entries);
            alone.extend(one.iter().map(|(b, head, bytes)| (b, head, bytes.to_vec())));
            let mut decoded = Vec::new();
            for (_, _, bytes) in one.iter() {
                decode_into(bytes, &mut decoded).unwrap();
            }
            assert_eq!(&decoded, entries);
        }
        let together: Vec<_> = together
            .iter()
            .map(|(b, head, bytes)| (b, head, bytes.to_vec()))
            .collect();
        assert!(
            together.len() > buckets.len(),
            "the large bucket takes several chunks"
        );
        assert_eq!(together, alone);
    }
    use proptest::prelude::*;

    fn entry(suffix: u32, game: i64, ply: u32, open: bool) -> Entry {
        Entry {
            suffix,
            game,
            ply,
            open,
        }
    }

    fn sorted(mut entries: Vec<Entry>) -> Vec<Entry> {
        entries.sort_unstable();
        entries.dedup();
        entries
    }

    fn arb_entries() -> impl Strategy<Value = Vec<Entry>> {
        let suffix = prop_oneof![0u32..4, 0u32..(1 << SUFFIX_BITS)];
        let game = prop_oneof![1i64..50, 1i64..i64::MAX, (1i64 << 32)..(1i64 << 33)];
        let ply = prop_oneof![Just(0u32), 0u32..200, Just(MAX_PLIES as u32)];
        let open = prop_oneof![4 => Just(false), 1 => Just(true)];
        proptest::collection::vec(
            (suffix, game, ply, open).prop_map(|(s, g, p, o)| entry(s, g, p, o)),
            0..400,
        )
        .prop_map(sorted)
    }

    proptest! {
        #[test]
        fn chunks_decode_to_what_was_encoded(entries in arb_entries()) {
            prop_assert_eq!(decode(&encode(&entries)).unwrap(), entries.clone());
            let mut back = Vec::new();
            for (head, bytes) in chunks(&entries) {
                let decoded = decode(&bytes).unwrap();
                prop_assert_eq!(decoded.first(), Some(&head));
                prop_assert!(bytes.len() <= CHUNK_BYTES || decoded.iter().all(|e| (e.suffix, e.game) == (head.suffix, head.game)));
                back.extend(decoded);
            }
            prop_assert_eq!(back, entries);
        }

        #[test]
        fn nothing_panics_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = decode(&bytes);
            let mut header = vec![3, 20, 2, 4];
            header.extend(&bytes);
            let _ = decode(&header);
        }

        #[test]
        fn kept_keys_keep_the_order_of_keys(a in any::<i64>(), b in any::<i64>()) {
            if a <= b {
                prop_assert!(split(a) <= split(b));
            }
            let (low, high) = key_range(a);
            prop_assert!(low <= a && a <= high);
            prop_assert_eq!(split(low), split(a));
            prop_assert_eq!(split(high), split(a));
        }
    }

    #[test]
    fn edge_entries_round_trip() {
        let cases = [
            vec![entry(0, 1, 0, false)],
            vec![entry(
                (1 << SUFFIX_BITS) - 1,
                i64::MAX,
                MAX_PLIES as u32,
                true,
            )],
            vec![
                entry(5, 1 << 40, 0, true),
                entry(5, (1 << 40) + 1, MAX_PLIES as u32, false),
            ],
            vec![],
        ];
        for entries in cases {
            assert_eq!(decode(&encode(&entries)).unwrap(), entries);
        }
    }

    #[test]
    fn a_key_in_every_game_is_cut_into_bounded_chunks() {
        let entries: Vec<Entry> = (1..=100_000).map(|g| entry(7, g, 0, false)).collect();
        let cut = chunks(&entries);
        assert!(cut.len() > 40);
        assert!(cut.iter().all(|(_, bytes)| bytes.len() <= CHUNK_BYTES));
        // Some four bits an entry: the games' differences are 1.
        assert!(cut.iter().map(|(_, b)| b.len()).sum::<usize>() <= entries.len() * 3 / 4);
    }

    #[test]
    fn damaged_chunks_are_refused() {
        let bytes = encode(&[entry(3, 9, 1, false), entry(4, 10, 1, true)]);
        assert_eq!(
            decode(&bytes),
            Ok(vec![entry(3, 9, 1, false), entry(4, 10, 1, true)])
        );
        assert_eq!(decode(&bytes[..bytes.len() - 1]), Err(Corrupt));
        assert_eq!(decode(&[0xFF; 11]), Err(Corrupt));
        assert_eq!(decode(&[]), Err(Corrupt));
        // A byte past the entries.
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer), Err(Corrupt));
        // More entries said than there are.
        let mut more = bytes.clone();
        more[HEADER_BYTES] = 3;
        assert_eq!(decode(&more), Err(Corrupt));
        // Far more entries said than the bytes could hold.
        let mut many = bytes[..HEADER_BYTES].to_vec();
        many.extend([0xFF, 0xFF, 0x7F, 0, 0]);
        assert_eq!(decode(&many), Err(Corrupt));
        // A suffix past its bits: first suffix 0xFFFF, then a difference of 1.
        let far = Coding {
            suffix_order: 0,
            game_bits: 4,
            game_order: 0,
            ply_order: 0,
            open_bits: false,
        };
        let past = far.encode(&[entry(0xFFFF, 1, 0, false), entry(0x1_0000, 2, 0, false)]);
        assert_eq!(decode(&past), Err(Corrupt));
        // A ply past the plies.
        let deep = far.encode(&[entry(1, 1, MAX_PLIES as u32 + 1, false)]);
        assert_eq!(decode(&deep), Err(Corrupt));
    }

    #[test]
    fn entries_take_fewer_bytes_than_as_numbers_of_whole_bytes() {
        // A bucket of a large index: suffixes some 100 apart, games to a
        // million, plies to 80.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut suffix = 0;
        let mut entries = Vec::new();
        for _ in 0..600 {
            suffix += 1 + next(190) as u32;
            entries.push(entry(
                suffix,
                1 + next(1_000_000) as i64,
                next(80) as u32,
                false,
            ));
        }
        let sorted = sorted(entries);
        let coded: usize = chunks(&sorted).iter().map(|(_, b)| b.len()).sum();
        let mut whole = Vec::new();
        let mut previous: Option<&Entry> = None;
        for e in &sorted {
            let gap = previous.map_or(e.suffix, |p| e.suffix - p.suffix);
            put(&mut whole, u64::from(gap));
            put(&mut whole, e.game as u64);
            put(&mut whole, u64::from(e.ply));
            previous = Some(e);
        }
        assert!(coded * 100 < whole.len() * 88, "{coded} vs {}", whole.len());
    }

    fn db() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::store::schema::migrate::migrate(&mut conn).unwrap();
        conn
    }

    #[test]
    fn entries_added_in_steps_read_back_by_key_in_game_order() {
        let mut conn = db();
        let tx = conn.transaction().unwrap();
        let key = 0x1234_5678_9ABC_DEF0_i64;
        let other = key ^ (1 << 40); // same bucket, another suffix
        let (bucket, suffix) = split(key);
        let (_, other_suffix) = split(other);
        assert_ne!(suffix, other_suffix);
        let mut first: Vec<Entry> = (1..=500).map(|g| entry(suffix, g, 3, false)).collect();
        first.extend((1..=500).map(|g| entry(other_suffix, g, 4, true)));
        let first = sorted(first);
        assert!(add(&tx, bucket, &first, true).unwrap().iter().all(|&a| a));
        let more = [entry(suffix, 501, 2, true), entry(suffix, 1000, 0, false)];
        // One already there.
        let again = sorted(vec![entry(suffix, 7, 3, false), more[0], more[1]]);
        assert_eq!(
            add(&tx, bucket, &again, false).unwrap(),
            vec![false, true, true]
        );
        let found = entries_at(&tx, key).unwrap();
        assert_eq!(found.len(), 502);
        assert!(found.windows(2).all(|w| w[0].game < w[1].game));
        assert_eq!(found.last(), Some(&more[1]));
        assert_eq!(count_at(&tx, other).unwrap(), 500);
        assert_eq!(count(&tx).unwrap(), 1002);
        assert_eq!(remove(&tx, key, 501, 2).unwrap(), Some(true));
        assert_eq!(remove(&tx, key, 501, 2).unwrap(), None);
        assert_eq!(remove(&tx, key, 1, 99).unwrap(), None);
        let removed = remove_games(&tx, |g| g <= 10, |_, _| Ok(())).unwrap();
        assert_eq!(removed, 20);
        assert_eq!(count(&tx).unwrap(), 981);
        assert_eq!(entries_at(&tx, key).unwrap()[0].game, 11);
        let everything = all(&tx).unwrap();
        assert_eq!(everything.len(), 981);
        assert!(
            everything
                .windows(2)
                .all(|w| (w[0].0, w[0].1) <= (w[1].0, w[1].1))
        );
        assert_eq!(everything[0].0, kept(key.min(other)));
    }
}
