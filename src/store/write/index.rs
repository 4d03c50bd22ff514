//! Writing the position index during an import.
//!
//! The positions of the games an import stores are kept in memory and
//! written to the index (postings, see [`crate::store::stored::postings`]) bucket by
//! bucket, in key order, at the end of the import: an empty index is
//! written chunk after chunk, and an index that holds entries has only the
//! chunks new entries fall into rewritten.
//!
//! Memory stays bounded whatever the archive's size: at [`FLUSH_ROWS`]
//! the sorted rows are set aside as a run (blobs in `position_run`), and
//! the end of the import merges every run into the index in one pass, so
//! import time stays linear in the games. The merge reads each run a
//! chunk at a time; past [`MAX_RUNS`] runs, they are merged into the index
//! at once rather than adding another.
//!
//! Crash safety: `index_state.indexed_through` is the last game id whose
//! positions are in the index, updated in the transaction that writes them.
//! Games stored after it (an import killed before its positions were
//! written) are indexed again from their stored text by [`index_missing`],
//! which every import runs first.

use rusqlite::{OptionalExtension, Transaction};

use foldhash::HashMap;

use crate::pdn::Reader;
use crate::replay::{MAX_PLIES, Overrides, Reading, check_game};
use crate::rules::{Bitboard, Color, Move, Position, Rules};
use crate::store::stored::StoreError;
use crate::store::stored::postings;
use crate::store::write::kept::{self, Kept};
use crate::store::write::popular::{candidate_rows, designate, popular_keys, threshold};
use crate::store::write::run_merge::{self, Target};
pub use crate::store::write::run_rows::IndexRow;
pub(in crate::store) use crate::store::write::run_rows::read_chunk;
use crate::store::write::run_rows::{
    Merged, ROW_BYTES_MAX, damaged_run, take_run_chunk, write_chunk,
};
use smallvec::SmallVec;

/// Rows kept in memory before they are set aside as a sorted run (24 bytes
/// each: 36 MiB).
pub const FLUSH_ROWS: usize = 3 << 19;

/// The most rows one game adds: its certain positions, one a ply (see
/// [`MAX_PLIES`]) and the start.
const GAME_ROWS: usize = MAX_PLIES + 1;

/// Runs set aside at most (1.6 billion rows, some 30 million games): the
/// merge holds two chunks of each, some 20 KiB a run. Past them the runs are
/// merged into the index, and a later merge into an index that holds rows
/// costs a pass over it.
pub const MAX_RUNS: i64 = 1024;

/// Positions waiting to be written to the index.
#[derive(Debug, Default)]
pub struct IndexBuffer {
    rows: Vec<IndexRow>,
    /// Threads it may use to sort and code (at least 1; 0 counts as 1).
    threads: usize,
}

impl IndexBuffer {
    /// A buffer that sorts its rows and codes the index's chunks on up to
    /// two threads when `threads` is 2 or more (what is written is the
    /// same).
    pub fn with_threads(threads: usize) -> IndexBuffer {
        IndexBuffer {
            rows: Vec::new(),
            threads,
        }
    }

    /// Adds one row.
    pub fn push(&mut self, row: IndexRow) {
        if self.rows.len() == self.rows.capacity() && self.rows.len() < FLUSH_ROWS {
            // Doubled up to FLUSH_ROWS exactly: a buffer set aside when
            // full never takes more.
            let room = (2 * self.rows.capacity()).clamp(4096, FLUSH_ROWS);
            self.rows.reserve_exact(room - self.rows.len());
        }
        self.rows.push(row);
    }

    /// Forgets the waiting rows (their games were not stored after all).
    pub fn discard(&mut self) {
        self.rows.clear();
    }

    /// Whether enough rows wait that they should be set aside before the
    /// next game's are added (checked after each game, the buffer never
    /// grows past [`FLUSH_ROWS`]).
    pub fn is_full(&self) -> bool {
        self.rows.len() + GAME_ROWS > FLUSH_ROWS
    }

    /// Sets the waiting rows aside as one sorted run in `position_run`
    /// (written in order, so cheaply) and records that every game stored
    /// so far is indexed: the runs are merged into the index by
    /// [`IndexBuffer::flush`]. When [`MAX_RUNS`] are set aside already,
    /// flushes instead. Returns the rows added to the index (0 unless it
    /// flushed).
    ///
    /// # Errors
    /// A database failure (the transaction is then not to be committed).
    pub fn spill(&mut self, tx: &Transaction<'_>) -> Result<usize, StoreError> {
        let run: i64 = tx.query_row(NEXT_RUN, [], |r| r.get(0))?;
        if run > MAX_RUNS {
            return self.flush(tx);
        }
        let second = sort_halves(&mut self.rows, self.threads);
        let (low, high) = self.rows.split_at(second);
        let mut merged = Merged::new(low, high);
        let mut insert =
            tx.prepare_cached("INSERT INTO position_run (run, rows) VALUES (?1, ?2)")?;
        let mut chunk = Vec::with_capacity(RUN_CHUNK);
        let mut bytes = Vec::with_capacity(RUN_CHUNK * ROW_BYTES_MAX);
        loop {
            chunk.clear();
            chunk.extend(merged.by_ref().take(RUN_CHUNK));
            if chunk.is_empty() {
                break;
            }
            bytes.clear();
            write_chunk(&chunk, &mut bytes);
            insert.execute(rusqlite::params![run, bytes])?;
        }
        self.mark_indexed(tx)?;
        Ok(0)
    }

