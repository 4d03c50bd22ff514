//! The opening tree's counts at popular positions (schema step 8).
//!
//! The tree of a position counts the games that reach it by the move they
//! play from there and their outcome. Games at their start are counted in
//! `start_move`; the others are read from the index one row per game and
//! checked by replaying the game to that ply, which at a position a hundred
//! thousand games reach costs hundreds of milliseconds. A key under which
//! the index holds [`POPULAR_GAMES`] rows or more is made popular: every
//! index row under it past the start whose next move is certain is then
//! counted in `popular_move`, under the position its game is really at there
//! (the game's stored moves replayed to that ply, exactly as a query checks
//! a row), so the tree of that position reads a few rows, and a position
//! that merely shares the key is never counted with it.
//!
//! The counts follow the index: every row entering or leaving `position`
//! under a popular key is counted in or out in the same transaction (the
//! merge of an import in [`crate::store::write::index`], a game read again or removed in
//! [`crate::store::write::rows`]). A key stays popular once made so.
//!
//! Which keys are popular. After each merge into the index:
//! - when the index was empty before it, every key with [`POPULAR_GAMES`]
//!   rows or more among the merged ones (the merge counts them exactly);
//! - otherwise, the keys with at least an eighth of that among the merged
//!   rows whose rows, counted in the index, reach it;
//! - and the whole index is looked at again (one pass, grouped by key) once
//!   the database holds half as many games again as when it was last looked
//!   at whole (so an old database, at 0, gets its popular keys from its next
//!   writer).
//!
//! So a key left out holds fewer than [`POPULAR_GAMES`] rows as of the last
//! whole look, plus fewer than an eighth of that per import since, within a
//! growth of the database by half: the tree of a position that is not
//! popular reads a bounded number of rows (some 1,000–2,000 in practice,
//! a few milliseconds), and the whole looks cost one pass over the index
//! each time the database grows by half (linear in all).

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use rusqlite::{OptionalExtension, Transaction, params};

use crate::rules::{Move, PACKED_BYTES, Position, Rules};
use crate::store::codec::moves::{decode_prefix, move_at, prefix};
use crate::store::stored::StoreError;
use crate::store::stored::game::start_position;
use crate::store::stored::popular::is_popular;
use crate::store::stored::postings;
use crate::store::write::move_ids::move_id;

/// Index rows under a key from which it is made popular.
pub const POPULAR_GAMES: i64 = 1_000;

/// The threshold in force: [`POPULAR_GAMES`], or, for tests on small
/// archives only, the value of `PDNDB_TEST_POPULAR_GAMES`.
pub fn threshold() -> i64 {
    std::env::var("PDNDB_TEST_POPULAR_GAMES")
        .ok()
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|&t| t > 0)
        .unwrap_or(POPULAR_GAMES)
}

/// The merged rows under a key from which its rows in the index are
/// counted to see whether it became popular.
pub(in crate::store) fn candidate_rows() -> i64 {
    (threshold() / 8).max(1)
}

/// Move-list prefixes whose position (and whose move played) is kept at
/// most, per start: some 3 MiB a start and kind, forgotten when full.
const PREFIXES_KEPT: usize = 25_000;

/// The popular keys.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn popular_keys(tx: &Transaction<'_>) -> Result<HashSet<i64>, StoreError> {
    let mut stmt = tx.prepare_cached("SELECT key FROM popular_key")?;
    let keys = stmt.query_map([], |r| r.get(0))?;
    Ok(keys.collect::<Result<_, _>>()?)
}

/// What one counted row adds to: key, position, variant, preset, next move
/// and outcome.
type Line = (i64, [u8; PACKED_BYTES], String, String, Move, i64);

/// A [`Line`] with its variant and preset by their number in
/// [`Tally::names`] and its move by its number in [`Tally::moves`] (some
/// 64 bytes an entry of [`Tally::changes`] instead of 120 with the move).
type NamedLine = (i64, [u8; PACKED_BYTES], u32, u32, u32, i64);

/// Games counted by what they add to, the next move by its name.
pub(in crate::store) type Counts =
    HashMap<(i64, [u8; PACKED_BYTES], String, String, String, i64), i64>;

/// A start met (variant and start FEN) with its rules and position, and
/// the positions of the move-list prefixes decoded from it.
struct Start {
    variant: String,
    start_fen: Option<String>,
    start: Option<(Rules, Position)>,
    after: foldhash::HashMap<Vec<u8>, Option<Position>>,
    /// The move played after a prefix, by the prefix and that move.
    played: foldhash::HashMap<Vec<u8>, Option<Move>>,
}

/// The positions games are at, from their stored moves (games sharing
/// their first moves decoded once).
#[derive(Default)]
pub(in crate::store) struct Boards {
    starts: Vec<Start>,
}

