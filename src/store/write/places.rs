//! Which game of a file read again takes the id of the old game at its
//! place, so that a corrected game keeps its id (and links to it, such as
//! `/game/ID`, keep working).
//!
//! A replacement keeps the games whose text did not change (they keep
//! their ids) and adds the others as new games. The kept games align the
//! two versions: between two kept games that follow each other in both
//! versions (and before the first, after the last) lies a *stretch* of
//! each, the new games added there and the old games that leave there
//! (no file holds them any more). When both stretches hold as many games,
//! the n-th new game takes the n-th old game's place (a game corrected in
//! its file, or several). Otherwise games were inserted or deleted there
//! too, and a new game takes the place of the next old game of the stretch
//! only when their players, event, site and date are the same, in order:
//! a game inserted before a corrected one never takes another game's id,
//! and the corrected one still finds its own when its tags did not change.
//!
//! Each old game leaves one id, taken at most once; each new game takes at
//! most one. The new game is stored first under a new id (its index rows
//! waiting in memory, or set aside in sorted runs), then moved to the old
//! id once the old game is deleted, in the replacement's transaction: see
//! [`renumber`].

use std::collections::HashSet;

use rusqlite::{OptionalExtension, Transaction, params};

use crate::store::stored::StoreError;

/// Pairs `(x, y)` noted in increasing `x`, held as runs in which both go up
/// by one (a file read again keeps long runs of games in order: a million
/// kept games take a few runs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::store) struct Runs {
    /// First `x`, first `y`, length.
    runs: Vec<(i64, i64, i64)>,
}

impl Runs {
    /// Notes `(x, y)`; `x` is greater than every `x` noted before.
    pub(in crate::store) fn push(&mut self, x: i64, y: i64) {
        if let Some((x0, y0, len)) = self.runs.last_mut()
            && *x0 + *len == x
            && *y0 + *len == y
        {
            *len += 1;
            return;
        }
        self.runs.push((x, y, 1));
    }

    /// Every pair noted, in order of `x`.
    pub(in crate::store) fn iter(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.runs
            .iter()
            .flat_map(|&(x, y, len)| (0..len).map(move |i| (x + i, y + i)))
    }

    /// Whether nothing was noted.
    pub(in crate::store) fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

/// What a replacement notes of the new version's games as it writes them.
#[derive(Clone, Debug, Default)]
pub(in crate::store) struct Places {
    /// Games found among the old copies by their text: (new index, old
    /// index).
    kept: Runs,
    /// Games stored as new games: (new index, id).
    added: Runs,
}

/// A stretch of one version between two kept games: the indexes strictly
/// between `after` and `before`.
#[derive(Clone, Copy, Debug)]
struct Stretch {
    after: i64,
    before: i64,
}

impl Stretch {
    fn holds(&self, index: i64) -> bool {
        self.after < index && index < self.before
    }
}

/// New games looked at past the last paired one, at most, for one whose
/// tags match an old game's: bounds the work of a stretch of many.
const LOOK_AHEAD: usize = 64;

impl Places {
    /// Notes that the new version's game at `index` was found as the old
    /// version's game at `old_index` (by its text).
    pub(in crate::store) fn kept(&mut self, index: u64, old_index: i64) {
        self.kept.push(index as i64, old_index);
    }

    /// Notes that the new version's game at `index` was stored as a new
    /// game, `id`.
    pub(in crate::store) fn added(&mut self, index: u64, id: i64) {
        self.added.push(index as i64, id);
    }