    /// Writes every waiting row, and every run set aside, into the index
    /// in key order (one pass over the index, whatever the number of runs),
    /// and records that every game stored so far is indexed. Returns the
    /// rows added (a game's position already there is not added twice).
    ///
    /// # Errors
    /// A database failure (the transaction is then not to be committed).
    pub fn flush(&mut self, tx: &Transaction<'_>) -> Result<usize, StoreError> {
        self.flush_after(tx, |_| Ok(()))
    }

    /// [`IndexBuffer::flush`], running `first` in the same transaction
    /// while the waiting rows are sorted on other threads (work for the
    /// database, which would otherwise wait for the sort or the sort for
    /// it).
    ///
    /// # Errors
    /// A database failure, or `first`'s (the transaction is then not to be
    /// committed).
    pub fn flush_after(
        &mut self,
        tx: &Transaction<'_>,
        first: impl FnOnce(&Transaction<'_>) -> Result<(), StoreError>,
    ) -> Result<usize, StoreError> {
        // The index's chunks are written without the triggers that count
        // their entries (see `kept`): what the merge adds is counted once.
        kept::without_triggers(tx, || {
            let added = self.merge_after(tx, first)?;
            kept::add(tx, Kept::Positions, added as i64)?;
            Ok(added)
        })
    }

    /// [`IndexBuffer::flush_after`] without the count of the index's
    /// entries.
    fn merge_after(
        &mut self,
        tx: &Transaction<'_>,
        first: impl FnOnce(&Transaction<'_>) -> Result<(), StoreError>,
    ) -> Result<usize, StoreError> {
        let mut rows = std::mem::take(&mut self.rows);
        let (second, done) = sort_halves_while(&mut rows, self.threads, || first(tx));
        done?;
        let runs: Vec<i64> = {
            let mut stmt = tx.prepare(RUNS)?;
            let runs = stmt.query_map([], |r| r.get(0))?;
            runs.collect::<Result<_, _>>()?
        };
        let (low, high) = rows.split_at(second);
        // Rows are written bucket by bucket; those added under popular
        // keys are counted in the tree's counts as they enter; every key's
        // merged rows are counted, to find the keys that become popular.
        let popular = popular_keys(tx)?;
        let popular_kept: HashMap<i64, i64> =
            popular.iter().map(|&k| (postings::kept(k), k)).collect();
        let exact = !tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM posting)")?
            .query_row([], |r| r.get::<_, bool>(0))?;
        // Into an empty index the merged rows are the keys' rows: only the
        // keys that have enough to be popular need be kept (a tenth of
        // those with enough to be looked at, millions at ten million games).
        let target = Target {
            popular: &popular_kept,
            fresh: exact,
            floor: if exact { threshold() } else { candidate_rows() },
        };
        let merge = run_merge::merge(tx, Merged::new(low, high), &runs, &target, self.threads)?;
        let (mut tally, merged, added) = (merge.tally, merge.counts, merge.added);
        // The rows kept in memory, and what the merge's threads freed, go
        // before the popular keys are counted.
        drop(rows);
        crate::memory::release();
        tally.write(tx)?;
        tx.execute("DELETE FROM position_run", [])?;
        designate(tx, &merged, exact, &popular)?;
        self.mark_indexed(tx)?;
        Ok(added)
    }

    /// Gives the waiting rows of each game `from` of `moved` (from, to) the
    /// id `to`, in memory and in the runs set aside. A game moved to a
    /// smaller id is below `indexed_through`: the caller flushes before it
    /// commits, or a killed import would leave its rows out.
    ///
    /// # Errors
    /// A database failure, or a run that does not decode.
    pub fn renumber(
        &mut self,
        tx: &Transaction<'_>,
        moved: &HashMap<i64, i64>,
    ) -> Result<(), StoreError> {
        if moved.is_empty() {
            return Ok(());
        }
        for row in &mut self.rows {
            if let Some(&to) = moved.get(&row.game) {
                row.game = to;
            }
        }
        let runs: Vec<i64> = {
            let mut stmt = tx.prepare(RUNS)?;
            let runs = stmt.query_map([], |r| r.get(0))?;
            runs.collect::<Result<_, _>>()?
        };
        for run in runs {
            renumber_run(tx, run, moved)?;
        }
        Ok(())
    }

    fn mark_indexed(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        tx.execute(
            "UPDATE index_state SET indexed_through = (SELECT coalesce(max(id), 0) FROM game)",
            [],
        )?;
        self.rows.clear();
        Ok(())
    }
}

/// The number of the next run set aside (through `position_run_run`).
const NEXT_RUN: &str = "SELECT coalesce(max(run), 0) + 1 FROM position_run";

/// The runs set aside, in order (through `position_run_run`).
const RUNS: &str = "SELECT DISTINCT run FROM position_run ORDER BY run";

/// Rows per stored chunk of a run (some 10 KiB): the merge holds one chunk
/// of each run and the next one read ahead, some 20 MiB for [`MAX_RUNS`].
const RUN_CHUNK: usize = 1_024;

/// Rewrites run `run` as a new run with the games of `moved` (from, to)
/// renumbered, still sorted: only a row's game changes, so only the rows of
/// one kept key can fall out of order, and they are sorted again together.
fn renumber_run(
    tx: &Transaction<'_>,
    run: i64,
    moved: &HashMap<i64, i64>,
) -> Result<(), StoreError> {
    let new_run: i64 = tx.query_row(NEXT_RUN, [], |r| r.get(0))?;
    let mut insert = tx.prepare_cached("INSERT INTO position_run (run, rows) VALUES (?1, ?2)")?;
    let mut write = |rows: &[IndexRow]| -> Result<(), StoreError> {
        for chunk in rows.chunks(RUN_CHUNK) {
            let mut bytes = Vec::with_capacity(chunk.len() * ROW_BYTES_MAX);
            write_chunk(chunk, &mut bytes);
            insert.execute(rusqlite::params![new_run, bytes])?;
        }
        Ok(())
    };
    // The rows of the kept key being read, and the rows sorted, not yet
    // written.
    let (mut key_rows, mut out): (Vec<IndexRow>, Vec<IndexRow>) = (Vec::new(), Vec::new());
    let mut reader = RunReader::new(run);
    while let Some(mut row) = reader.next(tx)? {
        if let Some(&to) = moved.get(&row.game) {
            row.game = to;
        }
        if key_rows
            .first()
            .is_some_and(|r| postings::kept(r.key) != postings::kept(row.key))
        {
            key_rows.sort_unstable();
            out.append(&mut key_rows);
            if out.len() >= RUN_CHUNK {
                write(&out)?;
                out.clear();
            }
        }
        key_rows.push(row);
    }
    key_rows.sort_unstable();
    out.append(&mut key_rows);
    if !out.is_empty() {
        write(&out)?;
    }
    Ok(())
}

/// Codes anew, as this version stores them, the run chunks that schema
/// steps 2–14 stored (rows of key, game, ply and open as little-endian 8,
/// 8, 4 and 4 bytes), in place.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn recode_old_runs(tx: &Transaction<'_>) -> Result<(), StoreError> {
    // One chunk in memory at a time: a killed large import leaves many.
    let ids: Vec<i64> = {
        let mut stmt = tx.prepare("SELECT id FROM position_run ORDER BY id")?;
        let ids = stmt.query_map([], |r| r.get(0))?;
        ids.collect::<Result<_, _>>()?
    };
    let mut update = tx.prepare("UPDATE position_run SET rows = ?2 WHERE id = ?1")?;
    for id in ids {
        let old: Vec<u8> =
            tx.query_row("SELECT rows FROM position_run WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        let rows: Vec<IndexRow> = old
            .chunks_exact(24)
            .map(|row| {
                let bytes =
                    |at: usize| -> [u8; 8] { row[at..at + 8].try_into().unwrap_or_default() };
                let ply_open = u64::from_le_bytes(bytes(16));
                IndexRow {
                    key: i64::from_le_bytes(bytes(0)),
                    game: i64::from_le_bytes(bytes(8)),
                    ply: ply_open as u32,
                    open: ply_open >> 32 != 0,
                }
            })
            .collect();
        let mut bytes = Vec::with_capacity(rows.len() * ROW_BYTES_MAX);
        write_chunk(&rows, &mut bytes);
        update.execute(rusqlite::params![id, bytes])?;
    }
    Ok(())
}

/// Rows from which sorting is worth a second thread.
const PARALLEL_SORT_ROWS: usize = 1 << 16;

/// Sorts the two halves of `rows`, on two threads when `threads` allows it
/// and the rows are many; returns where the second half begins (each half
/// is in order, not the whole: see [`Merged`]).
fn sort_halves(rows: &mut [IndexRow], threads: usize) -> usize {
    sort_halves_while(rows, threads, || ()).0
}

/// Sorts `rows` as [`sort_halves`] does while `meanwhile` runs on this
/// thread (when one thread is all there is, one after the other); returns
/// where the second half starts and what `meanwhile` returned.
fn sort_halves_while<T>(
    rows: &mut [IndexRow],
    threads: usize,
    meanwhile: impl FnOnce() -> T,
) -> (usize, T) {
    if threads < 2 || rows.len() < PARALLEL_SORT_ROWS {
        let done = meanwhile();
        rows.sort_unstable();
        return (rows.len(), done);
    }
    let second = rows.len() / 2;
    let (low, high) = rows.split_at_mut(second);
    let done = std::thread::scope(|scope| {
        scope.spawn(|| low.sort_unstable());
        scope.spawn(|| high.sort_unstable());
        meanwhile()
    });
    (second, done)
}

/// A stored run, read one chunk at a time.
struct RunReader {
    run: i64,
    /// Row id of the chunk being read.
    chunk: i64,
    rows: std::vec::IntoIter<IndexRow>,
}

impl RunReader {
    fn new(run: i64) -> RunReader {
        RunReader {
            run,
            chunk: i64::MIN,
            rows: Vec::new().into_iter(),
        }
    }

