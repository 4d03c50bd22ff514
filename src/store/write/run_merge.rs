//! The merge at the end of an import: the rows kept in memory and the runs
//! set aside, merged in key order into the index.
//!
//! Choosing the next row among the runs ([`LoserTree`]), decoding the runs'
//! chunks and grouping the rows by bucket is work on memory; reading the
//! runs' chunks and writing the index's needs the database, which only the
//! writer's thread holds. With two threads or more the merge runs on a
//! thread of its own (and a fresh index's chunks are coded on a third), and
//! the writer serves it: it reads each run's next chunk ahead of need and
//! writes the chunks handed back, in the order given, so that what is
//! written is the same as on one thread. Every channel is bounded in
//! messages, and each message in bytes (a batch of some [`BATCH_ROWS`]
//! rows, or a run's chunk): what waits between the threads stays a few
//! megabytes whatever the import.

use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

use foldhash::HashMap;
use rusqlite::Transaction;

use crate::store::stored::StoreError;
use crate::store::stored::postings::{self, CodedChunks, Entry};
use crate::store::write::popular::Tally;
use crate::store::write::run_rows::{IndexRow, KeyCounts, Merged, damaged_run, take_run_chunk};

/// Rows of one bucket grouped at most before they are handed on: a bucket
/// holding more (a position every game reaches) is written in parts, so
/// that memory does not grow with the number of games (24 bytes each: 6
/// MiB).
const BUCKET_ROWS: usize = 1 << 18;

/// Rows handed over at once (whole buckets, so a batch holds at most
/// [`BUCKET_ROWS`] more): a bucket's are some 18 on a small archive, so
/// each goes with many others.
const BATCH_ROWS: usize = 8_192;

/// Messages waiting at most in each channel between the threads.
const QUEUED: usize = 4;

/// Where the merged rows go.
pub(super) struct Target<'a> {
    /// Popular keys by kept key.
    pub(super) popular: &'a HashMap<i64, i64>,
    /// Whether the index was empty before the merge (its chunks are then
    /// all new).
    pub(super) fresh: bool,
    /// Keys with this many merged rows or more are counted.
    pub(super) floor: i64,
}

/// What a merge did: the changes to the popular keys' counts, the keys with
/// the target's floor of merged rows or more (with their number, in order
/// of key) and the rows added to the index.
pub(super) struct Merge {
    pub(super) tally: Tally,
    pub(super) counts: Vec<(i64, i64)>,
    pub(super) added: usize,
}

/// Merges `memory` and the stored runs `runs` into the index, deleting the
/// runs' chunks as they are read, on a second (and third) thread when
/// `threads` is 2 or more.
///
/// # Errors
/// A database failure, or a run that does not decode.
pub(super) fn merge(
    tx: &Transaction<'_>,
    memory: Merged<'_>,
    runs: &[i64],
    target: &Target<'_>,
    threads: usize,
) -> Result<Merge, StoreError> {
    let mut stored = StoredRuns::new(runs);
    let mut written = Written {
        target,
        tally: Tally::default(),
        added: 0,
        entries: Vec::new(),
    };
    let counts = if threads > 1 {
        merge_beside(tx, memory, &mut stored, &mut written)?
    } else {
        merge_here(tx, memory, &mut stored, &mut written)?
    };
    Ok(Merge {
        tally: written.tally,
        counts,
        added: written.added,
    })
}

/// The merge on the writer's thread alone.
fn merge_here(
    tx: &Transaction<'_>,
    memory: Merged<'_>,
    stored: &mut StoredRuns,
    written: &mut Written<'_>,
) -> Result<Vec<(i64, i64)>, StoreError> {
    let runs = stored.len();
    let mut chunks = |run: usize| stored.next(tx, run).map_err(Halt::Store);
    let fresh = written.target.fresh;
    let floor = written.target.floor;
    let emit = |batch: Batch| {
        if fresh {
            written.fresh(tx, &batch, &batch.code())
        } else {
            written.add_to_index(tx, &batch)
        }
        .map_err(Halt::Store)
    };
    merge_sorted(memory, runs, &mut chunks, Buckets::new(floor, emit)).map_err(Halt::into_error)
}

