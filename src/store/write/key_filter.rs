//! The duplicate keys of the games an import stored into an empty
//! database, as a Bloom filter: a key it does not hold is no stored game's,
//! so that the look-up of a stored game equal to a new one is spared for
//! nearly every new game.
//!
//! The filter grows with the keys put in (twice its bits each time it is
//! crowded, filled again from `game.dup_key`), so that at any number of
//! games about 1% of the keys not in it find all their bits set: a look-up
//! of that many games in an index of millions, not of a quarter of them.

use rusqlite::Transaction;

use crate::store::stored::StoreError;

/// The bits of a new filter, as a power of two (2^25 bits: 4 MiB, for
/// some 2.8 million keys).
const FIRST_BITS: u32 = 25;

/// Bits per key at least: with [`PROBES`] bits a key, 12 bits a key let
/// some 1% of the keys not in find their bits set.
const BITS_PER_KEY: usize = 12;

/// Bits set for each key.
const PROBES: usize = 3;

/// Duplicate keys of stored games (see the module's documentation).
pub(in crate::store) struct KeyFilter {
    words: Vec<u64>,
    /// The filter's bits, as a power of two.
    bits: u32,
    /// Keys put in.
    keys: usize,
}

impl Default for KeyFilter {
    fn default() -> KeyFilter {
        KeyFilter::with_bits(FIRST_BITS)
    }
}

impl KeyFilter {
    fn with_bits(bits: u32) -> KeyFilter {
        KeyFilter {
            words: vec![0; 1 << (bits - 6)],
            bits,
            keys: 0,
        }
    }

    /// The bits of `key`: three of the filter's, drawn from the key's two
    /// halves (the keys are hashes already).
    fn probes(&self, key: i64) -> [(usize, u64); PROBES] {
        let key = key as u64;
        let (low, high) = (key & 0xFFFF_FFFF, (key >> 32) | 1);
        let mask = (1u64 << self.bits) - 1;
        std::array::from_fn(|i| {
            let bit = low.wrapping_add((i as u64).wrapping_mul(high)) & mask;
            ((bit >> 6) as usize, 1 << (bit & 63))
        })
    }

    /// Whether `key` may have been put in (false: certainly not).
    pub(in crate::store) fn may_hold(&self, key: i64) -> bool {
        self.probes(key)
            .iter()
            .all(|&(word, bit)| self.words[word] & bit != 0)
    }

    /// Puts `key` in.
    fn put(&mut self, key: i64) {
        for (word, bit) in self.probes(key) {
            self.words[word] |= bit;
        }
        self.keys += 1;
    }

    /// Puts `key` in, the key of a game just stored in `tx`. When the
    /// filter is then crowded, it is made anew twice as large from the
    /// keys of every stored game (all of them put in by this import).
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn insert(
        &mut self,
        tx: &Transaction<'_>,
        key: i64,
    ) -> Result<(), StoreError> {
        self.put(key);
        if self.keys * BITS_PER_KEY > 1 << self.bits {
            let mut grown = KeyFilter::with_bits(self.bits + 1);
            let mut keys = tx.prepare("SELECT dup_key FROM game")?;
            let mut rows = keys.query([])?;
            while let Some(row) = rows.next()? {
                grown.put(row.get::<_, Option<i64>>(0)?.unwrap_or(0));
            }
            *self = grown;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(range: std::ops::Range<u64>) -> impl Iterator<Item = i64> {
        range.map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) as i64)
    }

    #[test]
    fn a_filter_holds_the_keys_put_in_and_few_others() {
        let mut filter = KeyFilter::default();
        for key in spread(0..100_000) {
            filter.put(key);
        }
        assert!(spread(0..100_000).all(|key| filter.may_hold(key)));
        let others = spread(100_000..200_000)
            .filter(|&key| filter.may_hold(key))
            .count();
        assert!(others < 100, "{others} of 100,000 others held");
    }

    #[test]
    fn a_crowded_filter_grows_from_the_stored_keys_and_keeps_them() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE game (id INTEGER PRIMARY KEY, dup_key INTEGER)")
            .unwrap();
        let tx = conn.transaction().unwrap();
        let mut filter = KeyFilter::with_bits(12);
        let keys: Vec<i64> = spread(0..2_000).collect();
        for &key in &keys {
            tx.execute("INSERT INTO game (dup_key) VALUES (?1)", [key])
                .unwrap();
            filter.insert(&tx, key).unwrap();
        }
        // 2,000 keys at 12 bits each need 2^15 bits at least.
        assert_eq!(filter.bits, 15);
        assert!(keys.iter().all(|&key| filter.may_hold(key)));
        let others = spread(2_000..12_000)
            .filter(|&key| filter.may_hold(key))
            .count();
        assert!(others < 300, "{others} of 10,000 others held");
    }
}