impl Boards {
    /// The position after the first `ply` moves of a game of `variant`
    /// from `start_fen`; `None` when the moves do not reach that far or do
    /// not fit the rules (such a row counts nowhere, as a query finds it
    /// nowhere).
    pub(in crate::store) fn at(
        &mut self,
        variant: &str,
        start_fen: Option<&str>,
        moves: &[u8],
        ply: usize,
    ) -> Option<Position> {
        let index = self.start(variant, start_fen);
        let known = &mut self.starts[index];
        let (rules, start) = known.start.as_ref()?;
        let moves = prefix(moves, ply)?;
        if let Some(&position) = known.after.get(moves) {
            return position;
        }
        let position = decode_prefix(rules, start, moves, ply);
        if known.after.len() >= PREFIXES_KEPT {
            known.after.clear();
        }
        known.after.insert(moves.to_vec(), position);
        position
    }

    /// The position after the first `ply` moves, as [`Boards::at`], with
    /// the move the game plays there (`None` past its stored moves).
    pub(in crate::store) fn played_at(
        &mut self,
        variant: &str,
        start_fen: Option<&str>,
        moves: &[u8],
        ply: usize,
    ) -> Option<(Position, Option<Move>)> {
        let position = self.at(variant, start_fen, moves, ply)?;
        let index = self.start(variant, start_fen);
        let known = &mut self.starts[index];
        let (rules, _) = known.start.as_ref()?;
        let Some(through) = prefix(moves, ply + 1) else {
            return Some((position, None));
        };
        if let Some(&played) = known.played.get(through) {
            return Some((position, played));
        }
        let played = move_at(rules, &position, moves, ply);
        if known.played.len() >= PREFIXES_KEPT {
            known.played.clear();
        }
        known.played.insert(through.to_vec(), played);
        Some((position, played))
    }

    /// The index of the start of `variant` from `start_fen`, added when new.
    fn start(&mut self, variant: &str, start_fen: Option<&str>) -> usize {
        if let Some(i) = self
            .starts
            .iter()
            .position(|s| s.variant == variant && s.start_fen.as_deref() == start_fen)
        {
            return i;
        }
        let rules = Rules::parse(variant).ok();
        let start = rules.and_then(|rules| start_position(&rules, start_fen).map(|s| (rules, s)));
        self.starts.push(Start {
            variant: variant.to_string(),
            start_fen: start_fen.map(str::to_string),
            start,
            after: foldhash::HashMap::default(),
            played: foldhash::HashMap::default(),
        });
        self.starts.len() - 1
    }
}

/// Index rows under popular keys by key and variant: their preset and
/// number.
pub(in crate::store) type RowCounts = HashMap<(i64, String), (String, i64)>;

/// Changes to `popular_move` and `popular_rows` not yet written.
#[derive(Default)]
pub(in crate::store) struct Tally {
    changes: foldhash::HashMap<NamedLine, i64>,
    /// Rows by key and variant: the preset first met and their number.
    rows: foldhash::HashMap<(i64, u32), (u32, i64)>,
    /// The variants and presets met, numbered by their place.
    names: Vec<String>,
    /// The moves met, numbered by their place, and their numbers.
    moves: Vec<Move>,
    move_numbers: foldhash::HashMap<Move, u32>,
    boards: Boards,
    move_ids: HashMap<Move, i64>,
    /// Rows of keys made popular, not yet counted, counted in game order
    /// so that each game is read once per [`PENDING_ROWS`] rows.
    pending: Vec<PendingRow>,
    /// The keys of the pending rows, by their number in a row.
    pending_keys: Vec<i64>,
    /// Changes held at most once pending rows are counted, the rest then
    /// written ([`Tally::writing_early`]); `None`: held until written.
    changes_held: Option<usize>,
}

/// A row of a key made popular, waiting to be counted, in 8 bytes: its
/// game (32 bits), its key by number in [`Tally::pending_keys`] (16 bits)
/// and its ply and open bit (`ply << 1 | open`, 16 bits), so that rows sort
/// by game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PendingRow(u64);

impl PendingRow {
    /// The row, or `None` for a game, key number or ply past its bits
    /// (counted on its own instead).
    fn new(game: i64, number: usize, ply: u32, open: bool) -> Option<PendingRow> {
        let game = u32::try_from(game).ok()?;
        let number = u16::try_from(number).ok()?;
        let ply_open = u16::try_from(ply << 1 | u32::from(open)).ok()?;
        Some(PendingRow(
            u64::from(game) << 32 | u64::from(number) << 16 | u64::from(ply_open),
        ))
    }

    fn game(self) -> i64 {
        (self.0 >> 32) as i64
    }

    fn number(self) -> usize {
        (self.0 >> 16 & 0xFFFF) as usize
    }

    fn ply(self) -> i64 {
        (self.0 >> 1 & 0x7FFF) as i64
    }

    fn open(self) -> bool {
        self.0 & 1 == 1
    }
}

/// Rows of keys made popular waiting to be counted, at most (8 bytes
/// each: 32 MiB). The rows of a million games' popular keys (some five
/// million) are counted in two passes over their games, ten million
/// games' (some 68 million) in seventeen.
const PENDING_ROWS: usize = 1 << 22;

