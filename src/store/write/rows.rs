//! A stored game's row, and the one place where a game enters or leaves
//! the position index and the counts of the opening tree once it is
//! stored: when a recheck or a new import reads it differently, or when it
//! is removed.

use std::collections::HashMap;

use compact_str::CompactString;
use rusqlite::{OptionalExtension, Transaction, params};

use crate::pdn::Reader;
use crate::replay::{Overrides, check_game};
use crate::rules::{Move, Rules};
use crate::store::codec::id_set::IdSet;
use crate::store::stored::StoreError;
use crate::store::stored::postings;
use crate::store::write::counts::GameCounts;
use crate::store::write::index::certain_positions;
use crate::store::write::move_ids::move_id;
use crate::store::write::popular::{Tally, popular_sharing};
use crate::store::write::prepared::{Prepared, StartMove, equal_game, insert_row};

/// A stored game's columns, as far as reading it again can change them.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::store) struct Row {
    pub(in crate::store) status: String,
    pub(in crate::store) variant: String,
    pub(in crate::store) preset: String,
    pub(in crate::store) notation: Option<String>,
    pub(in crate::store) white: String,
    pub(in crate::store) black: String,
    pub(in crate::store) event: String,
    pub(in crate::store) site: String,
    pub(in crate::store) date: String,
    pub(in crate::store) result: Option<String>,
    pub(in crate::store) outcome: i64,
    pub(in crate::store) plies: Option<i64>,
    pub(in crate::store) start_fen: Option<String>,
    pub(in crate::store) moves: Option<Vec<u8>>,
    pub(in crate::store) record: Option<String>,
    pub(in crate::store) variant_from: Option<String>,
    pub(in crate::store) opening: Option<String>,
    pub(in crate::store) opening_ply: Option<i64>,
    pub(in crate::store) ballot: Option<String>,
    pub(in crate::store) result_check: Option<String>,
}

impl Row {
    /// The row a prepared game would be stored as.
    pub(in crate::store) fn of(game: &Prepared) -> Row {
        Row {
            status: game.status.name().to_string(),
            variant: game.variant.to_string(),
            preset: game.preset.to_string(),
            notation: game.notation.map(str::to_string),
            white: game.white.to_string(),
            black: game.black.to_string(),
            event: game.event.to_string(),
            site: game.site.to_string(),
            date: game.date.to_string(),
            result: game.result.as_ref().map(CompactString::to_string),
            outcome: game.outcome,
            plies: game.plies,
            start_fen: game.start_fen.clone(),
            moves: game.moves.clone(),
            record: game.record.clone(),
            variant_from: Some(game.variant_from.to_string()),
            opening: game.named.opening.map(str::to_string),
            opening_ply: game.named.ply.map(i64::from),
            ballot: game.named.ballot.map(str::to_string),
            result_check: Some(game.result_check.name().to_string()),
        }
    }

