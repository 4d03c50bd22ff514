//! Importing PDN files: read, replay and prepare games (on one thread, or
//! several: see [`FileCheck`]), write batches of them on another, one
//! transaction per batch.
//!
//! Crash safety: a file's row is written first; each batch then writes its
//! games with their provenance `(file, index)` in one transaction; the file
//! is marked complete at the end. A rerun skips complete files (same content
//! hash) and, in an incomplete one, the games whose provenance is stored.
//! Positions go to the index through `super::index`, which keeps its own
//! record of how far the index is complete.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Instant;

use rusqlite::{Transaction, params};
use serde::Serialize;

use crate::pdn::{Content, Encoding, Input, Snapshot};
use crate::replay::{FileCheck, Handed, JoinerTally, Overrides, Status};
use crate::rules::Move;
use crate::store::codec::id_set::IdSet;
pub use crate::store::stored::game::outcome;
use crate::store::stored::{Store, StoreError};
use crate::store::write::checkpoint::Checkpointer;
use crate::store::write::counts::GameCounts;
use crate::store::write::index::{IndexBuffer, IndexRow, index_missing};
use crate::store::write::kept::{self, Kept};
use crate::store::write::key_filter::KeyFilter;
use crate::store::write::move_ids::move_id;
use crate::store::write::places::{Places, renumber};
use crate::store::write::prepared::{
    Deflater, Prepared, StartMove, equal_game, insert_row, prepare, text_hash,
};
use crate::store::write::query_indexes;
use crate::store::write::recheck::{FileOptions, READING_VERSION};
use crate::store::write::rows::{Row, delete_games, has_copies, update_game};

/// Games the reading thread hands over at a time, at most.
pub const BATCH: usize = 2_000;

/// Bytes of prepared games (see `Prepared::memory_size`) the reading
/// thread hands over at a time, at most (a batch of long games holds
/// fewer than [`BATCH`]).
pub const BATCH_BYTES: usize = 8 << 20;

/// Batches waiting for the writing thread, at most. With the batch being
/// filled and the one being written, the games between the two threads
/// take `(QUEUED_BATCHES + 2) × BATCH_BYTES` at most.
const QUEUED_BATCHES: usize = 2;

/// The most games written per transaction. A commit writes every page of
/// the game table's indexes (players, events, dates) that its games
/// touched, scattered as those are: the larger the database, the more
/// games a transaction takes (a quarter of those stored, from [`BATCH`]
/// to this), so that an import of many games commits few times.
pub const COMMIT_GAMES: usize = 64_000;

/// The summary of an import (DESIGN §6).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ImportSummary {
    /// Files read this run.
    pub files: usize,
    /// Files already imported, unchanged.
    pub files_skipped: usize,
    /// Games added (duplicates not included).
    pub games: usize,
    /// Added games by status.
    pub ok: usize,
    /// Added games by status.
    pub ambiguous: usize,
    /// Added games by status.
    pub illegal: usize,
    /// Added games by status.
    pub unreadable: usize,
    /// Added games by status.
    pub unsupported: usize,
    /// Games met again, not added.
    pub duplicates: usize,
    /// Certain (game, position) pairs added.
    pub positions: usize,
    /// Files already imported, unchanged, but read by an older version of
    /// the rules and their inference: their games were read again.
    pub files_read_again: usize,
    /// Stored games whose reading changed when read again (their file read
    /// again, or imported again with new content or options).
    pub games_changed: usize,
    /// Files imported before whose content or options changed (or read
    /// again with `--force`): their games were replaced by the new ones.
    pub files_replaced: usize,
    /// Games of those files unchanged in text: they keep their ids.
    pub games_kept: usize,
    /// Games of their old versions that no file holds any more: removed.
    pub games_removed: usize,
    /// Games added in the place of a removed game of the same file (a game
    /// corrected in its file, most often): each took that game's id.
    pub games_in_place: usize,
    /// Index rows removed with them (or with games that read differently).
    pub positions_removed: usize,
    /// Wall-clock time.
    pub seconds: f64,
}

/// What the import reports while it runs.
#[derive(Clone, Debug)]
pub enum Progress {
    /// A file is starting; its size in bytes.
    File {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// Bytes of the current file read so far, and games done in all.
    Advance {
        /// Bytes read in the current file.
        bytes: u64,
        /// Games handled so far in this run.
        games: usize,
    },
    /// A file was skipped: already imported, unchanged; with the options
    /// it is read with when an earlier import gave some.
    Skipped(PathBuf, Option<FileOptions>),
    /// A file already imported was read again with the current rules; the
    /// number of its games whose reading changed.
    ReadAgain(PathBuf, usize),
    /// A file whose import was interrupted is read from its start again,
    /// because this import reads it with other options.
    StartedOver(PathBuf),
    /// A problem with one file; the import goes on.
    Problem(String),
    /// Something worth knowing about how one file is written (not a
    /// problem), as one line.
    Notice(String),
}

/// The import of a set of files into a store.
pub struct Importer<'a> {
    store: &'a mut Store,
    overrides: Overrides,
    /// The files' encoding, when given (else detected per file).
    encoding: Option<&'static Encoding>,
    /// Read every file again, changed or not.
    force: bool,
    /// Read every file without the options remembered with it
    /// (`--variant auto`).
    forget_options: bool,
    /// Threads that replay games.
    jobs: usize,
    /// Files read in full this run, with their game counts: marked complete
    /// once their positions are merged.
    finished: Vec<(i64, usize)>,
    /// Ids of move names, as far as known.
    move_ids: HashMap<Move, i64>,
    /// Positions of the stored games, not yet in the index.
    index: IndexBuffer,
    /// Counts of the games added, not yet written.
    counts: GameCounts,
    /// While every stored game was stored by this run (the database held
    /// none as it began): their duplicate keys.
    new_keys: Option<KeyFilter>,
}