    fn next(&mut self, tx: &Transaction<'_>) -> Result<Option<IndexRow>, StoreError> {
        loop {
            if let Some(row) = self.rows.next() {
                return Ok(Some(row));
            }
            let Some((id, bytes)) = take_run_chunk(tx, self.run, self.chunk)? else {
                return Ok(None);
            };
            let rows = read_chunk(&bytes).ok_or_else(damaged_run)?;
            (self.chunk, self.rows) = (id, rows.into_iter());
        }
    }
}

/// The certain positions of a replayed game, each once (its first visit),
/// with the move played from it when certain and whether the entry is open
/// (no certain move though the first reading plays one): `(key, ply, next,
/// open)`.
pub fn certain_positions(reading: &Reading) -> Vec<(i64, u32, Option<Move>, bool)> {
    let mut positions = Vec::new();
    certain_into(reading, &mut positions, |key, ply, next, open| {
        (key, ply, next, open)
    });
    positions
}

/// What a game adds to the index: its certain positions as
/// [`certain_positions`] lists them but without their moves, `(key, ply,
/// open)`, and the move played from its start when certain (which the
/// tree's counts at start positions take). A quarter of the bytes, for
/// games that wait to be written.
pub fn index_entries(reading: &Reading) -> (Vec<(i64, u32, bool)>, Option<Move>) {
    let mut positions = Vec::new();
    let mut first_move = None;
    certain_into(reading, &mut positions, |key, ply, next, open| {
        if ply == 0 {
            first_move = next;
        }
        (key, ply, open)
    });
    (positions, first_move)
}

/// Appends to `out` what `entry` makes of each certain position of a
/// replayed game, each once: `(key, ply, next, open)` as
/// [`certain_positions`] gives them.
fn certain_into<T>(
    reading: &Reading,
    out: &mut Vec<T>,
    mut entry: impl FnMut(i64, u32, Option<Move>, bool) -> T,
) {
    let Reading::Replayed { replay, .. } = reading else {
        return;
    };
    let mut seen = SeenKeys::default();
    out.reserve(replay.certain.len());
    for c in &replay.certain {
        let key = c.position.zobrist() as i64;
        if seen.insert(&c.position, key) {
            let open = c.next.is_none() && c.ply < replay.reached;
            out.push(entry(key, c.ply as u32, c.next, open));
        }
    }
}

/// The keys of a game's positions seen since its last irreversible move,
/// which are the only ones a position can repeat: a man's plain move goes
/// forward, a capture takes a piece for good and a crowned man is a man
/// less, so after any of them the men of each side, or the number of
/// pieces, never come back to what they were.
#[derive(Default)]
struct SeenKeys {
    /// The men of each side and the number of pieces of the positions in
    /// `keys`.
    material: Option<(Bitboard, Bitboard, u32)>,
    /// Their keys, while few.
    keys: SmallVec<[i64; 16]>,
    /// Their keys, once many (a long run of king moves).
    many: Option<foldhash::HashSet<i64>>,
}

impl SeenKeys {
    /// Keys looked through one by one before a hash set takes over.
    const FEW: usize = 64;

