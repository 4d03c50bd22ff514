//! One writer at a time: the lock a command that writes (import, remove,
//! recheck) holds for its whole run.
//!
//! SQLite lets one transaction write at a time, but pdndb's writes span
//! many transactions (an import commits in batches and writes the index at
//! the end); a second writer between them would see games whose positions
//! are not yet written. So each writer first takes an exclusive advisory
//! lock (`flock`) on a file beside the database, `DB-lock`, holding the
//! writer's process id. The kernel releases the lock when the process ends,
//! killed or not, so a lock is never left behind; the file is removed when
//! the writer is done.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a writer waits for another by default.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(300);

/// How often a waiting writer tries the lock again.
const POLL: Duration = Duration::from_millis(100);

/// The write lock of a database, held until dropped.
#[derive(Debug)]
pub struct WriteLock {
    file: File,
    path: PathBuf,
}

/// Why the lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another writer held it for the whole wait.
    #[error(
        "another import is writing to {database}{}; try again when it is done, or give --wait SECONDS",
        holder(*.pid)
    )]
    Busy {
        /// The database.
        database: PathBuf,
        /// The holder's process id, when it could be read.
        pid: Option<u32>,
    },
    /// The lock file cannot be created or locked.
    #[error("{}: cannot take the write lock: {source}", .path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

fn holder(pid: Option<u32>) -> String {
    pid.map(|pid| format!(" (pid {pid})")).unwrap_or_default()
}

/// The lock file of the database at `database`.
pub fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push("-lock");
    PathBuf::from(name)
}

impl WriteLock {
    /// Takes the write lock of `database`, waiting up to `wait` for another
    /// writer; `waiting` is called once, with the holder's process id, when
    /// the lock is busy.
    ///
    /// # Errors
    /// Another writer held it for the whole wait, or the lock file cannot
    /// be made.
    pub fn take(
        database: &Path,
        wait: Duration,
        waiting: &mut dyn FnMut(Option<u32>),
    ) -> Result<WriteLock, LockError> {
        let path = lock_path(database);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let began = Instant::now();
        let mut told = false;
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {
                    // The file may have been removed by the writer before us
                    // between our open and our lock: then lock the new one.
                    if !is_same_file(&file, &path) {
                        continue;
                    }
                    file.set_len(0).map_err(io)?;
                    file.rewind().map_err(io)?;
                    write!(file, "{}", std::process::id()).map_err(io)?;
                    return Ok(WriteLock { file, path });
                }
                Err(TryLockError::WouldBlock) => {
                    let pid = read_pid(&mut file);
                    if began.elapsed() >= wait {
                        return Err(LockError::Busy {
                            database: database.to_path_buf(),
                            pid,
                        });
                    }
                    if !told {
                        waiting(pid);
                        told = true;
                    }
                    std::thread::sleep(POLL.min(wait.saturating_sub(began.elapsed())));
                }
                Err(TryLockError::Error(err)) => return Err(io(err)),
            }
        }
    }
}

/// Whether a writer holds the lock of `database` now.
pub fn is_held(database: &Path) -> bool {
    let Ok(file) = File::open(lock_path(database)) else {
        return false;
    };
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            false
        }
        Err(TryLockError::WouldBlock) => true,
        Err(TryLockError::Error(_)) => false,
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // Removed while still locked: a writer that opened it meanwhile
        // sees it is gone once it gets the lock, and makes a new one.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Whether `path` still names the open `file`.
fn is_same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

/// The process id the holder wrote, if readable.
fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_waits_then_is_told_who_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let first = WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap();
        assert!(lock_path(&db).exists());
        let mut told = Vec::new();
        let err = WriteLock::take(&db, Duration::from_millis(250), &mut |pid| told.push(pid))
            .unwrap_err();
        assert_eq!(told, vec![Some(std::process::id())]);
        let message = err.to_string();
        assert!(
            message.contains(&format!("another import is writing to {}", db.display())),
            "{message}"
        );
        assert!(
            message.contains(&format!("(pid {})", std::process::id())),
            "{message}"
        );
        assert!(is_held(&db));
        drop(first);
        assert!(!lock_path(&db).exists(), "the lock file is removed");
        assert!(!is_held(&db));
        let again = WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap();
        drop(again);
    }

    #[test]
    fn a_waiting_writer_gets_the_lock_when_the_first_is_done() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let first = WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap();
        let waiter = {
            let db = db.clone();
            std::thread::spawn(move || {
                WriteLock::take(&db, Duration::from_secs(30), &mut |_| {}).map(|_| ())
            })
        };
        std::thread::sleep(Duration::from_millis(300));
        drop(first);
        waiter.join().unwrap().unwrap();
    }
}
