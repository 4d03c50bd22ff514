//! Opening a database: checks, the connection's settings, bringing the
//! schema up to date.

use std::path::Path;
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::store::schema::migrate::{self, MigrateError};
use crate::store::schema::open::{self, APPLICATION_ID, Holds, IdentifyError, Place};
use crate::store::stored::error::StoreError;
use crate::store::stored::handle::{Mode, Store, TEMP_STORE, WRITE_CACHE_KIB};
use crate::store::stored::lock::{self, WriteLock};
use crate::store::write::query_indexes;

impl Store {
    /// Opens (or, in [`Mode::Write`], creates) the database at `path`.
    ///
    /// A file that is not pdndb's is refused before anything is written to
    /// it: its header, else its tables read through a read-only connection,
    /// tell. A pdndb database is one that carries
    /// [`APPLICATION_ID`], or, written before that mark existed, has pdndb's
    /// tables: opening it for writing marks it.
    ///
    /// [`Mode::Read`] writes nothing (SQLite refuses any write from its
    /// connection), so it also reads a database on a read-only file, folder
    /// or mount, where it opens it read-only (immutable when no writer's
    /// log is beside it: no `-wal` or `-shm` file can be made there). One
    /// exception: a database written by an older pdndb, which the queries
    /// cannot read (each needs the tables and columns of the last schema
    /// step), is first brought up to date as [`Mode::Write`] does, when it
    /// can be written, holding the write lock as a writer does (so that
    /// one process upgrades it while the others wait, then find it up to
    /// date); when it cannot, the error says how to do it.
    ///
    /// A store that writes takes the write lock first (see [`lock`]),
    /// waiting up to [`lock::DEFAULT_WAIT`] for another writer.
    ///
    /// # Errors
    /// A missing database in read mode, a file that is not pdndb's, a file
    /// SQLite cannot open, a database that cannot be written in write mode,
    /// one at an older schema step that cannot be written in read mode, one
    /// newer than this binary, another writer for the whole wait.
    pub fn open(path: &Path, mode: Mode) -> Result<Store, StoreError> {
        Store::open_waiting(path, mode, lock::DEFAULT_WAIT, &mut |_| {})
    }

    /// Opens the database at `path` for writing, creating it if needed,
    /// once no other writer holds it: waits up to `wait`, calling `waiting`
    /// (with the other writer's process id) once if it has to wait.
    ///
    /// # Errors
    /// As [`Store::open`]; [`StoreError::Lock`] when another writer held the
    /// database for the whole wait.
    pub fn open_writer(
        path: &Path,
        wait: Duration,
        waiting: &mut dyn FnMut(Option<u32>),
    ) -> Result<Store, StoreError> {
        Store::open_waiting(path, Mode::Write, wait, waiting)
    }

