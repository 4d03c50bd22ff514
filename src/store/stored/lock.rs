//! One writer at a time: the lock a command that writes (import, remove,
//! recheck) holds for its whole run.
//!
//! SQLite lets one transaction write at a time, but pdndb's writes span
//! many transactions (an import commits in batches and writes the index at
//! the end); a second writer between them would see games whose positions
//! are not yet written. So each writer first takes an exclusive advisory
//! lock (`flock`) that belongs to the database file, whatever name it is
//! given by:
//!
//! * The lock file `DB-lock` beside the database's canonical path (symbolic
//!   links and `..` resolved), holding the writer's process id: every path
//!   that leads to the file through links or other spellings meets it.
//!   After locking it, the writer checks that the file it locked is still
//!   the one at that path (by device and inode), and starts again if not:
//!   the file a writer before it removed, or one renamed over it, is not a
//!   lock.
//! * Then the database file itself, opened read-only: a `flock` belongs to
//!   the file, not to a name, so it is the same for every hard link to the
//!   database (which have lock files of their own names) and holds when the
//!   lock file is renamed over. SQLite locks with `fcntl`, which on Linux
//!   does not meet `flock`: readers are not stopped. A database that does
//!   not exist yet is locked once the writer has made it. Where the system
//!   refuses a `flock` on the database (some network file systems), the
//!   lock file alone decides.
//!
//! The kernel releases the locks when the process ends, killed or not, so
//! a lock is never left behind; the lock file is removed when the writer
//! is done, and when the lock could not be taken after all.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Read, Seek, Write};
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
    /// The database file, locked too (where the system allows it); `None`
    /// while it does not exist.
    database: Option<File>,
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
    /// The lock file cannot be created, locked or written.
    #[error("{}", io_message(.path, .source))]
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

/// The message of [`LockError::Io`]: a full disk said as such.
fn io_message(path: &Path, source: &std::io::Error) -> String {
    let path = path.display();
    match source.kind() {
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded | ErrorKind::FileTooLarge => format!(
            "{path}: no room on the disk ({source}); the database is unchanged; \
             free some space and run the same command again"
        ),
        _ => format!("{path}: cannot take the write lock: {source}"),
    }
}

/// Where `path` leads: its canonical path when it exists, else its
/// canonical folder and its name, else `path` itself.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (path.file_name(), std::fs::canonicalize(folder)) {
        (Some(name), Ok(folder)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

/// The lock file of the database at `database`: beside its canonical path.
pub fn lock_path(database: &Path) -> PathBuf {
    let mut name = canonical(database).into_os_string();
    name.push("-lock");
    PathBuf::from(name)
}

/// A writer's turn to wait: gives up once `wait` is over, and says once
/// that it waits.
struct Waiting<'a> {
    database: &'a Path,
    began: Instant,
    wait: Duration,
    told: bool,
    waiting: &'a mut dyn FnMut(Option<u32>),
}

impl Waiting<'_> {
    /// Waits a little for the writer `pid`.
    fn wait_for(&mut self, pid: Option<u32>) -> Result<(), LockError> {
        if self.began.elapsed() >= self.wait {
            return Err(LockError::Busy {
                database: self.database.to_path_buf(),
                pid,
            });
        }
        if !self.told {
            (self.waiting)(pid);
            self.told = true;
        }
        std::thread::sleep(POLL.min(self.wait.saturating_sub(self.began.elapsed())));
        Ok(())
    }
}

impl WriteLock {
    /// Takes the write lock of `database`, waiting up to `wait` for another
    /// writer; `waiting` is called once, with the holder's process id, when
    /// the lock is busy.
    ///
    /// # Errors
    /// Another writer held it for the whole wait, or the lock file cannot
    /// be made or written.
    pub fn take(
        database: &Path,
        wait: Duration,
        waiting: &mut dyn FnMut(Option<u32>),
    ) -> Result<WriteLock, LockError> {
        let mut turn = Waiting {
            database,
            began: Instant::now(),
            wait,
            told: false,
            waiting,
        };
        let path = lock_path(database);
        let file = lock_file(&path, &mut turn)?;
        let mut lock = WriteLock {
            file,
            path,
            database: None,
        };
        // Dropped on an error: the lock file goes.
        lock.database = lock_database(database, &mut turn)?;
        lock.write_pid()?;
        Ok(lock)
    }

    /// Locks the database file too, once it exists: for a writer that made
    /// it after taking the lock. Does not wait.
    ///
    /// # Errors
    /// Another writer holds the database (through another name made since).
    pub fn hold_database(&mut self, database: &Path) -> Result<(), LockError> {
        if self.database.is_none() {
            let mut turn = Waiting {
                database,
                began: Instant::now(),
                wait: Duration::ZERO,
                told: true,
                waiting: &mut |_| {},
            };
            self.database = lock_database(database, &mut turn)?;
        }
        Ok(())
    }