    /// The new games that take the place of an old one, as (new id, old
    /// id); `leaving` lists the old copies whose games leave, as (old
    /// index, game), in order of index.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn pair(
        &self,
        tx: &Transaction<'_>,
        leaving: &[(i64, i64)],
    ) -> Result<Vec<(i64, i64)>, StoreError> {
        let mut pairs = Vec::new();
        if self.added.is_empty() || leaving.is_empty() {
            return Ok(pairs);
        }
        let mut taken = HashSet::new();
        let mut added = self.added.iter().peekable();
        let (mut new_after, mut old_after) = (0, 0);
        let bounds = self.kept.iter().map(Some).chain([None]);
        for bound in bounds {
            let (new_before, old_before) = bound.unwrap_or((i64::MAX, i64::MAX));
            let new = Stretch {
                after: new_after,
                before: new_before,
            };
            let mut games = Vec::new();
            while let Some(&(index, id)) = added.peek() {
                if index >= new.before {
                    break;
                }
                if new.holds(index) {
                    games.push(id);
                }
                added.next();
            }
            if !games.is_empty() && old_after < old_before {
                let old = Stretch {
                    after: old_after,
                    before: old_before,
                };
                let from = leaving.partition_point(|c| c.0 <= old.after);
                let to = leaving.partition_point(|c| c.0 < old.before);
                let mut left: Vec<i64> = Vec::new();
                for &(_, game) in &leaving[from..to] {
                    if !taken.contains(&game) && !left.contains(&game) {
                        left.push(game);
                    }
                }
                for (new_id, old_id) in match_stretch(tx, &games, &left)? {
                    taken.insert(old_id);
                    pairs.push((new_id, old_id));
                }
            }
            (new_after, old_after) = (new_before, old_before);
        }
        Ok(pairs)
    }
}

/// Pairs the new games of a stretch with the old ones: in order when they
/// are as many, else by their tags (see the module doc).
fn match_stretch(
    tx: &Transaction<'_>,
    new: &[i64],
    old: &[i64],
) -> Result<Vec<(i64, i64)>, StoreError> {
    if new.len() == old.len() {
        return Ok(new.iter().copied().zip(old.iter().copied()).collect());
    }
    let mut pairs = Vec::new();
    let mut next_new = 0;
    for &old_id in old {
        let Some(tags) = tags_of(tx, old_id)? else {
            continue;
        };
        for (at, &new_id) in new.iter().enumerate().skip(next_new).take(LOOK_AHEAD) {
            if tags_of(tx, new_id)?.as_ref() == Some(&tags) {
                pairs.push((new_id, old_id));
                next_new = at + 1;
                break;
            }
        }
    }
    Ok(pairs)
}

/// What a game's place is recognised by when games were inserted or
/// deleted around it: its players, event, site and date.
type PlaceTags = (String, String, String, String, String);