/// Keys whose rows wait to be counted, at most (their numbers take 16
/// bits of a [`PendingRow`]).
const PENDING_KEYS: usize = 1 << 16;

/// Changes to `popular_move` held at most once pending rows are counted
/// (some 100 bytes each: 6.5 MiB), then written: at ten million games the
/// popular keys' changes number some 400,000.
const CHANGES_HELD: usize = 1 << 16;

impl Tally {
    /// A tally that writes its changes once they are `held` or more after
    /// pending rows are counted (a recount keeps them all instead).
    fn writing_early(held: usize) -> Tally {
        Tally {
            changes_held: Some(held),
            ..Tally::default()
        }
    }

    /// Counts in (`sign` 1) or out (-1) the index row `(key, game, ply,
    /// open)` of a popular key, read with its game's stored columns (the
    /// game must still be stored as it was indexed): in the key's rows when
    /// its game is at the key's position, in the tree's counts when it is
    /// past the start with a certain next move (the game's stored move
    /// there, unless open).
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn row(
        &mut self,
        tx: &Transaction<'_>,
        key: i64,
        game: i64,
        ply: i64,
        open: bool,
        sign: i64,
    ) -> Result<(), StoreError> {
        let mut stmt = tx.prepare_cached(
            "SELECT variant, preset, start_fen, moves, outcome FROM game WHERE id = ?1",
        )?;
        let mut rows = stmt.query([game])?;
        let Some(r) = rows.next()? else {
            return Ok(());
        };
        let mut game = GameBatch::default();
        game.push(r, 0..0)?;
        if let Some(columns) = game.games.first().map(|g| game.columns(g)) {
            self.game_row(&columns, key, ply, open, sign);
        }
        Ok(())
    }