    /// Writes this process's id into the lock file, for a writer that waits.
    fn write_pid(&mut self) -> Result<(), LockError> {
        let pid = std::process::id().to_string();
        let written = self
            .file
            .rewind()
            .and_then(|()| self.file.write_all(pid.as_bytes()))
            .and_then(|()| self.file.set_len(pid.len() as u64));
        written.map_err(|source| LockError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

/// Opens and locks the lock file at `path`, waiting for a holder as `turn`
/// allows; starts again when the file locked is no longer the one at
/// `path`.
fn lock_file(path: &Path, turn: &mut Waiting) -> Result<File, LockError> {
    let io = |source| LockError::Io {
        path: path.to_path_buf(),
        source,
    };
    loop {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        match file.try_lock() {
            // The file may have been removed by the writer before us
            // between our open and our lock, or another renamed over
            // it: then lock the one there now.
            Ok(()) if is_same_file(&file, path) => return Ok(file),
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let pid = read_pid(&mut file).or_else(|| flock_holder(&file));
                turn.wait_for(pid)?;
            }
            Err(TryLockError::Error(err)) => return Err(io(err)),
        }
    }
}

/// Locks the database file at `database`, waiting for a holder as `turn`
/// allows; `None` when it does not exist. Where the system refuses the
/// lock, the file is kept open all the same: closing it while SQLite has
/// the database open would drop the `fcntl` locks SQLite holds on it in
/// this process.
fn lock_database(database: &Path, turn: &mut Waiting) -> Result<Option<File>, LockError> {
    let Ok(file) = File::open(database) else {
        return Ok(None);
    };
    loop {
        match file.try_lock() {
            Ok(()) | Err(TryLockError::Error(_)) => return Ok(Some(file)),
            Err(TryLockError::WouldBlock) => turn.wait_for(flock_holder(&file))?,
        }
    }
}

/// Whether a writer holds the lock of `database` now. Looks at the lock
/// file only: opening and closing the database would drop the `fcntl`
/// locks SQLite holds on it in this process.
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
        // sees it is gone once it gets the lock, and makes a new one. A
        // file renamed over it is not ours to remove.
        if is_same_file(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
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

/// The process holding a `flock` on `file`, from the kernel's list of
/// locks (`/proc/locks`, where there is one).
fn flock_holder(file: &File) -> Option<u32> {
    let meta = file.metadata().ok()?;
    let dev = meta.dev();
    // The major and minor numbers, as glibc's `major` and `minor` split them.
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    let id = format!("{major:02x}:{minor:02x}:{}", meta.ino());
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    locks.lines().find_map(|line| {
        // `1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF`
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields[..] {
            [_, "FLOCK", _, _, pid, file, ..] if file == id => pid.parse().ok(),
            _ => None,
        }
    })
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

    fn is_busy(db: &Path) -> bool {
        matches!(
            WriteLock::take(db, Duration::ZERO, &mut |_| {}),
            Err(LockError::Busy { .. })
        )
    }

    #[test]
    fn every_name_of_the_database_meets_the_same_lock() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        std::fs::write(&db, b"").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink(&db, dir.path().join("link.sqlite")).unwrap();
        std::fs::hard_link(&db, dir.path().join("hard.sqlite")).unwrap();
        let first = WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap();
        for name in [
            "link.sqlite",
            "hard.sqlite",
            "./db.sqlite",
            "sub/../db.sqlite",
        ] {
            assert!(is_busy(&dir.path().join(name)), "{name}");
        }
        // The writer through the hard link is told who holds it, from the
        // kernel's list when there is one.
        let mut told = Vec::new();
        let _ = WriteLock::take(
            &dir.path().join("hard.sqlite"),
            Duration::from_millis(150),
            &mut |pid| told.push(pid),
        );
        assert_eq!(told.len(), 1);
        if Path::new("/proc/locks").exists() {
            assert_eq!(told, [Some(std::process::id())]);
        }
        drop(first);
        assert!(!dir.path().join("hard.sqlite-lock").exists());
        drop(
            WriteLock::take(&dir.path().join("hard.sqlite"), Duration::ZERO, &mut |_| {}).unwrap(),
        );
    }

    #[test]
    fn a_lock_file_renamed_over_lets_no_second_writer_in() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        std::fs::write(&db, b"").unwrap();
        let first = WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap();
        let other = dir.path().join("other");
        std::fs::write(&other, b"").unwrap();
        std::fs::rename(&other, lock_path(&db)).unwrap();
        assert!(is_busy(&db));
        // The first writer leaves a file that is not its own.
        std::fs::write(&other, b"").unwrap();
        std::fs::rename(&other, lock_path(&db)).unwrap();
        drop(first);
        assert!(lock_path(&db).exists());
        drop(WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap());
    }

    #[test]
    fn a_database_made_after_the_lock_is_locked_too() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let mut first = WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap();
        std::fs::write(&db, b"").unwrap();
        first.hold_database(&db).unwrap();
        std::fs::hard_link(&db, dir.path().join("hard.sqlite")).unwrap();
        assert!(is_busy(&dir.path().join("hard.sqlite")));
    }

    #[test]
    fn a_lock_that_cannot_be_written_is_removed_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite-lock");
        std::fs::write(&path, b"").unwrap();
        // Opened read-only: writing the process id fails.
        let mut lock = WriteLock {
            file: File::open(&path).unwrap(),
            path: path.clone(),
            database: None,
        };
        assert!(lock.write_pid().is_err());
        drop(lock);
        assert!(!path.exists(), "no empty lock file is left");
        // A full disk is named as such.
        if let Ok(full) = OpenOptions::new().write(true).open("/dev/full") {
            let mut lock = WriteLock {
                file: full,
                path: path.clone(),
                database: None,
            };
            let message = lock.write_pid().unwrap_err().to_string();
            assert!(message.contains("no room on the disk"), "{message}");
            assert!(!message.contains("cannot take the write lock"), "{message}");
        }
    }
}
