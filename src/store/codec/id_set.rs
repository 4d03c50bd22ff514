//! A set of ids (game ids, game indexes in a file) held as one bit each:
//! the ids of a million games take 125 KiB.

/// A set of non-negative ids, a bit each up to the largest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdSet(Vec<u64>);

impl IdSet {
    /// Whether `id` is in the set.
    pub fn contains(&self, id: i64) -> bool {
        let Ok(id) = u64::try_from(id) else {
            return false;
        };
        let (word, bit) = ((id / 64) as usize, id % 64);
        self.0.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }

    /// Adds `id` (a negative id is not kept); whether it was new.
    pub fn insert(&mut self, id: i64) -> bool {
        let Ok(id) = u64::try_from(id) else {
            return false;
        };
        let (word, bit) = ((id / 64) as usize, id % 64);
        if word >= self.0.len() {
            self.0.resize(word + 1, 0);
        }
        let new = self.0[word] & (1 << bit) == 0;
        self.0[word] |= 1 << bit;
        new
    }
}

impl IdSet {
    /// The ids in both sets.
    pub fn intersection(&self, other: &IdSet) -> IdSet {
        let mut words: Vec<u64> = self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect();
        // Held up to the largest id in the set, as one built by inserts.
        while words.last() == Some(&0) {
            words.pop();
        }
        IdSet(words)
    }
}

impl FromIterator<i64> for IdSet {
    fn from_iter<I: IntoIterator<Item = i64>>(ids: I) -> IdSet {
        let mut set = IdSet::default();
        for id in ids {
            set.insert(id);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_one_bit_each() {
        let mut set: IdSet = [1, 2, 64, 200, -5].into_iter().collect();
        assert!(set.contains(1) && set.contains(64) && set.contains(200));
        assert!(!set.contains(0) && !set.contains(3) && !set.contains(-5));
        assert!(!set.contains(10_000));
        assert_eq!(set.0.len(), 4);
        assert!(set.insert(3));
        assert!(!set.insert(3));
        assert!(set.contains(3));
        let other: IdSet = [3, 64, 300].into_iter().collect();
        let both = set.intersection(&other);
        assert_eq!(both, [3, 64].into_iter().collect());
        assert_eq!(other.intersection(&set), both);
    }
}
