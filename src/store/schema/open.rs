//! Before a database file is opened: whether it is pdndb's, whether it can
//! be written, and the connection that reads it without writing.
//!
//! A file that is not pdndb's is recognised before anything could write to
//! it: its header is read as bytes and, when that is not enough, its tables
//! are listed through a read-only connection.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};

pub use crate::store::stored::error::Foreign;

/// `PRAGMA application_id` of pdndb's databases: `PDNd` in ASCII
/// (0x50444E64). Every database pdndb writes carries it in its header, so
/// that pdndb knows its own files from other applications' SQLite files.
pub const APPLICATION_ID: u32 = u32::from_be_bytes(*b"PDNd");

/// The first bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// What is at a database path, looked at without opening it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// A file is there.
    pub exists: bool,
    /// This process may write the file (when there is one) and create
    /// files in its folder (SQLite's journal): false for a read-only file,
    /// folder or mount.
    pub writable: bool,
    /// Its write-ahead log (`FILE-wal`) is there: some connection may be
    /// writing, or one that did was stopped before it closed.
    pub wal: bool,
}

impl Place {
    /// Looks at `path`.
    pub fn of(path: &Path) -> Place {
        let exists = path.exists();
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let writable = may_write(folder) && (!exists || may_write(path));
        Place {
            exists,
            writable,
            wal: with_suffix(path, "-wal").exists(),
        }
    }
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether this process may write `path` (for a folder: create files in it).
#[cfg(unix)]
fn may_write(path: &Path) -> bool {
    rustix::fs::access(path, rustix::fs::Access::WRITE_OK).is_ok()
}

/// Whether this process may write `path` (for a folder: create files in it).
#[cfg(not(unix))]
fn may_write(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.permissions().readonly())
}

/// What a database file holds, for pdndb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// Nothing yet: no file, an empty file, or an SQLite database without
    /// tables.
    Nothing,
    /// A pdndb database; `marked` when it carries [`APPLICATION_ID`]
    /// (databases written before the mark existed do not).
    Pdndb {
        /// It carries pdndb's application_id.
        marked: bool,
    },
}

/// Why a file could not be looked at.
#[derive(Debug, thiserror::Error)]
pub enum IdentifyError {
    /// Not pdndb's.
    #[error(transparent)]
    Foreign(#[from] Foreign),
    /// Reading its header failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// SQLite could not list its tables.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
}

/// What the file at `path` holds, found without writing anything: from its
/// header alone when it carries an application_id (pdndb's or another),
/// else from its tables through a read-only connection.
///
/// # Errors
/// A file that is not pdndb's, or one that cannot be read.
pub fn identify(path: &Path, place: &Place) -> Result<Holds, IdentifyError> {
    if !place.exists {
        return Ok(Holds::Nothing);
    }
    let mut header = Vec::with_capacity(100);
    std::fs::File::open(path)?
        .take(100)
        .read_to_end(&mut header)?;
    if header.is_empty() {
        return Ok(Holds::Nothing);
    }
    if header.len() < 100 || !header.starts_with(SQLITE_MAGIC) {
        return Err(Foreign::NotSqlite.into());
    }
    let word = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    match word(68) {
        APPLICATION_ID => return Ok(Holds::Pdndb { marked: true }),
        0 => {}
        other => return Err(Foreign::OtherApplication(other).into()),
    }
    // File format versions 2: the database is in WAL mode.
    let wal_mode = header[18] == 2;
    let conn = open_read_only(path, !place.wal && (wal_mode || !place.writable))?;
    Ok(classify(&Contents::of(&conn)?)?)
}

/// What [`classify`] looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Contents {
    application_id: u32,
    user_version: u32,
    objects: i64,
    pdndb_tables: bool,
}

