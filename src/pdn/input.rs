//! Where the text of an import or a check comes from.
//!
//! A regular file is read where it is, as often as needed (an import
//! hashes it, then reads its games). Anything else — standard input
//! (`-`), a pipe, a FIFO, a device — can be read only once: it is copied
//! to a temporary file (in the system's temporary folder) as it is read,
//! hashed on the way, and its copy is read instead. It is sniffed as it
//! is copied, so that one that is not PDN stops early: after
//! [`SNIFF_SAMPLE`](super::SNIFF_SAMPLE) bytes of binary content, or
//! [`STREAM_SNIFF_LIMIT`] bytes of text without a game.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use encoding_rs::Encoding;

use super::sniff::{NotPdn, STREAM_SNIFF_LIMIT, sniff_as};

/// The name of standard input on the command line.
pub const STDIN: &str = "-";

/// An input ready to be read: a regular file, or the copy of a stream.
#[derive(Debug)]
pub struct Input {
    /// The path as given (`-` for standard input).
    given: PathBuf,
    /// A stream's copy, and what it held.
    copy: Option<(tempfile::TempPath, Content)>,
}

/// What an input holds: the BLAKE3 hash of its bytes (hex) and their
/// number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    /// BLAKE3, in hex.
    pub hash: String,
    /// Bytes.
    pub size: u64,
}

impl Input {
    /// The input at `path` (`-`: standard input), its text read in
    /// `encoding` when given (else detected): a regular file, sniffed; a
    /// stream, copied. `Ok(Err(why))` when it is not PDN. A file that
    /// cannot be opened is left for its reader to report.
    ///
    /// # Errors
    /// An I/O error of a stream, or of its copy.
    pub fn open(
        path: &Path,
        encoding: Option<&'static Encoding>,
    ) -> io::Result<Result<Input, NotPdn>> {
        let stdin = path == Path::new(STDIN);
        let input = |copy| Input {
            given: path.to_path_buf(),
            copy,
        };
        let regular = std::fs::metadata(path).map(|m| m.is_file());
        if !stdin && regular.unwrap_or(true) {
            let why = File::open(path)
                .ok()
                .and_then(|file| sniff_as(file, encoding).ok().flatten());
            return Ok(why.map_or_else(|| Ok(input(None)), Err));
        }
        let copied = if stdin {
            copy(io::stdin().lock(), encoding)?
        } else {
            copy(File::open(path)?, encoding)?
        };
        Ok(copied.map(|copy| input(Some(copy))))
    }

    /// The path as given (`-` for standard input).
    pub fn given(&self) -> &Path {
        &self.given
    }

    /// The name for messages and records: the path as given.
    pub fn name(&self) -> String {
        self.given.display().to_string()
    }

    /// The file to read: the file itself, or a stream's copy.
    pub fn path(&self) -> &Path {
        self.copy.as_ref().map_or(&self.given, |(copy, _)| copy)
    }

    /// What a stream held (`None` for a regular file).
    pub fn streamed(&self) -> Option<&Content> {
        self.copy.as_ref().map(|(_, content)| content)
    }

    /// What the input holds now (a regular file is read to hash it).
    ///
    /// # Errors
    /// An I/O error of the file.
    pub fn snapshot(&self) -> io::Result<Snapshot> {
        let path = self.path().to_path_buf();
        let stamp = stamp(&path);
        let content = match self.streamed() {
            Some(content) => content.clone(),
            None => {
                let mut file = Hashed::new(File::open(&path)?);
                io::copy(
                    &mut BufReader::with_capacity(1 << 16, &mut file),
                    &mut io::sink(),
                )?;
                file.content()
            }
        };
        Ok(Snapshot {
            path,
            content,
            stamp,
        })
    }
}

/// An input as it was when hashed, before its games are read: to tell
/// whether it changed while they were read.
#[derive(Debug)]
pub struct Snapshot {
    path: PathBuf,
    /// What it held.
    pub content: Content,
    /// Its size and modification time then.
    stamp: Option<(u64, SystemTime)>,
}

impl Snapshot {
    /// The input opened to be read, the bytes read hashed on the way.
    ///
    /// # Errors
    /// An I/O error opening it.
    pub fn open(&self) -> io::Result<Hashed<File>> {
        Ok(Hashed::new(File::open(&self.path)?))
    }

    /// Whether `read`, the input read to its end since, gave the bytes
    /// hashed before, and the file still has the size and modification
    /// time it had then.
    pub fn unchanged(&self, read: &Hashed<File>) -> bool {
        self.unchanged_as(&read.content())
    }