/// The merge on a thread of its own (a fresh index's chunks coded on
/// another), served by the writer's thread.
fn merge_beside(
    tx: &Transaction<'_>,
    memory: Merged<'_>,
    stored: &mut StoredRuns,
    written: &mut Written<'_>,
) -> Result<Vec<(i64, i64)>, StoreError> {
    let runs = stored.len();
    let (fresh, floor) = (written.target.fresh, written.target.floor);
    std::thread::scope(|scope| {
        let (to_writer, inbox) = sync_channel::<ToWriter>(QUEUED);
        let (reply, replies) = channel::<(usize, Option<Vec<u8>>)>();
        let to_coder = fresh.then(|| {
            let (to_coder, batches) = sync_channel::<Batch>(QUEUED);
            let out = to_writer.clone();
            scope.spawn(move || {
                for batch in batches {
                    let coded = batch.code();
                    if out.send(ToWriter::Coded(batch, coded)).is_err() {
                        break;
                    }
                }
            });
            to_coder
        });
        let merging = scope.spawn(move || {
            let mut chunks = Asked::new(to_writer.clone(), replies, runs);
            let emit = |batch: Batch| match &to_coder {
                Some(coder) => coder.send(batch).map_err(|_| Halt::Gone),
                None => to_writer
                    .send(ToWriter::Rows(batch))
                    .map_err(|_| Halt::Gone),
            };
            merge_sorted(
                memory,
                runs,
                &mut |run| chunks.next(run),
                Buckets::new(floor, emit),
            )
        });
        // Returns (and hangs up, so that the other threads stop) at the
        // first failure.
        let served = serve(tx, inbox, reply, stored, written);
        let merged = merging
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        served?;
        merged.map_err(Halt::into_error)
    })
}

/// Why the merge stopped.
enum Halt {
    Store(StoreError),
    /// The thread it hands its rows to is gone (it stopped at a failure).
    Gone,
}

impl Halt {
    /// The failure to report. The writer's own failures are reported
    /// before the merge's: only a panic of the coding thread leaves the
    /// merge without a reader while the writer stands, and the threads'
    /// scope then ends with that panic, whatever is returned.
    fn into_error(self) -> StoreError {
        match self {
            Halt::Store(err) => err,
            Halt::Gone => damaged_run(),
        }
    }
}

/// What the merge's threads hand to the writer.
enum ToWriter {
    /// The next chunk of a run (by its number) is wanted.
    Need(usize),
    /// A fresh index's buckets and their chunks.
    Coded(Batch, CodedChunks),
    /// Buckets to add to an index that holds entries.
    Rows(Batch),
}

/// Serves the merge's threads until they are done: reads the runs' chunks
/// they ask for and writes what they hand over. Hangs up (drops `inbox`
/// and `reply`) when it returns.
fn serve(
    tx: &Transaction<'_>,
    inbox: Receiver<ToWriter>,
    reply: Sender<(usize, Option<Vec<u8>>)>,
    stored: &mut StoredRuns,
    written: &mut Written<'_>,
) -> Result<(), StoreError> {
    for message in inbox {
        match message {
            ToWriter::Need(run) => {
                let chunk = stored.next(tx, run)?;
                // The merge gone, its failure is what is reported.
                let _ = reply.send((run, chunk));
            }
            ToWriter::Coded(batch, coded) => written.fresh(tx, &batch, &coded)?,
            ToWriter::Rows(batch) => written.add_to_index(tx, &batch)?,
        }
    }
    Ok(())
}

/// The stored runs being merged, each read a chunk at a time, in order
/// (each chunk deleted as it is read: its pages are free at once for the
/// index being written).
struct StoredRuns {
    /// Each run and the row id of its chunk read last.
    runs: Vec<(i64, i64)>,
}

