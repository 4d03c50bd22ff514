//! The counts of `kept_count` (files, copies, positions) kept by the
//! import itself, one statement per transaction, instead of by the
//! triggers of schema step 22.
//!
//! A trigger makes its statement write more than one row, so SQLite keeps
//! a statement journal for it: every page the statement changes is copied
//! first, and once a transaction's journal outgrows memory, written to a
//! temporary file. For the provenance row of each game and each chunk of
//! the index that is several pages a row. While the import writes these
//! rows the connection's triggers are off ([`without_triggers`]) and the
//! import adds what it wrote ([`add`]) in the same transaction, so the
//! counts stay those the triggers would have kept.

use rusqlite::Connection;
use rusqlite::config::DbConfig;

use crate::store::stored::StoreError;

/// A count of `kept_count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::store) enum Kept {
    /// Copies of games met in files (`provenance` rows).
    Copies,
    /// Entries of the position index.
    Positions,
}

impl Kept {
    fn name(self) -> &'static str {
        match self {
            Kept::Copies => "copies",
            Kept::Positions => "positions",
        }
    }
}

/// Turns the connection's triggers on or off; returns whether they were on.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn set_triggers(conn: &Connection, on: bool) -> Result<bool, StoreError> {
    let was = conn.db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER)?;
    if was != on {
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, on)?;
    }
    Ok(was)
}

/// Runs `work` with the connection's triggers off, then turns them back
/// as they were (also when `work` fails). `work` must keep the counts the
/// triggers keep (see [`add`]).
///
/// # Errors
/// `work`'s error, or a database failure.
pub(in crate::store) fn without_triggers<T>(
    conn: &Connection,
    work: impl FnOnce() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let was = set_triggers(conn, false)?;
    let done = work();
    let restored = set_triggers(conn, was);
    let done = done?;
    restored?;
    Ok(done)
}

/// Adds `n` to the count `kept`, in the transaction `conn` is in.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn add(conn: &Connection, kept: Kept, n: i64) -> Result<(), StoreError> {
    if n != 0 {
        conn.prepare_cached("UPDATE kept_count SET n = n + ?2 WHERE name = ?1")?
            .execute(rusqlite::params![kept.name(), n])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Mode, Store};

    fn kept(conn: &Connection, name: &str) -> i64 {
        conn.query_row("SELECT n FROM kept_count WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .unwrap()
    }

    fn add_file(conn: &Connection, id: i64) {
        conn.execute(
            "INSERT INTO source_file (id, path, size, hash, imported_at) VALUES (?1, ?1, 0, '', '')",
            [id],
        )
        .unwrap();
    }

    #[test]
    fn without_triggers_the_counts_are_those_added_and_the_triggers_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let conn = store.conn();
        add_file(conn, 1);
        assert_eq!(kept(conn, "files"), 1);
        without_triggers(conn, || {
            add_file(conn, 2);
            assert_eq!(kept(conn, "files"), 1);
            add(conn, Kept::Copies, 3)?;
            add(conn, Kept::Positions, -2)
        })
        .unwrap();
        assert_eq!((kept(conn, "copies"), kept(conn, "positions")), (3, -2));
        add_file(conn, 3);
        assert_eq!(kept(conn, "files"), 2);
    }

    #[test]
    fn the_triggers_come_back_when_the_work_fails_and_nesting_keeps_them_off() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let conn = store.conn();
        let failed = without_triggers(conn, || {
            without_triggers(conn, || Ok(()))?;
            add_file(conn, 1);
            conn.execute("INSERT INTO no_such_table VALUES (1)", [])?;
            Ok(())
        });
        assert!(failed.is_err());
        assert_eq!(kept(conn, "files"), 0);
        add_file(conn, 2);
        assert_eq!(kept(conn, "files"), 1);
    }
}
