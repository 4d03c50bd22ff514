//! The SQLite database: schema, import, queries.
//!
//! [`Store`] owns the connection. Opening sets the per-connection pragmas
//! (WAL, so readers can query during an import), applies missing schema
//! steps, and refuses a database newer than the binary.

pub mod games;
mod id_set;
pub mod import;
pub mod index;
pub mod listing;
mod migrate;
pub mod moves;
pub mod players;
pub mod query;
pub mod recheck;
pub mod remove;
mod rows;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use migrate::{MigrateError, latest as latest_step, steps as schema_steps};

/// Why the database cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Queries need an existing database.
    #[error("{0}: no database here (run `pdndb import` first, or give --db)")]
    Missing(PathBuf),
    /// The database cannot be opened or written.
    #[error("{path}: {source}")]
    Open {
        /// The database file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// Schema problems.
    #[error("{path}: {source}")]
    Schema {
        /// The database file.
        path: PathBuf,
        /// What went wrong.
        source: MigrateError,
    },
    /// A query failed.
    #[error("database: {}", describe(.0))]
    Sqlite(#[from] rusqlite::Error),
}

/// SQLite's message, with what it means for a user when writing failed.
fn describe(err: &rusqlite::Error) -> String {
    /// SQLITE_IOERR_WRITE: a write() to the database or its journal failed.
    const IOERR_WRITE: std::os::raw::c_int = 778;
    match err.sqlite_error() {
        Some(e) if e.code == rusqlite::ErrorCode::DiskFull => format!(
            "{err}: what was committed before is intact; free some space and run the same command again"
        ),
        Some(e) if e.extended_code == IOERR_WRITE => format!(
            "{err}: writing failed (is the disk full, or the file larger than allowed?); \
             what was committed before is intact; run the same command again once there is room"
        ),
        _ => err.to_string(),
    }
}

/// SQLite's page cache for a connection that writes, in KiB.
const WRITE_CACHE_KIB: i64 = 64 * 1024;

/// How to open a database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Create it if needed and allow writes (import).
    Write,
    /// It must exist; queries only.
    Read,
}

/// An open pdndb database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (or, in [`Mode::Write`], creates) the database at `path`.
    ///
    /// # Errors
    /// A missing database in read mode, a file SQLite cannot open, a
    /// database newer than this binary.
    pub fn open(path: &Path, mode: Mode) -> Result<Store, StoreError> {
        if mode == Mode::Read && !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        let open_err = |source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        };
        let flags = match mode {
            Mode::Write => {
                OpenFlags::SQLITE_OPEN_READ_WRITE
                    | OpenFlags::SQLITE_OPEN_CREATE
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX
            }
            Mode::Read => OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        };
        let mut conn = Connection::open_with_flags(path, flags)
            .or_else(|e| match mode {
                // A read-only file or folder still serves queries.
                Mode::Read => Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY),
                Mode::Write => Err(e),
            })
            .map_err(open_err)?;
        conn.busy_timeout(Duration::from_secs(30))
            .map_err(open_err)?;
        if mode == Mode::Write {
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
            conn.pragma_update(None, "temp_store", "MEMORY")
                .map_err(open_err)?;
        }
        let found: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(open_err)?;
        let schema_err = |source| StoreError::Schema {
            path: path.to_path_buf(),
            source,
        };
        if mode == Mode::Write || found < migrate::latest() {
            if mode == Mode::Read && found == 0 {
                return Err(StoreError::Missing(path.to_path_buf()));
            }
            migrate::migrate(&mut conn).map_err(schema_err)?;
        } else if found > migrate::latest() {
            return Err(schema_err(MigrateError::TooNew {
                found,
                known: migrate::latest(),
            }));
        }
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// The connection, for the import and query modules.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// The connection, mutably (transactions).
    pub fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
