//! The opening tree at a start position with a filter on players, sides,
//! dates and who won, read from the game table's indexes alone.
//!
//! At the start every game is, and a player's games there are a tenth of
//! an archive: reading each one's row costs a few microseconds a game.
//! But a game's next move at its start is its first stored move, and the
//! indexes of players (`game_pair`: White then Black; `game_black`: Black
//! then White) and of days (`game_day`) also hold each game's variant,
//! start FEN, outcome, first bytes of moves and whether its reading was
//! certain (schema step 21). The games of such a filter are then counted
//! from those index entries, in key order, without their rows; SQLite
//! keeps the indexes with the table, so they always say what the rows do.
//!
//! This is used only where it gives exactly what reading the games gives:
//! - the position is popular and every index row under its key is the
//!   start row of a game that starts there (`popular_rows` against
//!   `start_move`): no game comes to it later and no other position
//!   shares its key;
//! - every game is in the position index (`index_state`);
//! - a game whose reading was not certain (its record kept) may have no
//!   certain first move: those few are read as the games' path reads them.
//!
//! Else, and for the other filters (event, site, status, opening, a result
//! as written, combinations), the caller reads the games.

use std::collections::HashMap;

use rusqlite::types::Value;

use crate::notation::Notation;
use crate::rules::{Geometry, Move, Position, Rules};
use crate::store::codec::id_set::IdSet;
use crate::store::codec::moves::{canonical_moves, index_at};
use crate::store::read::games::{GameFilter, ResultFilter, date_terms, in_list, json_list, param};
use crate::store::read::query::{TreeMove, VariantFilter, count_move, tree_moves};
use crate::store::stored::game::start_position;
use crate::store::stored::{Store, StoreError};

/// A condition on `game g` that one of the covering indexes answers, with
/// its parameters.
struct Lookup {
    condition: String,
    params: Vec<Value>,
}

/// A start the tree counts games of: its variant, start FEN and the
/// legal moves there (in canonical order).
struct Start {
    variant: String,
    start_fen: Option<String>,
    legal: Vec<Move>,
}

/// Games counted by start (its index in the starts), index of the first
/// move among the legal ones, and outcome.
type FirstMoves = HashMap<(usize, usize, i64), i64>;

