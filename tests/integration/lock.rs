//! The write lock through the real binary: it belongs to the database file,
//! so every name of the database meets it; the lock file is never written
//! as an output; every writer can wait for it.

use std::path::Path;
use std::time::Duration;

use pdndb::WriteLock;

use crate::{crate_path, pdndb, run};

/// A database holding the seed game, with a symbolic link, a hard link and
/// a folder beside it.
fn database(dir: &Path) {
    let seed = crate_path("sample-pdn/seed-numeric.pdn");
    let (_, err, code) = run(
        &dir.join("db.sqlite"),
        &["import", "--quiet", seed.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    std::os::unix::fs::symlink(dir.join("db.sqlite"), dir.join("link.sqlite")).unwrap();
    std::fs::hard_link(dir.join("db.sqlite"), dir.join("hard.sqlite")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
}

/// Runs `pdndb --db DB ARGS…` in `dir`: stdout, stderr, exit code.
fn run_in(dir: &Path, db: &str, args: &[&str]) -> (String, String, i32) {
    let out = pdndb(Path::new(db))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn writers_through_every_name_of_the_database_meet_one_lock() {
    let dir = tempfile::tempdir().unwrap();
    database(dir.path());
    let seed = crate_path("sample-pdn/seed-vismin.pdn");
    let seed = seed.to_str().unwrap();
    let held = WriteLock::take(&dir.path().join("db.sqlite"), Duration::ZERO, &mut |_| {}).unwrap();
    for name in [
        "link.sqlite",
        "hard.sqlite",
        "./db.sqlite",
        "sub/../db.sqlite",
    ] {
        for args in [
            &["import", "--quiet", "--wait", "0", seed][..],
            &["remove", "--wait", "0", "--game", "1"][..],
            &["recheck", "--quiet", "--wait", "0"][..],
        ] {
            let (_, err, code) = run_in(dir.path(), name, args);
            assert_eq!(code, 2, "{name} {args:?}: {err}");
            assert!(
                err.contains(&format!("another import is writing to {name}")),
                "{name} {args:?}: {err}"
            );
        }
        // Readers are not stopped: SQLite's locks do not meet the writer's.
        let (out, err, code) = run_in(dir.path(), name, &["games", "--json"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(out.lines().count(), 1, "{name}: {out}");
    }
    drop(held);
    let (out, err, code) = run_in(dir.path(), "hard.sqlite", &["remove", "--game", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("removed 0 files, 1 games"), "{out}");
    for name in ["db.sqlite-lock", "hard.sqlite-lock", "link.sqlite-lock"] {
        assert!(!dir.path().join(name).exists(), "{name} is left");
    }
}

#[test]
fn remove_and_recheck_wait_for_the_writer_as_import_does() {
    let dir = tempfile::tempdir().unwrap();
    database(dir.path());
    let db = dir.path().join("db.sqlite");
    for args in [
        &["remove", "--game", "1", "--dry-run"][..],
        &["recheck", "--quiet"][..],
    ] {
        let held = WriteLock::take(&db, Duration::ZERO, &mut |_| {}).unwrap();
        let releaser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(700));
            drop(held);
        });
        let mut waiting: Vec<&str> = args.to_vec();
        waiting.extend(["--wait", "30"]);
        let (_, err, code) = run(&db, &waiting);
        releaser.join().unwrap();
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            err.contains("another import is writing to it") && err.contains("waiting up to 30 s"),
            "{args:?}: {err}"
        );
    }
    let (out, _, code) = run(&db, &["remove", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--wait <SECONDS>"), "{out}");
}

#[test]
fn an_output_onto_the_lock_file_is_refused_by_any_name() {
    let dir = tempfile::tempdir().unwrap();
    database(dir.path());
    // The lock file DESIGN.md names: `DB-lock` beside the database.
    let lock = dir.path().join("db.sqlite-lock");
    for db in ["db.sqlite", "link.sqlite", "./db.sqlite"] {
        for target in ["db.sqlite-lock", "sub/../db.sqlite-lock"] {
            let (_, err, code) = run_in(dir.path(), db, &["export", "-o", target]);
            assert_eq!(code, 2, "{db} {target}: {err}");
            assert!(
                err.contains("a file of the database"),
                "{db} {target}: {err}"
            );
            assert!(!lock.exists(), "{db} {target}: written");
        }
    }
}

#[test]
fn a_loop_of_symbolic_links_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    for (from, to) in [("a", "b"), ("b", "a")] {
        std::os::unix::fs::symlink(dir.path().join(to), dir.path().join(from)).unwrap();
    }
    let looped = dir.path().join("a");
    for args in [
        &["games"][..],
        &["remove", "--game", "1"][..],
        &["recheck"][..],
    ] {
        let (_, err, code) = run(&looped, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("loop of symbolic links"), "{args:?}: {err}");
        assert!(!err.contains("no database here"), "{args:?}: {err}");
    }
    let (_, err, code) = run(
        &dir.path().join("db.sqlite"),
        &["import", "--quiet", looped.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("loop of symbolic links"), "{err}");
    assert!(!err.contains("no such file"), "{err}");
}