impl Contents {
    /// Reads them through `conn`.
    fn of(conn: &Connection) -> rusqlite::Result<Contents> {
        let number = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0));
        // The columns pdndb's `source_file` and `game` have had since step 1.
        let source_file = number(
            "SELECT count(*) FROM pragma_table_info('source_file') \
             WHERE name IN ('id', 'path', 'size', 'hash', 'games', 'complete', 'imported_at')",
        )?;
        let game = number(
            "SELECT count(*) FROM pragma_table_info('game') \
             WHERE name IN ('id', 'status', 'variant', 'preset', 'moves', 'moves_key', 'record')",
        )?;
        Ok(Contents {
            // Both are 32-bit fields of the header, read back as signed.
            application_id: number("PRAGMA application_id")? as u32,
            user_version: number("PRAGMA user_version")? as u32,
            objects: number("SELECT count(*) FROM sqlite_master")?,
            pdndb_tables: source_file == 7 && game == 7,
        })
    }
}

/// What a database with these contents holds.
fn classify(c: &Contents) -> Result<Holds, Foreign> {
    match c.application_id {
        APPLICATION_ID => Ok(Holds::Pdndb { marked: true }),
        0 if c.pdndb_tables => Ok(Holds::Pdndb { marked: false }),
        0 if c.objects == 0 && c.user_version == 0 => Ok(Holds::Nothing),
        0 if c.objects == 0 => Err(Foreign::OtherVersion(c.user_version)),
        0 => Err(Foreign::OtherTables),
        other => Err(Foreign::OtherApplication(other)),
    }
}

/// A connection for queries to the pdndb database at `path`, which exists.
///
/// One that may be written is opened for reading and writing with
/// `PRAGMA query_only`, so SQLite refuses any write: unlike a read-only
/// connection, it removes the database's `-wal` and `-shm` files when it
/// is the last to close, as every writer does. One that may not be written
/// (a read-only file, folder or mount) is opened read-only, and immutable
/// unless its write-ahead log is there: no `-wal` or `-shm` file could be
/// made beside it, and none is needed since no connection is writing.
///
/// # Errors
/// What SQLite says.
pub fn open_for_queries(path: &Path, place: &Place) -> rusqlite::Result<Connection> {
    let conn = if place.writable {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.pragma_update(None, "query_only", true)?;
        conn
    } else {
        open_read_only(path, !place.wal)?
    };
    // Plans made without looking at bound values, as the writer's are: a
    // cached statement whose plan might depend on them (a game's copies,
    // looked up for every hit of a search) would otherwise be prepared
    // again at every use.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    conn.pragma_update(None, "temp_store", crate::store::stored::TEMP_STORE)?;
    Ok(conn)
}

/// A read-only connection to `path` (`mode=ro`), with `immutable=1` when
/// `immutable`: SQLite then neither locks the file nor looks for a journal.
fn open_read_only(path: &Path, immutable: bool) -> rusqlite::Result<Connection> {
    let mut uri = file_uri(path);
    uri.push(if immutable {
        "?mode=ro&immutable=1"
    } else {
        "?mode=ro"
    });
    Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
}