    /// The number of a variant's or preset's name (few are met).
    fn name(&mut self, name: &str) -> u32 {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i as u32,
            None => {
                self.names.push(name.to_string());
                self.names.len() as u32 - 1
            }
        }
    }

    /// The number of a move (few are met).
    fn move_number(&mut self, played: Move) -> u32 {
        *self.move_numbers.entry(played).or_insert_with(|| {
            self.moves.push(played);
            self.moves.len() as u32 - 1
        })
    }

    /// Counts a row in (or out of) its key's rows of its variant.
    fn count_row(&mut self, key: i64, variant: &str, preset: &str, sign: i64) {
        let (variant, preset) = (self.name(variant), self.name(preset));
        self.rows.entry((key, variant)).or_insert((preset, 0)).1 += sign;
    }

    /// The changes, their variant and preset named.
    fn named_changes(&mut self) -> Vec<(Line, i64)> {
        let (names, moves) = (&self.names, &self.moves);
        let name = |n: u32| names[n as usize].clone();
        self.changes
            .drain()
            .map(|((key, board, variant, preset, next, outcome), games)| {
                let next = moves[next as usize];
                (
                    (key, board, name(variant), name(preset), next, outcome),
                    games,
                )
            })
            .collect()
    }

    /// The rows counted, their variant and preset named.
    fn named_rows(&mut self) -> RowCounts {
        let names = &self.names;
        let name = |n: u32| names[n as usize].clone();
        self.rows
            .drain()
            .map(|((key, variant), (preset, rows))| ((key, name(variant)), (name(preset), rows)))
            .collect()
    }

    /// Counts an index row from its game's columns: in the key's rows
    /// when its game is at the key's position, in the tree's counts when it
    /// is past the start with a certain next move.
    fn game_row(&mut self, game: &GameColumns<'_>, key: i64, ply: i64, open: bool, sign: i64) {
        // In the key's rows only when the game is at the key's position (not
        // at one that shares its kept bits).
        let at = self
            .boards
            .at(game.variant, game.start_fen, game.moves, ply as usize);
        if at.is_some_and(|position| position.zobrist() as i64 == key) {
            self.count_row(key, game.variant, game.preset, sign);
        }
        if open || ply <= 0 {
            return;
        }
        self.add(
            key,
            game.variant,
            game.preset,
            game.start_fen,
            game.moves,
            ply,
            game.outcome,
            sign,
        );
    }

    /// Counts a row given its game's columns: under the position the game
    /// is at and the move it plays there (none past its stored moves).
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        key: i64,
        variant: &str,
        preset: &str,
        start_fen: Option<&str>,
        moves: &[u8],
        ply: i64,
        outcome: i64,
        sign: i64,
    ) {
        let Some((position, Some(next))) =
            self.boards
                .played_at(variant, start_fen, moves, ply as usize)
        else {
            return;
        };
        let line = (
            key,
            position.packed(),
            self.name(variant),
            self.name(preset),
            self.move_number(next),
            outcome,
        );
        *self.changes.entry(line).or_default() += sign;
    }

    /// Counts every index row under `key` (as [`Tally::row`] would), by
    /// [`Tally::write`] at the latest.
    fn key(&mut self, tx: &Transaction<'_>, key: i64) -> Result<(), StoreError> {
        let number = match self.pending_keys.iter().rposition(|&k| k == key) {
            Some(number) => number,
            None => {
                if self.pending_keys.len() >= PENDING_KEYS {
                    // Every pending row counted, the numbers start again.
                    self.count_pending(tx)?;
                    self.pending_keys.clear();
                }
                self.pending_keys.push(key);
                self.pending_keys.len() - 1
            }
        };
        // Entry by entry: the start position's key holds a row for every
        // game, which as one list would take memory in proportion to them.
        postings::each_at::<StoreError>(tx, key, |entry| {
            if self.pending.len() >= PENDING_ROWS {
                self.count_pending(tx)?;
            }
            match PendingRow::new(entry.game, number, entry.ply, entry.open) {
                Some(row) => self.pending.push(row),
                None => self.row(tx, key, entry.game, i64::from(entry.ply), entry.open, 1)?,
            }
            Ok(ControlFlow::Continue(()))
        })
    }

    /// Counts the rows [`Tally::key`] set aside, reading each of their
    /// games once, in the order of the game table. Many rows are counted
    /// on a second thread while this one reads the games (the reading needs
    /// the database, the counting replays games).
    fn count_pending(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_unstable();
        let keys = std::mem::take(&mut self.pending_keys);
        let read = if pending.len() < COUNTED_BESIDE {
            read_games(tx, &pending, |batch| {
                self.count_batch(&batch, &pending, &keys);
                true
            })
        } else {
            std::thread::scope(|scope| {
                let (to, batches) = std::sync::mpsc::sync_channel::<GameBatch>(BATCHES_QUEUED);
                let (tally, rows, row_keys) = (&mut *self, &pending, &keys);
                scope.spawn(move || {
                    for batch in batches {
                        tally.count_batch(&batch, rows, row_keys);
                    }
                });
                // Hangs up when done (or failed): the counting thread then
                // ends, and the scope waits for it.
                read_games(tx, &pending, move |batch| to.send(batch).is_ok())
            })
        };
        self.pending_keys = keys;
        pending.clear();
        self.pending = pending;
        read?;
        // Each row's count is the sum of its changes whenever they are
        // written, so written early they count the same.
        if self
            .changes_held
            .is_some_and(|held| self.changes.len() >= held)
        {
            self.write_changes(tx)?;
        }
        Ok(())
    }

    /// Counts the pending rows of the games of `batch` (`rows`: the pending
    /// rows in game order, `keys`: their keys by number).
    fn count_batch(&mut self, batch: &GameBatch, rows: &[PendingRow], keys: &[i64]) {
        for game in &batch.games {
            let columns = batch.columns(game);
            for row in rows.get(game.rows.clone()).unwrap_or_default() {
                let Some(&key) = keys.get(row.number()) else {
                    continue;
                };
                self.game_row(&columns, key, row.ply(), row.open(), 1);
            }
        }
    }

    /// Writes the changes to `popular_move` and `popular_rows`.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn write(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        self.count_pending(tx)?;
        self.write_rows(tx)?;
        self.write_changes(tx)
    }

    /// Writes the changes to `popular_move` and forgets them.
    fn write_changes(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        if self.changes.is_empty() {
            return Ok(());
        }
        let mut upsert = tx.prepare_cached(
            "INSERT INTO popular_move (key, board, variant, preset, next, outcome, games) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO UPDATE SET games = games + excluded.games",
        )?;
        let mut empty = tx.prepare_cached(
            "DELETE FROM popular_move WHERE key = ?1 AND board = ?2 AND variant = ?3 \
             AND next = ?4 AND outcome = ?5 AND games <= 0",
        )?;
        // Variants and presets by number, named only as written: the
        // changes at ten million games number hundreds of thousands.
        let mut changes: Vec<(NamedLine, i64)> = self.changes.drain().collect();
        let (names, moves) = (&self.names, &self.moves);
        let name = |n: u32| names[n as usize].as_str();
        // In one order whatever the map's, so that the moves met first get
        // the same ids in every run.
        changes.sort_by(|(a, _), (b, _)| {
            (a.0, &a.1, name(a.2), name(a.3), a.5)
                .cmp(&(b.0, &b.1, name(b.2), name(b.3), b.5))
                .then_with(|| moves[a.4 as usize].canonical_cmp(&moves[b.4 as usize]))
        });
        for ((key, board, variant, preset, next, outcome), games) in changes {
            if games == 0 {
                continue;
            }
            let (variant, preset) = (name(variant), name(preset));
            let next = move_id(tx, &mut self.move_ids, &moves[next as usize])?;
            upsert.execute(params![
                key,
                &board[..],
                variant,
                preset,
                next,
                outcome,
                games
            ])?;
            if games < 0 {
                empty.execute(params![key, &board[..], variant, next, outcome])?;
            }
        }
        Ok(())
    }

    /// Writes the changes to `popular_rows` (a key's variant left without
    /// rows goes).
    fn write_rows(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        let mut upsert = tx.prepare_cached(
            "INSERT INTO popular_rows (key, variant, preset, rows) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT DO UPDATE SET rows = rows + excluded.rows",
        )?;
        let mut empty = tx.prepare_cached(
            "DELETE FROM popular_rows WHERE key = ?1 AND variant = ?2 AND rows <= 0",
        )?;
        let mut changed: Vec<_> = self.named_rows().into_iter().collect();
        changed.sort_unstable();
        for ((key, variant), (preset, rows)) in changed {
            if rows == 0 {
                continue;
            }
            upsert.execute(params![key, variant, preset, rows])?;
            if rows < 0 {
                empty.execute(params![key, variant])?;
            }
        }
        Ok(())
    }
}