impl<'a> Importer<'a> {
    /// An importer writing to `store`, reading games with `overrides`.
    pub fn new(store: &'a mut Store, overrides: Overrides) -> Importer<'a> {
        Importer {
            store,
            overrides,
            encoding: None,
            force: false,
            forget_options: false,
            jobs: 1,
            finished: Vec::new(),
            move_ids: HashMap::new(),
            index: IndexBuffer::default(),
            counts: GameCounts::default(),
            new_keys: None,
        }
    }

    /// Reads every file in `encoding` instead of the one detected for it
    /// (`None`: detect it, the default).
    pub fn with_encoding(mut self, encoding: Option<&'static Encoding>) -> Importer<'a> {
        self.encoding = encoding;
        self
    }

    /// Reads every file again, even when it is stored unchanged (its
    /// games are replaced as for a changed file).
    pub fn with_force(mut self, force: bool) -> Importer<'a> {
        self.force = force;
        self
    }

    /// Reads every file with the options of this import only, never with
    /// those remembered from an earlier one (`--variant auto` returns a
    /// file to inference): a file they change is read again.
    pub fn with_options_forgotten(mut self, forget: bool) -> Importer<'a> {
        self.forget_options = forget;
        self
    }

    /// Reads and replays games on `jobs` threads (1, the default: on the
    /// reading thread; see [`FileCheck`]); with 2 or more, the positions
    /// are also sorted and the index's chunks coded on a second thread.
    /// What is stored is the same for every number.
    pub fn with_jobs(mut self, jobs: usize) -> Importer<'a> {
        self.jobs = jobs.max(1);
        self.index = IndexBuffer::with_threads(self.jobs);
        self
    }

    /// Imports every file; a file that cannot be read (or that changed
    /// while it was read) is reported through `progress` and counted, the
    /// others go on.
    ///
    /// # Errors
    /// A database failure (the files already written stay written).
    pub fn run(
        &mut self,
        files: &[Input],
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(ImportSummary, usize), StoreError> {
        let began = Instant::now();
        let checkpointer = Checkpointer::start(self.store.conn(), self.store.path());
        let done = self.run_beside(&checkpointer, files, progress);
        let stopped = checkpointer.stop(self.store.conn());
        let (mut summary, failed) = done?;
        stopped?;
        summary.seconds = began.elapsed().as_secs_f64();
        Ok((summary, failed))
    }

    /// [`Importer::run`], the log copied into the database by
    /// `checkpointer`'s thread.
    fn run_beside(
        &mut self,
        checkpointer: &Checkpointer,
        files: &[Input],
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(ImportSummary, usize), StoreError> {
        let mut summary = ImportSummary::default();
        summary.positions += self.index_missing()?;
        let first = query_indexes::drop_for_first_import(self.store.conn_mut())?;
        self.new_keys = first.then(KeyFilter::default);
        let stored = self.import_files(files, &mut summary, checkpointer, progress);
        // Built even when the import failed, if the database lets it: in a
        // transaction of their own, while the index's pages are copied
        // from the log.
        let built = query_indexes::build_missing(self.store.conn_mut());
        let failed = stored?;
        built?;
        self.hand_back_free_pages()?;
        Ok((summary, failed))
    }

    /// Imports every file and writes the index, as [`Importer::run`];
    /// returns the files that failed.
    fn import_files(
        &mut self,
        files: &[Input],
        summary: &mut ImportSummary,
        checkpointer: &Checkpointer,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<usize, StoreError> {
        let mut failed = 0;
        for input in files {
            match self.import_file(input, summary, checkpointer, progress) {
                Ok(()) => {}
                Err(FileError::Io(message)) => {
                    progress(Progress::Problem(message));
                    failed += 1;
                }
                Err(FileError::Store(err)) => return Err(err),
            }
        }
        summary.positions += self.finish()?;
        Ok(failed)
    }

    /// Indexes the games an interrupted import stored without their
    /// positions.
    fn index_missing(&mut self) -> Result<usize, StoreError> {
        let tx = self.store.conn_mut().transaction()?;
        let added = index_missing(&tx)?;
        tx.commit()?;
        Ok(added)
    }

    /// Writes the positions still in memory to the index and marks the
    /// files read in full as complete, in one transaction.
    fn finish(&mut self) -> Result<usize, StoreError> {
        // No game is stored after: its memory, and what the threads that
        // read the games freed, go before the merge's.
        self.new_keys = None;
        crate::memory::release();
        let tx = self.store.conn_mut().transaction()?;
        let added = self.index.flush(&tx)?;
        for (file_id, games) in self.finished.drain(..) {
            tx.execute(
                "UPDATE source_file SET complete = 1, games = ?2 WHERE id = ?1",
                params![file_id, games as i64],
            )?;
        }
        tx.commit()?;
        Ok(added)
    }

    /// Hands back the pages of the runs set aside, if any are still free
    /// (the indexes built after the merge took some).
    fn hand_back_free_pages(&mut self) -> Result<(), StoreError> {
        let mut vacuum = self.store.conn().prepare("PRAGMA incremental_vacuum")?;
        let mut steps = vacuum.query([])?;
        while steps.next()?.is_some() {}
        Ok(())
    }

    fn import_file(
        &mut self,
        input: &Input,
        summary: &mut ImportSummary,
        checkpointer: &Checkpointer,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), FileError> {
        let (path, name) = (input.given(), input.name());
        let io_err = |e: io::Error| FileError::Io(format!("{name}: {e}"));
        let snapshot = input.snapshot().map_err(io_err)?;
        change_point(input.path());
        let Content { hash, size } = &snapshot.content;
        let location = location_of(input, hash);
        let stored = stored_versions(self.store.conn(), &location, &name)?;
        let reading = self.reading_for(&stored);
        let options = reading.options.to_json();
        let version = FileVersion {
            name: &name,
            location: &location,
            hash,
            size: *size,
            options: &options,
        };
        let file_id = match plan(&stored, &version, self.force) {
            Plan::Skip => return skipped(reading, path, summary, progress),
            Plan::ReadStoredAgain(id) => {
                return self.read_stored_again(id, path, summary, progress);
            }
            Plan::Resume(id) => {
                version.record(self.store.conn(), id)?;
                id
            }
            Plan::New => version.add(self.store.conn())?,
            Plan::Replace(ids) => {
                if started_over(&stored, hash) {
                    progress(Progress::StartedOver(path.to_path_buf()));
                }
                return self.replace_file(&snapshot, &version, &reading, &ids, summary, progress);
            }
        };
        let done = self.copies_stored(file_id)?;
        summary.files += 1;
        progress(Progress::File {
            path: path.to_path_buf(),
            bytes: *size,
        });
        let file = File::open(snapshot.path()).map_err(io_err)?;
        let (name, snapshot) = (name.as_str(), &snapshot);
        let overrides = &reading.overrides;
        let encoding = reading.encoding;
        let jobs = self.jobs;
        let (sender, receiver) = sync_channel::<Batch>(QUEUED_BATCHES);
        let read = std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("pdndb-reader".to_string())
                .spawn_scoped(scope, move || {
                    let reading = (name, overrides, encoding, jobs);
                    let read = read_games(file, snapshot.path(), reading, &done, sender);
                    read.map(|(joiners, content)| (unchanged(snapshot, content), joiners))
                })
                .map_err(|e| FileError::Io(format!("cannot start the reading thread: {e}")))?;
            write_batches(
                self.store,
                Carried {
                    move_ids: &mut self.move_ids,
                    index: &mut self.index,
                    counts: &mut self.counts,
                    new_keys: &mut self.new_keys,
                },
                file_id,
                receiver,
                summary,
                checkpointer,
                progress,
            )?;
            Ok::<_, FileError>(worker.join().unwrap_or(Err(ReadFailed::Stopped)))
        })?;
        self.file_read(read, version, file_id, progress)
    }

    /// Reads the stored games of file `id` again (its content unchanged,
    /// the options it is read with changed).
    fn read_stored_again(
        &mut self,
        id: i64,
        path: &Path,
        summary: &mut ImportSummary,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), FileError> {
        let changed = self.store.recheck(Some(&[id]), false, &mut |_| {})?;
        summary.files_read_again += 1;
        summary.games_changed += changed.changed;
        progress(Progress::ReadAgain(path.to_path_buf(), changed.changed));
        Ok(())
    }

    /// The indexes (in the file) of the copies stored from file `file_id`.
    fn copies_stored(&self, file_id: i64) -> Result<IdSet, StoreError> {
        let mut stmt = self
            .store
            .conn()
            .prepare("SELECT idx FROM provenance WHERE file = ?1")?;
        let rows = stmt.query_map([file_id], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Finishes a file once read: a file that changed while it was read
    /// stays incomplete (the next import reads it again and replaces its
    /// games); one read whole is noted as finished.
    fn file_read(
        &mut self,
        read: Result<(bool, JoinerTally), ReadFailed>,
        version: FileVersion<'_>,
        file_id: i64,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), FileError> {
        let name = version.name;
        match read {
            // Its games stay, the file not complete: the next import
            // reads it again and replaces them.
            Ok((false, _)) => {
                FileVersion {
                    hash: "",
                    ..version
                }
                .record(self.store.conn(), file_id)?;
                Err(changed(name))
            }
            Ok((true, joiners)) => {
                if let Some(notice) = joiners.notice(name) {
                    progress(Progress::Notice(notice));
                }
                let stored: i64 = self.store.conn().query_row(
                    "SELECT count(*) FROM provenance WHERE file = ?1",
                    [file_id],
                    |r| r.get(0),
                )?;
                self.finished.push((file_id, stored as usize));
                Ok(())
            }
            Err(failed) => Err(FileError::Io(failed.to_string())),
        }
    }

    /// Reads a new version of a file stored before (as `ids`: more than one
    /// when earlier versions were stored side by side) and replaces the old
    /// version's games with it, in one transaction: a game whose text is
    /// unchanged keeps its id (and its index rows, when it reads the same),
    /// the others are added, and the old games no file holds any more are
    /// deleted with their index rows; an added game at the place of a
    /// deleted one takes its id (see [`super::places`]).
    fn replace_file(
        &mut self,
        snapshot: &Snapshot,
        version: &FileVersion<'_>,
        reading: &FileReading,
        ids: &[i64],
        summary: &mut ImportSummary,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), FileError> {
        let name = version.name;
        let file =
            File::open(snapshot.path()).map_err(|e| FileError::Io(format!("{name}: {e}")))?;
        // The index rows waiting in memory are written first, so that a
        // replacement that does not complete can discard its own.
        summary.positions += self.write_index()?;
        let counted = summary.clone();
        summary.files += 1;
        summary.files_replaced += 1;
        progress(Progress::File {
            path: PathBuf::from(name),
            bytes: version.size,
        });
        let overrides = &reading.overrides;
        let encoding = reading.encoding;
        let jobs = self.jobs;
        let (sender, receiver) = sync_channel::<Batch>(QUEUED_BATCHES);
        let done = IdSet::default();
        let replaced = std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("pdndb-reader".to_string())
                .spawn_scoped(scope, move || {
                    let reading = (name, overrides, encoding, jobs);
                    let read = read_games(file, snapshot.path(), reading, &done, sender);
                    read.map(|(joiners, content)| (unchanged(snapshot, content), joiners))
                })
                .map_err(|e| FileError::Io(format!("cannot start the reading thread: {e}")))?;
            // Games stored before change: their keys are no longer all known.
            self.new_keys = None;
            let mut replacement = Replacement {
                carried: Carried {
                    move_ids: &mut self.move_ids,
                    index: &mut self.index,
                    counts: &mut self.counts,
                    new_keys: &mut self.new_keys,
                },
                summary,
                places: Places::default(),
            };
            let tx = self.store.conn_mut().transaction()?;
            let old = OldCopies::set_aside(&tx, ids)?;
            replacement.write(&tx, ids[0], old, receiver, progress)?;
            match worker.join() {
                // Rolled back: the old version stays as it was.
                Ok(Ok((false, _))) => Err(changed(name)),
                Ok(Ok((true, joiners))) => {
                    if let Some(notice) = joiners.notice(name) {
                        progress(Progress::Notice(notice));
                    }
                    version.record(&tx, ids[0])?;
                    tx.execute(
                        "UPDATE source_file SET complete = 1, \
                         games = (SELECT count(*) FROM provenance WHERE file = ?1) WHERE id = ?1",
                        [ids[0]],
                    )?;
                    tx.commit()?;
                    Ok(())
                }
                // The old version stays as it was.
                Ok(Err(failed)) => Err(FileError::Io(failed.to_string())),
                Err(_) => Err(FileError::Io(ReadFailed::Stopped.to_string())),
            }
        });
        if replaced.is_err() {
            // Rolled back: what was noted of its games is void.
            self.index.discard();
            self.counts.clear();
            self.move_ids.clear();
            *summary = counted;
        }
        replaced
    }

    /// How to read a file stored as `stored`: with the options of this
    /// import, or, when it gives none, those the file was imported with.
    fn reading_for(&self, stored: &[StoredFile]) -> FileReading {
        let mut given = FileOptions {
            encoding: self.encoding.map(|e| e.name().to_string()),
            ..FileOptions::of(&self.overrides)
        };
        let remembered = stored
            .first()
            .and_then(|f| f.options.as_deref())
            .and_then(|json| serde_json::from_str::<FileOptions>(json).ok());
        let options = match remembered {
            // Its rules forgotten, its text read as before.
            Some(remembered) if self.forget_options => {
                given.encoding = given.encoding.or(remembered.encoding);
                given
            }
            Some(remembered) if given == FileOptions::default() => remembered,
            _ => given,
        };
        FileReading {
            overrides: options.overrides(),
            encoding: self.encoding.or_else(|| {
                let name = options.encoding.as_deref()?;
                crate::pdn::encoding_for_label(name).ok()
            }),
            options,
        }
    }

    /// Writes the index rows waiting in memory, in one transaction.
    fn write_index(&mut self) -> Result<usize, StoreError> {
        let tx = self.store.conn_mut().transaction()?;
        let added = self.index.flush(&tx)?;
        tx.commit()?;
        Ok(added)
    }
}