impl StoredRuns {
    fn new(runs: &[i64]) -> StoredRuns {
        StoredRuns {
            runs: runs.iter().map(|&run| (run, i64::MIN)).collect(),
        }
    }

    fn len(&self) -> usize {
        self.runs.len()
    }

    /// The next chunk's bytes of run number `run`; `None` past its last.
    fn next(&mut self, tx: &Transaction<'_>, run: usize) -> Result<Option<Vec<u8>>, StoreError> {
        let Some((stored, after)) = self.runs.get_mut(run) else {
            return Ok(None);
        };
        let Some((id, bytes)) = take_run_chunk(tx, *stored, *after)? else {
            return Ok(None);
        };
        *after = id;
        Ok(Some(bytes))
    }
}

/// The runs' chunks as the merge thread gets them from the writer: each
/// run's next chunk is asked for as soon as the one before is taken, so
/// that it is there when needed.
struct Asked {
    to: SyncSender<ToWriter>,
    replies: Receiver<(usize, Option<Vec<u8>>)>,
    /// Each run's next chunk once arrived (`Some(None)`: no more).
    arrived: Vec<Option<Option<Vec<u8>>>>,
    /// Whether each run's next chunk is asked for.
    asked: Vec<bool>,
}

impl Asked {
    fn new(
        to: SyncSender<ToWriter>,
        replies: Receiver<(usize, Option<Vec<u8>>)>,
        runs: usize,
    ) -> Asked {
        Asked {
            to,
            replies,
            arrived: vec![None; runs],
            asked: vec![false; runs],
        }
    }

    fn ask(&mut self, run: usize) -> Result<(), Halt> {
        self.to.send(ToWriter::Need(run)).map_err(|_| Halt::Gone)?;
        self.asked[run] = true;
        Ok(())
    }

    /// The next chunk of run `run` (waiting for it when it has not come
    /// yet), its following one asked for.
    fn next(&mut self, run: usize) -> Result<Option<Vec<u8>>, Halt> {
        if run >= self.arrived.len() {
            return Ok(None);
        }
        if !self.asked[run] {
            self.ask(run)?;
        }
        while self.arrived[run].is_none() {
            let (from, chunk) = self.replies.recv().map_err(|_| Halt::Gone)?;
            if let Some(slot) = self.arrived.get_mut(from) {
                *slot = Some(chunk);
            }
        }
        let chunk = self.arrived[run].take().flatten();
        self.asked[run] = false;
        if chunk.is_some() {
            self.ask(run)?;
        }
        Ok(chunk)
    }
}

/// Merges `memory` and `runs` runs whose chunks `chunks` gives by the run's
/// number, handing the rows to `buckets` in index order (the same row from
/// two sources once, from the first source: memory, then the runs in
/// order). Returns the keys `buckets` counted.
fn merge_sorted<F>(
    memory: Merged<'_>,
    runs: usize,
    chunks: &mut impl FnMut(usize) -> Result<Option<Vec<u8>>, Halt>,
    mut buckets: Buckets<F>,
) -> Result<Vec<(i64, i64)>, Halt>
where
    F: FnMut(Batch) -> Result<(), Halt>,
{
    let mut memory = memory;
    if runs == 0 {
        for row in memory {
            buckets.take(row)?;
        }
        return buckets.finish();
    }
    let mut sources: Vec<RunRows> = (0..runs).map(RunRows::new).collect();
    let mut heads = Vec::with_capacity(runs + 1);
    heads.push(memory.next());
    for source in &mut sources {
        heads.push(source.next(chunks)?);
    }
    let mut tree = LoserTree::new(heads);
    while let Some((source, row)) = tree.first() {
        buckets.take(row)?;
        let next = match source.checked_sub(1) {
            None => memory.next(),
            Some(run) => sources[run].next(chunks)?,
        };
        tree.replace(next);
    }
    buckets.finish()
}