    /// Notes `key`, the key of `position`; whether it is new.
    fn insert(&mut self, position: &Position, key: i64) -> bool {
        let men = !position.kings();
        let material = Some((
            position.pieces(Color::White) & men,
            position.pieces(Color::Black) & men,
            position.occupied().count_ones(),
        ));
        if material != self.material {
            self.material = material;
            self.keys.clear();
            self.many = None;
        }
        if let Some(many) = &mut self.many {
            return many.insert(key);
        }
        if self.keys.contains(&key) {
            return false;
        }
        self.keys.push(key);
        if self.keys.len() > Self::FEW {
            self.many = Some(self.keys.iter().copied().collect());
        }
        true
    }
}

/// Indexes the stored games that an interrupted import left out of the
/// index: each is read again from its stored text, with the variant and
/// notation it was stored with.
///
/// # Errors
/// A database failure.
pub fn index_missing(tx: &Transaction<'_>) -> Result<usize, StoreError> {
    let through: i64 = tx
        .query_row("SELECT indexed_through FROM index_state", [], |r| r.get(0))
        .optional()?
        .unwrap_or(0);
    let missing: Vec<(i64, String, Option<String>)> = {
        let mut stmt = tx.prepare(
            "SELECT id, variant, notation FROM game WHERE id > ?1 \
             AND status IN ('ok', 'ambiguous', 'illegal') ORDER BY id",
        )?;
        let rows = stmt.query_map([through], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    let mut buffer = IndexBuffer::default();
    let mut added = 0;
    for (id, variant, notation) in missing {
        if buffer.is_full() {
            added += buffer.spill(tx)?;
        }
        let Some(text) = crate::store::stored::game::stored_text(tx, id)? else {
            continue;
        };
        let Some(game) = Reader::new(text.as_bytes()).next_game().ok().flatten() else {
            continue;
        };
        let overrides = Overrides {
            rules: Rules::parse(&variant).ok(),
            switches: None,
            notation: notation.and_then(|n| n.parse().ok()),
            skip_alternatives: true,
            positions: crate::replay::KeptPositions::All,
        };
        let checked = check_game(&game, "", &overrides);
        for (key, ply, _, open) in certain_positions(&checked.reading) {
            buffer.push(IndexRow {
                key,
                game: id,
                ply,
                open,
            });
        }
    }
    Ok(added + buffer.flush(tx)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::write::run_rows::KeyCounts;

    /// A game from `fen` of `plies` random legal moves that avoid
    /// captures where they can, as PDN.
    fn random_game(rules: &Rules, fen: &str, plies: usize, seed: u64) -> String {
        let setup = crate::notation::parse_fen(fen).unwrap();
        let mut position = Position::from_setup(&setup, rules).unwrap();
        let mut rng = crate::generate::SplitMix64::new(seed);
        let mut legal = Vec::new();
        let mut text = format!("[FEN \"{fen}\"]\n");
        for _ in 0..plies {
            position.legal_moves_into(rules, &mut legal);
            if legal.is_empty() {
                break;
            }
            // Moves after which nothing can be taken, when there are any:
            // the pieces wander rather than take each other.
            let calm: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|mv| {
                    !position
                        .play(mv)
                        .legal_moves(rules)
                        .iter()
                        .any(Move::is_capture)
                })
                .collect();
            let among = if calm.is_empty() { &legal } else { &calm };
            let mv = among[rng.below(among.len())];
            let written = crate::notation::write_move_among(
                &mv,
                &legal,
                crate::notation::Notation::Numeric,
                rules.geometry,
            );
            text.push_str(&written);
            text.push(' ');
            position = position.play(&mv);
        }
        text.push_str("*\n");
        text
    }

    #[test]
    fn each_certain_position_is_listed_once_at_its_first_visit() {
        // Men that meet, then kings that wander: positions repeat, some
        // after more than `SeenKeys::FEW` others.
        let rules = Rules::default();
        let (mut repeats, mut long_runs) = (0, 0);
        for seed in 0..12 {
            let fen = if seed % 2 == 0 {
                "W:WK1,K29:BK32,K4"
            } else {
                "W:W22,K1:B11,K32"
            };
            let text = random_game(&rules, fen, 300, seed);
            let game = Reader::new(text.as_bytes()).next_game().unwrap().unwrap();
            let checked = check_game(&game, "", &Overrides::default());
            let Reading::Replayed { replay, .. } = &checked.reading else {
                panic!("the game replays: {text}");
            };
            assert!(replay.certain.len() > 100, "{text}");
            let mut first = std::collections::HashSet::new();
            let expected: Vec<(i64, u32)> = replay
                .certain
                .iter()
                .map(|c| (c.position.zobrist() as i64, c.ply as u32))
                .filter(|&(key, _)| first.insert(key))
                .collect();
            let certain = certain_positions(&checked.reading);
            let listed: Vec<(i64, u32)> =
                certain.iter().map(|&(key, ply, _, _)| (key, ply)).collect();
            assert_eq!(listed, expected);
            // The index's entries are those, without their moves but the
            // first, the move from the start.
            let (entries, first_move) = index_entries(&checked.reading);
            let without_moves: Vec<(i64, u32, bool)> = certain
                .iter()
                .map(|&(key, ply, _, open)| (key, ply, open))
                .collect();
            assert_eq!(entries, without_moves);
            assert_eq!(certain[0].1, 0);
            assert!(first_move.is_some());
            assert_eq!(first_move, certain[0].2);
            repeats += usize::from(expected.len() < replay.certain.len());
            let mut run = SeenKeys::default();
            let mut longest = 0;
            for c in &replay.certain {
                run.insert(&c.position, c.position.zobrist() as i64);
                longest = longest.max(run.keys.len());
            }
            long_runs += usize::from(longest > SeenKeys::FEW);
        }
        assert!(repeats > 0, "some game repeats a position");
        assert!(
            long_runs > 0,
            "some game holds a long run without a man's move"
        );
    }

    #[test]
    fn keys_with_enough_rows_are_counted_apart_from_their_kept_key() {
        let shared = 0x0102_0304_0000_0000_i64;
        let mut rows = Vec::new();
        // Two keys under one kept key: 6 rows and 3.
        rows.extend((1..=6).map(|g| IndexRow::certain(shared | 1, g, 2)));
        rows.extend((1..=3).map(|g| IndexRow::certain(shared | 2, 10 + g, 2)));
        // A kept key of its own with 4 rows, another with 2.
        rows.extend((1..=4).map(|g| IndexRow::certain(0x0A00_0000_0000_0000, g, 1)));
        rows.extend((1..=2).map(|g| IndexRow::certain(-0x0B00_0000_0000_0000, g, 1)));
        rows.sort_unstable();
        let keys_with_rows = |floor| {
            let mut counts = KeyCounts::new(floor);
            for row in &rows {
                counts.count(row.key);
            }
            counts.finish()
        };
        assert_eq!(
            keys_with_rows(4),
            vec![(shared | 1, 6), (0x0A00_0000_0000_0000, 4)]
        );
        assert_eq!(keys_with_rows(7), vec![]);
        assert_eq!(keys_with_rows(1).len(), 4);
    }

    fn any_row() -> impl proptest::strategy::Strategy<Value = IndexRow> {
        use proptest::prelude::*;
        (any::<i64>(), any::<i64>(), any::<u32>(), any::<bool>()).prop_map(
            |(key, game, ply, open)| IndexRow {
                key,
                game,
                ply,
                open,
            },
        )
    }

    proptest::proptest! {
        #[test]
        fn stored_run_chunks_read_back(mut rows in proptest::collection::vec(any_row(), 0..200), sorted: bool) {
            if sorted {
                rows.sort_unstable();
            }
            let mut bytes = Vec::new();
            write_chunk(&rows, &mut bytes);
            proptest::prop_assert!(bytes.len() <= rows.len() * ROW_BYTES_MAX);
            proptest::prop_assert_eq!(read_chunk(&bytes), Some(rows));
        }

        #[test]
        fn nothing_panics_on_any_run_bytes(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let _ = read_chunk(&bytes);
        }
    }

    #[test]
    fn sorted_rows_of_a_large_import_take_some_ten_bytes() {
        // 4,096 rows of 40,000 games spread over the keys, as a run holds.
        let mut rows: Vec<IndexRow> = (0..4096u64)
            .map(|i| {
                let key = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) as i64;
                IndexRow::certain(key, 1 + (i * 7919 % 40_000) as i64, (i % 80) as u32)
            })
            .collect();
        rows.sort_unstable();
        let mut bytes = Vec::new();
        write_chunk(&rows, &mut bytes);
        assert!(bytes.len() <= rows.len() * 12, "{} bytes", bytes.len());
        assert_eq!(read_chunk(&bytes), Some(rows.clone()));
        // A chunk cut short is refused, not read as fewer rows.
        assert_eq!(read_chunk(&bytes[..bytes.len() - 1]), None);
    }

    #[test]
    fn runs_set_aside_merge_into_one_sorted_index() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::store::schema::migrate::migrate(&mut conn).unwrap();
        let tx = conn.transaction().unwrap();
        let mut buffer = IndexBuffer::default();
        let mut expected = Vec::new();
        let mut rng = crate::generate::SplitMix64::new(3);
        for run in 0..3 {
            for game in 0..200 {
                let row = IndexRow {
                    key: rng.next_u64() as i64,
                    game: run * 1000 + game,
                    ply: 1,
                    open: false,
                };
                buffer.push(row);
                expected.push(row);
            }
            if run < 2 {
                buffer.spill(&tx).unwrap();
            }
        }
        // A row met twice (already indexed) is not added again.
        buffer.push(expected[0]);
        assert_eq!(buffer.flush(&tx).unwrap(), 600);
        let stored: Vec<(i64, i64)> = postings::all(&tx)
            .unwrap()
            .into_iter()
            .map(|(kept, game, _, _)| (kept, game))
            .collect();
        expected.sort_unstable();
        let expected: Vec<(i64, i64)> = expected
            .iter()
            .map(|r| (postings::kept(r.key), r.game))
            .collect();
        assert_eq!(stored, expected);
        let left: i64 = tx
            .query_row("SELECT count(*) FROM position_run", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 0);
    }

    #[test]
    fn games_renumbered_in_memory_and_in_runs_merge_in_order() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::store::schema::migrate::migrate(&mut conn).unwrap();
        let tx = conn.transaction().unwrap();
        let mut buffer = IndexBuffer::default();
        let mut expected = Vec::new();
        let mut rng = crate::generate::SplitMix64::new(5);
        // Games 1000.. moved to 1..: every third one, in runs and in memory.
        let moved: HashMap<i64, i64> = (0..3000).step_by(3).map(|g| (5000 + g, 1 + g)).collect();
        // A few keys shared by every game (a start position), with chunks
        // of the runs cut inside their rows.
        let shared: Vec<i64> = (0..3).map(|_| rng.next_u64() as i64).collect();
        for run in 0..3 {
            for game in run * 1000..(run + 1) * 1000 {
                let id = 5000 + game;
                for key in shared
                    .iter()
                    .copied()
                    .chain([rng.next_u64() as i64, rng.next_u64() as i64])
                {
                    let row = IndexRow {
                        key,
                        game: id,
                        ply: (game % 7) as u32,
                        open: game % 5 == 0,
                    };
                    buffer.push(row);
                    expected.push(IndexRow {
                        game: moved.get(&id).copied().unwrap_or(id),
                        ..row
                    });
                }
            }
            if run < 2 {
                buffer.spill(&tx).unwrap();
            }
        }
        buffer.renumber(&tx, &moved).unwrap();
        assert_eq!(buffer.flush(&tx).unwrap(), expected.len());
        let stored: Vec<(i64, i64, u32, bool)> = postings::all(&tx).unwrap();
        expected.sort_unstable();
        let expected: Vec<(i64, i64, u32, bool)> = expected
            .iter()
            .map(|r| (postings::kept(r.key), r.game, r.ply, r.open))
            .collect();
        assert_eq!(stored, expected);
    }

