//! The files commands write (`export -o`, `report --html`, `show --svg`,
//! `generate -o`): never the database, and never left half written.
//!
//! A file is written to a temporary file beside it (same folder, so the
//! rename cannot cross file systems), flushed to disk and renamed over
//! the target only once complete. A failure (a full disk, a write error)
//! removes the temporary file and leaves the target as it was, or absent;
//! a process killed while writing may leave its temporary file
//! (`.NAME.XXXXXX.tmp`), never a partial target. A target that exists and
//! is not a regular file (`/dev/null`, a named pipe) is written directly.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::error::CliError;
use crate::escape::visible;

/// The files kept beside the database `db`: SQLite's write-ahead log,
/// shared-memory index and rollback journal, and pdndb's write lock; each
/// beside the path given and beside the file it leads to.
fn companion_files(db: &Path) -> Vec<PathBuf> {
    let real = crate::store::lock::canonical(db);
    [db, real.as_path()]
        .iter()
        .flat_map(|base| {
            ["-wal", "-shm", "-journal", "-lock"].map(|suffix| {
                let mut name = OsString::from(base.as_os_str());
                name.push(suffix);
                PathBuf::from(name)
            })
        })
        .collect()
}

/// Where a path leads, for comparing paths of files that may not exist:
/// the canonical path when it exists, else its canonical folder and its
/// name; `None` when neither can be worked out.
fn canonical(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = fs::canonicalize(path) {
        return Some(real);
    }
    let name = path.file_name()?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(folder).ok()?.join(name))
}

/// Whether `a` and `b` are one file: the same device and inode when both
/// exist (so a symbolic or hard link, or another spelling, is caught),
/// else the same canonical path.
fn same_file(a: &Path, b: &Path) -> bool {
    match same_file::is_same_file(a, b) {
        Ok(same) => same,
        Err(_) => matches!((canonical(a), canonical(b)), (Some(x), Some(y)) if x == y),
    }
}

/// Refuses a `target` that is the database `db` or one of the files
/// beside it (`-wal`, `-shm`, `-journal`, `-lock`), by any name: writing
/// there would destroy it or let a second writer in.
///
/// # Errors
/// One line naming both files, for exit status 2.
pub fn refuse_database(target: &Path, db: &Path) -> Result<(), CliError> {
    let shown = visible_path(target);
    if same_file(target, db) {
        return Err(CliError::Usage(format!(
            "{shown}: that is the database {}; choose another file",
            visible_path(db)
        )));
    }
    if let Some(file) = companion_files(db).iter().find(|f| same_file(target, f)) {
        return Err(CliError::Usage(format!(
            "{shown}: that is {}, a file of the database {}; choose another file",
            visible_path(file),
            visible_path(db)
        )));
    }
    Ok(())
}

/// A path as messages show it: control characters made visible.
pub fn visible_path(path: &Path) -> String {
    visible(&path.display().to_string()).into_owned()
}

