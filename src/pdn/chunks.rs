//! A file read in chunks, each framed on its own (on its own thread),
//! giving what one reader of the whole file gives.
//!
//! A [`Planner`] reads the file once, in order, and proposes where chunks
//! start: the first line that starts with `[` about every
//! [`chunk_bytes`] bytes, when what stands before it on the lines before,
//! past blanks, is a result (the last game's terminator). It counts lines
//! on the way, so that a chunk's positions are the file's own, and
//! decides the file's encoding as a [`Reader`](super::Reader) does, from
//! the same bytes: the whole file is read in one encoding.
//!
//! A proposal is only a guess — the `[` may stand in a comment, or after
//! junk — and it is checked: a [`ChunkFramer`] frames from a chunk's
//! start and stops where it stands between games exactly at the next
//! chunk's start, nothing pending ([`Framed::Stop`]); only then does the
//! next chunk's framing count. When it passes the next start inside a
//! game, or with junk pending, it goes on to the start after (the chunk
//! whose start it passed is framed by it, and that chunk's own framing is
//! dropped). The first chunk starts at the file's start: by induction,
//! every game is framed exactly as one reader frames it.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use encoding_rs::Encoding;

pub(crate) use super::encoding::Choice;
use super::encoding::{SNIFF_LEN, decide_from, is_utf16, utf16_by_first_character};
use super::error::{Diagnostic, Position};
use super::framing::{Framed, Framer};
use super::input::Content;
use super::reader::FramedGame;

/// How many bytes a file's chunks hold, about, from where they start.
///
/// Far from the file's end, a chunk holds [`ChunkSize::most`] bytes; near
/// it, a part of what is left (down to [`TAIL_CHUNK`]): the threads then
/// take the last chunks in small pieces and end together, none left alone
/// with a whole chunk while the others wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChunkSize {
    /// Bytes of a chunk far from the end.
    pub(crate) most: u64,
    /// Bytes of a chunk near the end, at least.
    least: u64,
    /// A chunk near the end takes `1 / parts` of what is left.
    parts: u64,
    /// The file's size, as measured before its reading.
    size: u64,
}

impl ChunkSize {
    /// Chunks of `bytes` bytes each, whatever is left.
    pub(crate) fn fixed(bytes: u64) -> ChunkSize {
        let bytes = bytes.max(1);
        ChunkSize {
            most: bytes,
            least: bytes,
            parts: 1,
            size: 0,
        }
    }

    /// The bytes of the chunk that starts at byte `at`.
    fn at(&self, at: u64) -> u64 {
        let left = self.size.saturating_sub(at);
        (left / self.parts).clamp(self.least, self.most)
    }
}

/// The chunks of a file of `size` bytes read on `jobs` threads: some 8
/// chunks a thread, from 256 KiB to 2 MiB each, the last ones smaller
/// (each half of what is left for one thread, down to [`TAIL_CHUNK`]).
/// `None` for a file of fewer than two chunks, read as a whole. The
/// variable `PDNDB_CHUNK_BYTES` sets a fixed size (for the tests of chunk
/// starts at every place).
pub(crate) fn chunk_bytes(size: u64, jobs: usize) -> Option<ChunkSize> {
    if let Some(bytes) = std::env::var("PDNDB_CHUNK_BYTES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        return Some(ChunkSize::fixed(bytes));
    }
    let jobs = jobs.max(1) as u64;
    let most = (size / (jobs * 8)).clamp(MIN_CHUNK, MAX_CHUNK);
    (size >= 2 * MIN_CHUNK).then_some(ChunkSize {
        most,
        least: TAIL_CHUNK,
        parts: jobs * 2,
        size,
    })
}

/// The smallest chunk far from the file's end, but for tests.
const MIN_CHUNK: u64 = 256 << 10;

/// The largest chunk.
const MAX_CHUNK: u64 = 2 << 20;

/// The smallest chunk near the file's end.
const TAIL_CHUNK: u64 = 64 << 10;

