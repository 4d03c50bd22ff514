//! Why the database cannot be used: the errors of every part of the store.

use std::path::PathBuf;

use crate::message::DatabaseCause;
use crate::store::stored::id::GameId;
use crate::store::stored::lock::LockError;

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
    /// The file is not a pdndb database; it is left as it is.
    #[error("{path}: not a pdndb database ({why}); give another --db")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        why: Foreign,
    },
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A command that writes was given a database it may not write.
    #[error(
        "{0}: the database is read-only here (the file or its folder cannot be written): \
         queries can read it; import, recheck and remove cannot"
    )]
    ReadOnly(PathBuf),
    /// The database would be created in a folder that cannot be written.
    #[error("{0}: cannot create the database here (its folder cannot be written)")]
    CannotCreate(PathBuf),
    /// Schema problems.
    #[error("{path}: {source}")]
    Schema {
        /// The database file.
        path: PathBuf,
        /// What went wrong.
        source: MigrateError,
    },
    /// Another writer holds the database.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// A query failed.
    #[error("database: {}", describe(.0))]
    Sqlite(#[from] rusqlite::Error),
    /// What the database keeps of a game does not read back.
    #[error(
        "game {game}: its stored {what} cannot be read ({why}); `pdndb stats --check` lists such games"
    )]
    Corrupt {
        /// The game.
        game: GameId,
        /// What does not read.
        what: StoredPart,
        /// What the reader said.
        why: String,
    },
}

impl StoreError {
    /// Why the database failed, as far as it is known, and what SQLite
    /// said, as it said it (when it said something).
    pub fn cause(&self) -> (DatabaseCause, Option<String>) {
        use DatabaseCause as C;
        match self {
            StoreError::Missing(_) => (C::DatabaseMissing, None),
            StoreError::Open { source, .. } | StoreError::Sqlite(source) => sqlite_cause(source),
            StoreError::Foreign {
                why: Foreign::NotSqlite,
                ..
            } => (C::NotADatabase, None),
            StoreError::Foreign { .. } => (C::ForeignDatabase, None),
            StoreError::Unreadable { .. } | StoreError::Lock(LockError::Io { .. }) => {
                (C::DatabaseUnreadable, None)
            }
            StoreError::Lock(_) => (C::DatabaseBusy, None),
            StoreError::ReadOnly(_) | StoreError::CannotCreate(_) => (C::DatabaseReadOnly, None),
            StoreError::Schema { source, .. } => match source {
                MigrateError::TooNew { found, known } => (
                    C::DatabaseTooNew {
                        found: *found,
                        known: *known,
                    },
                    None,
                ),
                MigrateError::Outdated { found, known } => (
                    C::DatabaseOutdated {
                        found: *found,
                        known: *known,
                    },
                    None,
                ),
                MigrateError::Index(inner) => inner.cause(),
                MigrateError::Sqlite(source) => sqlite_cause(source),
            },
            StoreError::Corrupt { .. } => (C::DatabaseCorrupt, None),
        }
    }
}

/// The cause of an SQLite failure by its code, and SQLite's own text; a
/// failure of the binding (not SQLite's) has no such text.
fn sqlite_cause(err: &rusqlite::Error) -> (DatabaseCause, Option<String>) {
    use DatabaseCause as C;
    use rusqlite::ErrorCode as E;
    let Some(failure) = err.sqlite_error() else {
        return (C::DatabaseFailed, None);
    };
    let cause = match failure.code {
        E::OperationInterrupted => C::QueryInterrupted,
        E::DatabaseBusy | E::DatabaseLocked | E::FileLockingProtocolFailed => C::DatabaseBusy,
        E::CannotOpen | E::PermissionDenied | E::SystemIoFailure => C::DatabaseUnreadable,
        E::NotADatabase => C::NotADatabase,
        E::DatabaseCorrupt => C::DatabaseCorrupt,
        E::DiskFull => C::DiskFull,
        E::ReadOnly => C::DatabaseReadOnly,
        _ => C::DatabaseFailed,
    };
    (cause, Some(err.to_string()))
}

/// A part of what the database keeps of a game, for
/// [`StoreError::Corrupt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredPart {
    /// Its check record (JSON).
    Record,
    /// Its original text (tags, JSON, and move text), as a copy in a file
    /// keeps it.
    Text,
    /// Its original tags (a JSON object).
    Tags,
    /// Its status.
    Status,
    /// The notation it was read in.
    Notation,
    /// Where its rules came from.
    VariantFrom,
}

impl std::fmt::Display for StoredPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StoredPart::Record => "check record",
            StoredPart::Text => "text",
            StoredPart::Tags => "tags",
            StoredPart::Status => "status",
            StoredPart::Notation => "notation",
            StoredPart::VariantFrom => "source of rules",
        })
    }
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

/// Why a file is not a pdndb database.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Foreign {
    /// Not an SQLite database at all.
    #[error("not an SQLite file")]
    NotSqlite,
    /// Marked by another application.
    #[error("it is marked as another application's: application_id {0:#010x}")]
    OtherApplication(u32),
    /// Tables that are not pdndb's, without pdndb's mark.
    #[error("it holds other tables")]
    OtherTables,
    /// No tables, but a user_version that pdndb did not set.
    #[error("another application has set its user_version to {0}")]
    OtherVersion(u32),
}

/// Why a database cannot be brought up to date.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// Written by a newer pdndb.
    #[error(
        "the database is at schema step {found}, newer than this pdndb knows (step {known}): use a newer pdndb"
    )]
    TooNew {
        /// The database's step.
        found: u32,
        /// The binary's last step.
        known: u32,
    },
    /// Written by an older pdndb, and read-only here (bringing it up to
    /// date writes it).
    #[error(
        "the database is at schema step {found}, older than this pdndb reads (step {known}), \
         and read-only here: `pdndb recheck` where it can be written brings it up to date"
    )]
    Outdated {
        /// The database's step.
        found: u32,
        /// The binary's last step.
        known: u32,
    },
    /// SQLite failed.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// The position index could not be converted.
    #[error(transparent)]
    Index(Box<StoreError>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_s_cause_is_classified_and_sqlite_s_words_kept_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let garbage = dir.path().join("garbage.sqlite");
        std::fs::write(&garbage, vec![b'x'; 4096]).unwrap();
        let conn = rusqlite::Connection::open(&garbage).unwrap();
        let failed = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap_err();
        let (cause, detail) = StoreError::Sqlite(failed).cause();
        assert_eq!(cause, DatabaseCause::NotADatabase);
        assert_eq!(detail.as_deref(), Some("file is not a database"));
        let memory = rusqlite::Connection::open_in_memory().unwrap();
        let failed = memory.execute("DELETE FROM nowhere", []).unwrap_err();
        assert_eq!(
            StoreError::Sqlite(failed).cause(),
            (
                DatabaseCause::DatabaseFailed,
                Some("no such table: nowhere".to_string())
            )
        );
        assert_eq!(
            StoreError::Missing(garbage).cause(),
            (DatabaseCause::DatabaseMissing, None)
        );
        let schema = StoreError::Schema {
            path: PathBuf::from("db"),
            source: MigrateError::TooNew {
                found: 40,
                known: 30,
            },
        };
        assert_eq!(
            schema.cause().0,
            DatabaseCause::DatabaseTooNew {
                found: 40,
                known: 30
            }
        );
    }
}