/// Pending rows from which they are counted on a second thread.
const COUNTED_BESIDE: usize = 1 << 14;

/// Batches of games read waiting to be counted at most.
const BATCHES_QUEUED: usize = 2;

/// Games' columns in a batch at most (their text some 100 bytes each).
const BATCH_GAMES: usize = 1_024;

/// The columns of a game that its index rows are counted from.
struct GameColumns<'a> {
    variant: &'a str,
    preset: &'a str,
    start_fen: Option<&'a str>,
    /// Its stored moves (none: empty).
    moves: &'a [u8],
    outcome: i64,
}

/// Where a game's columns are in a [`GameBatch`], and its pending rows.
struct PackedGame {
    /// Its rows among the pending rows in game order.
    rows: std::ops::Range<usize>,
    variant: std::ops::Range<usize>,
    preset: std::ops::Range<usize>,
    start_fen: Option<std::ops::Range<usize>>,
    moves: std::ops::Range<usize>,
    outcome: i64,
}

/// Games' columns read for counting, packed in two buffers.
#[derive(Default)]
struct GameBatch {
    text: String,
    moves: Vec<u8>,
    games: Vec<PackedGame>,
}

impl GameBatch {
    /// Adds the game of row `r` (`variant, preset, start_fen, moves,
    /// outcome`), whose pending rows are `rows`.
    fn push(
        &mut self,
        r: &rusqlite::Row<'_>,
        rows: std::ops::Range<usize>,
    ) -> rusqlite::Result<()> {
        let text = &mut self.text;
        let mut put = |s: &str| {
            let start = text.len();
            text.push_str(s);
            start..text.len()
        };
        let variant = put(r.get_ref(0)?.as_str()?);
        let preset = put(r.get_ref(1)?.as_str()?);
        let start_fen = r.get_ref(2)?.as_str_or_null()?.map(put);
        let moves = r.get_ref(3)?.as_blob_or_null()?.unwrap_or_default();
        let start = self.moves.len();
        self.moves.extend_from_slice(moves);
        self.games.push(PackedGame {
            rows,
            variant,
            preset,
            start_fen,
            moves: start..self.moves.len(),
            outcome: r.get(4)?,
        });
        Ok(())
    }

    fn columns(&self, game: &PackedGame) -> GameColumns<'_> {
        let text =
            |range: &std::ops::Range<usize>| self.text.get(range.clone()).unwrap_or_default();
        GameColumns {
            variant: text(&game.variant),
            preset: text(&game.preset),
            start_fen: game.start_fen.as_ref().map(text),
            moves: self.moves.get(game.moves.clone()).unwrap_or_default(),
            outcome: game.outcome,
        }
    }
}

/// Reads the games of `pending` (sorted by game) in batches handed to
/// `counted`, until it returns false: in one pass over the game table when
/// they are half the games between the first and the last or more, else
/// one by one.
fn read_games(
    tx: &Transaction<'_>,
    pending: &[PendingRow],
    mut counted: impl FnMut(GameBatch) -> bool,
) -> Result<(), StoreError> {
    let (Some(first), Some(last)) = (pending.first(), pending.last()) else {
        return Ok(());
    };
    // Each game and its rows among the pending.
    let mut games = pending
        .chunk_by(|a, b| a.game() == b.game())
        .scan(0, |at, rows| {
            let range = *at..*at + rows.len();
            *at = range.end;
            Some((rows[0].game(), range))
        });
    let dense = 2 * games.clone().count() as i64 > last.game().saturating_sub(first.game());
    let mut batch = GameBatch::default();
    // Whether to go on: hands the batch over once full.
    let mut full =
        |batch: &mut GameBatch| batch.games.len() < BATCH_GAMES || counted(std::mem::take(batch));
    if dense {
        let mut stmt = tx.prepare_cached(
            "SELECT variant, preset, start_fen, moves, outcome, id FROM game \
             WHERE id BETWEEN ?1 AND ?2 ORDER BY id",
        )?;
        let mut rows = stmt.query([first.game(), last.game()])?;
        let mut next = games.next();
        while let Some(r) = rows.next()? {
            let stored: i64 = r.get(5)?;
            while next.as_ref().is_some_and(|(id, _)| *id < stored) {
                next = games.next();
            }
            let Some((id, range)) = &next else { break };
            if *id == stored {
                batch.push(r, range.clone())?;
                next = games.next();
                if !full(&mut batch) {
                    return Ok(());
                }
            }
        }
    } else {
        let mut stmt = tx.prepare_cached(
            "SELECT variant, preset, start_fen, moves, outcome FROM game WHERE id = ?1",
        )?;
        for (id, range) in games {
            let mut found = stmt.query([id])?;
            let Some(r) = found.next()? else { continue };
            batch.push(r, range)?;
            if !full(&mut batch) {
                return Ok(());
            }
        }
    }
    if !batch.games.is_empty() {
        counted(batch);
    }
    Ok(())
}