/// Bytes read at a time by the planner.
const BLOCK: usize = 1 << 20;

/// Bytes before a proposed start looked at to find the result before it.
const LOOK_BACK: usize = 256;

/// Whether a file whose first bytes are `head` (16 or all of them), read
/// in `encoding` when given, is read as its bytes are (not UTF-16, which
/// is turned into UTF-8 as it is read): only such a file is read in
/// chunks.
pub(crate) fn reads_as_is(head: &[u8], encoding: Option<&'static Encoding>) -> bool {
    let bom = head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    let utf16 = match encoding {
        Some(given) => is_utf16(given),
        None => utf16_by_first_character(head).is_some(),
    };
    !bom && !utf16
}

/// Reads a file in order and proposes where its chunks start.
pub(crate) struct Planner {
    file: File,
    /// The chunks' bytes, about.
    chunk: ChunkSize,
    /// Bytes read and not yet passed; `data[0]` is byte `base`.
    data: Vec<u8>,
    base: u64,
    /// Lines that end before `base`.
    lines: u64,
    /// The next chunk starts at this byte or after.
    target: u64,
    eof: bool,
    /// The encoding, given or decided (once a byte outside ASCII is read).
    choice: Option<Choice>,
    /// The bytes read, hashed, when asked for.
    hasher: Option<(blake3::Hasher, u64)>,
}

impl Planner {
    /// A planner over `file` (read from its start), chunks of about
    /// `chunk` bytes, in `encoding` when given; with `hash`, the bytes
    /// read are hashed (see [`Planner::content`]).
    pub(crate) fn new(
        file: File,
        chunk: ChunkSize,
        encoding: Option<&'static Encoding>,
        hash: bool,
    ) -> Planner {
        Planner {
            file,
            chunk,
            data: Vec::new(),
            base: 0,
            lines: 0,
            target: chunk.at(0),
            eof: false,
            choice: encoding.map(Choice::forced),
            hasher: hash.then(|| (blake3::Hasher::new(), 0)),
        }
    }

    /// The file's encoding as far as decided (every byte before the last
    /// start proposed is read in it; `None` while they are all ASCII).
    pub(crate) fn choice(&self) -> Option<Choice> {
        self.choice
    }

    /// What the file held, once [`Planner::next`] has said it ends (with
    /// `hash`).
    pub(crate) fn content(&self) -> Option<Content> {
        self.hasher.as_ref().map(|(hasher, size)| Content {
            hash: hasher.finalize().to_hex().to_string(),
            size: *size,
        })
    }

    /// Where the next chunk starts (in column 1), or `None` at the end of
    /// the file.
    ///
    /// # Errors
    /// An I/O error reading the file.
    pub(crate) fn next(&mut self) -> io::Result<Option<Position>> {
        loop {
            let from = self.target.saturating_sub(self.base).max(1) as usize;
            if let Some(p) = find_start(&self.data, from) {
                let line = self.lines + 1 + count_lines(&self.data[..p]);
                let at = Position {
                    byte: self.base + p as u64,
                    line,
                    column: 1,
                };
                self.data.drain(..p);
                self.base = at.byte;
                self.lines = line - 1;
                self.target = at.byte + self.chunk.at(at.byte);
                return Ok(Some(at));
            }
            // Nothing found before the end of the bytes read: keep only
            // what a start found later may look back at.
            let keep = from.min(self.data.len()).saturating_sub(LOOK_BACK);
            self.lines += count_lines(&self.data[..keep]);
            self.data.drain(..keep);
            self.base += keep as u64;
            if self.eof {
                return Ok(None);
            }
            self.read_block()?;
        }
    }

