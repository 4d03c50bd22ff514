//! The library's named values as SQLite columns hold them: by name, read
//! back into their types. A column whose text is no such name reads as a
//! conversion error, not as some default. The lower layers do not know
//! rusqlite; the impls live here.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::notation::Notation;
use crate::replay::{Status, VariantFrom};
use crate::store::stored::id::GameId;

/// A name read back by `parse`, any failure a conversion error.
fn named<T, E>(value: ValueRef<'_>, parse: impl FnOnce(&str) -> Result<T, E>) -> FromSqlResult<T>
where
    E: std::error::Error + Send + Sync + 'static,
{
    parse(value.as_str()?).map_err(|e| FromSqlError::Other(Box::new(e)))
}

impl ToSql for Status {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.name()))
    }
}

impl FromSql for Status {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Status> {
        // Exactly as stored: lower case, no spaces.
        named(value, |name| {
            Status::ALL
                .into_iter()
                .find(|s| s.name() == name)
                .ok_or_else(|| crate::replay::UnknownStatus(name.to_string()))
        })
    }
}

impl ToSql for Notation {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.name()))
    }
}

impl FromSql for Notation {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Notation> {
        named(value, str::parse::<Notation>)
    }
}

impl ToSql for VariantFrom {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.name()))
    }
}

impl FromSql for VariantFrom {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<VariantFrom> {
        named(value, str::parse::<VariantFrom>)
    }
}

impl ToSql for GameId {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

impl FromSql for GameId {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<GameId> {
        i64::column_result(value).map(GameId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_stored_and_read_back_and_others_refused() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let back: (Status, Notation, VariantFrom) = conn
            .query_row(
                "SELECT ?1, ?2, ?3",
                rusqlite::params![Status::Illegal, Notation::Luzon, VariantFrom::Inferred],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            back,
            (Status::Illegal, Notation::Luzon, VariantFrom::Inferred)
        );
        for bad in ["fine", "OK", ""] {
            let read = conn.query_row("SELECT ?1", [bad], |r| r.get::<_, Status>(0));
            assert!(read.is_err(), "{bad}");
        }
        let id: GameId = conn
            .query_row("SELECT ?1", [GameId(7)], |r| r.get(0))
            .unwrap();
        assert_eq!(id, GameId(7));
        let read = conn.query_row("SELECT 'told'", [], |r| r.get::<_, VariantFrom>(0));
        assert!(read.is_err());
        let read = conn.query_row("SELECT 'chess'", [], |r| r.get::<_, Notation>(0));
        assert!(read.is_err());
    }
}