/// Makes `key` popular, counting its rows; false when it was already, or
/// when another popular key has its entries (shares its kept bits).
fn make_popular(tx: &Transaction<'_>, key: i64, tally: &mut Tally) -> Result<bool, StoreError> {
    if popular_sharing(tx, key)?.is_some() {
        return Ok(false);
    }
    let added = tx
        .prepare_cached("INSERT OR IGNORE INTO popular_key (key) VALUES (?1)")?
        .execute([key])?;
    if added == 1 {
        tally.key(tx, key)?;
    }
    Ok(added == 1)
}

/// Makes popular the keys that became so: after a merge into the index,
/// `merged` holds the keys with [`candidate_rows`] rows or more among the
/// merged ones (or, `exact`, with [`threshold`] or more), with their
/// number, and `exact` says whether the index was empty before (so that
/// those numbers are the keys' rows); `known` are the
/// keys popular before. Looks at the whole index when the database has
/// grown by half since it was last. Returns the keys made popular.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn designate(
    tx: &Transaction<'_>,
    merged: &[(i64, i64)],
    exact: bool,
    known: &HashSet<i64>,
) -> Result<usize, StoreError> {
    let threshold = threshold();
    let mut tally = Tally::writing_early(CHANGES_HELD);
    let mut made = 0;
    for &(key, rows) in merged {
        if known.contains(&key) {
            continue;
        }
        let rows = if exact {
            rows
        } else {
            postings::count_at(tx, key)?
        };
        if rows >= threshold {
            made += usize::from(make_popular(tx, key, &mut tally)?);
        }
    }
    let games: i64 = tx.query_row(
        "SELECT coalesce(sum(games), 0) FROM tag_value WHERE field = 'variant'",
        [],
        |r| r.get(0),
    )?;
    let scanned: i64 = tx.query_row("SELECT scanned_games FROM popular_state", [], |r| r.get(0))?;
    if !exact && games > 0 && 2 * games >= 3 * scanned {
        for key in keys_with_rows(tx, threshold)? {
            if known.contains(&key) || is_popular(tx, key)? {
                continue;
            }
            made += usize::from(make_popular(tx, key, &mut tally)?);
        }
    }
    if exact || (games > 0 && 2 * games >= 3 * scanned) {
        tx.execute("UPDATE popular_state SET scanned_games = ?1", [games])?;
    }
    tally.write(tx)?;
    Ok(made)
}

/// The keys with `threshold` index entries or more: the index is read
/// whole, by kept key; the games under a kept key with that many entries
/// are replayed to their entries' plies to tell the whole keys apart.
fn keys_with_rows(tx: &Transaction<'_>, threshold: i64) -> Result<Vec<i64>, StoreError> {
    let mut crowded: Vec<i64> = Vec::new();
    let mut current: Option<(i64, i64)> = None;
    postings::each_chunk(tx, |bucket, entries| {
        for e in entries {
            let kept = (bucket << postings::SUFFIX_BITS) | i64::from(e.suffix);
            match &mut current {
                Some((k, n)) if *k == kept => *n += 1,
                _ => {
                    crowded.extend(current.filter(|&(_, n)| n >= threshold).map(|(k, _)| k));
                    current = Some((kept, 1));
                }
            }
        }
        Ok(())
    })?;
    crowded.extend(current.filter(|&(_, n)| n >= threshold).map(|(k, _)| k));
    let mut keys = Vec::new();
    let mut boards = Boards::default();
    let mut game = tx.prepare_cached("SELECT variant, start_fen, moves FROM game WHERE id = ?1")?;
    for kept in crowded {
        let mut rows: HashMap<i64, i64> = HashMap::new();
        postings::each_at::<StoreError>(tx, kept << (64 - postings::KEPT_BITS), |entry| {
            let mut found = game.query([entry.game])?;
            let Some(r) = found.next()? else {
                return Ok(ControlFlow::Continue(()));
            };
            let (variant, start_fen, moves): (String, Option<String>, Option<Vec<u8>>) =
                (r.get(0)?, r.get(1)?, r.get(2)?);
            let (variant, start_fen) = (variant.as_str(), start_fen.as_deref());
            let moves = moves.as_deref().unwrap_or_default();
            if let Some(position) = boards.at(variant, start_fen, moves, entry.ply as usize) {
                *rows.entry(position.zobrist() as i64).or_default() += 1;
            }
            Ok(ControlFlow::Continue(()))
        })?;
        keys.extend(
            rows.into_iter()
                .filter(|&(k, n)| n >= threshold && postings::kept(k) == kept)
                .map(|(k, _)| k),
        );
    }
    keys.sort_unstable();
    Ok(keys)
}