/// `path` as an SQLite `file:` URI, without parameters: every byte other
/// than letters, digits, `/` and `-._~` percent-encoded.
fn file_uri(path: &Path) -> OsString {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = {
        let text = path.to_string_lossy().replace('\\', "/");
        // `C:/…` is written `/C:/…` in a URI.
        if text.as_bytes().get(1) == Some(&b':') {
            format!("/{text}").into_bytes()
        } else {
            text.into_bytes()
        }
    };
    // An absolute path gets an empty authority, so that one starting with
    // `//` is not read as naming a host.
    let mut uri = String::from(if bytes.first() == Some(&b'/') {
        "file://"
    } else {
        "file:"
    });
    for &b in &bytes {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    OsString::from(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_query_is_not_prepared_again_at_each_use() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite");
        Connection::open(&path)
            .unwrap()
            .execute_batch(
                "CREATE TABLE t (a INTEGER, b INTEGER); CREATE INDEX t_a ON t (a);
                 INSERT INTO t VALUES (1, 2), (3, 4), (3, 5);",
            )
            .unwrap();
        for writable in [true, false] {
            let place = Place {
                exists: true,
                writable,
                wal: false,
            };
            let conn = open_for_queries(&path, &place).unwrap();
            // A plan that bound values could change: an equality on a
            // column whose index is not unique, rows sorted by another.
            let sql = "SELECT b FROM t WHERE a = ?1 ORDER BY b";
            for a in [1, 3, 7, 3] {
                let mut stmt = conn.prepare_cached(sql).unwrap();
                let _: Option<i64> = stmt.query_row([a], |r| r.get(0)).ok();
            }
            let stmt = conn.prepare_cached(sql).unwrap();
            assert_eq!(
                stmt.get_status(rusqlite::StatementStatus::RePrepare),
                0,
                "writable: {writable}"
            );
        }
    }

    #[test]
    fn the_mark_spells_pdnd() {
        assert_eq!(APPLICATION_ID, 0x5044_4E64);
        assert!(
            i32::try_from(APPLICATION_ID).is_ok(),
            "SQLite stores it signed"
        );
    }

    #[test]
    fn uris_escape_what_sqlite_would_read_as_syntax() {
        assert_eq!(file_uri(Path::new("db.sqlite")), "file:db.sqlite");
        assert_eq!(
            file_uri(Path::new("/tmp/a b?c#d%e.sqlite")),
            "file:///tmp/a%20b%3Fc%23d%25e.sqlite"
        );
        assert_eq!(file_uri(Path::new("//x/db")), "file:////x/db");
    }

    #[test]
    fn files_are_told_apart_by_mark_and_tables() {
        let pdndb = Contents {
            pdndb_tables: true,
            objects: 20,
            user_version: 6,
            ..Contents::default()
        };
        assert_eq!(classify(&pdndb), Ok(Holds::Pdndb { marked: false }));
        let marked = Contents {
            application_id: APPLICATION_ID,
            ..Contents::default()
        };
        assert_eq!(classify(&marked), Ok(Holds::Pdndb { marked: true }));
        assert_eq!(classify(&Contents::default()), Ok(Holds::Nothing));
        let other = Contents {
            objects: 1,
            user_version: 57,
            ..Contents::default()
        };
        assert_eq!(classify(&other), Err(Foreign::OtherTables));
        let versioned = Contents {
            user_version: 57,
            ..Contents::default()
        };
        assert_eq!(classify(&versioned), Err(Foreign::OtherVersion(57)));
        let theirs = Contents {
            application_id: 7,
            pdndb_tables: true,
            ..Contents::default()
        };
        assert_eq!(classify(&theirs), Err(Foreign::OtherApplication(7)));
    }

    #[test]
    fn a_database_is_identified_without_being_changed() {
        let dir = tempfile::tempdir().unwrap();
        let place = |p: &Path| Place::of(p);
        let missing = dir.path().join("none.sqlite");
        assert_eq!(
            identify(&missing, &place(&missing)).unwrap(),
            Holds::Nothing
        );
        let empty = dir.path().join("empty.sqlite");
        std::fs::write(&empty, b"").unwrap();
        assert_eq!(identify(&empty, &place(&empty)).unwrap(), Holds::Nothing);
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, b"not a database at all").unwrap();
        assert!(matches!(
            identify(&text, &place(&text)),
            Err(IdentifyError::Foreign(Foreign::NotSqlite))
        ));
        let other = dir.path().join("other.sqlite");
        {
            let conn = Connection::open(&other).unwrap();
            conn.execute_batch(
                "PRAGMA journal_mode = WAL; CREATE TABLE note (body TEXT); \
                 INSERT INTO note VALUES ('kept');",
            )
            .unwrap();
        }
        let before = std::fs::read(&other).unwrap();
        assert!(matches!(
            identify(&other, &place(&other)),
            Err(IdentifyError::Foreign(Foreign::OtherTables))
        ));
        assert_eq!(std::fs::read(&other).unwrap(), before);
        assert!(!with_suffix(&other, "-wal").exists());
        assert!(!with_suffix(&other, "-shm").exists());
    }
}