    fn open_waiting(
        path: &Path,
        mode: Mode,
        wait: Duration,
        waiting: &mut dyn FnMut(Option<u32>),
    ) -> Result<Store, StoreError> {
        if let Err(err) = std::fs::metadata(path)
            && crate::fs_error::is_link_loop(&err)
        {
            return Err(StoreError::Unreadable {
                path: path.to_path_buf(),
                source: std::io::Error::new(err.kind(), crate::fs_error::describe(&err)),
            });
        }
        let place = Place::of(path);
        if mode == Mode::Read && !place.exists {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        let holds = open::identify(path, &place).map_err(|e| match e {
            IdentifyError::Foreign(why) => StoreError::Foreign {
                path: path.to_path_buf(),
                why,
            },
            IdentifyError::Io(source) => StoreError::Unreadable {
                path: path.to_path_buf(),
                source,
            },
            IdentifyError::Sqlite(source) => StoreError::Open {
                path: path.to_path_buf(),
                source,
            },
        })?;
        let (conn, lock) = match mode {
            Mode::Read => (Self::connect_for_queries(path, &place, holds)?, None),
            Mode::Write => {
                Self::check_writable(path, &place)?;
                let mut lock = WriteLock::take(path, wait, waiting)?;
                let conn = Self::connect_for_writing(path, &place, holds)?;
                // A database made just now is locked once it exists.
                lock.hold_database(path)?;
                (conn, Some(lock))
            }
        };
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            _lock: lock,
        })
    }

    /// The connection of [`Mode::Read`], to a database at this binary's
    /// schema step.
    fn connect_for_queries(
        path: &Path,
        place: &Place,
        holds: Holds,
    ) -> Result<Connection, StoreError> {
        if holds == Holds::Nothing {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        let conn = Self::query_connection(path, place)?;
        let found: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|source| StoreError::Open {
                path: path.to_path_buf(),
                source,
            })?;
        let known = migrate::latest();
        let problem = match found {
            0 => return Err(StoreError::Missing(path.to_path_buf())),
            f if f < known && place.writable => {
                drop(conn);
                Self::upgrade(path, place, holds)?;
                return Self::query_connection(path, place);
            }
            f if f < known => MigrateError::Outdated { found, known },
            f if f > known => MigrateError::TooNew { found, known },
            _ => return Ok(conn),
        };
        Err(StoreError::Schema {
            path: path.to_path_buf(),
            source: problem,
        })
    }

    /// Brings the database at `path`, found at an older schema step by a
    /// query, up to date: only while holding the writers' lock (waiting
    /// for a writer at work as long as a writer would), so that two
    /// processes never upgrade it at once; the steps another process
    /// applied meanwhile are not applied again.
    fn upgrade(path: &Path, place: &Place, holds: Holds) -> Result<(), StoreError> {
        let mut lock = WriteLock::take(path, lock::DEFAULT_WAIT, &mut |_| {})?;
        lock.hold_database(path)?;
        drop(Self::connect_for_writing(path, place, holds)?);
        drop(lock);
        Ok(())
    }

    /// A connection that only reads the pdndb database at `path`.
    fn query_connection(path: &Path, place: &Place) -> Result<Connection, StoreError> {
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let conn = open::open_for_queries(path, place).map_err(open_err)?;
        conn.busy_timeout(Duration::from_secs(30))
            .map_err(open_err)?;
        Ok(conn)
    }

    /// Whether a writer can write the database at `path`.
    fn check_writable(path: &Path, place: &Place) -> Result<(), StoreError> {
        if place.writable {
            Ok(())
        } else if place.exists {
            Err(StoreError::ReadOnly(path.to_path_buf()))
        } else {
            Err(StoreError::CannotCreate(path.to_path_buf()))
        }
    }

    /// The connection of [`Mode::Write`]: pragmas set, pdndb's mark on the
    /// database, its schema up to date.
    fn connect_for_writing(
        path: &Path,
        place: &Place,
        holds: Holds,
    ) -> Result<Connection, StoreError> {
        Self::check_writable(path, place)?;
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        conn.busy_timeout(Duration::from_secs(30))
            .map_err(open_err)?;
        // A transaction takes the write lock when it begins, so that
        // SQLite's busy wait applies (a read turned write cannot wait).
        conn.set_transaction_behavior(TransactionBehavior::Immediate);
        // Before anything is written: lets imports hand back the pages
        // of the sorted runs they set aside (no effect on an existing database).
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        // Writes touch the game table's indexes (names, events,
        // dates) in no order: a cache that holds them spares a read
        // and a write per game.
        conn.pragma_update(None, "cache_size", -WRITE_CACHE_KIB)
            .map_err(open_err)?;
        conn.pragma_update(None, "temp_store", TEMP_STORE)
            .map_err(open_err)?;
        // The references the schema declares (a copy's game and file)
        // hold for every write.
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(open_err)?;
        // Plans made without looking at bound values. Otherwise a cached
        // statement whose plan might depend on them (an equality on a
        // column with an index that is not unique is enough) is prepared
        // again at every use: the statement cache clears its bindings when
        // it takes it back, and SQLite then expires it. The writers' own
        // lookups (a duplicate by its key, a game's copies) cost twice as
        // much that way.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
            .map_err(open_err)?;
        if holds != (Holds::Pdndb { marked: true }) {
            conn.pragma_update(None, "application_id", i64::from(APPLICATION_ID))
                .map_err(open_err)?;
        }
        migrate::migrate(&mut conn).map_err(|source| StoreError::Schema {
            path: path.to_path_buf(),
            source,
        })?;
        // After a first import that was stopped before it built them.
        query_indexes::build_missing(&mut conn).map_err(open_err)?;
        Ok(conn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::latest_step;

    #[test]
    fn read_mode_needs_an_existing_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("none.sqlite");
        let err = Store::open(&path, Mode::Read).err().unwrap();
        assert!(err.to_string().contains("no database here"), "{err}");
        assert!(!path.exists());
        Store::open(&path, Mode::Write).unwrap();
        Store::open(&path, Mode::Read).unwrap();
    }

    #[test]
    fn a_newer_database_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.sqlite");
        {
            let store = Store::open(&path, Mode::Write).unwrap();
            store
                .conn()
                .pragma_update(None, "user_version", latest_step() + 5)
                .unwrap();
        }
        for mode in [Mode::Read, Mode::Write] {
            let err = Store::open(&path, mode).err().unwrap();
            assert!(
                err.to_string().contains("newer than this pdndb knows"),
                "{err}"
            );
        }
    }
}