/// The popular key whose index entries `key`'s are (one with the same kept
/// key), if any.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn popular_sharing(
    conn: &rusqlite::Connection,
    key: i64,
) -> Result<Option<i64>, StoreError> {
    let (low, high) = postings::key_range(key);
    Ok(conn
        .prepare_cached(
            "SELECT key FROM popular_key WHERE key BETWEEN ?1 AND ?2 ORDER BY key LIMIT 1",
        )?
        .query_row([low, high], |r| r.get(0))
        .optional()?)
}

/// What is kept under a popular key: the tree's counts and the index
/// rows by variant.
#[derive(Debug, Default, PartialEq)]
pub(in crate::store) struct Kept {
    /// The games counted in `popular_move`.
    pub(in crate::store) moves: Counts,
    /// The rows counted in `popular_rows`.
    pub(in crate::store) rows: RowCounts,
}

/// Counts the rows under every popular key again, from the index (the
/// counts kept before are dropped); of popular keys sharing their kept
/// bits, the least stays popular.
///
/// # Errors
/// A database failure, or a chunk of the index that does not decode.
pub(in crate::store) fn count_again(tx: &Transaction<'_>) -> Result<(), StoreError> {
    count_again_holding(tx, CHANGES_HELD)
}

/// [`count_again`], the changes written once `held` or more.
fn count_again_holding(tx: &Transaction<'_>, held: usize) -> Result<(), StoreError> {
    tx.execute_batch("DELETE FROM popular_move; DELETE FROM popular_rows;")?;
    let mut keys: Vec<i64> = popular_keys(tx)?.into_iter().collect();
    keys.sort_unstable();
    let mut kept = HashSet::new();
    let mut tally = Tally::writing_early(held);
    for key in keys {
        if kept.insert(postings::kept(key)) {
            tally.key(tx, key)?;
        } else {
            tx.execute("DELETE FROM popular_key WHERE key = ?1", [key])?;
        }
    }
    tally.write(tx)
}

