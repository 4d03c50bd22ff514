//! The game table's indexes that only queries read: games listed by
//! player, event, site and day, and twins found by their moves.
//!
//! An import never looks games up through them, but keeps each of them up
//! to date at every game it stores: a B-tree entry per index in no order
//! of the game's, which costs more than the game's row once the table is
//! large. An import into an empty database therefore drops them first and
//! builds them once at its end ([`build_missing_in`], while the index's
//! last positions sort), sorting each column once instead. An import stopped in between (killed, or failed) leaves
//! them missing: queries still answer, only slower, and the next command
//! that writes builds them before anything else, as every writer's open
//! does.
//!
//! A schema step that drops or changes one of these indexes must allow for
//! it being missing (`DROP INDEX IF EXISTS`).

use rusqlite::Connection;

/// The indexes (name, definition), as the schema steps make them.
const INDEXES: [(&str, &str); 6] = [
    ("game_moves_key", "game (moves_key)"),
    (
        "game_black",
        "game (black, white, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL)",
    ),
    (
        "game_pair",
        "game (white, black, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL)",
    ),
    ("game_event", "game (event)"),
    ("game_site", "game (site)"),
    (
        "game_day",
        "game (day, variant, start_fen, outcome, substr(moves, 1, 2), record IS NULL)",
    ),
];

/// Drops the indexes when the database holds no game yet (an import is
/// about to store the first ones). Returns whether it did.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn drop_for_first_import(conn: &mut Connection) -> rusqlite::Result<bool> {
    let tx = conn.transaction()?;
    let empty: bool = tx.query_row("SELECT NOT EXISTS (SELECT 1 FROM game)", [], |r| r.get(0))?;
    if empty {
        for (name, _) in INDEXES {
            tx.execute_batch(&format!("DROP INDEX IF EXISTS {name}"))?;
        }
    }
    tx.commit()?;
    Ok(empty)
}

/// Builds the indexes that are missing, in one transaction. Returns how
/// many it built.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn build_missing(conn: &mut Connection) -> rusqlite::Result<usize> {
    let tx = conn.transaction()?;
    let built = build_missing_in(&tx)?;
    tx.commit()?;
    Ok(built)
}

/// Builds the indexes that are missing, in the transaction `conn` is in.
/// Returns how many it built.
///
/// # Errors
/// A database failure.
pub(in crate::store) fn build_missing_in(conn: &Connection) -> rusqlite::Result<usize> {
    // SQLite's sorter holds as much as the page cache before it writes a
    // run to its temporary file: the cache is made smaller while the
    // indexes are built (beside the position index's own sort). Its
    // helper threads sort and merge those runs while the table is read.
    let cache: i64 = conn.query_row("PRAGMA cache_size", [], |r| r.get(0))?;
    let threads: i64 = conn.query_row("PRAGMA threads", [], |r| r.get(0))?;
    conn.execute_batch(&format!(
        "PRAGMA cache_size = -{SORT_KIB}; PRAGMA threads = {SORT_THREADS}"
    ))?;
    let built = build_each_missing(conn);
    conn.execute_batch(&format!(
        "PRAGMA cache_size = {cache}; PRAGMA threads = {threads}"
    ))?;
    built
}

/// The memory SQLite's sorter may take to build an index, in KiB.
const SORT_KIB: i64 = 16 * 1024;

/// Helper threads SQLite's sorter may use to build an index: the import's
/// readers are done by then, the other core is free.
const SORT_THREADS: i64 = 1;

/// Builds the indexes that are missing.
fn build_each_missing(conn: &Connection) -> rusqlite::Result<usize> {
    let mut built = 0;
    for (name, on) in INDEXES {
        let there: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?1)",
            [name],
            |r| r.get(0),
        )?;
        if !there {
            conn.execute_batch(&format!("CREATE INDEX {name} ON {on}"))?;
            built += 1;
        }
    }
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Mode, Store};

    fn index_sql(conn: &Connection) -> Vec<(String, String)> {
        let mut stmt = conn
            .prepare(
                "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'game' \
                 AND sql IS NOT NULL ORDER BY name",
            )
            .unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    }

    #[test]
    fn the_indexes_are_those_the_schema_makes() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let conn = store.conn_mut();
        let before = index_sql(conn);
        for (name, on) in INDEXES {
            let sql = format!("CREATE INDEX {name} ON {on}");
            assert!(
                before.contains(&(name.to_string(), sql)),
                "{name}: {before:?}"
            );
        }
        assert!(drop_for_first_import(conn).unwrap());
        let dropped = index_sql(conn);
        assert_eq!(dropped.len(), before.len() - INDEXES.len(), "{dropped:?}");
        assert!(dropped.iter().any(|(name, _)| name == "game_dup_key"));
        assert_eq!(build_missing(conn).unwrap(), INDEXES.len());
        assert_eq!(index_sql(conn), before);
        assert_eq!(build_missing(conn).unwrap(), 0);
    }

    #[test]
    fn a_database_with_games_keeps_its_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let conn = store.conn_mut();
        conn.execute(
            "INSERT INTO game (status, variant, preset, notation, white, black, event, date, \
             result, outcome, plies) VALUES ('ok', 'x', 'x', 'x', 'a', 'b', 'e', '', '*', 0, 0)",
            [],
        )
        .unwrap();
        let before = index_sql(conn);
        assert!(!drop_for_first_import(conn).unwrap());
        assert_eq!(index_sql(conn), before);
    }
}