fn tags_of(tx: &Transaction<'_>, id: i64) -> Result<Option<PlaceTags>, StoreError> {
    Ok(tx
        .prepare_cached("SELECT white, black, event, site, date FROM game WHERE id = ?1")?
        .query_row([id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .optional()?)
}

/// Moves each new game of `pairs` (new id, old id) to its old id: its row
/// and its copies. The old games must be deleted already; the new games'
/// index rows are renumbered by the caller, in the same transaction.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn renumber(
    tx: &Transaction<'_>,
    pairs: &[(i64, i64)],
) -> Result<(), StoreError> {
    if pairs.is_empty() {
        return Ok(());
    }
    // A copy names its game: checked at the commit, once both moved.
    tx.pragma_update(None, "defer_foreign_keys", true)?;
    for &(new, old) in pairs {
        tx.prepare_cached("UPDATE game SET id = ?2 WHERE id = ?1")?
            .execute(params![new, old])?;
        tx.prepare_cached("UPDATE provenance SET game = ?2 WHERE game = ?1")?
            .execute(params![new, old])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_hold_pairs_that_go_up_together_as_one() {
        let mut runs = Runs::default();
        for (x, y) in [(1, 10), (2, 11), (3, 12), (5, 13), (6, 14), (7, 20)] {
            runs.push(x, y);
        }
        assert_eq!(runs.runs.len(), 3);
        let all: Vec<(i64, i64)> = runs.iter().collect();
        assert_eq!(
            all,
            vec![(1, 10), (2, 11), (3, 12), (5, 13), (6, 14), (7, 20)]
        );
    }

    /// A database whose games 1..=n have white `W{tag}` for each tag.
    fn games(tags: &[(i64, &str)]) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE game (id INTEGER PRIMARY KEY, white TEXT, black TEXT, event TEXT, \
             site TEXT, date TEXT)",
        )
        .unwrap();
        for (id, tag) in tags {
            conn.execute(
                "INSERT INTO game VALUES (?1, ?2, 'B', 'E', 'S', '2020')",
                params![id, tag],
            )
            .unwrap();
        }
        conn
    }

    fn pairs(
        places: &Places,
        conn: &mut rusqlite::Connection,
        leaving: &[(i64, i64)],
    ) -> Vec<(i64, i64)> {
        let tx = conn.transaction().unwrap();
        places.pair(&tx, leaving).unwrap()
    }

    #[test]
    fn a_corrected_game_takes_the_id_of_the_game_at_its_place() {
        // Old: games 1, 2, 3 at indexes 1..3; game 2 corrected, stored as 10.
        let mut conn = games(&[(1, "a"), (2, "b"), (3, "c"), (10, "b")]);
        let mut places = Places::default();
        places.kept(1, 1);
        places.added(2, 10);
        places.kept(3, 3);
        assert_eq!(pairs(&places, &mut conn, &[(2, 2)]), vec![(10, 2)]);
        // Corrected with other tags too: the place alone decides.
        let mut conn = games(&[(2, "b"), (10, "other")]);
        assert_eq!(pairs(&places, &mut conn, &[(2, 2)]), vec![(10, 2)]);
    }

    #[test]
    fn an_inserted_game_takes_no_id_and_a_corrected_one_beside_it_finds_its_own() {
        // Old a b c; new a x b' c: x (11) inserted before b corrected (10).
        let mut conn = games(&[(1, "a"), (2, "b"), (3, "c"), (10, "b"), (11, "x")]);
        let mut places = Places::default();
        places.kept(1, 1);
        places.added(2, 11);
        places.added(3, 10);
        places.kept(4, 3);
        assert_eq!(pairs(&places, &mut conn, &[(2, 2)]), vec![(10, 2)]);
        // Old a b c; new a x b c: nothing leaves, nothing is paired.
        let mut places = Places::default();
        places.kept(1, 1);
        places.added(2, 11);
        places.kept(3, 2);
        places.kept(4, 3);
        assert_eq!(pairs(&places, &mut conn, &[]), vec![]);
        // Old a b c; new a x c (b deleted, x inserted at its place): as
        // many on each side, x takes b's place.
        let mut places = Places::default();
        places.kept(1, 1);
        places.added(2, 11);
        places.kept(3, 3);
        assert_eq!(pairs(&places, &mut conn, &[(2, 2)]), vec![(11, 2)]);
    }

    #[test]
    fn games_at_the_ends_and_games_moved_are_paired_within_their_stretch() {
        let mut conn = games(&[(1, "a"), (2, "b"), (3, "c"), (10, "a"), (11, "c")]);
        // Old a b c; new a' b c': both ends corrected.
        let mut places = Places::default();
        places.added(1, 10);
        places.kept(2, 2);
        places.added(3, 11);
        assert_eq!(
            pairs(&places, &mut conn, &[(1, 1), (3, 3)]),
            vec![(10, 1), (11, 3)]
        );
        // Old a b c; new c b a' (kept games in another order): the stretch
        // between c and b is none on the old side.
        let mut places = Places::default();
        places.kept(1, 3);
        places.added(2, 10);
        places.kept(3, 2);
        assert_eq!(pairs(&places, &mut conn, &[(1, 1)]), vec![]);
    }

    #[test]
    fn an_old_game_with_two_copies_leaves_one_id() {
        // Old: game 2 at indexes 2 and 3; new: both corrected, differently.
        let mut conn = games(&[(1, "a"), (2, "b"), (10, "b"), (11, "b")]);
        let mut places = Places::default();
        places.kept(1, 1);
        places.added(2, 10);
        places.added(3, 11);
        assert_eq!(pairs(&places, &mut conn, &[(2, 2), (3, 2)]), vec![(10, 2)]);
    }
}