    proptest::proptest! {
        #[test]
        fn two_sorted_halves_merge_in_order(
            mut low in proptest::collection::vec(any_row(), 0..100),
            mut high in proptest::collection::vec(any_row(), 0..100),
        ) {
            low.sort_unstable();
            high.sort_unstable();
            let merged: Vec<IndexRow> = Merged::new(&low, &high).collect();
            let mut all = [low, high].concat();
            all.sort();
            // Equal rows may come in either order; their order is what counts.
            proptest::prop_assert!(merged.is_sorted());
            proptest::prop_assert_eq!(merged.len(), all.len());
            let key = |r: &IndexRow| (r.key, r.game, r.ply, r.open);
            let mut merged_keys: Vec<_> = merged.iter().map(key).collect();
            let mut all_keys: Vec<_> = all.iter().map(key).collect();
            merged_keys.sort_unstable();
            all_keys.sort_unstable();
            proptest::prop_assert_eq!(merged_keys, all_keys);
        }
    }

    /// Rows enough to be sorted on two threads, some twice, over 40,000
    /// games.
    fn many_rows(seed: u64) -> Vec<IndexRow> {
        let mut rng = crate::generate::SplitMix64::new(seed);
        let mut rows: Vec<IndexRow> = (0..PARALLEL_SORT_ROWS as u64 * 2 + 17)
            .map(|_| {
                let n = rng.next_u64();
                // Few keys, so that buckets hold many entries and keys many games.
                IndexRow::certain(
                    (n % 50_000).wrapping_mul(0x9E37_79B9_7F4A_7C15) as i64,
                    1 + (n >> 40) as i64 % 40_000,
                    (n >> 20) as u32 % 90,
                )
            })
            .collect();
        let again = rows[..1000].to_vec();
        rows.extend(again);
        rows
    }

