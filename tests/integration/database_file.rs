//! The database file through the real binary: other applications' files
//! refused and left as they are, pdndb's mark, read-only files, folders and
//! mounts, and no database made when there is nothing to import.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use pdndb::APPLICATION_ID;

use crate::{crate_path, json_lines, run};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pdndb")
}

/// Every file of a folder with its content, by name (the copy of the binary
/// left out).
fn folder(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "pdndb")
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn names(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files.iter().map(|(n, _)| n.as_str()).collect()
}

fn application_id(db: &Path) -> u32 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap()
}

/// Another application's database: a table with rows and a user_version of
/// 57, in WAL mode when `wal`.
fn foreign_database(path: &Path, wal: bool) {
    let conn = rusqlite::Connection::open(path).unwrap();
    if wal {
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    }
    conn.execute_batch(
        "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);
         INSERT INTO note (body) VALUES ('first'), ('second'), ('third');
         PRAGMA user_version = 57;",
    )
    .unwrap();
}

const GAME: &str = "[Event \"one\"]\n1. 22-18 11-15 *\n";

#[test]
fn a_file_of_another_application_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    std::fs::write(&pdn, GAME).unwrap();
    let pdn = pdn.to_str().unwrap();
    let other = dir.path().join("other.sqlite");
    foreign_database(&other, false);
    let logged = dir.path().join("logged.sqlite");
    foreign_database(&logged, true);
    let marked = dir.path().join("marked.sqlite");
    {
        let conn = rusqlite::Connection::open(&marked).unwrap();
        conn.execute_batch("PRAGMA application_id = 1234; PRAGMA user_version = 3;")
            .unwrap();
    }
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a database\n").unwrap();
    let before = folder(dir.path());
    let cases = [
        (
            &other,
            "not a pdndb database (it holds other tables); give another --db",
        ),
        (
            &logged,
            "not a pdndb database (it holds other tables); give another --db",
        ),
        (
            &marked,
            "not a pdndb database (it is marked as another application's: application_id 0x000004d2)",
        ),
        (
            &text,
            "not a pdndb database (not an SQLite file); give another --db",
        ),
    ];
    let commands: [&[&str]; 8] = [
        &["import", pdn],
        &["stats"],
        &["search", "--moves", "1. 22-18"],
        &["export"],
        &["games"],
        &["show", "1"],
        &["recheck"],
        &["remove", "--game", "1"],
    ];
    for (db, message) in cases {
        for args in commands {
            let (out, err, code) = run(db, args);
            assert_eq!(code, 2, "{args:?} on {}: {err}", db.display());
            assert_eq!(out, "", "{args:?}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.contains(&format!("{}: {message}", db.display())),
                "{args:?}: {err}"
            );
            assert_eq!(folder(dir.path()), before, "{args:?} on {}", db.display());
        }
    }
    assert_eq!(names(&before).len(), 5, "no -wal or -shm file was made");
}

