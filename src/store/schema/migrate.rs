//! Schema steps from `schema.sql`, applied in order and tracked by
//! `PRAGMA user_version`.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

pub use crate::store::stored::error::MigrateError;

/// The schema text, built in.
pub const SCHEMA: &str = include_str!("../../../schema.sql");

/// What every step of [`SCHEMA`] makes of a database that holds nothing,
/// at once: the statements of the resulting schema (and the rows its steps
/// insert), in the order the steps leave them. A new database is created
/// from it in one transaction instead of through each step (a test keeps
/// it equal to the steps' result; running that test with
/// `PDNDB_WRITE_NEW_SCHEMA` set writes it again after a new step).
pub const NEW_DATABASE: &str = include_str!("new_database.sql");

/// One numbered step of the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The step number (1-based, consecutive).
    pub number: u32,
    /// Its SQL.
    pub sql: String,
}

/// Splits the schema into its `-- step N: …` sections.
pub fn steps() -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for line in SCHEMA.lines() {
        if let Some(rest) = line.strip_prefix("-- step ") {
            let number = rest
                .split(':')
                .next()
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(steps.len() as u32 + 1);
            steps.push(Step {
                number,
                sql: String::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.sql.push_str(line);
            step.sql.push('\n');
        }
    }
    steps
}

/// The last step this binary knows.
pub fn latest() -> u32 {
    steps().last().map_or(0, |s| s.number)
}

/// Applies the steps the database lacks, each in its own transaction.
///
/// # Errors
/// A database newer than the binary, or an SQLite failure.
pub fn migrate(conn: &mut Connection) -> Result<u32, MigrateError> {
    let found: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let known = latest();
    if found > known {
        return Err(MigrateError::TooNew { found, known });
    }
    // A step may rebuild a table others refer to (drop it, rename its
    // copy): references are checked once the step is done instead.
    register_functions(conn)?;
    let enforced: bool = conn.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?;
    conn.pragma_update(None, "foreign_keys", false)?;
    let applied = apply(conn, found);
    conn.pragma_update(None, "foreign_keys", enforced)?;
    applied?;
    Ok(known)
}

/// Brings the database from step `found` to the last: a database that
/// holds nothing is created from [`NEW_DATABASE`], any other goes through
/// the steps it lacks ([`apply_steps`]).
fn apply(conn: &mut Connection, found: u32) -> Result<(), MigrateError> {
    if found == 0 && create_new(conn)? {
        return Ok(());
    }
    apply_steps(conn, found)
}

/// Creates the schema of the last step from [`NEW_DATABASE`] in one
/// transaction, when the database holds nothing (no step applied, no
/// table), checked under SQLite's write lock: another connection may have
/// created it meanwhile. Returns whether it did.
fn create_new(conn: &mut Connection) -> Result<bool, MigrateError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let empty: bool = tx.query_row(
        "SELECT (SELECT user_version FROM pragma_user_version) = 0 \
            AND NOT EXISTS (SELECT 1 FROM sqlite_schema)",
        [],
        |r| r.get(0),
    )?;
    if !empty {
        return Ok(false);
    }
    tx.execute_batch(NEW_DATABASE)?;
    tx.pragma_update(None, "user_version", latest())?;
    tx.commit()?;
    Ok(true)
}

/// Applies the steps after `found`, each in its own transaction, which
/// takes SQLite's write lock as it begins and reads the database's step
/// again under it: a step another connection applied since `found` was
/// read is not applied twice.
fn apply_steps(conn: &mut Connection, found: u32) -> Result<(), MigrateError> {
    for step in steps().into_iter().filter(|s| s.number > found) {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now: u32 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if now >= step.number {
            continue;
        }
        tx.execute_batch(&step.sql)?;
        if step.number == 10 {
            position_rows_to_postings(&tx)?;
        }
        if step.number == 12 {
            postings_to_step_twelve(&tx)?;
        }
        if step.number == 14 {
            postings_to_step_fourteen(&tx)?;
        }
        if step.number == 15 {
            crate::store::write::index::recode_old_runs(&tx)
                .map_err(|e| MigrateError::Index(Box::new(e)))?;
        }
        if step.number == 19 {
            crate::store::write::openings::name_stored_games(&tx)
                .map_err(|e| MigrateError::Index(Box::new(e)))?;
        }
        if step.number == 17 {
            crate::store::write::identity::make_keys_again(&tx)
                .map_err(|e| MigrateError::Index(Box::new(e)))?;
        }
        if step.number == 20 {
            crate::store::write::result_checks::fill_result_checks(&tx)
                .map_err(|e| MigrateError::Index(Box::new(e)))?;
        }
        let broken: Option<String> = tx
            .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
            .optional()?;
        if let Some(table) = broken {
            return Err(MigrateError::Sqlite(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                Some(format!(
                    "schema step {}: a row of {table} refers to nothing",
                    step.number
                )),
            )));
        }
        tx.pragma_update(None, "user_version", step.number)?;
        tx.commit()?;
    }
    Ok(())
}

/// Step 10's conversion: the rows of `position`, read in key order, are
/// written as postings bucket by bucket (see src/store/postings.rs); then
/// `position` goes.
fn position_rows_to_postings(tx: &rusqlite::Transaction<'_>) -> Result<(), MigrateError> {
    use crate::store::schema::legacy::postings10::{Entry, split, write_bucket};
    let index = |e: crate::store::stored::StoreError| MigrateError::Index(Box::new(e));
    let mut bucket: Option<i64> = None;
    let mut entries: Vec<Entry> = Vec::new();
    let write = |bucket: i64, entries: &mut Vec<Entry>| -> Result<(), MigrateError> {
        entries.sort_unstable();
        entries.dedup_by_key(|e| (e.suffix, e.game, e.ply));
        write_bucket(tx, bucket, entries).map_err(index)?;
        entries.clear();
        Ok(())
    };
    {
        let mut stmt = tx
            .prepare("SELECT key, game, ply, coalesce(next, 0) FROM position ORDER BY key, game")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let (key, game, ply, next): (i64, i64, i64, i64) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            let (b, suffix) = split(key);
            if bucket.is_some_and(|current| current != b) {
                write(bucket.unwrap_or(b), &mut entries)?;
            }
            bucket = Some(b);
            entries.push(Entry {
                suffix,
                game,
                ply: u32::try_from(ply).unwrap_or(0),
                next: u32::try_from(next).unwrap_or(0),
            });
        }
    }
    if let Some(b) = bucket {
        write(b, &mut entries)?;
    }
    tx.execute_batch("DROP TABLE position;")?;
    Ok(())
}