/// A run's rows, decoded from its chunks one row at a time.
struct RunRows {
    run: usize,
    bytes: Vec<u8>,
    /// Where the next row starts in `bytes`.
    at: usize,
    /// The row read last from `bytes` (rows are coded after the one
    /// before).
    previous: Option<IndexRow>,
}

impl RunRows {
    fn new(run: usize) -> RunRows {
        RunRows {
            run,
            bytes: Vec::new(),
            at: 0,
            previous: None,
        }
    }

    fn next(
        &mut self,
        chunks: &mut impl FnMut(usize) -> Result<Option<Vec<u8>>, Halt>,
    ) -> Result<Option<IndexRow>, Halt> {
        while self.at >= self.bytes.len() {
            let Some(bytes) = chunks(self.run)? else {
                return Ok(None);
            };
            (self.bytes, self.at, self.previous) = (bytes, 0, None);
        }
        let mut rest = &self.bytes[self.at..];
        let row = IndexRow::read(&mut rest, self.previous.as_ref())
            .ok_or_else(|| Halt::Store(damaged_run()))?;
        self.at = self.bytes.len() - rest.len();
        self.previous = Some(row);
        Ok(Some(row))
    }
}

/// A tournament tree over sorted sources: the first of their next rows in
/// as many comparisons as the tree has levels (a binary heap takes twice
/// that to take a row out and put the next in). Rows of the same place in
/// the index come from the source of the smaller number first.
struct LoserTree {
    /// Each source's next row (`None` once it is done), then sources
    /// that are always done, up to a power of two.
    heads: Vec<Option<IndexRow>>,
    /// `losers[0]`: the source whose row comes first; `losers[n]` (for
    /// `n` ≥ 1): the source that lost at node `n`, whose children are
    /// nodes `2n` and `2n + 1`, the sources being nodes `len + i`.
    losers: Vec<usize>,
}

impl LoserTree {
    fn new(mut heads: Vec<Option<IndexRow>>) -> LoserTree {
        let len = heads.len().next_power_of_two();
        heads.resize(len, None);
        let mut tree = LoserTree {
            heads,
            losers: vec![0; len],
        };
        // Winners of each node, bottom up.
        let mut winners = vec![0; 2 * len];
        for (i, winner) in winners[len..].iter_mut().enumerate() {
            *winner = i;
        }
        for node in (1..len).rev() {
            let (a, b) = (winners[2 * node], winners[2 * node + 1]);
            let (winner, loser) = if tree.before(a, b) { (a, b) } else { (b, a) };
            winners[node] = winner;
            tree.losers[node] = loser;
        }
        tree.losers[0] = if len > 1 { winners[1] } else { 0 };
        tree
    }

    /// Whether source `a`'s row comes before source `b`'s.
    fn before(&self, a: usize, b: usize) -> bool {
        match (&self.heads[a], &self.heads[b]) {
            (Some(x), Some(y)) => (x.order(), a) < (y.order(), b),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => a < b,
        }
    }

    /// The source whose row comes first, and that row; `None` when every
    /// source is done.
    fn first(&self) -> Option<(usize, IndexRow)> {
        let source = self.losers[0];
        self.heads[source].map(|row| (source, row))
    }

    /// Replaces the first source's row with its next one.
    fn replace(&mut self, next: Option<IndexRow>) {
        let len = self.heads.len();
        let mut winner = self.losers[0];
        self.heads[winner] = next;
        let mut node = (len + winner) / 2;
        while node >= 1 {
            if self.before(self.losers[node], winner) {
                std::mem::swap(&mut self.losers[node], &mut winner);
            }
            node /= 2;
        }
        self.losers[0] = winner;
    }
}

/// Whole buckets' merged rows, one after another: each bucket (or part of
/// one) with the end of its rows.
#[derive(Default)]
struct Batch {
    buckets: Vec<(i64, usize)>,
    rows: Vec<IndexRow>,
}