/// Writes the file `target` with `write`, never onto the database `db`:
/// through a temporary file beside it, renamed over the target only when
/// completely written and flushed to disk. Returns what `write` returns.
///
/// # Errors
/// A target that is the database or a folder; a failed write, flush or
/// rename (the message names the target and says it is unchanged); the
/// errors of `write` other than failed writes, as they are.
pub fn write_file<T>(
    target: &Path,
    db: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, CliError>,
) -> Result<T, CliError> {
    refuse_database(target, db)?;
    let shown = visible_path(target);
    let existing = fs::metadata(target).ok();
    if existing.as_ref().is_some_and(fs::Metadata::is_dir) {
        return Err(CliError::Usage(format!(
            "{shown}: that is a folder; name a file to write"
        )));
    }
    let failed = |err: io::Error| {
        let left = if existing.is_some() {
            "it is left as it was"
        } else {
            "nothing was written"
        };
        let hint = match err.kind() {
            io::ErrorKind::StorageFull | io::ErrorKind::FileTooLarge => {
                " (is the disk full, or the file larger than allowed?)"
            }
            _ => "",
        };
        CliError::Output(format!("{shown}: writing failed{hint}: {err}; {left}"))
    };
    // Errors of `write` that are failed writes name the target.
    let wrote = |result: Result<T, CliError>| match result {
        Err(CliError::Io(err)) => Err(failed(err)),
        other => other,
    };
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        // A device or a pipe: nothing to replace.
        let file = File::create(target).map_err(failed)?;
        let mut sink = BufWriter::new(file);
        let value = wrote(write(&mut sink))?;
        sink.flush().map_err(failed)?;
        return Ok(value);
    }
    // A symbolic link is followed: the file it leads to is replaced. A
    // file we may not write stays so, though its folder would let a
    // rename replace it.
    let target = match &existing {
        Some(_) => {
            fs::OpenOptions::new()
                .write(true)
                .open(target)
                .map_err(failed)?;
            fs::canonicalize(target).map_err(failed)?
        }
        None => target.to_path_buf(),
    };
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // As for any new file: read and write for all, narrowed by the umask.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(folder).map_err(failed)?;
    if let Some(meta) = &existing {
        // The file replaced keeps its mode.
        temp.as_file()
            .set_permissions(meta.permissions())
            .map_err(failed)?;
    }
    let mut sink = BufWriter::with_capacity(1 << 16, temp.as_file_mut());
    let value = wrote(write(&mut sink))?;
    sink.into_inner()
        .map_err(io::IntoInnerError::into_error)
        .map_err(failed)?;
    temp.as_file().sync_all().map_err(failed)?;
    temp.persist(&target).map_err(|e| failed(e.error))?;
    // The rename itself is made durable with the folder (best effort).
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_database_and_its_files_are_refused_by_any_name() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("games.sqlite");
        fs::write(&db, b"database").unwrap();
        fs::write(dir.path().join("games.sqlite-wal"), b"log").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&db, dir.path().join("link")).unwrap();
        let spellings = [
            db.clone(),
            dir.path().join("./games.sqlite"),
            dir.path().join("sub/../games.sqlite"),
            #[cfg(unix)]
            dir.path().join("link"),
        ];
        fs::create_dir(dir.path().join("sub")).unwrap();
        for target in &spellings {
            let err = refuse_database(target, &db).unwrap_err().to_string();
            assert!(err.contains("that is the database"), "{target:?}: {err}");
        }
        let err = refuse_database(&dir.path().join("games.sqlite-wal"), &db)
            .unwrap_err()
            .to_string();
        assert!(err.contains("a file of the database"), "{err}");
        // The write lock, by the name of the file the link leads to too.
        for name in ["games.sqlite-lock", "./games.sqlite-lock"] {
            let err = refuse_database(&dir.path().join(name), &db).unwrap_err();
            assert!(err.to_string().contains("a file of the database"), "{err}");
        }
        #[cfg(unix)]
        {
            let err = refuse_database(
                &dir.path().join("games.sqlite-lock"),
                &dir.path().join("link"),
            );
            assert!(err.is_err());
        }
        // Not there yet, and the database missing too: by path.
        let err = refuse_database(&dir.path().join("games.sqlite-shm"), &db).unwrap_err();
        assert!(err.to_string().contains("games.sqlite-shm"), "{err}");
        let new = dir.path().join("new.sqlite");
        assert!(refuse_database(&dir.path().join("./new.sqlite"), &new).is_err());
        assert!(refuse_database(&dir.path().join("out.pdn"), &db).is_ok());
        assert_eq!(fs::read(&db).unwrap(), b"database");
    }

    #[test]
    fn a_file_is_replaced_only_when_written_completely() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let target = dir.path().join("out.pdn");
        fs::write(&target, b"old").unwrap();
        let n = write_file(&target, &db, |w| {
            w.write_all(b"new")?;
            Ok(3)
        })
        .unwrap();
        assert_eq!(n, 3);
        assert_eq!(fs::read(&target).unwrap(), b"new");
        // A failure half way: the old file stays, no temporary file.
        let err = write_file(&target, &db, |w| -> Result<(), CliError> {
            w.write_all(b"partial")?;
            Err(io::Error::other("no space left").into())
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("out.pdn: writing failed"), "{err}");
        assert!(err.contains("left as it was"), "{err}");
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(names(dir.path()), ["out.pdn"]);
        // Other errors pass through as they are.
        let err = write_file(&dir.path().join("b.pdn"), &db, |_| -> Result<(), _> {
            Err(CliError::Usage("bad".into()))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "bad");
        assert_eq!(names(dir.path()), ["out.pdn"]);
        // A folder is refused.
        assert!(write_file(dir.path(), &db, |_| Ok(())).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_modes_kept_and_devices_written_directly() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let real = dir.path().join("real.pdn");
        fs::write(&real, b"old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.pdn");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_file(&link, &db, |w| Ok(w.write_all(b"new")?)).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        let mode = fs::metadata(&real).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        // A file that may not be written is not replaced.
        fs::set_permissions(&real, fs::Permissions::from_mode(0o440)).unwrap();
        if fs::OpenOptions::new().write(true).open(&real).is_err() {
            // (Not as root, who may write it anyway.)
            let err = write_file(&link, &db, |w| Ok(w.write_all(b"newer")?)).unwrap_err();
            assert!(err.to_string().contains("writing failed"), "{err}");
            assert_eq!(fs::read(&real).unwrap(), b"new");
        }
        write_file(Path::new("/dev/null"), &db, |w| Ok(w.write_all(b"x")?)).unwrap();
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}
