//! The write-ahead log copied back into the database on a thread of its
//! own while an import writes.
//!
//! SQLite writes each commit's pages to the log first and, once the log
//! holds 1,000 pages, copies them into the database file right after the
//! commit, on the thread that committed (a checkpoint). An import writes
//! hundreds of megabytes that way, and its writer would copy each of them
//! once more. While a [`Checkpointer`] runs, the writer's connection does
//! not checkpoint after its commits: a second connection on another
//! thread copies what is committed every [`EVERY`], beside the writer
//! (SQLite lets a checkpoint run while another connection writes). The
//! writer still checkpoints itself now and then ([`Checkpointer::after_commit`]),
//! once the log has grown past [`LOG_PAGES`]: most of it copied already,
//! that is quick, and the next transaction writes the log from its start
//! again rather than letting it grow without end.
//!
//! What is in the database is the same: a checkpoint copies committed
//! pages only, and a commit is durable once in the log, whoever copies it.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::store::stored::StoreError;

/// How often the thread copies what was committed.
const EVERY: Duration = Duration::from_millis(40);

/// Pages of the log (4 KiB each: 256 MiB) past which the writer
/// checkpoints after a commit, so that the log starts over.
const LOG_PAGES: i64 = 1 << 16;

/// SQLite's own threshold, given back when the thread stops.
const AUTO_PAGES: i64 = 1_000;

/// A thread checkpointing the log of the database a writer's connection
/// writes; it stops when dropped (or [`Checkpointer::stop`]ped).
pub(in crate::store) struct Checkpointer {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
    /// Pages in the log as of the thread's last checkpoint.
    log_pages: Arc<AtomicI64>,
}

impl Checkpointer {
    /// Starts checkpointing the database at `path` that `writer` writes,
    /// and turns the writer's own checkpoints after commits off. When the
    /// second connection cannot be opened, or the thread started, nothing
    /// changes: the writer checkpoints as before.
    pub(in crate::store) fn start(writer: &Connection, path: &Path) -> Checkpointer {
        let log_pages = Arc::new(AtomicI64::new(0));
        let idle = Checkpointer {
            stop: None,
            thread: None,
            log_pages: Arc::clone(&log_pages),
        };
        let wal: bool = writer
            .query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0))
            .is_ok_and(|mode| mode.eq_ignore_ascii_case("wal"));
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let Some(conn) = wal
            .then(|| Connection::open_with_flags(path, flags).ok())
            .flatten()
        else {
            return idle;
        };
        let (stop, stopped) = channel::<()>();
        let published = Arc::clone(&log_pages);
        let thread = std::thread::Builder::new()
            .name("pdndb-checkpoint".to_string())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(EVERY) {
                    if let Ok(pages) = checkpoint(&conn) {
                        published.store(pages, Ordering::Relaxed);
                    }
                }
            });
        let Ok(thread) = thread else {
            return idle;
        };
        if writer.pragma_update(None, "wal_autocheckpoint", 0).is_err() {
            drop(stop);
            let _ = thread.join();
            return idle;
        }
        Checkpointer {
            stop: Some(stop),
            thread: Some(thread),
            log_pages,
        }
    }

    /// After the writer's commit: checkpoints on the writer's connection
    /// when the log has grown past [`LOG_PAGES`] (see the module's notes).
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn after_commit(&self, writer: &Connection) -> Result<(), StoreError> {
        if self.thread.is_some() && self.log_pages.load(Ordering::Relaxed) > LOG_PAGES {
            let pages = checkpoint(writer)?;
            self.log_pages.store(pages, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Stops the thread and gives the writer its own checkpoints back.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn stop(mut self, writer: &Connection) -> Result<(), StoreError> {
        let running = self.thread.is_some();
        self.halt();
        if running {
            writer.pragma_update(None, "wal_autocheckpoint", AUTO_PAGES)?;
        }
        Ok(())
    }

    fn halt(&mut self) {
        self.stop = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Copies what is committed in the log into the database, without
/// waiting for readers or the writer; returns the pages in the log.
fn checkpoint(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Mode, Store};

    fn log_pages(conn: &Connection) -> i64 {
        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))
            .unwrap()
    }

    #[test]
    fn the_thread_copies_the_commits_and_the_writer_gets_its_checkpoints_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        let store = Store::open(&path, Mode::Write).unwrap();
        let conn = store.conn();
        let checkpointer = Checkpointer::start(conn, &path);
        let auto: i64 = conn
            .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
            .unwrap();
        assert_eq!(auto, 0);
        conn.execute_batch(
            "CREATE TABLE t (x BLOB); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) \
             INSERT INTO t SELECT randomblob(3000) FROM n;",
        )
        .unwrap();
        checkpointer.after_commit(conn).unwrap();
        // Copied by the thread: the database file holds the table's pages.
        let file = std::fs::metadata(&path).unwrap().len();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while std::fs::metadata(&path).unwrap().len() < file + 2000 * 3000
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(std::fs::metadata(&path).unwrap().len() >= file + 2000 * 3000);
        checkpointer.stop(conn).unwrap();
        let auto: i64 = conn
            .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
            .unwrap();
        assert_eq!(auto, AUTO_PAGES);
        assert!(log_pages(conn) >= 0);
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 2000);
    }
}
