//! Coding a fresh index's chunks on a second thread.
//!
//! When the merge writes an empty index, every bucket's entries become new
//! chunks: coding them ([`CodedChunks`]) is pure work on the entries,
//! while the merge itself (reading the runs, the heap) and the inserts need
//! the database. The merge hands the entries over in batches and writes
//! the coded chunks back as they come, in the order given, so the index is
//! the same as when one thread codes and writes.

use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, channel, sync_channel};
use std::thread::Scope;

use rusqlite::Transaction;

use crate::store::stored::StoreError;
use crate::store::stored::postings::{CodedChunks, Entry};

/// Entries handed over at once: a bucket's are some 18 on a small archive,
/// so each goes with many others.
const BATCH_ENTRIES: usize = 8_192;

/// Batches waiting for the coding thread at most.
const BATCHES_QUEUED: usize = 2;

/// Buckets' entries, one after another: each bucket with the end of its
/// entries.
#[derive(Default)]
struct Batch {
    buckets: Vec<(i64, usize)>,
    entries: Vec<Entry>,
}

impl Batch {
    /// Every bucket's chunks, coded.
    fn code(&self) -> CodedChunks {
        let mut coded = CodedChunks::default();
        let mut start = 0;
        for &(bucket, end) in &self.buckets {
            coded.add(bucket, &self.entries[start..end]);
            start = end;
        }
        coded
    }
}

/// Hands buckets to a coding thread and writes what it returns.
pub(in crate::store) struct ChunkCoder {
    to: Option<SyncSender<Batch>>,
    from: Receiver<CodedChunks>,
    /// Batches sent, not yet written.
    waiting: usize,
    batch: Batch,
}

impl ChunkCoder {
    /// A coder whose thread lives in `scope`.
    pub(in crate::store) fn spawn<'scope>(scope: &'scope Scope<'scope, '_>) -> ChunkCoder {
        let (to, batches) = sync_channel::<Batch>(BATCHES_QUEUED);
        // Unbounded, so the thread never waits for the writer: the batches
        // it returns are at most those the bounded queue let in.
        let (done, from) = channel::<CodedChunks>();
        scope.spawn(move || {
            for batch in batches {
                if done.send(batch.code()).is_err() {
                    break;
                }
            }
        });
        ChunkCoder {
            to: Some(to),
            from,
            waiting: 0,
            batch: Batch::default(),
        }
    }

    /// Adds a bucket's entries (sorted, none stored yet) to be coded and
    /// written; writes what is coded by then.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn add(
        &mut self,
        tx: &Transaction<'_>,
        bucket: i64,
        entries: impl IntoIterator<Item = Entry>,
    ) -> Result<(), StoreError> {
        self.batch.entries.extend(entries);
        self.batch.buckets.push((bucket, self.batch.entries.len()));
        if self.batch.entries.len() >= BATCH_ENTRIES {
            self.send(tx)?;
        }
        self.write(tx, false)
    }

    /// Codes and writes every bucket added.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn finish(mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        self.send(tx)?;
        self.to = None;
        self.write(tx, true)
    }

    fn send(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        if self.batch.buckets.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        // Coded here when the thread is gone (it panicked, which ends the
        // scope with that panic) rather than lose the entries.
        let batch = match &self.to {
            Some(to) => match to.send(batch) {
                Ok(()) => {
                    self.waiting += 1;
                    return Ok(());
                }
                Err(returned) => returned.0,
            },
            None => batch,
        };
        batch.code().insert(tx)
    }

    /// Writes the coded batches that came back; with `all`, waits for every
    /// batch sent.
    fn write(&mut self, tx: &Transaction<'_>, all: bool) -> Result<(), StoreError> {
        while self.waiting > 0 {
            let coded = if all {
                match self.from.recv() {
                    Ok(coded) => coded,
                    // Gone: its panic ends the scope.
                    Err(_) => return Ok(()),
                }
            } else {
                match self.from.try_recv() {
                    Ok(coded) => coded,
                    Err(TryRecvError::Empty | TryRecvError::Disconnected) => return Ok(()),
                }
            };
            self.waiting -= 1;
            coded.insert(tx)?;
        }
        Ok(())
    }
}