    #[test]
    fn halves_sorted_on_two_threads_merge_to_the_sorted_rows() {
        let mut rows = many_rows(5);
        let mut sorted = rows.clone();
        sorted.sort_unstable();
        let second = sort_halves(&mut rows, 2);
        assert_eq!(second, rows.len() / 2);
        let merged: Vec<IndexRow> = Merged::new(&rows[..second], &rows[second..]).collect();
        assert_eq!(merged, sorted);
        assert_eq!(sort_halves(&mut rows, 1), rows.len());
        assert_eq!(rows, sorted);
    }

    #[test]
    fn rows_sorted_while_other_work_runs_are_sorted_as_without_it() {
        let rows = many_rows(5);
        for threads in [1, 2] {
            let mut plain = rows.clone();
            let second = sort_halves(&mut plain, threads);
            let mut sorted = rows.clone();
            let mut ran = 0;
            let (at, done) = sort_halves_while(&mut sorted, threads, || {
                ran += 1;
                "done"
            });
            assert_eq!((at, done, ran), (second, "done", 1));
            assert_eq!(sorted, plain);
        }
    }

    #[test]
    fn the_index_and_its_runs_are_the_same_on_one_thread_and_two() {
        let written = |threads: usize| {
            let mut conn = rusqlite::Connection::open_in_memory().unwrap();
            crate::store::schema::migrate::migrate(&mut conn).unwrap();
            let tx = conn.transaction().unwrap();
            let mut buffer = IndexBuffer::with_threads(threads);
            for row in many_rows(7) {
                buffer.push(row);
            }
            buffer.spill(&tx).unwrap();
            let runs: Vec<Vec<u8>> = {
                let mut stmt = tx
                    .prepare("SELECT rows FROM position_run ORDER BY id")
                    .unwrap();
                stmt.query_map([], |r| r.get(0))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap()
            };
            for row in many_rows(8) {
                buffer.push(row);
            }
            let added = buffer.flush(&tx).unwrap();
            let chunks: Vec<(i64, i64, i64, Vec<u8>)> = {
                let mut stmt = tx
                    .prepare("SELECT bucket, suffix, game, entries FROM posting ORDER BY bucket, suffix, game")
                    .unwrap();
                stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap()
            };
            (runs, added, chunks)
        };
        let one = written(1);
        let two = written(2);
        assert!(one.0.len() > 1, "the run takes several chunks");
        assert!(one.2.len() > 1000, "the index takes many chunks");
        assert_eq!(one, two);
    }