impl Store {
    /// The tree of the games of `filter` that pass `games` at `position`,
    /// read from the covering indexes alone when that gives exactly what
    /// reading the games gives (see the module); `None` when it cannot.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn tree_at_start(
        &self,
        position: &Position,
        filter: &VariantFilter,
        games: &GameFilter,
        notation: Notation,
        geometry: &Geometry,
    ) -> Result<Option<Vec<TreeMove>>, StoreError> {
        let Some(starts) = self.starts_only_at(position, filter)? else {
            return Ok(None);
        };
        let Some(lookups) = self.index_lookups(games)? else {
            return Ok(None);
        };
        let mut counts = FirstMoves::new();
        let mut uncertain: Vec<i64> = Vec::new();
        for lookup in &lookups {
            self.count_first_moves(lookup, &starts, &mut counts, &mut uncertain)?;
        }
        let mut by_move: HashMap<String, [i64; 5]> = HashMap::new();
        for ((start, index, outcome), n) in counts {
            if let Some(mv) = starts[start].legal.get(index) {
                count_move(&mut by_move, mv.full_numeric(), outcome, n);
            }
        }
        if !uncertain.is_empty() {
            let uncertain: IdSet = uncertain.into_iter().collect();
            self.next_moves_among(position, filter, Some(&uncertain), |_, next, outcome| {
                count_move(&mut by_move, next.full_numeric(), outcome, 1);
                Ok(())
            })?;
        }
        Ok(Some(tree_moves(
            by_move,
            position.side(),
            notation,
            geometry,
        )))
    }

    /// The conditions whose games together are those of `filter`, each on
    /// the columns of one covering index; `None` for a filter they do not
    /// answer. A player on either side is White's index, then Black's
    /// without the games White's took.
    fn index_lookups(&self, filter: &GameFilter) -> Result<Option<Vec<Lookup>>, StoreError> {
        let other = filter.event.is_some()
            || filter.site.is_some()
            || filter.status.is_some()
            || filter.variant.is_some()
            || filter.opening.is_some()
            || matches!(filter.result, Some(ResultFilter::Written(_)));
        let by_name = filter.white.is_some() || filter.black.is_some();
        let drivers = [filter.player.is_some(), by_name, filter.date.is_some()];
        if other || drivers.iter().filter(|&&d| d).count() != 1 {
            return Ok(None);
        }
        let mut lookups: Vec<(Vec<String>, Vec<Value>)> = Vec::new();
        if let Some(needle) = &filter.player {
            let names = json_list(&self.names_containing(needle)?);
            let on = |column: &str, without: Option<&str>| {
                let mut params = Vec::new();
                let p = param(&mut params, names.clone());
                let mut terms = vec![in_list(&format!("g.{column}"), &p)];
                if let Some(other) = without {
                    terms.push(format!("NOT {}", in_list(&format!("g.{other}"), &p)));
                }
                (terms, params)
            };
            match filter.colour {
                Some(crate::rules::Color::White) => lookups.push(on("white", None)),
                Some(crate::rules::Color::Black) => lookups.push(on("black", None)),
                None => {
                    lookups.push(on("white", None));
                    lookups.push(on("black", Some("white")));
                }
            }
        } else if by_name {
            let (mut terms, mut params) = (Vec::new(), Vec::new());
            for (needle, column) in [(&filter.white, "white"), (&filter.black, "black")] {
                if let Some(needle) = needle {
                    let p = param(&mut params, json_list(&self.names_containing(needle)?));
                    terms.push(in_list(&format!("g.{column}"), &p));
                }
            }
            lookups.push((terms, params));
        } else if let Some(range) = &filter.date {
            let (mut terms, mut params) = (Vec::new(), Vec::new());
            date_terms(range, &mut terms, &mut params);
            lookups.push((terms, params));
        }
        if let Some(ResultFilter::Winner(winner)) = filter.result {
            for (terms, params) in &mut lookups {
                let p = param(params, Value::Integer(winner.code()));
                terms.push(format!("g.outcome = {p}"));
            }
        }
        Ok(Some(
            lookups
                .into_iter()
                .map(|(terms, params)| Lookup {
                    condition: terms.join(" AND "),
                    params,
                })
                .collect(),
        ))
    }

    /// The starts of `filter`'s variants at `position`, when every index
    /// row under its key is the start row of a game that starts there and
    /// every game is indexed; `None` otherwise.
    fn starts_only_at(
        &self,
        position: &Position,
        filter: &VariantFilter,
    ) -> Result<Option<Vec<Start>>, StoreError> {
        let key = position.zobrist() as i64;
        let rows: Option<i64> = self.conn().query_row(
            "SELECT sum(rows) FROM popular_rows WHERE key = ?1",
            [key],
            |r| r.get(0),
        )?;
        let indexed: bool = self.conn().query_row(
            "SELECT coalesce((SELECT max(id) FROM game), 0) \
             <= coalesce((SELECT indexed_through FROM index_state), 0)",
            [],
            |r| r.get(0),
        )?;
        let Some(rows) = rows.filter(|_| indexed) else {
            return Ok(None);
        };
        let mut stmt = self.conn().prepare_cached(
            "SELECT variant, min(preset), start_fen, sum(games) FROM start_move \
             WHERE start_key = ?1 GROUP BY variant, start_fen",
        )?;
        let mut found = stmt.query([key])?;
        let wanted = filter.0.as_deref().map(|v| v.trim().to_lowercase());
        let (mut here, mut starts) = (0i64, Vec::new());
        while let Some(r) = found.next()? {
            let (variant, preset, start_fen, games): (String, String, String, i64) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            let start_fen = (!start_fen.is_empty()).then_some(start_fen);
            let Ok(rules) = Rules::parse(&variant) else {
                continue;
            };
            if start_position(&rules, start_fen.as_deref()).as_ref() != Some(position) {
                continue;
            }
            here += games;
            if wanted
                .as_ref()
                .is_none_or(|w| *w == preset || *w == variant)
            {
                starts.push(Start {
                    legal: canonical_moves(position, &rules),
                    variant,
                    start_fen,
                });
            }
        }
        Ok((here == rows).then_some(starts))
    }

    /// Counts the first moves of the games of `lookup` that start at one of
    /// `starts`, read from a covering index; those whose reading was not
    /// certain go to `uncertain` instead.
    fn count_first_moves(
        &self,
        lookup: &Lookup,
        starts: &[Start],
        counts: &mut FirstMoves,
        uncertain: &mut Vec<i64>,
    ) -> Result<(), StoreError> {
        // The expressions as the indexes of step 21 hold them, so that
        // SQLite reads them from the index.
        let sql = format!(
            "SELECT g.variant, g.start_fen, g.outcome, substr(g.moves, 1, 2), g.record IS NULL, g.id \
             FROM game g WHERE {}",
            lookup.condition
        );
        let mut stmt = self.conn().prepare_cached(&sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(lookup.params.iter()))?;
        let mut last = usize::MAX;
        while let Some(r) = rows.next()? {
            let variant = r.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
            let start_fen = r
                .get_ref(1)?
                .as_str_or_null()
                .map_err(rusqlite::Error::from)?;
            let is = |s: &Start| s.variant == variant && s.start_fen.as_deref() == start_fen;
            if starts.get(last).is_none_or(|s| !is(s)) {
                match starts.iter().position(is) {
                    Some(i) => last = i,
                    None => continue,
                }
            }
            if !r.get::<_, bool>(4)? {
                uncertain.push(r.get(5)?);
                continue;
            }
            let first = match r.get_ref(3)? {
                rusqlite::types::ValueRef::Blob(b) => index_at(b, 0),
                _ => None,
            };
            if let Some(index) = first {
                *counts.entry((last, index, r.get(2)?)).or_default() += 1;
            }
        }
        Ok(())
    }
}