impl Batch {
    /// Each bucket (or part) and its rows.
    fn each(&self) -> impl Iterator<Item = (i64, &[IndexRow])> {
        let starts = std::iter::once(0).chain(self.buckets.iter().map(|&(_, end)| end));
        self.buckets
            .iter()
            .zip(starts)
            .map(|(&(bucket, end), start)| (bucket, &self.rows[start..end]))
    }

    /// Every bucket's chunks, coded (all new).
    fn code(&self) -> CodedChunks {
        let mut coded = CodedChunks::default();
        let mut entries = Vec::new();
        for (bucket, rows) in self.each() {
            entries.clear();
            entries.extend(rows.iter().map(IndexRow::entry));
            coded.add(bucket, &entries);
        }
        coded
    }
}

/// The merged rows grouped by bucket (the same row from two sources kept
/// once) and counted by key, handed on by batches to `emit`.
struct Buckets<F> {
    batch: Batch,
    /// Where the bucket being grouped starts in the batch.
    start: usize,
    /// The row taken last.
    last: Option<IndexRow>,
    counts: KeyCounts,
    emit: F,
}

impl<F> Buckets<F>
where
    F: FnMut(Batch) -> Result<(), Halt>,
{
    fn new(floor: i64, emit: F) -> Buckets<F> {
        Buckets {
            batch: Batch::default(),
            start: 0,
            last: None,
            counts: KeyCounts::new(floor),
            emit,
        }
    }

    /// Adds the next row in index order.
    fn take(&mut self, row: IndexRow) -> Result<(), Halt> {
        let grouped = &self.batch.rows[self.start..];
        if grouped.first().is_some_and(|r| r.bucket() != row.bucket())
            || grouped.len() >= BUCKET_ROWS
        {
            self.end_bucket()?;
        }
        if self.last.is_none_or(|last| last.cmp(&row).is_ne()) {
            self.batch.rows.push(row);
            self.counts.count(row.key);
            self.last = Some(row);
        }
        Ok(())
    }

    /// Ends the bucket being grouped (or its part), handing the batch on
    /// once it holds enough rows.
    fn end_bucket(&mut self) -> Result<(), Halt> {
        let Some(first) = self.batch.rows.get(self.start) else {
            return Ok(());
        };
        let end = self.batch.rows.len();
        self.batch.buckets.push((first.bucket(), end));
        self.start = end;
        if end >= BATCH_ROWS {
            self.start = 0;
            (self.emit)(std::mem::take(&mut self.batch))?;
        }
        Ok(())
    }

    /// Hands on what is left; the keys counted.
    fn finish(mut self) -> Result<Vec<(i64, i64)>, Halt> {
        self.end_bucket()?;
        if !self.batch.buckets.is_empty() {
            (self.emit)(std::mem::take(&mut self.batch))?;
        }
        Ok(self.counts.finish())
    }
}

/// The writer's side: writes the batches and counts what they add.
struct Written<'a> {
    target: &'a Target<'a>,
    tally: Tally,
    added: usize,
    /// A bucket's entries, reused.
    entries: Vec<Entry>,
}