    /// The stored row of game `id`.
    pub(in crate::store) fn stored(
        tx: &Transaction<'_>,
        id: i64,
    ) -> Result<Option<Row>, StoreError> {
        Ok(tx
            .prepare_cached(
                "SELECT status, variant, preset, notation, white, black, event, date, result, outcome, \
                 plies, start_fen, moves, record, variant_from, site, opening, opening_ply, ballot, \
                 result_check \
                 FROM game WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok(Row {
                    status: r.get(0)?,
                    variant: r.get(1)?,
                    preset: r.get(2)?,
                    notation: r.get(3)?,
                    white: r.get(4)?,
                    black: r.get(5)?,
                    event: r.get(6)?,
                    date: r.get(7)?,
                    result: r.get(8)?,
                    outcome: r.get(9)?,
                    plies: r.get(10)?,
                    start_fen: r.get(11)?,
                    moves: r.get(12)?,
                    record: r.get(13)?,
                    variant_from: r.get(14)?,
                    site: r.get(15)?,
                    opening: r.get(16)?,
                    opening_ply: r.get(17)?,
                    ballot: r.get(18)?,
                    result_check: r.get(19)?,
                })
            })
            .optional()?)
    }

    /// Writes these columns to game `id`, with the move key, duplicate key
    /// and summary of `new`.
    fn write(&self, tx: &Transaction<'_>, id: i64, new: &Prepared) -> Result<(), StoreError> {
        tx.prepare_cached(
            "UPDATE game SET status = ?2, variant = ?3, preset = ?4, notation = ?5, white = ?6, black = ?7, \
             event = ?8, date = ?9, result = ?10, outcome = ?11, plies = ?12, start_fen = ?13, moves = ?14, \
             moves_key = ?15, record = ?16, variant_from = ?17, site = ?18, day = ?19, dup_key = ?20, \
             summary = ?21, opening = ?22, opening_ply = ?23, ballot = ?24, \
             result_check = ?25 WHERE id = ?1",
        )?
        .execute(params![
            id,
            self.status,
            self.variant,
            self.preset,
            self.notation,
            self.white,
            self.black,
            self.event,
            self.date,
            self.result,
            self.outcome,
            self.plies,
            self.start_fen,
            self.moves,
            new.moves_key,
            self.record,
            self.variant_from,
            self.site,
            crate::store::stored::game::day_of(&self.date),
            new.dup_key,
            new.summary,
            self.opening,
            self.opening_ply,
            self.ballot,
            self.result_check,
        ])?;
        Ok(())
    }

    /// The certain positions a game of this row has in the index: its
    /// text read again with the row's variant and notation.
    pub(in crate::store) fn positions(&self, text: &str) -> Vec<(i64, u32, Option<Move>, bool)> {
        if !matches!(self.status.as_str(), "ok" | "ambiguous" | "illegal") {
            return Vec::new();
        }
        let Some(game) = Reader::new(text.as_bytes()).next_game().ok().flatten() else {
            return Vec::new();
        };
        let overrides = Overrides {
            rules: Rules::parse(&self.variant).ok(),
            notation: self.notation.as_deref().and_then(|n| n.parse().ok()),
            skip_alternatives: true,
            ..Overrides::default()
        };
        certain_positions(&check_game(&game, "", &overrides).reading)
    }

    /// This game counted under its start position and first move.
    fn start_move(&self, key: i64, next: i64) -> StartMove<'_> {
        StartMove {
            key,
            variant: &self.variant,
            preset: &self.preset,
            start_fen: self.start_fen.as_deref(),
            next,
            outcome: self.outcome,
        }
    }
}

/// Takes game `id` (stored as `row`, read from `text`) out of the index and
/// the tree counts; returns the index rows removed.
fn unindex(
    tx: &Transaction<'_>,
    id: i64,
    row: &Row,
    text: &str,
    move_ids: &mut HashMap<Move, i64>,
) -> Result<usize, StoreError> {
    let mut removed = 0;
    let mut tally = Tally::default();
    for (key, ply, next, _) in row.positions(text) {
        if let Some(open) = postings::remove(tx, key, id, ply)? {
            removed += 1;
            if let Some(popular) = popular_sharing(tx, key)? {
                // Counted out while the game is still stored as indexed.
                tally.row(tx, popular, id, i64::from(ply), open, -1)?;
            }
        }
        if ply == 0 {
            let next = match next {
                Some(mv) => move_id(tx, move_ids, &mv)?,
                None => 0,
            };
            row.start_move(key, next).remove(tx)?;
        }
    }
    tally.write(tx)?;
    Ok(removed)
}

/// Puts game `id` (now stored as `row`) into the index and the tree counts
/// at `positions`; returns the index rows added.
fn index(
    tx: &Transaction<'_>,
    id: i64,
    row: &Row,
    positions: &[(i64, u32, bool)],
    first_move: Option<Move>,
    move_ids: &mut HashMap<Move, i64>,
) -> Result<usize, StoreError> {
    let mut added = 0;
    let mut tally = Tally::default();
    for &(key, ply, open) in positions {
        let (bucket, suffix) = postings::split(key);
        let entry = postings::Entry {
            suffix,
            game: id,
            ply,
            open,
        };
        let inserted = postings::add(tx, bucket, &[entry], false)?[0];
        if inserted {
            added += 1;
            if let Some(popular) = popular_sharing(tx, key)? {
                // The game is stored as it now reads.
                tally.row(tx, popular, id, i64::from(ply), open, 1)?;
            }
        }
        if ply == 0 {
            let next = match first_move {
                Some(mv) => move_id(tx, move_ids, &mv)?,
                None => 0,
            };
            row.start_move(key, next).add(tx)?;
        }
    }
    tally.write(tx)?;
    Ok(added)
}

/// What bringing a stored game up to a new reading did.
#[derive(Clone, Debug, Default, PartialEq)]
pub(in crate::store) struct Update {
    /// Whether any column changed.
    pub(in crate::store) updated: bool,
    /// The old and new (status, variant) when the game reads differently.
    pub(in crate::store) change: Option<((String, String), (String, String))>,
    /// Whether the game became equal to another stored game and was merged
    /// into it (its copies now name that game).
    pub(in crate::store) merged: bool,
    /// Index rows added.
    pub(in crate::store) positions_added: usize,
    /// Index rows removed.
    pub(in crate::store) positions_removed: usize,
}