/// The options a file is read with.
struct FileReading {
    overrides: Overrides,
    encoding: Option<&'static Encoding>,
    /// Both, as stored with the file.
    options: FileOptions,
}

/// Where a file is known in the database: its place (see [`locate`]);
/// a stream has no place of its own: it is known by its content.
fn location_of(input: &Input, hash: &str) -> String {
    match input.streamed() {
        Some(_) => format!("stream:{hash}"),
        None => locate(input.given()),
    }
}

/// A file skipped, its content stored already and read the same way.
fn skipped(
    reading: FileReading,
    path: &Path,
    summary: &mut ImportSummary,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), FileError> {
    summary.files_skipped += 1;
    let pinned = (reading.options != FileOptions::default()).then_some(reading.options);
    progress(Progress::Skipped(path.to_path_buf(), pinned));
    Ok(())
}

/// Whether a file about to replace the stored one is the same content
/// whose import was stopped before it finished: it starts over.
fn started_over(stored: &[StoredFile], hash: &str) -> bool {
    matches!(stored, [file] if !file.complete && file.hash == hash)
}

/// A version of a file on disk, as the store records it.
struct FileVersion<'a> {
    /// The path as given.
    name: &'a str,
    /// Where it is (see [`locate`]).
    location: &'a str,
    /// BLAKE3 of the content.
    hash: &'a str,
    size: u64,
    /// The options it is read with, as stored.
    options: &'a str,
}