/// Step 12's conversion: the chunks of step 10 (in `posting_step10`) are
/// read bucket by bucket and written as postings of 32-bit keys without
/// next moves (as step 12 coded them, src/store/postings12.rs); an entry is
/// open when its next move was not certain and its game's stored moves go
/// on past its ply. Runs set aside keep their layout, their last field now
/// saying whether the row is open. The counts at popular keys are emptied,
/// to be counted again by step 14 (more rows share a key's 32 bits than its
/// 40).
fn postings_to_step_twelve(tx: &rusqlite::Transaction<'_>) -> Result<(), MigrateError> {
    use crate::store::schema::legacy::postings10::{SUFFIX_BITS, decode};
    use crate::store::stored::postings::Entry;
    let plies = stored_plies(tx)?;
    let open =
        |game: i64, ply: u32, next: u32| next == 0 && plies.get(&game).is_some_and(|&n| ply < n);
    let shift = SUFFIX_BITS - crate::store::stored::postings::SUFFIX_BITS;
    copy_postings(
        tx,
        "posting_step10",
        |chunk, entries| {
            entries.extend(decode(chunk)?.iter().map(|e| Entry {
                suffix: e.suffix >> shift,
                game: e.game,
                ply: e.ply.min(crate::replay::MAX_PLIES as u32),
                open: open(e.game, e.ply, e.next),
            }));
            Ok(())
        },
        crate::store::schema::legacy::postings12::write_bucket,
    )?;
    tx.execute_batch("DROP TABLE posting_step10;")?;
    let runs: Vec<i64> = tx
        .prepare("SELECT id FROM position_run ORDER BY id")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for id in runs {
        let mut rows: Vec<u8> =
            tx.query_row("SELECT rows FROM position_run WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        for row in rows.chunks_exact_mut(24) {
            let word =
                |at: usize| u64::from_le_bytes(row[at..at + 8].try_into().unwrap_or_default());
            let game = word(8) as i64;
            let ply = u32::from_le_bytes(row[16..20].try_into().unwrap_or_default());
            let next = u32::from_le_bytes(row[20..24].try_into().unwrap_or_default());
            row[20..24].copy_from_slice(&u32::from(open(game, ply, next)).to_le_bytes());
        }
        tx.execute(
            "UPDATE position_run SET rows = ?2 WHERE id = ?1",
            rusqlite::params![id, rows],
        )?;
    }
    tx.execute_batch("DELETE FROM popular_move; DELETE FROM popular_rows;")?;
    Ok(())
}

/// Step 14's conversion: the chunks of step 12 (in `posting_step12`) are
/// written anew as src/store/postings.rs codes them; then the counts at
/// popular keys are counted again if step 12 left them to count.
fn postings_to_step_fourteen(tx: &rusqlite::Transaction<'_>) -> Result<(), MigrateError> {
    copy_postings(
        tx,
        "posting_step12",
        |chunk, entries| {
            entries.extend(crate::store::schema::legacy::postings12::decode(chunk)?);
            Ok(())
        },
        |tx, bucket, entries| {
            crate::store::stored::postings::add(tx, bucket, entries, true).map(|_| ())
        },
    )?;
    tx.execute_batch("DROP TABLE posting_step12;")?;
    let left_to_count: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM popular_key) AND NOT EXISTS (SELECT 1 FROM popular_rows)",
        [],
        |r| r.get(0),
    )?;
    if left_to_count {
        crate::store::write::popular::count_again(tx)
            .map_err(|e| MigrateError::Index(Box::new(e)))?;
    }
    Ok(())
}

/// Reads the chunks of the index in `table` bucket by bucket, in order,
/// turns each into entries with `read`, and has `write` write each
/// bucket's entries, sorted and without repeats, into `posting`.
fn copy_postings(
    tx: &rusqlite::Transaction<'_>,
    table: &str,
    mut read: impl FnMut(
        &[u8],
        &mut Vec<crate::store::stored::postings::Entry>,
    ) -> Result<(), crate::store::stored::postings::Corrupt>,
    write: impl Fn(
        &rusqlite::Transaction<'_>,
        i64,
        &[crate::store::stored::postings::Entry],
    ) -> Result<(), crate::store::stored::StoreError>,
) -> Result<(), MigrateError> {
    let index = |e: crate::store::stored::StoreError| MigrateError::Index(Box::new(e));
    let mut bucket: Option<i64> = None;
    let mut entries = Vec::new();
    let flush = |bucket: i64, entries: &mut Vec<crate::store::stored::postings::Entry>| {
        entries.sort_unstable();
        entries.dedup_by_key(|e| (e.suffix, e.game, e.ply));
        write(tx, bucket, entries).map_err(index)?;
        entries.clear();
        Ok::<(), MigrateError>(())
    };
    let mut stmt = tx.prepare(&format!(
        "SELECT bucket, entries FROM {table} ORDER BY bucket, suffix, game"
    ))?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let b: i64 = r.get(0)?;
        if bucket.is_some_and(|current| current != b) {
            flush(bucket.unwrap_or(b), &mut entries)?;
        }
        bucket = Some(b);
        let chunk = r.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
        read(chunk, &mut entries).map_err(|e| index(e.into()))?;
    }
    if let Some(b) = bucket {
        flush(b, &mut entries)?;
    }
    Ok(())
}

