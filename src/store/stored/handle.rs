//! The handle of an open database, shared by the writers and the queries;
//! opening it is the schema's work ([`crate::store::schema`]).

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use crate::store::stored::lock::WriteLock;

/// A count or place for SQL's `LIMIT` and `OFFSET`: one larger than an
/// `i64` holds is as good as no end, so it is clamped, never wrapped.
pub(crate) fn sql_count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// SQLite's page cache for a connection that writes, in KiB.
pub(crate) const WRITE_CACHE_KIB: i64 = 64 * 1024;

/// Where SQLite keeps the sorts and temporary tables of a statement
/// (`PRAGMA temp_store`) on every connection: in files, so that what does
/// not fit in the page cache (an index built over long names, the names
/// of a check's comparisons) goes to disk rather than memory. SQLite as
/// built here keeps them in memory otherwise.
pub(crate) const TEMP_STORE: &str = "FILE";

/// How to open a database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Create it if needed and allow writes (import, recheck, remove).
    Write,
    /// It must exist; queries only: SQLite refuses any write.
    Read,
}

/// An open pdndb database.
pub struct Store {
    pub(in crate::store) conn: Connection,
    pub(in crate::store) path: PathBuf,
    /// Held by a store that writes, for as long as it is open (dropped
    /// after the connection).
    pub(in crate::store) _lock: Option<WriteLock>,
}

impl Store {
    /// The connection, for the import and query modules.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// The connection, mutably (transactions).
    pub(crate) fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}