    /// Whether `read`, what the input held as read to its end since, is
    /// what was hashed before, and the file still has the size and
    /// modification time it had then.
    pub fn unchanged_as(&self, read: &Content) -> bool {
        *read == self.content && stamp(&self.path) == self.stamp
    }

    /// The file to read.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A file's size and modification time.
fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// A reader that hashes the bytes read through it.
#[derive(Debug)]
pub struct Hashed<R> {
    inner: R,
    hasher: blake3::Hasher,
    size: u64,
}

impl<R> Hashed<R> {
    /// Hashes what is read from `inner`.
    pub fn new(inner: R) -> Hashed<R> {
        Hashed {
            inner,
            hasher: blake3::Hasher::new(),
            size: 0,
        }
    }

    /// What was read so far.
    pub fn content(&self) -> Content {
        Content {
            hash: self.hasher.finalize().to_hex().to_string(),
            size: self.size,
        }
    }
}

impl<R: Read> Read for Hashed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }
}

/// A reader that writes what it reads to `sink`.
struct Tee<R, W> {
    source: R,
    sink: W,
}

impl<R: Read, W: Write> Read for Tee<R, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.source.read(buf)?;
        self.sink.write_all(&buf[..n])?;
        Ok(n)
    }
}

/// Copies a stream to a temporary file, sniffing its start: the copy and
/// what it holds, or why it is not PDN (the rest is then not read).
fn copy(
    source: impl Read,
    encoding: Option<&'static Encoding>,
) -> io::Result<Result<(tempfile::TempPath, Content), NotPdn>> {
    let (file, path) = tempfile::Builder::new()
        .prefix("pdndb-")
        .tempfile()?
        .into_parts();
    let sink = BufWriter::with_capacity(1 << 16, file);
    let mut tee = Hashed::new(Tee { source, sink });
    let mut start = (&mut tee).take(STREAM_SNIFF_LIMIT);
    match sniff_as(&mut start, encoding)? {
        Some(NotPdn::NoGame) if start.limit() == 0 => return Ok(Err(NotPdn::NoGameAtStart)),
        Some(why) => return Ok(Err(why)),
        None => {}
    }
    io::copy(&mut tee, &mut io::sink())?;
    let content = tee.content();
    tee.inner.sink.into_inner().map_err(|e| e.into_error())?;
    Ok(Ok((path, content)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copied(bytes: &[u8]) -> Result<(tempfile::TempPath, Content), NotPdn> {
        copy(bytes, None).unwrap()
    }

    #[test]
    fn a_stream_is_copied_and_hashed() {
        let text = b"[Event \"x\"]\n1. 11-15 23-19 *\n".repeat(5000);
        let (path, content) = copied(&text).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), text);
        assert_eq!(content.size, text.len() as u64);
        assert_eq!(content.hash, blake3::hash(&text).to_hex().to_string());
    }

    #[test]
    fn a_stream_that_is_not_pdn_stops_early() {
        // An endless stream of NULs, of noise, of text without a game.
        let zeros = io::repeat(0);
        assert_eq!(copy(zeros, None).unwrap().unwrap_err(), NotPdn::Binary);
        let noise = io::repeat(7).take(u64::MAX);
        assert_eq!(copy(noise, None).unwrap().unwrap_err(), NotPdn::Binary);
        let words = io::repeat(b'y');
        assert_eq!(
            copy(words, None).unwrap().unwrap_err(),
            NotPdn::NoGameAtStart
        );
        assert_eq!(copied(b"").unwrap_err(), NotPdn::Empty);
        assert_eq!(copied(b"notes\n").unwrap_err(), NotPdn::NoGame);
    }

    #[test]
    fn a_file_read_again_is_compared_with_its_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.pdn");
        std::fs::write(&path, "1. 11-15 *\n").unwrap();
        let input = Input::open(&path, None).unwrap().unwrap();
        assert!(input.streamed().is_none());
        let snapshot = input.snapshot().unwrap();
        let read = |snapshot: &Snapshot| {
            let mut file = snapshot.open().unwrap();
            io::copy(&mut file, &mut io::sink()).unwrap();
            file
        };
        assert!(snapshot.unchanged(&read(&snapshot)));
        std::fs::write(&path, "1. 11-15 *\n1. 9-13 *\n").unwrap();
        assert!(!snapshot.unchanged(&read(&snapshot)));
    }
}