/// The number of stored moves of every game that has some.
fn stored_plies(
    tx: &rusqlite::Transaction<'_>,
) -> rusqlite::Result<std::collections::HashMap<i64, u32>> {
    let mut plies = std::collections::HashMap::new();
    let mut stmt = tx.prepare("SELECT id, moves FROM game WHERE moves IS NOT NULL")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let moves = r.get_ref(1)?.as_blob().unwrap_or_default();
        // A move ends at each byte without the continuation bit.
        let n = moves.iter().filter(|&&b| b & 0x80 == 0).count();
        plies.insert(r.get(0)?, n as u32);
    }
    Ok(plies)
}

/// The functions steps call: `pdndb_day(date)`, a Date tag's value as
/// `game.day` holds it (step 6 fills the column of existing games), and
/// `pdndb_dup_key(status, variant, start_fen, moves, white, black, event,
/// date, result)`, the duplicate key of a game whose reading leaves nothing open
/// (step 7), and `pdndb_text(tags, text)`, a copy's tags and step-1 text
/// (its move text deflated alone) as one stored text (step 10, see
/// [`crate::store::codec::text`]), and `pdndb_fold(text)`, a name as the
/// index of names holds it (step 24, see [`crate::store::stored::folds`]).
fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    use rusqlite::functions::FunctionFlags;
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    let encoder = std::sync::Mutex::new(crate::store::codec::text::TextEncoder::new());
    conn.create_scalar_function("pdndb_text", 2, flags, move |ctx| {
        let tags: Option<String> = ctx.get(0)?;
        let movetext = match ctx.get_raw(1) {
            rusqlite::types::ValueRef::Blob(deflated) => {
                crate::store::codec::text::decode_movetext_alone(deflated)
            }
            _ => String::new(),
        };
        let tags = tags.as_deref().unwrap_or("{}");
        Ok(match encoder.lock() {
            Ok(mut encoder) => encoder.encode(tags, &movetext),
            Err(_) => crate::store::codec::text::TextEncoder::new().encode(tags, &movetext),
        })
    })?;
    conn.create_scalar_function("pdndb_day", 1, flags, |ctx| {
        let date: Option<String> = ctx.get(0)?;
        Ok(date.as_deref().and_then(crate::store::stored::game::day_of))
    })?;
    conn.create_scalar_function("pdndb_dup_key", 9, flags, |ctx| {
        let text = |i| -> rusqlite::Result<String> {
            Ok(ctx.get::<Option<String>>(i)?.unwrap_or_default())
        };
        let start_fen: Option<String> = ctx.get(2)?;
        let moves: Option<Vec<u8>> = ctx.get(3)?;
        let (status, variant) = (text(0)?, text(1)?);
        let (white, black, event, date) = (text(4)?, text(5)?, text(6)?, text(7)?);
        let result: Option<String> = ctx.get(8)?;
        Ok(crate::store::write::identity::Identity {
            status: &status,
            variant: &variant,
            start_fen: start_fen.as_deref(),
            moves: moves.as_deref(),
            open_part: "",
            white: &white,
            black: &black,
            event: &event,
            date: &date,
            result: result.as_deref(),
            site: "",
            round: "",
            setup: "",
        }
        .key())
    })?;
    conn.create_scalar_function("pdndb_fold", 1, flags, |ctx| {
        let text: Option<String> = ctx.get(0)?;
        Ok(text.as_deref().map(crate::store::stored::folds::fold))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_numbered_from_one_without_gaps() {
        let steps = steps();
        assert!(!steps.is_empty());
        for (i, step) in steps.iter().enumerate() {
            assert_eq!(step.number, i as u32 + 1);
            assert!(
                step.sql.contains("CREATE")
                    || step.sql.contains("ALTER")
                    || step.sql.contains("UPDATE")
                    || step.sql.contains("DROP")
            );
        }
    }

    #[test]
    fn step_two_moves_staged_positions_into_the_index() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&steps()[0].sql).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute_batch(
            "INSERT INTO game (id, status, variant, preset) VALUES (7, 'ok', 'filipino', 'filipino');
             INSERT INTO position_pending VALUES (5, 7, 0, NULL), (-3, 7, 1, NULL);",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let through: i64 = conn
            .query_row("SELECT indexed_through FROM index_state", [], |r| r.get(0))
            .unwrap();
        let rows = crate::store::stored::postings::count(&conn).unwrap();
        assert_eq!((rows, through), (2, 7));
    }

    #[test]
    fn step_three_counts_the_games_at_their_start() {
        let mut conn = Connection::open_in_memory().unwrap();
        for step in &steps()[..2] {
            conn.execute_batch(&step.sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 2).unwrap();
        conn.execute_batch(
            "INSERT INTO game (id, status, variant, preset, outcome) VALUES
                 (1, 'ok', 'filipino', 'filipino', 1), (2, 'ok', 'filipino', 'filipino', 1),
                 (3, 'ok', 'filipino', 'filipino', 2);
             INSERT INTO position VALUES (5, 1, 0, 4), (5, 2, 0, 4), (5, 3, 0, 4), (6, 1, 1, NULL);",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let rows: Vec<(i64, i64, i64, i64)> = conn
            .prepare("SELECT start_key, next, outcome, games FROM start_move ORDER BY outcome")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(rows, [(5, 4, 1, 2), (5, 4, 2, 1)]);
    }

    #[test]
    fn step_seven_gives_ok_games_the_duplicate_key_an_import_gives() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let pdn = dir.path().join("g.pdn");
        std::fs::write(
            &pdn,
            "[White \"A\"]\n[Date \"1987-5-3\"]\n1. 22-18 11-15 2-0\n\n\
             [White \"B\"]\n1. 22-18 11-15 2. 18-14 9x18 *\n",
        )
        .unwrap();
        {
            let mut store =
                crate::store::stored::Store::open(&db, crate::store::stored::handle::Mode::Write)
                    .unwrap();
            let input = crate::pdn::Input::open(&pdn, None).unwrap().unwrap();
            crate::store::write::import::Importer::new(&mut store, Default::default())
                .run(&[input], &mut |_| {})
                .unwrap();
        }
        let keys = |conn: &Connection| -> Vec<Option<i64>> {
            conn.prepare("SELECT dup_key FROM game ORDER BY id")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let mut conn = Connection::open(&db).unwrap();
        let imported = keys(&conn);
        assert!(imported.iter().all(Option::is_some));
        conn.execute_batch(
            "DROP TABLE posting; DROP VIEW posting_entries; DROP TABLE name_text; \
             DROP TRIGGER tag_value_text_delete; DROP TRIGGER tag_value_text_update; \
             DROP TRIGGER player_stat_text_delete; DROP TRIGGER player_stat_text_update; \
             DROP TRIGGER player_stat_text_insert; DROP TRIGGER game_names_delete; \
             DROP TRIGGER game_names_update; DROP INDEX tag_value_unentered; \
             DROP INDEX player_stat_unentered; ALTER TABLE tag_value DROP COLUMN text_row; \
             ALTER TABLE player_stat DROP COLUMN text_row; \
             DROP INDEX game_opening; ALTER TABLE game DROP COLUMN opening; \
             ALTER TABLE game DROP COLUMN opening_ply; ALTER TABLE game DROP COLUMN ballot; \
             DROP INDEX game_dup_key; ALTER TABLE game DROP COLUMN dup_key; \
             DROP INDEX game_result_check; ALTER TABLE game DROP COLUMN result_check; \
             DROP TABLE player_alias; DROP TABLE kept_count; \
             DELETE FROM tag_value WHERE field = 'status'; \
             DROP TRIGGER source_file_count_insert; DROP TRIGGER source_file_count_delete; \
             DROP TRIGGER provenance_count_insert; DROP TRIGGER provenance_count_delete; \
             DROP TRIGGER game_status_delete; DROP TRIGGER game_status_update; \
             DROP TABLE popular_key; DROP TABLE popular_move; DROP TABLE popular_state; \
             DROP TABLE popular_rows; DROP INDEX position_run_run; \
             ALTER TABLE game DROP COLUMN summary; \
             ALTER TABLE provenance ADD COLUMN tags TEXT NOT NULL DEFAULT '{}'; \
             CREATE INDEX game_white ON game (white); \
             CREATE TABLE position (key INTEGER NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, \
                 next INTEGER, PRIMARY KEY (key, game)) WITHOUT ROWID; \
             PRAGMA user_version = 6;",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        // The ok game gets its key; the illegal one when it is read again.
        assert_eq!(keys(&conn), [imported[0], None]);
    }

    #[test]
    fn step_eight_leaves_the_popular_positions_to_the_next_writer() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        let (keys, scanned): (i64, i64) = conn
            .query_row(
                "SELECT (SELECT count(*) FROM popular_key), scanned_games FROM popular_state",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        // Scanned at 0 games: the next writer looks at the whole index.
        assert_eq!((keys, scanned), (0, 0));
    }

    /// A database at schema step `last`, built by the steps as they are.
    fn at_step(last: u32) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        register_functions(&conn).unwrap();
        for step in steps().into_iter().filter(|s| s.number <= last) {
            conn.execute_batch(&step.sql).unwrap();
        }
        conn.pragma_update(None, "user_version", last).unwrap();
        conn
    }

    #[test]
    fn step_nine_counts_the_rows_under_the_keys_already_popular() {
        let conn = at_step(8);
        // Two English games and a Filipino one at the same start key, which
        // is popular.
        conn.execute_batch(
            "INSERT INTO game (id, status, variant, preset) VALUES \
                 (1, 'ok', 'english', 'english'), (2, 'ok', 'english', 'english'), \
                 (3, 'ok', 'filipino', 'filipino');
             INSERT INTO position VALUES (5, 1, 0, NULL), (5, 2, 0, NULL), (5, 3, 0, NULL), \
                 (4611686018427387904, 1, 1, NULL);
             INSERT INTO popular_key (key) VALUES (5);",
        )
        .unwrap();
        // Step 9 alone: step 12 counts them again from games' moves.
        conn.execute_batch(&steps()[8].sql).unwrap();
        let rows: Vec<(String, String, i64)> = conn
            .prepare("SELECT variant, preset, rows FROM popular_rows ORDER BY variant")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            rows,
            [
                ("english".to_string(), "english".to_string(), 2),
                ("filipino".to_string(), "filipino".to_string(), 1)
            ]
        );
    }

    #[test]
    fn step_ten_turns_the_rows_of_the_index_into_postings() {
        let mut conn = at_step(9);
        let hot = 0x0102_0304_0506_0708_i64;
        let mut rows: Vec<(i64, i64, i64, Option<i64>)> = Vec::new();
        // A key in every game (more than one chunk), game ids past 2^32,
        // ply 0 and the longest game's last ply, a key sharing its kept
        // bits with another, negative keys, next moves not certain.
        for game in 1..=3000 {
            rows.push((hot, game, 0, Some(game % 7)));
        }
        rows.push((hot, 1 << 33, 0, None));
        rows.push((hot + 1, 5, 4, Some(3)));
        rows.push((i64::MIN, 9, crate::replay::MAX_PLIES as i64, None));
        rows.push((-1, (1 << 40) + 3, 17, Some(40_000)));
        {
            let mut insert = conn
                .prepare("INSERT INTO position VALUES (?1, ?2, ?3, ?4)")
                .unwrap();
            for row in &rows {
                insert
                    .execute(rusqlite::params![row.0, row.1, row.2, row.3])
                    .unwrap();
            }
        }
        migrate(&mut conn).unwrap();
        // Through step 12: no game stores moves, so no entry is open.
        let stored = crate::store::stored::postings::all(&conn).unwrap();
        let mut expected: Vec<(i64, i64, u32, bool)> = rows
            .iter()
            .map(|&(key, game, ply, _)| {
                (
                    crate::store::stored::postings::kept(key),
                    game,
                    ply as u32,
                    false,
                )
            })
            .collect();
        expected.sort_unstable();
        assert_eq!(stored, expected);
        let chunks: i64 = conn
            .query_row("SELECT count(*) FROM posting", [], |r| r.get(0))
            .unwrap();
        assert!(chunks > 3, "{chunks} chunks");
        let left: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'position'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(left, 0);
        let hits = crate::store::stored::postings::entries_at(&conn, hot).unwrap();
        assert_eq!(hits.len(), 3002);
        assert!(hits.windows(2).all(|w| w[0].game <= w[1].game));
    }

    #[test]
    fn step_eleven_stores_each_copy_as_one_text_and_drops_an_index() {
        let mut conn = Connection::open_in_memory().unwrap();
        register_functions(&conn).unwrap();
        for step in steps().into_iter().filter(|s| s.number <= 10) {
            conn.execute_batch(&step.sql).unwrap();
        }
        let movetext = "1. 11-15 23-19 {\"quoted\"\nnote} 2. 8-11 *";
        let deflated = {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut e, movetext.as_bytes()).unwrap();
            e.finish().unwrap()
        };
        let tags = r#"{"White":"Ann","Black":"Bo\nb","Event":"É"}"#;
        conn.execute_batch(
            "INSERT INTO source_file (id, path, size, hash, imported_at) VALUES (1, 'a.pdn', 1, 'h', '');
             INSERT INTO game (id, status, variant, preset, white, black) VALUES (7, 'ok', 'english', 'english', 'Ann', 'Bo');
             PRAGMA user_version = 10;",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO provenance (file, idx, game, byte_offset, line, tags, text) \
             VALUES (1, 1, 7, 0, 1, ?1, ?2)",
            rusqlite::params![tags, deflated],
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let (game, stored): (i64, Vec<u8>) = conn
            .query_row("SELECT game, text FROM provenance", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(game, 7);
        assert_eq!(
            crate::store::codec::text::decode(&stored),
            Some((tags.to_string(), movetext.to_string()))
        );
        let indexes: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('game', 'provenance')")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            indexes.contains(&"provenance_game".to_string()),
            "{indexes:?}"
        );
        assert!(indexes.contains(&"game_pair".to_string()), "{indexes:?}");
        assert!(!indexes.contains(&"game_white".to_string()), "{indexes:?}");
    }

    #[test]
    fn step_nineteen_names_the_ok_games_of_a_variant_with_a_table() {
        let mut conn = at_step(17);
        let rules = crate::rules::Preset::English.rules();
        let start = crate::rules::Position::initial(&rules);
        let mut position = start;
        let mut line = Vec::new();
        for token in ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13"] {
            let legal = position.legal_moves(&rules);
            let mv = legal
                .iter()
                .find(|m| {
                    let numeric = crate::notation::Notation::Numeric;
                    crate::notation::write_move(m, numeric, rules.geometry, false) == token
                })
                .copied()
                .unwrap();
            position = position.play(&mv);
            line.push(mv);
        }
        let moves = crate::store::codec::moves::encode(&rules, &start, &line).unwrap();
        conn.execute(
            "INSERT INTO game (id, status, variant, preset, moves) VALUES \
                 (1, 'ok', 'english', 'english', ?1), (2, 'ambiguous', 'english', 'english', ?1), \
                 (3, 'ok', 'filipino', 'filipino', NULL)",
            [&moves],
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let named: Vec<(Option<String>, Option<i64>, Option<String>)> = conn
            .prepare("SELECT opening, opening_ply, ballot FROM game ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let first = (
            Some("Old Fourteenth".to_string()),
            Some(5),
            Some("11-15 23-19 8-11".to_string()),
        );
        assert_eq!(named, [first, (None, None, None), (None, None, None)]);
    }

    #[test]
    fn step_twenty_two_counts_what_stats_prints_and_keeps_it_counted() {
        use crate::store::stored::postings::{Entry, encode};
        let mut conn = at_step(20);
        let entries: Vec<Entry> = (1..=3)
            .map(|ply| Entry {
                suffix: 7,
                game: 1,
                ply,
                open: false,
            })
            .collect();
        conn.execute_batch(
            "INSERT INTO source_file (id, path, size, hash, imported_at) VALUES (1, 'a.pdn', 1, 'h', ''); \
             INSERT INTO game (id, status, variant, preset) VALUES \
                 (1, 'ok', 'english', 'english'), (2, 'illegal', 'english', 'english'); \
             INSERT INTO provenance (file, idx, game, byte_offset, line, text) VALUES \
                 (1, 1, 1, 0, 1, x''), (1, 2, 2, 0, 9, x''), (1, 3, 2, 0, 17, x'');",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO posting (bucket, suffix, game, entries) VALUES (0, 7, 1, ?1)",
            [encode(&entries)],
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let kept = |conn: &Connection| -> Vec<(String, i64)> {
            conn.prepare(
                "SELECT name, n FROM kept_count UNION ALL \
                 SELECT 'status ' || value, games FROM tag_value WHERE field = 'status' ORDER BY 1",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
        };
        let pairs = |list: &[(&str, i64)]| -> Vec<(String, i64)> {
            list.iter().map(|&(k, n)| (k.to_string(), n)).collect()
        };
        assert_eq!(
            kept(&conn),
            pairs(&[
                ("copies", 3),
                ("files", 1),
                ("positions", 3),
                ("status illegal", 1),
                ("status ok", 1)
            ])
        );
        // The triggers count what the writers change after it.
        conn.execute_batch(
            "UPDATE game SET status = 'ok' WHERE id = 2; \
             DELETE FROM provenance WHERE idx = 3; \
             DELETE FROM posting; \
             INSERT INTO source_file (id, path, size, hash, imported_at) VALUES (2, 'b.pdn', 1, 'i', '');",
        )
        .unwrap();
        assert_eq!(
            kept(&conn),
            pairs(&[
                ("copies", 2),
                ("files", 2),
                ("positions", 0),
                ("status ok", 2)
            ])
        );
        conn.execute_batch(
            "DELETE FROM provenance WHERE game = 2; DELETE FROM game WHERE id = 2; \
             DELETE FROM source_file WHERE id = 2;",
        )
        .unwrap();
        assert_eq!(
            kept(&conn),
            pairs(&[
                ("copies", 1),
                ("files", 1),
                ("positions", 0),
                ("status ok", 1)
            ])
        );
    }

    #[test]
    fn step_twelve_turns_the_postings_of_step_ten_into_shorter_ones() {
        use crate::store::schema::legacy::postings10;
        let mut conn = at_step(11);
        let rules = crate::rules::Preset::Filipino.rules();
        let start = crate::rules::Position::initial(&rules);
        let first = crate::store::codec::moves::canonical_moves(&start, &rules)[2];
        let after = start.play(&first);
        let second = crate::store::codec::moves::canonical_moves(&after, &rules)[0];
        let moves = crate::store::codec::moves::encode(&rules, &start, &[first, second]).unwrap();
        conn.execute(
            "INSERT INTO game (id, status, variant, preset, outcome, moves) VALUES \
                 (1, 'ok', 'filipino', 'filipino', 1, ?1), (2, 'ambiguous', 'filipino', 'filipino', 3, ?1)",
            [&moves],
        )
        .unwrap();
        conn.execute_batch("INSERT INTO move_name (id, name) VALUES (1, 'first'), (2, 'second');")
            .unwrap();
        let (start_key, after_key) = (start.zobrist() as i64, after.zobrist() as i64);
        let end_key = after.play(&second).zobrist() as i64;
        // Game 2 reads its second move in two ways: its entry after the first
        // move has no next move, as have both games' last entries.
        let old = [
            (start_key, 1, 0, 1),
            (start_key, 2, 0, 1),
            (after_key, 1, 1, 2),
            (after_key, 2, 1, 0),
            (end_key, 1, 2, 0),
            (end_key, 2, 2, 0),
        ];
        {
            let tx = conn.transaction().unwrap();
            let mut by_bucket: std::collections::BTreeMap<i64, Vec<postings10::Entry>> =
                Default::default();
            for &(key, game, ply, next) in &old {
                let (bucket, suffix) = postings10::split(key);
                by_bucket
                    .entry(bucket)
                    .or_default()
                    .push(postings10::Entry {
                        suffix,
                        game,
                        ply,
                        next,
                    });
            }
            for (bucket, mut entries) in by_bucket {
                entries.sort_unstable();
                postings10::write_bucket(&tx, bucket, &entries).unwrap();
            }
            // A run set aside: game 2's entry after its first move.
            let mut run = Vec::new();
            for (key, game, ply, next) in [(after_key, 2i64, 1u32, 0u32), (end_key, 1, 2, 0)] {
                run.extend(key.to_le_bytes());
                run.extend(game.to_le_bytes());
                run.extend(ply.to_le_bytes());
                run.extend(next.to_le_bytes());
            }
            tx.execute(
                "INSERT INTO position_run (run, rows) VALUES (1, ?1)",
                [&run],
            )
            .unwrap();
            // The start is popular, with counts step 12 replaces.
            tx.execute_batch(&format!(
                "INSERT INTO popular_key VALUES ({start_key}); \
                 INSERT INTO popular_rows VALUES ({start_key}, 'filipino', 'filipino', 99);"
            ))
            .unwrap();
            tx.commit().unwrap();
        }
        migrate(&mut conn).unwrap();
        let kept = crate::store::stored::postings::kept;
        let mut expected = vec![
            (kept(start_key), 1, 0, false),
            (kept(start_key), 2, 0, false),
            (kept(after_key), 1, 1, false),
            (kept(after_key), 2, 1, true),
            (kept(end_key), 1, 2, false),
            (kept(end_key), 2, 2, false),
        ];
        expected.sort_unstable();
        assert_eq!(
            crate::store::stored::postings::all(&conn).unwrap(),
            expected
        );
        let run: Vec<u8> = conn
            .query_row("SELECT rows FROM position_run", [], |r| r.get(0))
            .unwrap();
        let run = crate::store::write::index::read_chunk(&run).unwrap();
        let open: Vec<bool> = run.iter().map(|r| r.open).collect();
        assert_eq!(open, [true, false]);
        let rows: i64 = conn
            .query_row("SELECT rows FROM popular_rows", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 2);
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'posting_step10'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0);
    }

    #[test]
    fn step_fifteen_codes_the_runs_an_import_left_anew() {
        let mut conn = at_step(14);
        let rows: Vec<(i64, i64, u32, bool)> = (0..300i64)
            .map(|i| {
                (
                    i.wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64),
                    1 + i % 17,
                    (i % 60) as u32,
                    i % 7 == 0,
                )
            })
            .collect();
        for (run, part) in rows.chunks(100).enumerate() {
            let mut part = part.to_vec();
            part.sort_unstable_by_key(|&(key, game, ply, _)| (key >> 32, game, ply));
            let mut bytes = Vec::new();
            for &(key, game, ply, open) in &part {
                bytes.extend_from_slice(&key.to_le_bytes());
                bytes.extend_from_slice(&game.to_le_bytes());
                bytes.extend_from_slice(&ply.to_le_bytes());
                bytes.extend_from_slice(&u32::from(open).to_le_bytes());
            }
            conn.execute(
                "INSERT INTO position_run (run, rows) VALUES (?1, ?2)",
                rusqlite::params![run as i64 + 1, bytes],
            )
            .unwrap();
        }
        migrate(&mut conn).unwrap();
        let bytes: i64 = conn
            .query_row("SELECT sum(length(rows)) FROM position_run", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(bytes < 300 * 24 / 2, "{bytes} bytes");
        // The merge reads them as they were.
        let tx = conn.transaction().unwrap();
        let added = crate::store::write::index::IndexBuffer::default()
            .flush(&tx)
            .unwrap();
        assert_eq!(added, rows.len());
        let mut expected: Vec<(i64, i64, u32, bool)> = rows;
        expected.sort_unstable_by_key(|&(key, game, ply, _)| (key >> 32, game, ply));
        let mut stored = crate::store::stored::postings::all(&tx).unwrap();
        stored.sort_unstable();
        let mut kept: Vec<(i64, i64, u32, bool)> = expected
            .iter()
            .map(|&(key, game, ply, open)| (key >> 32, game, ply, open))
            .collect();
        kept.sort_unstable();
        assert_eq!(stored, kept);
    }

    #[test]
    fn step_fourteen_codes_the_postings_of_step_twelve_in_fewer_bytes() {
        use crate::store::stored::postings::{Entry, all};
        let mut conn = at_step(13);
        let mut expected = Vec::new();
        {
            let tx = conn.transaction().unwrap();
            for bucket in [-32768i64, -1, 0, 7] {
                let mut entries: Vec<Entry> = (0..4000u32)
                    .map(|i| Entry {
                        suffix: (i * 16) % 65536,
                        game: 1 + i64::from(i * 7919 % 100_003),
                        ply: i % 90,
                        open: i % 11 == 0,
                    })
                    .collect();
                entries.sort_unstable();
                crate::store::schema::legacy::postings12::write_bucket(&tx, bucket, &entries)
                    .unwrap();
                expected.extend(entries.iter().map(|e| {
                    (
                        (bucket << crate::store::stored::postings::SUFFIX_BITS)
                            | i64::from(e.suffix),
                        e.game,
                        e.ply,
                        e.open,
                    )
                }));
            }
            // Counts already made at step 12 stay as they are.
            tx.execute_batch(
                "INSERT INTO popular_key VALUES (5); \
                 INSERT INTO popular_rows VALUES (5, 'filipino', 'filipino', 99);",
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let bytes = |conn: &Connection| -> i64 {
            conn.query_row("SELECT sum(length(entries)) FROM posting", [], |r| r.get(0))
                .unwrap()
        };
        let before = bytes(&conn);
        migrate(&mut conn).unwrap();
        assert!(
            bytes(&conn) * 10 < before * 9,
            "{} vs {before}",
            bytes(&conn)
        );
        expected.sort_unstable();
        assert_eq!(all(&conn).unwrap(), expected);
        let rows: i64 = conn
            .query_row("SELECT rows FROM popular_rows WHERE key = 5", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(rows, 99);
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'posting_step12'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0);
    }

    #[test]
    fn migrating_twice_is_harmless_and_newer_databases_are_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), latest());
        conn.execute("INSERT INTO move_name (name) VALUES ('23-18')", [])
            .unwrap();
        assert_eq!(migrate(&mut conn).unwrap(), latest());
        let n: i64 = conn
            .query_row("SELECT count(*) FROM move_name", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
        conn.pragma_update(None, "user_version", latest() + 1)
            .unwrap();
        let err = migrate(&mut conn).unwrap_err();
        assert!(
            err.to_string().contains("newer than this pdndb knows"),
            "{err}"
        );
    }

    #[test]
    fn steps_another_connection_applied_meanwhile_are_not_applied_again() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("old.sqlite");
        let from = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/previous-release/previous-release.sqlite"
        );
        std::fs::copy(from, &db).unwrap();
        let mut late = Connection::open(&db).unwrap();
        let found: u32 = late
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert!(found < latest());
        let mut first = Connection::open(&db).unwrap();
        assert_eq!(migrate(&mut first).unwrap(), latest());
        let tables = |conn: &Connection| -> Vec<(String, i64)> {
            let names: Vec<String> = conn
                .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            names
                .into_iter()
                .map(|name| {
                    let sql = format!("SELECT count(*) FROM \"{name}\"");
                    let rows = conn.query_row(&sql, [], |r| r.get(0)).unwrap();
                    (name, rows)
                })
                .collect()
        };
        let upgraded = tables(&first);
        drop(first);
        // The step `late` read before: every step looks again.
        register_functions(&late).unwrap();
        apply(&mut late, found).unwrap();
        let step: u32 = late
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(step, latest());
        assert_eq!(tables(&late), upgraded);
    }

    #[test]
    fn step_twenty_four_enters_each_name_event_and_site_under_its_first_game() {
        use crate::store::stored::folds::{FoldField, check, values_containing};
        let mut conn = at_step(23);
        conn.execute_batch(
            "INSERT INTO game (id, status, variant, preset, white, black, event, site) VALUES \
                 (1, 'ok', 'english', 'english', 'José', 'Ann', 'Open de Cebú', 'Manila'), \
                 (2, 'ok', 'pool', 'pool', 'Ann', 'José', 'Open de Cebú', 'Manila'); \
             INSERT INTO tag_value (field, value, games) VALUES ('event', 'Open de Cebú', 2), \
                 ('site', 'Manila', 2), ('variant', 'english', 1), ('variant', 'pool', 1); \
             INSERT INTO player_stat VALUES ('José', 'english', 'english', 1, 1, 0, 0, 0, NULL, NULL), \
                 ('José', 'pool', 'pool', 1, 0, 0, 1, 0, NULL, NULL), \
                 ('Ann', 'english', 'english', 1, 0, 0, 1, 0, NULL, NULL), \
                 ('Ann', 'pool', 'pool', 1, 1, 0, 0, 0, NULL, NULL);",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let rows: Vec<(String, Option<i64>)> = conn
            .prepare(
                "SELECT value, text_row FROM tag_value \
                 UNION ALL SELECT name || ' ' || variant, text_row FROM player_stat ORDER BY 1",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let expected = [
            ("Ann english", Some(7)),
            ("Ann pool", Some(7)),
            ("José english", Some(6)),
            ("José pool", Some(6)),
            ("Manila", Some(5)),
            ("Open de Cebú", Some(4)),
            ("english", None),
            ("pool", None),
        ];
        assert_eq!(rows, expected.map(|(v, row)| (v.to_string(), row)));
        let entries: i64 = conn
            .query_row("SELECT count(*) FROM name_text", [], |r| r.get(0))
            .unwrap();
        assert_eq!(entries, 4);
        assert_eq!(check(&conn).unwrap(), Vec::<String>::new());
        assert_eq!(
            values_containing(&conn, FoldField::Event, "CEBU").unwrap(),
            ["Open de Cebú"]
        );
        assert_eq!(
            values_containing(&conn, FoldField::Player, "jos").unwrap(),
            ["José"]
        );
        assert!(
            values_containing(&conn, FoldField::Site, "cebu")
                .unwrap()
                .is_empty()
        );
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'tag_fold%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0);
    }

    #[test]
    fn step_twenty_three_counts_chunks_as_before() {
        use crate::store::stored::postings::{Entry, encode};
        let mut conn = at_step(22);
        migrate(&mut conn).unwrap();
        // A chunk's entries are counted in when it comes and out when it goes.
        let positions = |conn: &Connection| -> i64 {
            conn.query_row(
                "SELECT n FROM kept_count WHERE name = 'positions'",
                [],
                |r| r.get(0),
            )
            .unwrap()
        };
        let before = positions(&conn);
        let entries: Vec<Entry> = (1..=200)
            .map(|ply| Entry {
                suffix: 7,
                game: 1,
                ply,
                open: false,
            })
            .collect();
        conn.execute(
            "INSERT INTO posting (bucket, suffix, game, entries) VALUES (0, 7, 1, ?1)",
            [encode(&entries)],
        )
        .unwrap();
        assert_eq!(positions(&conn), before + 200);
        conn.execute("DELETE FROM posting", []).unwrap();
        assert_eq!(positions(&conn), before);
    }

    /// The first lines of [`NEW_DATABASE`].
    const NEW_DATABASE_HEADER: &str = "\
-- The schema of a new pdndb database: what the steps of schema.sql make of
-- an empty one, at once (src/store/schema/migrate.rs, `NEW_DATABASE`).
-- Written by a test from those steps, never by hand: schema.sql stays the
-- one source of the schema.
";

    /// The database's tables (shadow tables of virtual ones and SQLite's
    /// own left out) and views, indexes and triggers, each as its
    /// statement, in the order the schema keeps them (that of their
    /// creation), each table's rows as `INSERT` statements right after it.
    fn schema_text(conn: &Connection) -> String {
        let objects: Vec<(String, String, String)> = conn
            .prepare(
                "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL \
                 AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
                 AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow') \
                 ORDER BY rowid",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut text = String::from(NEW_DATABASE_HEADER);
        for (kind, name, sql) in objects {
            text.push_str(&format!("{sql};\n"));
            if kind == "table" && !sql.starts_with("CREATE VIRTUAL") {
                for row in rows_as_inserts(conn, &name) {
                    text.push_str(&format!("{row};\n"));
                }
            }
        }
        text
    }

    /// The rows of table `name`, each as the `INSERT` that adds it.
    fn rows_as_inserts(conn: &Connection, name: &str) -> Vec<String> {
        let columns: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            .unwrap()
            .query_map([name], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let values = columns
            .iter()
            .map(|c| format!("quote(\"{c}\")"))
            .collect::<Vec<_>>()
            .join(" || ', ' || ");
        let sql =
            format!("SELECT 'INSERT INTO \"{name}\" VALUES (' || {values} || ')' FROM \"{name}\"");
        let mut stmt = conn.prepare(&sql).unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    }

    /// What a database holds: each object of its schema (without where its
    /// pages start) and the rows of every table, shadow tables included.
    fn contents(conn: &Connection) -> Vec<String> {
        let objects: Vec<(String, String, Option<String>)> = conn
            .prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut held = Vec::new();
        for (kind, name, sql) in objects {
            held.push(format!("{kind} {name}: {}", sql.as_deref().unwrap_or("")));
            let virtual_table = sql
                .as_deref()
                .is_some_and(|s| s.starts_with("CREATE VIRTUAL"));
            if kind == "table" && !virtual_table {
                held.extend(rows_as_inserts(conn, &name));
            }
        }
        let version: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        held.push(format!("user_version {version}"));
        held
    }

    /// An empty database taken through every step, one at a time.
    fn through_every_step() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        register_functions(&conn).unwrap();
        apply_steps(&mut conn, 0).unwrap();
        conn
    }

    #[test]
    fn a_new_database_holds_what_every_step_makes_of_an_empty_one() {
        let stepped = through_every_step();
        let text = schema_text(&stepped);
        if std::env::var_os("PDNDB_WRITE_NEW_SCHEMA").is_some() {
            std::fs::write("src/store/schema/new_database.sql", &text).unwrap();
        }
        assert!(
            text == NEW_DATABASE,
            "src/store/schema/new_database.sql is not what the steps of schema.sql make \
             (run this test with PDNDB_WRITE_NEW_SCHEMA set to write it)"
        );
        let mut created = Connection::open_in_memory().unwrap();
        assert_eq!(migrate(&mut created).unwrap(), latest());
        assert_eq!(contents(&created), contents(&stepped));
        assert!(
            contents(&created)
                .iter()
                .any(|c| c.starts_with("INSERT INTO"))
        );
    }

    #[test]
    fn a_database_that_holds_a_table_goes_through_the_steps() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE other (x)").unwrap();
        assert!(!create_new(&mut conn).unwrap());
        assert_eq!(migrate(&mut conn).unwrap(), latest());
        let stepped = through_every_step();
        stepped.execute_batch("CREATE TABLE other (x)").unwrap();
        let objects = |conn: &Connection| -> Vec<String> {
            contents(conn)
                .into_iter()
                .filter(|c| !c.starts_with("table other"))
                .collect()
        };
        let mut found = objects(&conn);
        let mut expected = objects(&stepped);
        found.sort();
        expected.sort();
        assert_eq!(found, expected);
    }
}