/// Brings stored game `id` up to `new`, a fresh reading of its text: its
/// columns, its index rows and tree counts; a game that becomes equal to
/// another is merged into it.
pub(in crate::store) fn update_game(
    tx: &Transaction<'_>,
    id: i64,
    new: &Prepared,
    move_ids: &mut HashMap<Move, i64>,
) -> Result<Update, StoreError> {
    let mut update = Update::default();
    let Some(old) = Row::stored(tx, id)? else {
        return Ok(update);
    };
    let now = Row::of(new);
    if old == now {
        // Games stored before duplicate keys covered every status get theirs.
        tx.prepare_cached("UPDATE game SET dup_key = ?2 WHERE id = ?1 AND dup_key IS NOT ?2")?
            .execute(params![id, new.dup_key])?;
        // Games stored before summaries were kept get theirs.
        tx.prepare_cached("UPDATE game SET summary = ?2 WHERE id = ?1 AND summary IS NOT ?2")?
            .execute(params![id, new.summary])?;
        return Ok(update);
    }
    update.updated = true;
    let read_alike =
        (&old.status, &old.variant, &old.notation) == (&now.status, &now.variant, &now.notation);
    if !read_alike {
        update.change = Some((
            (old.status.clone(), old.variant.clone()),
            (now.status.clone(), now.variant.clone()),
        ));
    }
    let same_index = read_alike
        && (&old.moves, &old.start_fen, old.outcome) == (&now.moves, &now.start_fen, now.outcome);
    if same_index {
        now.write(tx, id, new)?;
        return Ok(update);
    }
    if let Some(text) = crate::store::stored::game::stored_text(tx, id)? {
        update.positions_removed = unindex(tx, id, &old, &text, move_ids)?;
    }
    if let Some(other) = equal_game(tx, new, Some(id))? {
        tx.prepare_cached("UPDATE provenance SET game = ?1 WHERE game = ?2")?
            .execute(params![other, id])?;
        tx.prepare_cached("DELETE FROM game WHERE id = ?1")?
            .execute([id])?;
        update.merged = true;
        return Ok(update);
    }
    now.write(tx, id, new)?;
    update.positions_added = index(tx, id, &now, &new.positions, new.first_move, move_ids)?;
    Ok(update)
}

/// Stores `new` as a game of its own: its row, its counts, its index rows
/// and tree counts. Returns its id and the index rows added. When every
/// game before it is indexed, the index is marked as holding it too.
pub(in crate::store) fn insert_game(
    tx: &Transaction<'_>,
    new: &Prepared,
    move_ids: &mut HashMap<Move, i64>,
) -> Result<(i64, usize), StoreError> {
    let all_indexed: bool = tx.query_row(
        "SELECT (SELECT coalesce(max(indexed_through), 0) FROM index_state) \
              >= (SELECT coalesce(max(id), 0) FROM game)",
        [],
        |r| r.get(0),
    )?;
    let id = insert_row(tx, new)?;
    if all_indexed {
        tx.execute("UPDATE index_state SET indexed_through = ?1", [id])?;
    }
    let mut counts = GameCounts::default();
    counts.add_game(id, &new.counted());
    counts.write(tx)?;
    let added = index(
        tx,
        id,
        &Row::of(new),
        &new.positions,
        new.first_move,
        move_ids,
    )?;
    Ok((id, added))
}

/// Deletes games, every copy of them included: their rows, their index
/// rows and their tree counts. Returns the index rows removed.
///
/// A few games are taken out of the index one by one (their stored text
/// read again says where they are); many, by one pass over the index.
pub(in crate::store) fn delete_games(
    tx: &Transaction<'_>,
    ids: &[i64],
    move_ids: &mut HashMap<Move, i64>,
) -> Result<usize, StoreError> {
    if ids.is_empty() {
        return Ok(0);
    }
    let stored: i64 = tx.query_row("SELECT count(*) FROM game", [], |r| r.get(0))?;
    let removed = if ids.len() >= BULK_GAMES && ids.len() as i64 * 40 >= stored {
        unindex_in_one_pass(tx, ids)?
    } else {
        let mut removed = 0;
        for &id in ids {
            let (Some(row), Some(text)) = (
                Row::stored(tx, id)?,
                crate::store::stored::game::stored_text(tx, id)?,
            ) else {
                continue;
            };
            removed += unindex(tx, id, &row, &text, move_ids)?;
        }
        removed
    };
    for &id in ids {
        tx.prepare_cached("DELETE FROM provenance WHERE game = ?1")?
            .execute([id])?;
        tx.prepare_cached("DELETE FROM game WHERE id = ?1")?
            .execute([id])?;
    }
    Ok(removed)
}