impl FileVersion<'_> {
    /// Adds it as a new file, not yet complete; returns its id.
    fn add(&self, conn: &rusqlite::Connection) -> Result<i64, StoreError> {
        conn.execute(
            "INSERT INTO source_file (path, size, hash, imported_at) VALUES ('', 0, '', datetime('now'))",
            [],
        )?;
        let id = conn.last_insert_rowid();
        self.record(conn, id)?;
        Ok(id)
    }

    /// Records it as the content of file `id`.
    fn record(&self, conn: &rusqlite::Connection, id: i64) -> Result<(), StoreError> {
        conn.execute(
            "UPDATE source_file SET path = ?2, location = ?3, size = ?4, hash = ?5, options = ?6, \
             reading = ?7, imported_at = datetime('now') WHERE id = ?1",
            params![
                id,
                self.name,
                self.location,
                self.size as i64,
                self.hash,
                self.options,
                READING_VERSION
            ],
        )?;
        Ok(())
    }
}

/// A file as stored: the versions of one place.
struct StoredFile {
    id: i64,
    hash: String,
    complete: bool,
    reading: i64,
    options: Option<String>,
}

/// The stored files of a place: those recorded at `location`, or (stored
/// before places were recorded) under the path as given.
fn stored_versions(
    conn: &rusqlite::Connection,
    location: &str,
    name: &str,
) -> Result<Vec<StoredFile>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, hash, complete, reading, options FROM source_file \
         WHERE location = ?1 OR (location IS NULL AND path = ?2) ORDER BY id",
    )?;
    let rows = stmt.query_map(params![location, name], |r| {
        Ok(StoredFile {
            id: r.get(0)?,
            hash: r.get(1)?,
            complete: r.get(2)?,
            reading: r.get(3)?,
            options: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// What an import does with one file.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    /// Stored, unchanged: nothing.
    Skip,
    /// Stored, unchanged, read by an older version: read its stored games again.
    ReadStoredAgain(i64),
    /// Its import was interrupted: store the games not stored yet.
    Resume(i64),
    /// A new file.
    New,
    /// Stored with other content or options (or `--force`): replace its
    /// games (all of these files').
    Replace(Vec<i64>),
}

/// What to do with `version` given the stored versions of its place.
fn plan(stored: &[StoredFile], version: &FileVersion<'_>, force: bool) -> Plan {
    match stored {
        [] => Plan::New,
        [file] if !force && file.hash == version.hash && same_options(file, version) => {
            if !file.complete {
                Plan::Resume(file.id)
            } else if file.reading < READING_VERSION {
                Plan::ReadStoredAgain(file.id)
            } else {
                Plan::Skip
            }
        }
        files => Plan::Replace(files.iter().map(|f| f.id).collect()),
    }
}

/// Whether a stored file was read with the options `version` gives (a file
/// stored before options were recorded: when none are given).
fn same_options(file: &StoredFile, version: &FileVersion<'_>) -> bool {
    let none = FileOptions::default().to_json();
    file.options.as_deref().unwrap_or(&none) == version.options
}

/// Where a file is, as the store knows files: its absolute path with
/// symbolic links resolved (as far as the path exists), so that the same
/// file named from another folder, or through `./`, is the same file.
pub fn locate(path: &Path) -> String {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real.display().to_string();
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    match (clean.parent().map(std::fs::canonicalize), clean.file_name()) {
        (Some(Ok(parent)), Some(file)) => parent.join(file).display().to_string(),
        _ => clean.display().to_string(),
    }
}

/// The copies of a file's old version while the new version is read: set
/// aside under a file of their own, so that the new version's copies take
/// their places, and the new version's unchanged games find their old ones.
struct OldCopies {
    /// The file holding them.
    file: i64,
    /// Every copy: its text (tags and move text) hashed and its index
    /// under `file`, sorted (24 bytes a copy, so that a file of millions
    /// of games is replaced in little memory). A claimed copy's index is
    /// made negative: the claimed copies of a text come first among its
    /// copies, since each claim takes the first copy left.
    by_text: Vec<(ShortHash, i64)>,
}

impl OldCopies {
    /// Sets the copies of files `ids` aside, and takes every file of `ids`
    /// but the first out of `source_file`.
    fn set_aside(tx: &Transaction<'_>, ids: &[i64]) -> Result<OldCopies, StoreError> {
        tx.execute(
            "INSERT INTO source_file (path, size, hash, imported_at) \
             VALUES ('', 0, '', datetime('now'))",
            [],
        )?;
        let aside = tx.last_insert_rowid();
        let mut by_text = Vec::new();
        for (k, &file) in ids.iter().enumerate() {
            // Indexes kept apart when several files are set aside.
            let offset = (k as i64) << 40;
            tx.execute(
                "UPDATE provenance SET file = ?1, idx = idx + ?2 WHERE file = ?3",
                params![aside, offset, file],
            )?;
            if file != ids[0] {
                tx.execute("DELETE FROM source_file WHERE id = ?1", [file])?;
            }
        }
        let copies: i64 = tx.query_row(
            "SELECT count(*) FROM provenance WHERE file = ?1",
            [aside],
            |r| r.get(0),
        )?;
        by_text.reserve_exact(copies.max(0) as usize);
        let mut stmt = tx.prepare("SELECT idx, text FROM provenance WHERE file = ?1")?;
        let mut rows = stmt.query([aside])?;
        while let Some(row) = rows.next()? {
            let stored = row.get_ref(1)?;
            let (tags, movetext) =
                crate::store::codec::text::decode(stored.as_blob().unwrap_or_default())
                    .unwrap_or_default();
            by_text.push((short_hash(&text_hash(&tags, &movetext)), row.get(0)?));
        }
        by_text.sort_unstable();
        Ok(OldCopies {
            file: aside,
            by_text,
        })
    }

    /// The game of an old copy with this text, if one is left (in file
    /// order), and the copy's index; the copy leaves.
    fn claim(
        &mut self,
        tx: &Transaction<'_>,
        hash: &[u8; 32],
    ) -> Result<Option<(i64, i64)>, StoreError> {
        let hash = short_hash(hash);
        let from = self.by_text.partition_point(|c| c.0 < hash);
        let to = from + self.by_text[from..].partition_point(|c| c.0 == hash);
        let copies = &mut self.by_text[from..to];
        let left = copies.partition_point(|c| c.1 < 0);
        let Some(copy) = copies.get_mut(left) else {
            return Ok(None);
        };
        let idx = copy.1;
        copy.1 = -idx;
        let game = tx
            .prepare_cached("DELETE FROM provenance WHERE file = ?1 AND idx = ?2 RETURNING game")?
            .query_row(params![self.file, idx], |r| r.get(0))?;
        Ok(Some((game, idx)))
    }

    /// The copies left whose games no other file holds (those games
    /// leave), as (index, game), in order of index.
    fn leaving(&self, tx: &Transaction<'_>) -> Result<Vec<(i64, i64)>, StoreError> {
        let mut stmt = tx.prepare(
            "SELECT idx, game FROM provenance p WHERE file = ?1 AND NOT EXISTS \
             (SELECT 1 FROM provenance q WHERE q.game = p.game AND q.file != ?1) ORDER BY idx",
        )?;
        let rows = stmt.query_map([self.file], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Deletes the games of the copies left that no other file holds
    /// (`leaving`, as [`OldCopies::leaving`] lists them), then the copies;
    /// returns the games deleted and their index rows.
    fn finish(
        self,
        tx: &Transaction<'_>,
        leaving: &[(i64, i64)],
        move_ids: &mut HashMap<Move, i64>,
    ) -> Result<(usize, usize), StoreError> {
        let mut leaving: Vec<i64> = leaving.iter().map(|&(_, game)| game).collect();
        leaving.sort_unstable();
        leaving.dedup();
        let positions = delete_games(tx, &leaving, move_ids)?;
        tx.execute("DELETE FROM provenance WHERE file = ?1", [self.file])?;
        tx.execute("DELETE FROM source_file WHERE id = ?1", [self.file])?;
        Ok((leaving.len(), positions))
    }
}

/// The first 128 bits of a text hash: enough to tell a file's games apart.
type ShortHash = [u64; 2];

fn short_hash(hash: &[u8; 32]) -> ShortHash {
    let word = |at: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&hash[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    [word(0), word(8)]
}

/// The writing side of a replacement.
struct Replacement<'r> {
    carried: Carried<'r>,
    summary: &'r mut ImportSummary,
    /// Where the new version's games were found or stored.
    places: Places,
}

impl Replacement<'_> {
    /// Writes the new version's games as they come, then deletes the old
    /// games no file holds any more.
    fn write(
        &mut self,
        tx: &Transaction<'_>,
        file_id: i64,
        mut old: OldCopies,
        receiver: Receiver<Batch>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), StoreError> {
        let mut games = 0;
        for batch in receiver {
            for game in &batch.games {
                self.place(tx, file_id, game, &mut old)?;
                games += 1;
                crash_point(games);
                if self.carried.index.is_full() {
                    self.summary.positions += self.carried.index.spill(tx)?;
                }
            }
            progress(Progress::Advance {
                bytes: batch.bytes,
                games: self.summary.games + self.summary.duplicates + self.summary.games_kept,
            });
        }
        self.carried.counts.write(tx)?;
        let leaving = old.leaving(tx)?;
        let pairs = self.places.pair(tx, &leaving)?;
        let (games, positions) = old.finish(tx, &leaving, self.carried.move_ids)?;
        self.summary.games_removed += games;
        self.summary.positions_removed += positions;
        if !pairs.is_empty() {
            renumber(tx, &pairs)?;
            let moved = pairs.iter().copied().collect();
            self.carried.index.renumber(tx, &moved)?;
            // The games moved to old ids are below the index's mark: their
            // rows go in with them.
            self.summary.positions += self.carried.index.flush(tx)?;
            self.summary.games_in_place += pairs.len();
        }
        // Names, events and sites that other games hold than those gone
        // or moved.
        crate::store::stored::folds::enter_new(tx)?;
        Ok(())
    }

    /// Stores one game of the new version: as the old game of the same
    /// text, brought up to how it reads now, or as a new game.
    fn place(
        &mut self,
        tx: &Transaction<'_>,
        file_id: i64,
        game: &Prepared,
        old: &mut OldCopies,
    ) -> Result<(), StoreError> {
        let kept = match old.claim(tx, &game.text_hash)? {
            Some((old_game, old_index)) => {
                self.places.kept(game.index, old_index);
                let shared = has_copies(tx, old_game, Some(old.file))?;
                let reads_alike =
                    Row::stored(tx, old_game)?.is_some_and(|row| row == Row::of(game));
                // When another file holds the old game as it read and this
                // copy reads otherwise, the copy parts from it.
                (!shared || reads_alike).then_some(old_game)
            }
            None => None,
        };
        let Some(old_game) = kept else {
            let written = write_game(tx, &mut self.carried, file_id, game, self.summary)?;
            if let Some(id) = written.added {
                self.places.added(game.index, id);
            }
            return Ok(());
        };
        insert_copy(tx, file_id, old_game, game)?;
        let update = update_game(tx, old_game, game, self.carried.move_ids)?;
        self.summary.games_kept += 1;
        self.summary.games_changed += usize::from(update.change.is_some());
        self.summary.positions += update.positions_added;
        self.summary.positions_removed += update.positions_removed;
        Ok(())
    }
}

enum FileError {
    Io(String),
    Store(StoreError),
}

impl From<rusqlite::Error> for FileError {
    fn from(err: rusqlite::Error) -> FileError {
        FileError::Store(StoreError::Sqlite(err))
    }
}

impl From<StoreError> for FileError {
    fn from(err: StoreError) -> FileError {
        FileError::Store(err)
    }
}

/// Why the reading side of an import stopped before the file's end.
#[derive(Debug, thiserror::Error)]
enum ReadFailed {
    /// The file could not be read further.
    #[error("{place}: {error}")]
    Io {
        /// The file and where in it.
        place: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The reading thread ended without an answer.
    #[error("the reader stopped unexpectedly")]
    Stopped,
}

/// A batch of games with how far the file has been read.
struct Batch {
    games: Vec<Prepared>,
    bytes: u64,
}

/// Prepared games gathered into batches for the writing thread: a batch
/// goes when it holds [`BATCH`] games or [`BATCH_BYTES`] of them.
struct Batcher {
    sender: SyncSender<Batch>,
    games: Vec<Prepared>,
    bytes: usize,
}

/// The writing thread has stopped taking batches.
struct Stopped;

impl Batcher {
    /// Takes a prepared game and sends the batch when it is full; `read` is
    /// how far the file has been read.
    fn add(&mut self, prepared: Prepared, read: u64) -> Result<(), Stopped> {
        self.bytes += prepared.memory_size();
        self.games.push(prepared);
        if self.games.len() >= BATCH || self.bytes >= BATCH_BYTES {
            self.send(read)?;
        }
        Ok(())
    }

    fn send(&mut self, read: u64) -> Result<(), Stopped> {
        self.bytes = 0;
        let games = std::mem::take(&mut self.games);
        self.sender
            .send(Batch { games, bytes: read })
            .map_err(|_| Stopped)
    }
}

/// Whether a file read to its end as `content` is the file hashed before
/// (`snapshot`), unchanged.
fn unchanged(snapshot: &Snapshot, content: Option<Content>) -> bool {
    content.is_some_and(|content| snapshot.unchanged_as(&content))
}

/// How a file is read: its name, the command line's choices, its
/// encoding and the threads.
type Reading<'a> = (&'a str, &'a Overrides, Option<&'static Encoding>, usize);

/// The reading side: games read, checked and prepared (on `jobs` threads),
/// sent in batches in file order; with what the file held, as read.
fn read_games(
    file: File,
    path: &Path,
    (name, overrides, encoding, jobs): Reading<'_>,
    done: &IdSet,
    sender: SyncSender<Batch>,
) -> Result<(JoinerTally, Option<Content>), ReadFailed> {
    let checking = FileCheck {
        name,
        overrides,
        jobs,
        with_tags: true,
    };
    let mut batcher = Batcher {
        sender,
        games: Vec::new(),
        bytes: 0,
    };
    let mut failed = None;
    let mut joiners = JoinerTally::default();
    let handed = checking.run_file(
        file,
        path,
        encoding,
        true,
        // Games already stored still tell the file's preset.
        &|index| !done.contains(index as i64),
        &|| {
            let mut deflater = Deflater::new();
            move |game, checked| prepare(&game, &checked, &mut deflater)
        },
        &mut |handed| match handed {
            Handed::Game { output, read } => {
                joiners.add(output.index, &output.joiners);
                batcher.add(output, read.byte)
            }
            Handed::ReadError { error, at } => {
                failed = Some(ReadFailed::Io {
                    place: format!("{name}:{at}"),
                    error,
                });
                Err(Stopped)
            }
        },
    );
    if let Some(failed) = failed {
        return Err(failed);
    }
    let content = match handed {
        Ok(end) => {
            let _ = batcher.send(end.read.byte);
            end.content
        }
        Err(Stopped) => None,
    };
    Ok((joiners, content))
}

/// What the writer carries from game to game: the ids of the move names
/// it met, the index rows not yet merged, the counts not yet written and,
/// while known, the duplicate keys of the stored games.
struct Carried<'a> {
    move_ids: &'a mut HashMap<Move, i64>,
    index: &'a mut IndexBuffer,
    counts: &'a mut GameCounts,
    new_keys: &'a mut Option<KeyFilter>,
}

/// Writes the batches of file `file_id` as they come, a transaction per
/// [`COMMIT_GAMES`] games at most; returns the games written. The
/// connection's triggers are off meanwhile: the copies recorded are counted
/// in each transaction (see `kept`).
fn write_batches(
    store: &mut Store,
    carried: Carried<'_>,
    file_id: i64,
    receiver: Receiver<Batch>,
    summary: &mut ImportSummary,
    checkpointer: &Checkpointer,
    progress: &mut dyn FnMut(Progress),
) -> Result<usize, StoreError> {
    let were_on = kept::set_triggers(store.conn(), false)?;
    let batches = Batches {
        file_id,
        receiver,
        checkpointer,
    };
    let written = write_batches_counted(store, carried, batches, summary, progress);
    let restored = kept::set_triggers(store.conn(), were_on);
    let written = written?;
    restored?;
    Ok(written)
}

/// The batches of a file being written, and who copies them from the log.
struct Batches<'a> {
    file_id: i64,
    receiver: Receiver<Batch>,
    checkpointer: &'a Checkpointer,
}

/// [`write_batches`], the connection's triggers off.
fn write_batches_counted(
    store: &mut Store,
    mut carried: Carried<'_>,
    Batches {
        file_id,
        receiver,
        checkpointer,
    }: Batches<'_>,
    summary: &mut ImportSummary,
    progress: &mut dyn FnMut(Progress),
) -> Result<usize, StoreError> {
    let mut games = 0;
    let mut uncommitted = 0;
    let mut copies = 0;
    let conn = store.conn_mut();
    let stored: i64 = conn.query_row("SELECT coalesce(max(id), 0) FROM game", [], |r| r.get(0))?;
    let mut tx = conn.transaction()?;
    for batch in receiver {
        for game in &batch.games {
            let written = write_game(&tx, &mut carried, file_id, game, summary)?;
            copies += i64::from(written.copied);
            games += 1;
            if carried.index.is_full() {
                summary.positions += carried.index.spill(&tx)?;
            }
        }
        uncommitted += batch.games.len();
        let per_commit = (stored.max(0) as usize + games) / 4;
        if uncommitted >= per_commit.clamp(BATCH, COMMIT_GAMES) {
            carried.counts.write(&tx)?;
            kept::add(&tx, Kept::Copies, std::mem::take(&mut copies))?;
            tx.commit()?;
            crash_point(games);
            checkpointer.after_commit(conn)?;
            tx = conn.transaction()?;
            uncommitted = 0;
        }
        progress(Progress::Advance {
            bytes: batch.bytes,
            games: summary.games + summary.duplicates,
        });
    }
    carried.counts.write(&tx)?;
    kept::add(&tx, Kept::Copies, copies)?;
    tx.commit()?;
    crash_point(games);
    Ok(games)
}

/// The problem of a file that changed while it was read.
fn changed(name: &str) -> FileError {
    FileError::Io(format!(
        "{name}: changed while it was read; run pdndb import again"
    ))
}

/// For the tests of a file that changes while it is read: with
/// `PDNDB_TEST_APPEND=TEXT` set, TEXT is appended to each file once it is
/// hashed, as by another program writing it.
fn change_point(path: &Path) {
    if let Some(text) = std::env::var_os("PDNDB_TEST_APPEND") {
        let file = std::fs::OpenOptions::new().append(true).open(path);
        let _ = file.and_then(|mut f| f.write_all(text.as_encoded_bytes()));
    }
}

/// For the tests of crash safety: with `PDNDB_TEST_ABORT_AFTER=N` set, the
/// process dies (as if killed) once more than N games are committed.
fn crash_point(games: usize) {
    let limit = std::env::var("PDNDB_TEST_ABORT_AFTER")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    if limit.is_some_and(|limit| games > limit) {
        std::process::abort();
    }
}

/// What [`write_game`] stored.
struct Written {
    /// The game's id when it was stored as a new game.
    added: Option<i64>,
    /// Whether its copy was recorded (not when the file's game at its
    /// index is recorded already).
    copied: bool,
}

/// Stores a game read from file `file_id` (or, when it is stored already,
/// its copy), counting it in `counts` and its positions in `index`.
fn write_game(
    tx: &Transaction<'_>,
    carried: &mut Carried<'_>,
    file_id: i64,
    game: &Prepared,
    summary: &mut ImportSummary,
) -> Result<Written, StoreError> {
    let duplicate_of = match carried.new_keys {
        Some(keys) if !keys.may_hold(game.dup_key) => None,
        _ => equal_game(tx, game, None)?,
    };
    let Carried {
        move_ids,
        index,
        counts,
        new_keys,
    } = carried;
    let (game_id, added) = match duplicate_of {
        Some(id) => {
            summary.duplicates += 1;
            (id, None)
        }
        None => {
            let id = insert_row(tx, game)?;
            if let Some(keys) = new_keys {
                keys.insert(tx, game.dup_key)?;
            }
            counts.add_game(id, &game.counted());
            summary.games += 1;
            match game.status {
                Status::Ok => summary.ok += 1,
                Status::Ambiguous => summary.ambiguous += 1,
                Status::Illegal => summary.illegal += 1,
                Status::Unreadable => summary.unreadable += 1,
                Status::Unsupported => summary.unsupported += 1,
            }
            for &(key, ply, open) in &game.positions {
                if ply == 0 {
                    let next = match game.first_move {
                        Some(mv) => move_id(tx, move_ids, &mv)?,
                        None => 0,
                    };
                    counts.add_start(&StartMove {
                        key,
                        variant: &game.variant,
                        preset: &game.preset,
                        start_fen: game.start_fen.as_deref(),
                        next,
                        outcome: game.outcome,
                    });
                }
                index.push(IndexRow {
                    key,
                    game: id,
                    ply,
                    open,
                });
            }
            if counts.is_full() {
                counts.write(tx)?;
            }
            (id, Some(id))
        }
    };
    let copied = insert_copy(tx, file_id, game_id, game)?;
    Ok(Written { added, copied })
}

/// Records that game `game_id` is `game` of file `file_id`; returns
/// whether it did (not when the file's game at that index is recorded).
fn insert_copy(
    tx: &Transaction<'_>,
    file_id: i64,
    game_id: i64,
    game: &Prepared,
) -> Result<bool, StoreError> {
    let inserted = tx.prepare_cached(
        "INSERT OR IGNORE INTO provenance (file, idx, game, byte_offset, line, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![file_id, game.index as i64, game_id, game.byte_offset as i64, game.line as i64, game.text])?;
    Ok(inserted > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::Reader;
    use crate::replay::check_game;
    use crate::store::write::prepared::EQUAL_GAME;

    fn prepared(text: &str) -> Prepared {
        let game = Reader::new(text.as_bytes()).next_game().unwrap().unwrap();
        let checked = check_game(&game, "test.pdn", &Overrides::default());
        prepare(&game, &checked, &mut Deflater::new())
    }

    #[test]
    fn a_long_name_counts_in_a_games_size_and_a_short_one_is_held_inline() {
        let short = prepared("[White \"Ann\"]\n1. 11-15 *\n");
        let name = "A".repeat(100);
        let long = prepared(&format!("[White \"{name}\"]\n1. 11-15 *\n"));
        assert!(!short.white.is_heap_allocated());
        assert_eq!(long.white, name);
        let held = long.text.capacity() - short.text.capacity();
        assert_eq!(long.memory_size() - short.memory_size(), held + name.len());
    }

    #[test]
    fn moves_are_encoded_when_prepared() {
        let game = prepared("[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n");
        assert_eq!(game.moves.as_ref().map(Vec::len), Some(4));
        assert!(game.moves_key.is_some());
        assert!(game.memory_size() > std::mem::size_of::<Prepared>());
    }

    #[test]
    fn a_game_met_again_is_found_without_preparing_the_lookup_again() {
        // With the keys of the stored games known and without.
        for known in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let mut store = Store::open(
                &dir.path().join("db.sqlite"),
                crate::store::stored::handle::Mode::Write,
            )
            .unwrap();
            let tx = store.conn_mut().transaction().unwrap();
            let (mut move_ids, mut index) = (HashMap::new(), IndexBuffer::default());
            let mut counts = GameCounts::default();
            let mut new_keys = known.then(KeyFilter::default);
            let mut carried = Carried {
                move_ids: &mut move_ids,
                index: &mut index,
                counts: &mut counts,
                new_keys: &mut new_keys,
            };
            let mut summary = ImportSummary::default();
            tx.execute(
                "INSERT INTO source_file (id, path, size, hash, imported_at) VALUES (1, 'a', 0, '', '')",
                [],
            )
            .unwrap();
            let texts = [
                "[GameType \"21\"]\n1. 11-15 23-19 *\n",
                "[GameType \"21\"]\n[FEN \"B:W18:B14\"]\n1. 14-23 *\n",
                "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n",
            ];
            for round in 0..2 {
                for (n, text) in texts.iter().enumerate() {
                    let mut game = prepared(text);
                    game.index = (round * texts.len() + n + 1) as u64;
                    write_game(&tx, &mut carried, 1, &game, &mut summary).unwrap();
                }
            }
            assert_eq!((summary.games, summary.duplicates), (3, 3), "{known}");
            let stmt = tx.prepare_cached(EQUAL_GAME).unwrap();
            assert_eq!(stmt.get_status(rusqlite::StatementStatus::RePrepare), 0);
        }
    }

    #[test]
    fn a_batch_goes_when_its_games_take_batch_bytes() {
        let (sender, receiver) = sync_channel::<Batch>(8);
        let mut batcher = Batcher {
            sender,
            games: Vec::new(),
            bytes: 0,
        };
        let big = || {
            let mut game = prepared("1. 11-15 *\n");
            game.positions = Vec::with_capacity(BATCH_BYTES / 3 / 16);
            game
        };
        let per_game = big().memory_size();
        assert!(per_game > BATCH_BYTES / 4 && per_game < BATCH_BYTES / 2);
        for read in 0..7 {
            assert!(batcher.add(big(), read).is_ok());
        }
        let sizes: Vec<usize> = receiver.try_iter().map(|b| b.games.len()).collect();
        assert_eq!(sizes, vec![3, 3]);
        assert_eq!(batcher.games.len(), 1);
        // Small games go by number.
        for read in 0..BATCH as u64 {
            assert!(batcher.add(prepared("1. 11-15 *\n"), read).is_ok());
        }
        let sizes: Vec<usize> = receiver.try_iter().map(|b| b.games.len()).collect();
        assert_eq!(sizes, vec![BATCH]);
    }
}