impl Written<'_> {
    /// Writes the chunks of a fresh index's buckets, `coded` from `batch`.
    fn fresh(
        &mut self,
        tx: &Transaction<'_>,
        batch: &Batch,
        coded: &CodedChunks,
    ) -> Result<(), StoreError> {
        coded.insert(tx)?;
        self.added += batch.rows.len();
        if self.target.popular.is_empty() {
            return Ok(());
        }
        for row in &batch.rows {
            self.tally_row(tx, row)?;
        }
        Ok(())
    }

    /// Adds the buckets' rows to an index that holds entries (a row already
    /// there is not added again).
    fn add_to_index(&mut self, tx: &Transaction<'_>, batch: &Batch) -> Result<(), StoreError> {
        for (bucket, rows) in batch.each() {
            self.entries.clear();
            self.entries.extend(rows.iter().map(IndexRow::entry));
            let added = postings::add(tx, bucket, &self.entries, self.target.fresh)?;
            for (row, added) in rows.iter().zip(added) {
                if added {
                    self.added += 1;
                    self.tally_row(tx, row)?;
                }
            }
        }
        Ok(())
    }

    /// Counts an added row in the popular keys' counts when its key is one.
    fn tally_row(&mut self, tx: &Transaction<'_>, row: &IndexRow) -> Result<(), StoreError> {
        if let Some(&key) = self.target.popular.get(&postings::kept(row.key)) {
            self.tally
                .row(tx, key, row.game, i64::from(row.ply), row.open, 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorted sources of rows, some shared between sources.
    fn sources(n: usize, seed: u64) -> Vec<Vec<IndexRow>> {
        let mut rng = crate::generate::SplitMix64::new(seed);
        let shared: Vec<IndexRow> = (0..20)
            .map(|g| IndexRow::certain((rng.next_u64() % 50) as i64, g, 1))
            .collect();
        (0..n)
            .map(|i| {
                let mut rows: Vec<IndexRow> = (0..rng.below(300))
                    .map(|_| {
                        let n = rng.next_u64();
                        IndexRow::certain(
                            (n % 200) as i64 - 100,
                            (n >> 40) as i64 % 50,
                            (n >> 20) as u32 % 9,
                        )
                    })
                    .collect();
                rows.extend(shared.iter().skip(i % 3));
                rows.sort_unstable();
                rows
            })
            .collect()
    }

    #[test]
    fn a_loser_tree_gives_the_rows_of_its_sources_in_order_first_source_first() {
        for n in [1, 2, 3, 5, 8, 13] {
            let sources = sources(n, n as u64);
            let mut at = vec![0; n];
            let mut tree = LoserTree::new(sources.iter().map(|s| s.first().copied()).collect());
            let mut merged = Vec::new();
            while let Some((source, row)) = tree.first() {
                merged.push((row, source));
                at[source] += 1;
                tree.replace(sources[source].get(at[source]).copied());
            }
            let mut expected: Vec<(IndexRow, usize)> = sources
                .iter()
                .enumerate()
                .flat_map(|(i, s)| s.iter().map(move |&r| (r, i)))
                .collect();
            // By place in the index, then source: a stable sort.
            expected.sort_by_key(|a| (a.0.order(), a.1));
            assert_eq!(merged.len(), expected.len(), "{n} sources");
            let places = |v: &[(IndexRow, usize)]| -> Vec<_> {
                v.iter().map(|(r, i)| (r.order(), *i)).collect()
            };
            assert_eq!(places(&merged), places(&expected), "{n} sources");
        }
    }

    #[test]
    fn rows_decoded_from_chunks_as_they_come_are_the_stored_rows() {
        let rows = &sources(1, 4)[0];
        let chunks: Vec<Vec<u8>> = rows
            .chunks(7)
            .map(|chunk| {
                let mut bytes = Vec::new();
                crate::store::write::run_rows::write_chunk(chunk, &mut bytes);
                bytes
            })
            .chain([Vec::new()])
            .collect();
        let mut given = chunks.into_iter();
        let mut next = |_: usize| Ok(given.next());
        let mut run = RunRows::new(0);
        let mut read = Vec::new();
        while let Some(row) = run.next(&mut next).ok().flatten() {
            read.push(row);
        }
        assert_eq!(&read, rows);
        // A chunk cut short is refused.
        let mut bytes = Vec::new();
        crate::store::write::run_rows::write_chunk(rows, &mut bytes);
        bytes.pop();
        let mut once = Some(bytes);
        let mut next = |_: usize| Ok(once.take());
        let mut run = RunRows::new(0);
        let mut failed = false;
        loop {
            match run.next(&mut next) {
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(_) => {
                    failed = true;
                    break;
                }
            }
        }
        assert!(failed);
    }
}