    #[test]
    fn the_buffer_never_holds_more_than_flush_rows() {
        let mut buffer = IndexBuffer::default();
        let mut i = 0;
        while !buffer.is_full() {
            for _ in 0..GAME_ROWS {
                buffer.push(IndexRow::certain(i as i64, 1, 0));
                i += 1;
            }
        }
        assert!(buffer.rows.len() <= FLUSH_ROWS);
        assert_eq!(buffer.rows.capacity(), FLUSH_ROWS);
    }

    #[test]
    fn runs_are_found_through_their_index_not_by_reading_every_chunk() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::store::schema::migrate::migrate(&mut conn).unwrap();
        for sql in [
            NEXT_RUN,
            RUNS,
            crate::store::write::run_rows::TAKE_RUN_CHUNK,
        ] {
            let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let params = std::iter::repeat_n(1, stmt.parameter_count());
            let plan: Vec<String> = stmt
                .query_map(rusqlite::params_from_iter(params), |r| r.get(3))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            assert!(
                plan.iter().any(|step| step.contains("position_run_run")),
                "{sql}: {plan:?}"
            );
        }
    }

    #[test]
    fn past_max_runs_the_runs_are_merged_into_the_index() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::store::schema::migrate::migrate(&mut conn).unwrap();
        let tx = conn.transaction().unwrap();
        let mut buffer = IndexBuffer::default();
        let runs = |tx: &Transaction<'_>| -> i64 {
            tx.query_row("SELECT count(DISTINCT run) FROM position_run", [], |r| {
                r.get(0)
            })
            .unwrap()
        };
        for game in 0..MAX_RUNS {
            buffer.push(IndexRow {
                key: game,
                game,
                ply: 0,
                open: false,
            });
            assert_eq!(buffer.spill(&tx).unwrap(), 0);
        }
        assert_eq!(runs(&tx), MAX_RUNS);
        buffer.push(IndexRow {
            key: -1,
            game: MAX_RUNS,
            ply: 0,
            open: false,
        });
        assert_eq!(buffer.spill(&tx).unwrap(), MAX_RUNS as usize + 1);
        assert_eq!(runs(&tx), 0);
    }

    #[test]
    fn rows_sort_by_kept_key_then_game() {
        let a = IndexRow {
            key: -5,
            game: 9,
            ply: 3,
            open: false,
        };
        let b = IndexRow {
            key: 2,
            game: 1,
            ply: 0,
            open: true,
        };
        let c = IndexRow { game: 10, ..a };
        let mut rows = vec![b, c, a];
        rows.sort_unstable();
        assert_eq!(rows, vec![a, c, b]);
        // Keys sharing their kept bits sort by game first.
        let d = IndexRow {
            key: -5 + 1,
            game: 8,
            ply: 3,
            open: false,
        };
        let mut rows = vec![a, d];
        rows.sort_unstable();
        assert_eq!(rows, vec![d, a]);
    }
}
