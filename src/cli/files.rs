//! Finding the PDN files under the paths given on the command line.

use std::path::{Path, PathBuf};

use crate::pdn::{Encoding, Input, NotPdn, STDIN};

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

/// Expands each path: a file is taken as it is (whatever its name, and
/// `-`, standard input), a folder is searched, following symbolic links,
/// for `*.pdn` files.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    for path in paths {
        if path == Path::new(STDIN) {
            found.files.push(path.clone());
            continue;
        }
        if !path.is_dir() {
            match std::fs::metadata(path) {
                Ok(_) => found.files.push(path.clone()),
                Err(err) => found.errors.push(format!(
                    "{}: {}",
                    path.display(),
                    crate::fs_error::describe(&err)
                )),
            }
            continue;
        }
        let before = found.files.len();
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
        if found.files.len() == before {
            found
                .errors
                .push(format!("{}: no *.pdn file in this folder", path.display()));
        }
    }
    found
}

/// The inputs to read, and what became of the others.
#[derive(Debug, Default)]
pub struct Opened {
    /// Inputs that hold PDN (or whose file is left for the reader to
    /// report), in the order given.
    pub inputs: Vec<Input>,
    /// Inputs that are not PDN, skipped.
    pub not_pdn: usize,
    /// Inputs that could not be read (or not without `--encoding`).
    pub failed: usize,
}

/// Opens each file (a stream is copied as it is read, see [`Input`]),
/// its text read in `encoding` when given; one that is not PDN is left
/// out with a line on standard error saying why (not an error), one
/// that cannot be read with a line saying so (an error).
pub fn open_inputs(files: &[PathBuf], encoding: Option<&'static Encoding>) -> Opened {
    let mut opened = Opened::default();
    for path in files {
        let name = path.display();
        match Input::open(path, encoding) {
            Ok(Ok(input)) => opened.inputs.push(input),
            Ok(Err(NotPdn::Utf16WithoutBom(found))) => {
                let (label, other) = match found.name() {
                    "UTF-16BE" => ("utf-16be", "utf-16le"),
                    _ => ("utf-16le", "utf-16be"),
                };
                say!(
                    "{name}: UTF-16 text without a byte-order mark; give --encoding {label} (or {other})"
                );
                opened.failed += 1;
            }
            Ok(Err(why)) => {
                say!("{name}: not PDN ({why}); skipped");
                opened.not_pdn += 1;
            }
            Err(err) => {
                say!("{name}: {err}");
                opened.failed += 1;
            }
        }
    }
    opened
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
        // UTF-16 without a byte-order mark, starting with a word: the
        // byte order is not told.
        let utf16: Vec<u8> = "Games\n[Event \"x\"]\n1. 11-15 *\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let files = vec![
            write("games.pdn", b"1. 11-15 23-19 *\n"),
            write("empty.pdn", b""),
            write("image.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
            write("Cargo.toml", b"[package]\nname = \"x\"\n"),
            write("fen.pdn", b"[FEN \"W:W21:B1\"]\n"),
            write("utf16.pdn", &utf16),
            root.join("missing.pdn"),
        ];
        let opened = open_inputs(&files, None);
        assert_eq!((opened.not_pdn, opened.failed), (3, 1));
        let names: Vec<_> = opened
            .inputs
            .iter()
            .map(|i| i.given().file_name().unwrap())
            .collect();
        assert_eq!(names, ["games.pdn", "fen.pdn", "missing.pdn"]);
        let utf16 = open_inputs(
            &files[5..6],
            Some(crate::pdn::Encoding::for_label(b"utf-16le").unwrap()),
        );
        assert_eq!(utf16.inputs.len(), 1);
    }
}
