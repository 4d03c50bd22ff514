//! The opening tree of the games that pass a filter (`tree --player`,
//! `--date`, …): the games at the position that pass it, each game's next
//! move read from its stored moves at the ply where it reached the
//! position. Without a filter the tree is read from the kept counts
//! ([`Store::tree`]).
//!
//! At a position few games reach (one that is not popular), those games
//! are read and then tested against the filter. At a popular one (the
//! start, where every game is), the games the filter's indexed terms
//! leave (players, event, site, date, opening) are found first from the
//! tag indexes, as a set of ids; the position index is then read in order
//! of game and only the games in that set are read, checked and tested
//! against the rest of the filter. The work grows with the games that
//! pass both, not with the archive: each such game's row is read once.

use std::collections::HashMap;
use std::ops::ControlFlow;

use crate::notation::Notation;
use crate::rules::{Geometry, Move, Position};
use crate::store::codec::id_set::IdSet;
use crate::store::read::games::{Candidates, GameFilter};
use crate::store::read::query::{Ply, TreeMove, VariantFilter, count_move, tree_moves};
use crate::store::stored::popular::is_popular;
use crate::store::stored::{Store, StoreError};

/// Games found at the position tested against the filter at once.
const TESTED_AT_ONCE: usize = 16_384;

impl Store {
    /// The moves played from `position` in the games of `filter` that pass
    /// `games`, most played first (ties by move), with results read for
    /// the side to move; shares and scores are over those games. With an
    /// empty `games`, the same as [`Store::tree`].
    ///
    /// # Errors
    /// A database failure.
    pub fn tree_of(
        &self,
        position: &Position,
        filter: &VariantFilter,
        games: &GameFilter,
        notation: Notation,
        geometry: &Geometry,
    ) -> Result<Vec<TreeMove>, StoreError> {
        if games.is_empty() {
            return self.tree(position, filter, notation, geometry);
        }
        if let Some(tree) = self.tree_at_start(position, filter, games, notation, geometry)? {
            return Ok(tree);
        }
        let (among, test) = if is_popular(self.conn(), position.zobrist() as i64)? {
            match self.candidates(games)? {
                (Candidates::None, _) => return Ok(Vec::new()),
                (Candidates::Some(ids), rest) => (Some(ids), rest),
                (Candidates::All, _) => match self.ids_passing(games)? {
                    None => return Ok(Vec::new()),
                    Some(ids) => (Some(ids), None),
                },
            }
        } else {
            (None, Some(games.clone()))
        };
        let mut by_move: HashMap<String, [i64; 5]> = HashMap::new();
        let mut waiting: Vec<(i64, Move, i64)> = Vec::new();
        let mut count = |waiting: &mut Vec<(i64, Move, i64)>| -> Result<(), StoreError> {
            let passing = match &test {
                Some(test) => {
                    let ids: Vec<i64> = waiting.iter().map(|w| w.0).collect();
                    Some(self.rows_passing(test, &ids)?)
                }
                None => None,
            };
            for (game, next, outcome) in waiting.drain(..) {
                if passing.as_ref().is_none_or(|p| p.contains(game)) {
                    count_move(&mut by_move, next.full_numeric(), outcome, 1);
                }
            }
            Ok(())
        };
        self.next_moves_among(position, filter, among.as_ref(), |game, next, outcome| {
            waiting.push((game, next, outcome));
            if waiting.len() == TESTED_AT_ONCE {
                count(&mut waiting)?;
            }
            Ok(())
        })?;
        count(&mut waiting)?;
        Ok(tree_moves(by_move, position.side(), notation, geometry))
    }

    /// Hands `each` every game of `filter` (of `among` only, when given)
    /// at `position` whose next move there is certain: its id, that move
    /// and its outcome code. Both trees, [`Store::tree_of`] and the one
    /// read from the covering indexes, read games so.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub(in crate::store) fn next_moves_among(
        &self,
        position: &Position,
        filter: &VariantFilter,
        among: Option<&IdSet>,
        mut each: impl FnMut(i64, Move, i64) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.games_at_among(
            position,
            filter,
            Ply::Any,
            among,
            |(game, _, next, outcome)| {
                if let Some(next) = next {
                    each(game, next, outcome)?;
                }
                Ok::<_, StoreError>(ControlFlow::Continue(()))
            },
        )
    }
}