    /// Reads the next block; decides the encoding when it holds the first
    /// byte outside ASCII.
    fn read_block(&mut self) -> io::Result<()> {
        let read = self.data.len();
        self.fill(read + BLOCK)?;
        if self.choice.is_none()
            && !self.data[read..].is_ascii()
            && let Some(k) = self.data[read..].iter().position(|b| !b.is_ascii())
        {
            let first = read + k;
            self.fill(first + SNIFF_LEN)?;
            let stop = self.data.len().min(first + SNIFF_LEN);
            let complete = self.eof && stop == self.data.len();
            let at = self.base + first as u64;
            self.choice = Some(decide_from(&self.data[first..stop], at, complete));
        }
        Ok(())
    }

    /// Reads until `data` holds `len` bytes or the file ends.
    fn fill(&mut self, len: usize) -> io::Result<()> {
        while self.data.len() < len && !self.eof {
            let start = self.data.len();
            self.data.resize(len, 0);
            match self.file.read(&mut self.data[start..]) {
                Ok(0) => {
                    self.data.truncate(start);
                    self.eof = true;
                }
                Ok(n) => {
                    self.data.truncate(start + n);
                    if let Some((hasher, size)) = &mut self.hasher {
                        hasher.update(&self.data[start..]);
                        *size += n as u64;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => self.data.truncate(start),
                Err(e) => {
                    self.data.truncate(start);
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}

/// Lines ended in `bytes`.
fn count_lines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// The first place at or after `from` where a line starts with `[` after
/// lines that end, past blanks, with a result (see [`ends_with_result`]).
fn find_start(data: &[u8], from: usize) -> Option<usize> {
    let mut at = from.max(1);
    while at < data.len() {
        let k = memchr::memmem::find(&data[at - 1..], b"\n[")?;
        let p = at + k;
        if ends_with_result(&data[p.saturating_sub(LOOK_BACK)..p]) {
            return Some(p);
        }
        at = p + 1;
    }
    None
}

/// Whether `before`, past blanks at its end, ends with a result standing
/// on its own (`1-0`, `0-1`, `2-0`, `0-2`, `1-1`, `0-0`, `1/2-1/2`, `½-½`
/// or `*`).
fn ends_with_result(before: &[u8]) -> bool {
    let text = before.trim_ascii_end();
    const RESULTS: [&[u8]; 10] = [
        b"1-0",
        b"0-1",
        b"2-0",
        b"0-2",
        b"1-1",
        b"0-0",
        b"1/2-1/2",
        "½-½".as_bytes(),
        b"\xBD-\xBD",
        b"*",
    ];
    RESULTS.iter().any(|result| {
        text.strip_suffix(*result)
            .is_some_and(|rest| rest.last().is_none_or(|b| b.is_ascii_whitespace()))
    })
}

/// A chunk's framing: the file read from the chunk's start.
pub(crate) struct ChunkFramer {
    framer: Framer<File>,
    /// Games framed.
    games: u64,
}

/// What a [`ChunkFramer`] found next.
#[derive(Debug)]
pub(crate) enum Step {
    /// A game (its index counted in the chunk, from 1) and how far the
    /// file was read once it was.
    Game(FramedGame, Position),
    /// Between games at or past the byte asked for (see [`Framed::Stop`]).
    Stop {
        /// Exactly there, nothing pending.
        clean: bool,
    },
    /// The end of the file.
    End,
}

impl ChunkFramer {
    /// Frames `path` from `at` (a chunk's start, or the file's), in the
    /// encoding `choice` (decided as a reader of the whole file decides it
    /// when `None`).
    ///
    /// # Errors
    /// An I/O error opening the file.
    pub(crate) fn open(path: &Path, at: Position, choice: Option<Choice>) -> io::Result<Self> {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(at.byte))?;
        Ok(ChunkFramer {
            framer: Framer::resume(file, choice, at),
            games: 0,
        })
    }

    /// The next game, unless the framer stands between games at byte
    /// `stop` or past it, or the file ends.
    ///
    /// # Errors
    /// An I/O error of the file; it then counts as ended.
    pub(crate) fn next_before(&mut self, stop: u64) -> io::Result<Step> {
        Ok(match self.framer.next_before(stop)? {
            Framed::Game(raw) => {
                self.games += 1;
                let choice = self.framer.encoding();
                let game = FramedGame::new(raw, self.games, choice, false);
                Step::Game(game, self.framer.position())
            }
            Framed::Stop { clean } => Step::Stop { clean },
            Framed::End => Step::End,
        })
    }

    /// Where the framer stands.
    pub(crate) fn position(&self) -> Position {
        self.framer.position()
    }

    /// The diagnostics about text after the last game of the file (once
    /// [`Step::End`] came).
    pub(crate) fn trailing(&mut self) -> Vec<Diagnostic> {
        let notes = std::mem::take(&mut self.framer.trailing);
        notes.into_iter().map(|n| n.into_diagnostic(None)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::Reader;

    /// Every game of `bytes` framed in chunks of about `chunk` bytes,
    /// chained as the threads chain them, with its index and position.
    fn framed_in_chunks(bytes: &[u8], chunk: ChunkSize) -> (Vec<String>, Vec<Diagnostic>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.pdn");
        std::fs::write(&path, bytes).unwrap();
        let mut planner = Planner::new(File::open(&path).unwrap(), chunk, None, false);
        let mut starts = vec![Position::START];
        while let Some(at) = planner.next().unwrap() {
            starts.push(at);
        }
        let choice = planner.choice();
        let (mut out, mut k, mut games, mut announced) = (Vec::new(), 0, 0, false);
        loop {
            let mut framer = ChunkFramer::open(&path, starts[k], choice).unwrap();
            let mut next = k + 1;
            loop {
                let stop = starts.get(next).map_or(u64::MAX, |s| s.byte);
                match framer.next_before(stop).unwrap() {
                    Step::Game(mut game, _) => {
                        games += 1;
                        game.place(games, !announced);
                        announced |= game.decodes_as_legacy();
                        let game = game.parse();
                        out.push(format!("{} {:?} {:?}", game.index, game.start, game.tags));
                        out.extend(game.diagnostics.iter().map(|d| d.to_string()));
                    }
                    Step::Stop { clean: true } => break,
                    Step::Stop { clean: false } => next += 1,
                    Step::End => return (out, framer.trailing()),
                }
            }
            k = next;
        }
    }

    fn framed_whole(bytes: &[u8]) -> (Vec<String>, Vec<Diagnostic>) {
        let mut reader = Reader::new(bytes);
        let mut out = Vec::new();
        while let Some(game) = reader.next_game().unwrap() {
            out.push(format!("{} {:?} {:?}", game.index, game.start, game.tags));
            out.extend(game.diagnostics.iter().map(|d| d.to_string()));
        }
        (out, reader.trailing_diagnostics().to_vec())
    }

    #[test]
    fn chunks_frame_what_one_reader_frames() {
        let mut text = Vec::new();
        for k in 0..40 {
            match k % 8 {
                // A comment holding what looks like a chunk's start.
                0 => text.extend_from_slice(
                    b"[Event \"c\"]\n1. 11-15 {a note\n1-0\n\n[Event \"x\"] in it} 23-19 *\n\n",
                ),
                // Junk before the next game.
                1 => text.extend_from_slice(b"[Event \"j\"]\n1. 11-15 1-0\n\njunk here\n\n"),
                // Text in Windows-1252.
                2 => text.extend_from_slice(b"[White \"M\xfcller\"]\n1. 11-15 0-1\n\n"),
                // An unterminated comment.
                3 => text.extend_from_slice(b"[Event \"u\"]\n1. 11-15 {never closed\n\n"),
                // CRLF and a game without its result.
                4 => text.extend_from_slice(b"[Event \"r\"]\r\n1. 11-15 23-19\r\n\r\n"),
                _ => text.extend_from_slice(b"[Event \"n\"]\n1. 9-13 22-18 1/2-1/2\n\n"),
            }
        }
        text.extend_from_slice(b"trailing junk\n");
        let whole = framed_whole(&text);
        assert!(whole.0.len() > 40);
        for chunk in [1, 7, 30, 64, 200, 100_000] {
            let fixed = ChunkSize::fixed(chunk);
            assert_eq!(framed_in_chunks(&text, fixed), whole, "chunks of {chunk}");
        }
        let shrinking = ChunkSize {
            most: 300,
            least: 5,
            parts: 3,
            size: text.len() as u64,
        };
        assert_eq!(framed_in_chunks(&text, shrinking), whole, "{shrinking:?}");
    }

    #[test]
    fn chunks_shrink_near_the_end_of_the_file() {
        let size = 100 << 20;
        let chunk = chunk_bytes(size, 2).unwrap();
        assert_eq!(chunk.most, MAX_CHUNK);
        let mut sizes = Vec::new();
        let mut at = 0;
        while at < size {
            sizes.push(chunk.at(at));
            at += chunk.at(at);
        }
        assert!(sizes.windows(2).all(|w| w[1] <= w[0]), "{sizes:?}");
        assert_eq!(sizes[0], MAX_CHUNK);
        assert_eq!(sizes.last(), Some(&TAIL_CHUNK));
        let tail = sizes.iter().filter(|&&s| s < MAX_CHUNK).count();
        assert!((10..30).contains(&tail), "{tail} smaller chunks: {sizes:?}");
        assert_eq!(chunk_bytes(2 * MIN_CHUNK - 1, 2), None);
        let small = chunk_bytes(3 * MIN_CHUNK, 8).unwrap();
        assert_eq!((small.most, small.at(0)), (MIN_CHUNK, TAIL_CHUNK));
        assert_eq!(ChunkSize::fixed(0).at(1 << 30), 1);
    }

    #[test]
    fn a_start_follows_a_result_and_a_blank_line() {
        let text =
            b"[E \"a\"]\n1. 11-15 1-0\n\n[E \"b\"]\n1. 9-13\n[E \"c\"]\n1. 9-13 *\n\n[E \"d\"]\n";
        let found: Vec<usize> = (1..text.len())
            .filter_map(|from| find_start(text, from))
            .collect();
        assert!(
            found
                .iter()
                .all(|&p| text[p] == b'[' && text[p - 1] == b'\n')
        );
        assert_eq!(found.first(), Some(&22));
        assert!(!found.contains(&38), "no result before it");
        assert!(found.contains(&57));
        assert!(ends_with_result(b"1. 9-13 *\n\n"));
        assert!(ends_with_result("x ½-½\r\n\r\n".as_bytes()));
        assert!(ends_with_result(b"1. 9-13 2-0\n"));
        assert!(!ends_with_result(b"1. 9-13\n"));
        assert!(!ends_with_result(b"1. 9-131-0\n\n"));
    }

    #[test]
    fn the_encoding_is_decided_from_the_same_bytes_as_a_reader_decides() {
        let mut text = b"[Event \"a\"]\n1. 11-15 *\n\n".repeat(5000);
        text.extend_from_slice(b"[White \"Pe\xf1a\"]\n1. 11-15 *\n\n");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.pdn");
        std::fs::write(&path, &text).unwrap();
        let mut planner = Planner::new(
            File::open(&path).unwrap(),
            ChunkSize::fixed(1000),
            None,
            true,
        );
        while planner.next().unwrap().is_some() {}
        let mut reader = Reader::new(&text[..]);
        while reader.next_game().unwrap().is_some() {}
        assert_eq!(planner.choice().map(|c| c.encoding), reader.encoding());
        assert_eq!(planner.content().unwrap().size, text.len() as u64);
        assert!(reads_as_is(&text[..16], None));
        assert!(!reads_as_is(b"\xFF\xFE[\0E\0", None));
        assert!(!reads_as_is(b"[\0E\0v\0e\0n\0t\0", None));
    }
}
