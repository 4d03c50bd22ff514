//! Finding the PDN files under the paths given on the command line.

use std::path::{Path, PathBuf};

use crate::pdn::{NotPdn, sniff};

use walkdir::WalkDir;

/// The files found, and the paths that could not be searched.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Files to read, in a stable order.
    pub files: Vec<PathBuf>,
    /// One `path: message` per problem (missing path, unreadable folder,
    /// symbolic-link loop).
    pub errors: Vec<String>,
}

/// Whether a file name ends in `.pdn`, in any case.
fn is_pdn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
}

/// Expands each path: a file is taken as it is (whatever its name), a folder
/// is searched, following symbolic links, for `*.pdn` files.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    for path in paths {
        if !path.is_dir() {
            if path.exists() {
                found.files.push(path.clone());
            } else {
                found
                    .errors
                    .push(format!("{}: no such file or folder", path.display()));
            }
            continue;
        }
        let walk = WalkDir::new(path).follow_links(true).sort_by_file_name();
        for entry in walk {
            match entry {
                Ok(entry) if entry.file_type().is_file() && is_pdn(entry.path()) => {
                    found.files.push(entry.into_path());
                }
                Ok(_) => {}
                Err(err) => {
                    let at = err
                        .path()
                        .map_or_else(|| path.display().to_string(), |p| p.display().to_string());
                    let what = if err.loop_ancestor().is_some() {
                        "symbolic link loop, skipped".to_string()
                    } else {
                        err.io_error()
                            .map_or_else(|| err.to_string(), |e| e.to_string())
                    };
                    found.errors.push(format!("{at}: {what}"));
                }
            }
        }
    }
    found
}

/// Why the file at `path` is not PDN, or `None` when it is PDN, is
/// standard input (`-`, which cannot be read twice), or cannot be read
/// (left for the reader to report).
pub fn not_pdn(path: &Path) -> Option<NotPdn> {
    if path == Path::new("-") {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    sniff(file).ok().flatten()
}

/// Takes the files that are not PDN out of `files`, saying so for each on
/// standard error; returns how many. Skipping one is not an error.
pub fn skip_not_pdn(files: &mut Vec<PathBuf>) -> usize {
    let before = files.len();
    files.retain(|path| match not_pdn(path) {
        Some(why) => {
            say!("{}: not PDN ({why}); skipped", path.display());
            false
        }
        None => true,
    });
    before - files.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_pdn_files_in_any_case_and_reports_loops() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("sub")).unwrap();
        std::fs::write(root.join("a.pdn"), "").unwrap();
        std::fs::write(root.join("sub/B.PDN"), "").unwrap();
        std::fs::write(root.join("notes.txt"), "").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root, root.join("sub/loop")).unwrap();
        let found = discover(&[root.to_path_buf(), root.join("missing.pdn")]);
        let names: Vec<String> = found
            .files
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.pdn", "B.PDN"]);
        assert!(
            found
                .errors
                .iter()
                .any(|e| e.contains("missing.pdn: no such file")),
            "{:?}",
            found.errors
        );
        #[cfg(unix)]
        assert!(
            found.errors.iter().any(|e| e.contains("loop")),
            "{:?}",
            found.errors
        );
    }

    #[test]
    fn files_that_are_not_pdn_are_taken_out() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |name: &str, bytes: &[u8]| {
            let path = root.join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        };
        let mut files = vec![
            write("games.pdn", b"1. 11-15 23-19 *\n"),
            write("empty.pdn", b""),
            write("image.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
            write("Cargo.toml", b"[package]\nname = \"x\"\n"),
            write("fen.pdn", b"[FEN \"W:W21:B1\"]\n"),
            root.join("missing.pdn"),
        ];
        assert_eq!(not_pdn(&files[1]), Some(NotPdn::Empty));
        assert_eq!(not_pdn(&files[2]), Some(NotPdn::Binary));
        assert_eq!(not_pdn(&files[3]), Some(NotPdn::NoGame));
        assert_eq!(skip_not_pdn(&mut files), 3);
        let names: Vec<_> = files.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names, ["games.pdn", "fen.pdn", "missing.pdn"]);
    }
}