/// Games from which [`delete_games`] may take games out of the index in
/// one pass (when they are also a fortieth of all games or more).
const BULK_GAMES: usize = 1_000;

/// Takes games out of the index and the tree counts by one pass over the
/// index; returns the index rows removed. Memory stays bounded however
/// many games leave: the games as a bit each, the index read in batches
/// (see [`postings::remove_games`]), the start entries counted out by
/// thousands.
fn unindex_in_one_pass(tx: &Transaction<'_>, ids: &[i64]) -> Result<usize, StoreError> {
    // Each entry taken out: the games' start entries counted out of the
    // tree counts, and the entries under popular keys counted out (while
    // the games are still stored).
    let popular = crate::store::write::popular::popular_keys(tx)?;
    let popular: HashMap<i64, i64> = popular
        .into_iter()
        .map(|k| (postings::kept(k), k))
        .collect();
    let mut starts = StartsOut::default();
    let mut tally = Tally::default();
    let ids: IdSet = ids.iter().copied().collect();
    let removed = postings::remove_games(
        tx,
        |g| ids.contains(g),
        |kept, entry| {
            if entry.ply == 0 {
                starts.note(tx, kept, entry.game, entry.open)?;
            }
            if let Some(&key) = popular.get(&kept) {
                tally.row(tx, key, entry.game, i64::from(entry.ply), entry.open, -1)?;
            }
            Ok(())
        },
    )?;
    tally.write(tx)?;
    starts.write(tx)?;
    tx.execute("DELETE FROM start_move WHERE games <= 0", [])?;
    Ok(removed)
}

/// Start entries of leaving games, by kept key, game and openness, to be
/// counted out of `start_move` (while their games are still stored).
#[derive(Default)]
struct StartsOut {
    noted: HashMap<(i64, i64, bool), i64>,
    boards: crate::store::write::popular::Boards,
}

/// Start entries a [`StartsOut`] holds before it counts them out.
const STARTS_HELD: usize = 1 << 16;

impl StartsOut {
    /// Notes a leaving game's start entry; counts out those noted when
    /// they are many.
    fn note(
        &mut self,
        tx: &Transaction<'_>,
        kept: i64,
        game: i64,
        open: bool,
    ) -> Result<(), StoreError> {
        *self.noted.entry((kept, game, open)).or_default() += 1;
        if self.noted.len() >= STARTS_HELD {
            self.write(tx)?;
        }
        Ok(())
    }

    /// Counts the noted entries out of `start_move`: each under its game's
    /// first stored move, unless open.
    fn write(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        let mut first_move = tx
            .prepare_cached("SELECT g.variant, g.start_fen, g.moves FROM game g WHERE g.id = ?1")?;
        let mut named = tx.prepare_cached("SELECT id FROM move_name WHERE name = ?1")?;
        let mut counted_out = tx.prepare_cached(
            "UPDATE start_move SET games = games - 1 WHERE start_key BETWEEN ?1 AND ?2 \
               AND next = ?3 AND (variant, start_fen, outcome) = \
                   (SELECT variant, coalesce(start_fen, ''), outcome FROM game WHERE id = ?4)",
        )?;
        for ((kept, game, open), n) in self.noted.drain() {
            let played = if open {
                None
            } else {
                first_move
                    .query_row([game], |r| {
                        let (variant, start_fen, moves): (String, Option<String>, Option<Vec<u8>>) =
                            (r.get(0)?, r.get(1)?, r.get(2)?);
                        Ok(self
                            .boards
                            .played_at(
                                &variant,
                                start_fen.as_deref(),
                                &moves.unwrap_or_default(),
                                0,
                            )
                            .and_then(|(_, played)| played))
                    })
                    .optional()?
                    .flatten()
            };
            let next: i64 = match played {
                Some(mv) => named
                    .query_row([mv.full_numeric()], |r| r.get(0))
                    .optional()?
                    .unwrap_or(0),
                None => 0,
            };
            let (low, high) = postings::key_range(kept << (64 - postings::KEPT_BITS));
            for _ in 0..n {
                counted_out.execute(params![low, high, next, game])?;
            }
        }
        Ok(())
    }
}

/// Whether game `id` has a copy in a file other than `except`.
pub(in crate::store) fn has_copies(
    tx: &Transaction<'_>,
    id: i64,
    except: Option<i64>,
) -> Result<bool, StoreError> {
    Ok(tx
        .prepare_cached("SELECT 1 FROM provenance WHERE game = ?1 AND file IS NOT ?2 LIMIT 1")?
        .query_row(params![id, except], |_| Ok(()))
        .optional()?
        .is_some())
}