#[test]
fn pdndb_marks_its_databases_and_knows_those_written_before_the_mark() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", crate_path("sample-pdn").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(application_id(&db), APPLICATION_ID);
    // Written before the mark existed: no application_id, pdndb's tables.
    rusqlite::Connection::open(&db)
        .unwrap()
        .pragma_update(None, "application_id", 0)
        .unwrap();
    let before = folder(dir.path());
    assert_eq!(names(&before), ["db.sqlite"]);
    let (out, err, code) = run(&db, &["stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["games"], 22);
    // Queries write nothing, and leave no -wal or -shm file behind.
    assert_eq!(folder(dir.path()), before);
    assert_eq!(application_id(&db), 0);
    // The next command that writes marks it.
    let (_, err, code) = run(&db, &["recheck"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(application_id(&db), APPLICATION_ID);
    // An empty file is a new database.
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, "").unwrap();
    let (_, err, code) = run(&empty, &["stats"]);
    assert_eq!(code, 2);
    assert!(err.contains("no database here"), "{err}");
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
    let pdn = dir.path().join("games.pdn");
    std::fs::write(&pdn, GAME).unwrap();
    let (_, err, code) = run(&empty, &["import", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(application_id(&empty), APPLICATION_ID);
}

/// The database of the previous release (schema step 3, no mark), copied.
fn previous_release(to: &Path) {
    std::fs::copy(
        crate_path("tests/data/previous-release/previous-release.sqlite"),
        to,
    )
    .unwrap();
}

#[test]
fn a_query_brings_a_database_of_an_older_pdndb_up_to_date_and_marks_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("previous-release.sqlite");
    previous_release(&db);
    assert_eq!(application_id(&db), 0);
    let (out, err, code) = run(&db, &["stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["games"], 61);
    assert_eq!(application_id(&db), APPLICATION_ID);
    let step: u32 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(step, pdndb::latest_step());
    assert_eq!(names(&folder(dir.path())), ["previous-release.sqlite"]);
}

#[test]
fn importing_only_missing_paths_makes_no_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pdndb.sqlite");
    let missing = dir.path().join("missing.pdn");
    let (_, err, code) = run(&db, &["import", missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{}: no such file or folder", missing.display())),
        "{err}"
    );
    assert!(!db.exists());
    for args in [&["stats"][..], &["games"], &["recheck"]] {
        let (_, err, code) = run(&db, args);
        assert_eq!(code, 2);
        assert!(err.contains("no database here"), "{err}");
    }
    assert_eq!(folder(dir.path()), []);
}

/// This process runs as root.
fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// The ids of a user that is not root, made when it does not exist yet
/// (as root); `None` when there is none.
fn unprivileged_user() -> Option<(String, String)> {
    const NAME: &str = "pdndb-test";
    let id = |flag: &str| {
        let out = Command::new("id").args([flag, NAME]).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    if id("-u").is_none() {
        let _ = Command::new("useradd")
            .args(["--no-create-home", "--shell", "/usr/sbin/nologin", NAME])
            .status();
    }
    Some((id("-u")?, id("-g")?))
}

/// A folder under /tmp that every user may enter, holding a copy of the
/// binary, a database imported from the sample files and one of the
/// previous release (`old.sqlite`); `(folder, db)`.
fn shared_database() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("pdndb-ro")
        .tempdir_in("/tmp")
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::copy(bin(), dir.path().join("pdndb")).unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", crate_path("sample-pdn").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.path().join("games.pdn"), GAME).unwrap();
    previous_release(&dir.path().join("old.sqlite"));
    for name in ["db.sqlite", "games.pdn", "old.sqlite"] {
        std::fs::set_permissions(
            dir.path().join(name),
            std::fs::Permissions::from_mode(0o444),
        )
        .unwrap();
    }
    (dir, db)
}

/// Puts a folder's write permission back when dropped, so that it can be
/// removed.
struct Writable<'a>(&'a Path);

impl Drop for Writable<'_> {
    fn drop(&mut self) {
        let _ = std::fs::set_permissions(self.0, std::fs::Permissions::from_mode(0o755));
    }
}

/// The queries that must answer on a database they cannot write, and the
/// commands that must refuse to write it, each run by `pdndb` (the binary
/// run with these arguments in the database's folder); checks that the
/// folder is unchanged.
fn check_read_only(dir: &Path, pdndb: &dyn Fn(&[&str]) -> Outcome) {
    let run = |args: &[&str]| pdndb(&[&["--db", "db.sqlite"], args].concat());
    let before = folder(dir);
    let (out, err, code) = run(&["stats", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out)[0]["games"], 22);
    let (out, err, code) = run(&["search", "--moves", "1. 22-18", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!json_lines(&out).is_empty());
    let (out, err, code) = run(&["games", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_lines(&out).len(), 22);
    let (out, err, code) = run(&["show", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    let (out, err, code) = run(&["export"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[Event"));
    // A database of an older pdndb cannot be brought up to date here.
    let (out, err, code) = pdndb(&["--db", "old.sqlite", "stats"]);
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    let message = format!(
        "old.sqlite: the database is at schema step 3, older than this pdndb reads (step {}), \
         and read-only here: `pdndb recheck` where it can be written brings it up to date",
        pdndb::latest_step()
    );
    assert!(err.contains(&message), "{err}");
    assert_eq!(folder(dir), before, "queries changed nothing");
    for args in [
        &["import", "games.pdn"][..],
        &["recheck"],
        &["remove", "--game", "1"],
    ] {
        let (out, err, code) = run(args);
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}: {err}");
        assert!(
            err.contains(
                "db.sqlite: the database is read-only here (the file or its folder cannot be written)"
            ),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (_, err, code) = pdndb(&["--db", "new.sqlite", "import", "games.pdn"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("new.sqlite: cannot create the database here (its folder cannot be written)"),
        "{err}"
    );
    assert_eq!(folder(dir), before, "nothing was written");
}

/// Output, error and exit code of a command.
type Outcome = (String, String, i32);

/// What `command` gives.
fn outcome(command: &mut Command) -> Outcome {
    let out = command.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn queries_read_a_database_whose_file_and_folder_cannot_be_written() {
    let (dir, _db) = shared_database();
    let as_user: Vec<String> = if is_root() {
        // Root may write any file: the commands run as another user.
        let Some((uid, gid)) = unprivileged_user() else {
            crate::skip::skip(
                "queries_read_a_database_whose_file_and_folder_cannot_be_written",
                "no user other than root to run pdndb as (useradd failed)",
            );
            return;
        };
        [
            "setpriv",
            "--reuid",
            &uid,
            "--regid",
            &gid,
            "--clear-groups",
        ]
        .map(String::from)
        .to_vec()
    } else {
        Vec::new()
    };
    let _restore = Writable(dir.path());
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let pdndb = |args: &[&str]| {
        let mut words: Vec<&str> = as_user.iter().map(String::as_str).collect();
        words.push("./pdndb");
        words.extend(args);
        outcome(
            Command::new(words[0])
                .args(&words[1..])
                .current_dir(dir.path()),
        )
    };
    check_read_only(dir.path(), &pdndb);
    // The file read-only in a folder that can be written: still no -wal or
    // -shm file made beside it.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let before = folder(dir.path());
    let (_, err, code) = pdndb(&["--db", "db.sqlite", "stats"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(folder(dir.path()), before);
}

#[test]
fn queries_read_a_database_on_a_read_only_mount() {
    if !is_root() {
        crate::skip::skip(
            "queries_read_a_database_on_a_read_only_mount",
            "mounting a folder read-only needs root",
        );
        return;
    }
    let (dir, _db) = shared_database();
    let mount = tempfile::Builder::new()
        .prefix("pdndb-ro-mount")
        .tempdir_in("/tmp")
        .unwrap();
    // The mount lives in a mount namespace of its own, gone with the
    // command.
    let script = "mount --bind -o ro \"$1\" \"$2\" && cd \"$2\" && shift 2 && exec \"$@\"";
    let in_mount = |command: &[&str]| {
        let mut unshare = Command::new("unshare");
        unshare
            .args(["--mount", "sh", "-c", script, "sh"])
            .arg(dir.path())
            .arg(mount.path())
            .args(command);
        unshare
    };
    match in_mount(&["true"]).output() {
        Ok(out) if out.status.success() => {}
        made => {
            crate::skip::skip(
                "queries_read_a_database_on_a_read_only_mount",
                &format!("a read-only bind mount cannot be made here: {made:?}"),
            );
            return;
        }
    }
    let pdndb = |args: &[&str]| outcome(&mut in_mount(&[&["./pdndb"], args].concat()));
    check_read_only(dir.path(), &pdndb);
}
