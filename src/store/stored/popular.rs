//! The keys of popular positions, as the queries look them up (the
//! writers maintain them: [`crate::store::write::popular`]).

use crate::store::stored::error::StoreError;

/// Whether `key` is popular.
pub(in crate::store) fn is_popular(
    conn: &rusqlite::Connection,
    key: i64,
) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT count(*) FROM popular_key WHERE key = ?1")?
        .query_row([key], |r| r.get::<_, i64>(0))?
        > 0)
}