/// What `popular_move` and `popular_rows` hold under `key`, and what a
/// recount of its index rows gives: equal when the counts are right.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn recount(
    tx: &Transaction<'_>,
    key: i64,
) -> Result<(Kept, Kept), StoreError> {
    let mut tally = Tally::default();
    tally.key(tx, key)?;
    tally.count_pending(tx)?;
    let mut stmt = tx.prepare_cached(
        "SELECT m.board, m.variant, m.preset, coalesce(n.name, '#' || m.next), m.outcome, m.games \
         FROM popular_move m LEFT JOIN move_name n ON n.id = m.next WHERE m.key = ?1",
    )?;
    let mut rows = stmt.query([key])?;
    let mut stored = Kept::default();
    while let Some(r) = rows.next()? {
        let board: Vec<u8> = r.get(0)?;
        let board: [u8; PACKED_BYTES] = board.try_into().unwrap_or([0xFF; PACKED_BYTES]);
        stored.moves.insert(
            (key, board, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?),
            r.get(5)?,
        );
    }
    let mut stmt =
        tx.prepare_cached("SELECT variant, preset, rows FROM popular_rows WHERE key = ?1")?;
    let mut rows = stmt.query([key])?;
    while let Some(r) = rows.next()? {
        stored.rows.insert((key, r.get(0)?), (r.get(1)?, r.get(2)?));
    }
    let mut moves = Counts::new();
    for ((key, board, variant, preset, next, outcome), games) in tally.named_changes() {
        *moves
            .entry((key, board, variant, preset, next.full_numeric(), outcome))
            .or_default() += games;
    }
    let recounted = Kept {
        moves,
        rows: tally.named_rows(),
    };
    Ok((stored, recounted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::replay::position_after_moves;
    use crate::rules::Preset;
    use crate::store::read::query::VariantFilter;
    use crate::store::stored::handle::{Mode, Store};

    /// A database in `dir` holding the games of `pdn`.
    fn imported(dir: &std::path::Path, pdn: &str) -> Store {
        let path = dir.join("g.pdn");
        std::fs::write(&path, pdn).unwrap();
        let mut store = Store::open(&dir.join("db.sqlite"), Mode::Write).unwrap();
        crate::store::write::import::Importer::new(&mut store, Default::default())
            .run(
                &[crate::pdn::Input::open(&path, None).unwrap().unwrap()],
                &mut |_| {},
            )
            .unwrap();
        store
    }

    #[test]
    fn two_positions_under_one_key_are_counted_apart() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = imported(
            dir.path(),
            "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 *\n\n\
             [GameType \"21\"]\n1. 9-13 22-18 2. 5-9 1-0\n",
        );
        let rules = Preset::English.rules();
        let (a, _) = position_after_moves("1. 11-15", rules).unwrap();
        let (b, _) = position_after_moves("1. 9-13", rules).unwrap();
        let (key_a, key_b) = (a.zobrist() as i64, b.zobrist() as i64);
        // A collision, faked: the second game's row after 9-13 moves under
        // the key of the position after 11-15, and that key is made popular.
        let tx = store.conn_mut().transaction().unwrap();
        let open = postings::remove(&tx, key_b, 2, 1).unwrap().unwrap();
        let (bucket, suffix) = postings::split(key_a);
        let moved = postings::Entry {
            suffix,
            game: 2,
            ply: 1,
            open,
        };
        postings::add(&tx, bucket, &[moved], false).unwrap();
        let mut tally = Tally::default();
        assert!(make_popular(&tx, key_a, &mut tally).unwrap());
        tally.write(&tx).unwrap();
        tx.commit().unwrap();
        let boards: i64 = store
            .conn()
            .query_row(
                "SELECT count(DISTINCT board) FROM popular_move WHERE key = ?1",
                [key_a],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(boards, 2);
        let tree = |position: &Position| -> Vec<(String, i64)> {
            store
                .tree(
                    position,
                    &VariantFilter(None),
                    Notation::Numeric,
                    rules.geometry,
                )
                .unwrap()
                .into_iter()
                .map(|m| (m.mv, m.games))
                .collect()
        };
        // Each position counts its own game only.
        assert_eq!(tree(&a), [("23-19".to_string(), 1)]);
        let found: i64 = store
            .conn()
            .query_row(
                "SELECT games FROM popular_move WHERE key = ?1 AND board = ?2",
                params![key_a, &b.packed()[..]],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(found, 1);
    }

    #[test]
    fn a_pending_row_keeps_its_parts_and_sorts_by_game() {
        let row = PendingRow::new(4_000_000_000, 65_535, 19_999, true).unwrap();
        assert_eq!(
            (row.game(), row.number(), row.ply(), row.open()),
            (4_000_000_000, 65_535, 19_999, true)
        );
        let closed = PendingRow::new(7, 0, 0, false).unwrap();
        assert_eq!(
            (closed.game(), closed.number(), closed.ply(), closed.open()),
            (7, 0, 0, false)
        );
        assert!(PendingRow::new(6, 9, 500, true) < PendingRow::new(7, 0, 0, false));
        // Past their bits: counted on their own instead.
        assert_eq!(PendingRow::new(1 << 32, 0, 0, false), None);
        assert_eq!(PendingRow::new(-1, 0, 0, false), None);
        assert_eq!(PendingRow::new(1, 1 << 16, 0, false), None);
        assert_eq!(PendingRow::new(1, 0, 1 << 15, false), None);
    }

    #[test]
    fn changes_written_early_count_as_those_written_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = imported(
            dir.path(),
            "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n\
             [GameType \"21\"]\n1. 11-15 23-19 2. 9-13 22-18 1-0\n\n\
             [GameType \"21\"]\n1. 11-15 22-18 2. 15x22 25x18 0-1\n\n\
             [GameType \"21\"]\n1. 9-13 22-18 2. 5-9 1-0\n",
        );
        let rules = Preset::English.rules();
        let tx = store.conn_mut().transaction().unwrap();
        for line in ["1. 11-15", "1. 11-15 23-19", "1. 11-15 22-18", "1. 9-13"] {
            let (position, _) = position_after_moves(line, rules).unwrap();
            tx.execute(
                "INSERT INTO popular_key (key) VALUES (?1)",
                [position.zobrist() as i64],
            )
            .unwrap();
        }
        let counted = |held: usize| -> Vec<(Vec<u8>, i64, i64, i64)> {
            count_again_holding(&tx, held).unwrap();
            let mut stmt = tx
                .prepare("SELECT board, next, outcome, games FROM popular_move ORDER BY 1, 2, 3")
                .unwrap();
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let at_the_end = counted(usize::MAX);
        assert_eq!(at_the_end.iter().map(|c| c.3).sum::<i64>(), 7);
        assert_eq!(counted(1), at_the_end);
    }

    #[test]
    fn boards_follow_the_stored_moves() {
        let rules = Preset::Filipino.rules();
        let start = Position::initial(&rules);
        let moves = crate::store::codec::moves::canonical_moves(&start, &rules);
        let encoded = crate::store::codec::moves::encode(&rules, &start, &moves[..1]).unwrap();
        let mut boards = Boards::default();
        assert_eq!(
            boards.at("filipino", None, &encoded, 1),
            Some(start.play(&moves[0]))
        );
        assert_eq!(boards.at("filipino", None, &encoded, 0), Some(start));
        // Past the moves stored, or under rules that cannot be read: nowhere.
        assert_eq!(boards.at("filipino", None, &encoded, 2), None);
        assert_eq!(boards.at("no such rules", None, &encoded, 1), None);
    }
}
