//! The input as a window of bytes: read in chunks, its encoding decided
//! from a sample (or given), a byte-order mark skipped, and the position
//! (line, column) of any byte worked out lazily; with the position and
//! sample helpers the framer's messages use.

use std::cell::Cell;
use std::io::{self, Read};

use encoding_rs::{Encoding, UTF_8};

use crate::pdn::encoding::{Choice, SNIFF_LEN, decide_from};
use crate::pdn::error::Position;
use crate::pdn::lex::{DRAW_LOOKAHEAD, DRAW_OR_MOVE};

/// Bytes read from the input at a time.
pub(super) const CHUNK: usize = 64 * 1024;

/// Bytes of lookahead guaranteed (unless the input ends) before deciding
/// what a line or a token is.
pub(super) const LOOKAHEAD: usize = 512;

/// Bytes of window wanted from a possible result on: the longest result,
/// or a `1-1` (or a lone `-`) and more than the look ahead after it.
pub(super) const RESULT_WINDOW: usize = DRAW_OR_MOVE.len() + DRAW_LOOKAHEAD + 1;

const _: () = assert!(RESULT_WINDOW <= LOOKAHEAD && 8 <= RESULT_WINDOW);

/// Longest sample of junk quoted in a message, in characters.
pub(super) const SAMPLE_CHARS: usize = 60;

/// A buffered window on the input that tracks the position of its first byte.
///
/// Lines and columns are brought up to date only when a position is asked
/// for (or before passed bytes leave the buffer), over all the bytes passed
/// since: most bytes are passed without anyone asking where they stand.
///
/// It also decides the input's encoding (see `super::encoding`), as the
/// first byte outside ASCII arrives, before anything looks at that byte:
/// so columns count characters of that encoding from the start.
pub(super) struct Source<R> {
    pub(super) inner: R,
    pub(super) buf: Vec<u8>,
    pub(super) pos: usize,
    pub(super) end: usize,
    pub(super) eof: bool,
    /// Offset in the input of `buf[pos]`.
    pub(super) byte: u64,
    /// The bytes of `buf` before this index are counted in the line fields.
    pub(super) synced: Cell<usize>,
    pub(super) line: Cell<u64>,
    /// Offset in the input where the current line starts.
    pub(super) line_start: Cell<u64>,
    /// UTF-8 continuation bytes between `line_start` and the synced byte
    /// (not characters of their own).
    pub(super) continuation: Cell<u64>,
    /// The input's encoding, once decided (or given).
    pub(super) choice: Option<Choice>,
    /// Every byte is a character (the encoding is not UTF-8).
    pub(super) single_byte: bool,
}

impl<R: Read> Source<R> {
    pub(super) fn new(inner: R, forced: Option<&'static Encoding>) -> Source<R> {
        Source::resume(inner, forced.map(Choice::forced), Position::START)
    }

    /// A window on `inner`, whose first byte stands at `at` in the input
    /// (in column 1), read in the encoding `choice` (decided as the first
    /// byte outside ASCII arrives when `None`).
    pub(super) fn resume(inner: R, choice: Option<Choice>, at: Position) -> Source<R> {
        debug_assert_eq!(at.column, 1);
        Source {
            inner,
            buf: vec![0; CHUNK + LOOKAHEAD],
            pos: 0,
            end: 0,
            eof: false,
            byte: at.byte,
            synced: Cell::new(0),
            line: Cell::new(at.line),
            line_start: Cell::new(at.byte),
            continuation: Cell::new(0),
            choice,
            single_byte: choice.is_some_and(|c| c.single_byte()),
        }
    }

    /// Makes at least `want` bytes available unless the input ends first.
    /// After an error the input counts as ended.
    pub(super) fn fill(&mut self, want: usize) -> io::Result<()> {
        while self.end - self.pos < want && !self.eof {
            if self.pos > 0 {
                self.sync();
                self.synced.set(0);
                self.buf.copy_within(self.pos..self.end, 0);
                self.end -= self.pos;
                self.pos = 0;
            }
            if self.buf.len() < self.end + CHUNK {
                self.buf.resize(self.end + CHUNK, 0);
            }
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    let read = self.end;
                    self.end += n;
                    if self.choice.is_none() && !self.buf[read..self.end].is_ascii() {
                        self.decide(read)?;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.eof = true;
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Decides the input's encoding: bytes outside ASCII have just been
    /// read, from `read` on (all the input before is ASCII). Reads on up
    /// to [`SNIFF_LEN`] bytes past the first of them (the buffer grows
    /// that far, once) and decides from the window. A UTF-8 byte-order
    /// mark at the start decides for UTF-8. The sample is the input's bytes
    /// from the first outside ASCII on, up to [`SNIFF_LEN`] of them: the
    /// same for any reader of the same input (see `super::super::chunks`).
    #[cold]
    #[inline(never)]
    pub(super) fn decide(&mut self, read: usize) -> io::Result<()> {
        let first = read
            + self.buf[read..self.end]
                .iter()
                .position(|b| !b.is_ascii())
                .unwrap_or(0);
        let mut error = None;
        while self.end - first < SNIFF_LEN && !self.eof {
            if self.buf.len() < self.end + CHUNK {
                self.buf.resize(self.end + CHUNK, 0);
            }
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.eof = true;
                    error = Some(e);
                }
            }
        }
        let stop = self.end.min(first + SNIFF_LEN);
        // From the first byte outside ASCII on, wherever the reading
        // stands: the same sample however the input is read or split.
        let at = self.byte + (first - self.pos) as u64;
        let choice = decide_from(&self.buf[first..stop], at, self.eof && stop == self.end);
        // The bytes passed so far are ASCII: counted alike either way.
        self.sync();
        self.single_byte = choice.single_byte();
        self.choice = Some(choice);
        error.map_or(Ok(()), Err)
    }

    /// The encoding chosen so far, if any.
    pub(super) fn encoding(&self) -> Option<&'static Encoding> {
        self.choice.map(|c| c.encoding)
    }

    /// The bytes available now.
    pub(super) fn window(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// The position of the first available byte.
    pub(super) fn position(&self) -> Position {
        self.sync();
        Position {
            byte: self.byte,
            line: self.line.get(),
            column: self.byte - self.line_start.get() - self.continuation.get() + 1,
        }
    }

    /// Counts the lines and characters of the bytes passed since the last
    /// count.
    #[inline]
    pub(super) fn sync(&self) {
        let from = self.synced.get();
        if from == self.pos {
            return;
        }
        let passed = &self.buf[from..self.pos];
        let passed_at = self.byte - passed.len() as u64;
        match memchr::memrchr(b'\n', passed) {
            Some(last) => {
                let lines = memchr::memchr_iter(b'\n', passed).count() as u64;
                self.line.set(self.line.get() + lines);
                self.line_start.set(passed_at + last as u64 + 1);
                self.continuation
                    .set(count_continuation(&passed[last + 1..], self.single_byte));
            }
            None => self
                .continuation
                .set(self.continuation.get() + count_continuation(passed, self.single_byte)),
        }
        self.synced.set(self.pos);
    }

    /// Whether the first available byte stands in column 1; looks at the
    /// byte before it when that settles it.
    pub(super) fn at_column_one(&self) -> bool {
        match self.pos.checked_sub(1).map(|k| self.buf[k]) {
            Some(b'\n') => true,
            // A character of the line before this byte.
            Some(b) if (b as i8) >= -64 => false,
            _ => self.position().column == 1,
        }
    }

    /// Moves past `n` available bytes.
    pub(super) fn advance(&mut self, n: usize) {
        debug_assert!(self.pos + n <= self.end);
        self.pos += n;
        self.byte += n as u64;
    }

    /// Skips a UTF-8 byte-order mark at the very start; it is not a
    /// character, so the first column stays 1.
    pub(super) fn skip_bom(&mut self) -> io::Result<()> {
        self.fill(3)?;
        if self.window().starts_with(b"\xEF\xBB\xBF") {
            self.advance(3);
            self.sync();
            self.line_start.set(3);
            self.continuation.set(0);
        }
        Ok(())
    }
}

/// How many bytes of `bytes` are UTF-8 continuation bytes (none when
/// every byte is a character, `single_byte`).
#[inline]
pub(super) fn count_continuation(bytes: &[u8], single_byte: bool) -> u64 {
    if single_byte {
        return 0;
    }
    bytes.iter().filter(|b| (**b as i8) < -64).count() as u64
}

/// The position reached from `start` after the text `bytes` (in UTF-8, or
/// a character per byte when `single_byte`).
#[inline]
pub(crate) fn position_after(start: Position, bytes: &[u8], single_byte: bool) -> Position {
    let mut pos = start;
    pos.byte += bytes.len() as u64;
    match memchr::memrchr(b'\n', bytes) {
        Some(last) => {
            pos.line += memchr::memchr_iter(b'\n', bytes).count() as u64;
            pos.column = 1 + (bytes.len() - last - 1) as u64
                - count_continuation(&bytes[last + 1..], single_byte);
        }
        None => pos.column += bytes.len() as u64 - count_continuation(bytes, single_byte),
    }
    pos
}

/// The largest cut point not above `at` that does not split a UTF-8
/// character (or `at` itself when the text is not UTF-8 there, or every
/// byte is a character, `single_byte`).
#[inline]
pub(super) fn char_boundary(bytes: &[u8], at: usize, single_byte: bool) -> usize {
    let mut cut = at.min(bytes.len());
    if single_byte {
        return cut;
    }
    let mut steps = 0;
    while cut > 0 && cut < bytes.len() && (bytes[cut] as i8) < -64 && steps < 3 {
        cut -= 1;
        steps += 1;
    }
    cut
}

/// A readable sample of `bytes`, in `encoding` (UTF-8 when `None`): up to
/// [`SAMPLE_CHARS`] characters of its first line, control characters and
/// bytes not valid in the encoding replaced.
pub(crate) fn sample(bytes: &[u8], encoding: Option<&'static Encoding>) -> String {
    let line = match memchr::memchr(b'\n', bytes) {
        Some(n) => &bytes[..n],
        None => bytes,
    };
    let head = &line[..line.len().min(SAMPLE_CHARS * 4)];
    let text = match encoding {
        Some(legacy) if legacy != UTF_8 => legacy.decode_without_bom_handling(head).0.into_owned(),
        _ => match std::str::from_utf8(head) {
            Ok(s) => s.to_string(),
            // A character cut at the end of the head.
            Err(e) if e.valid_up_to() + 4 > head.len() && e.error_len().is_none() => {
                String::from_utf8_lossy(&head[..e.valid_up_to()]).into_owned()
            }
            Err(_) => String::from_utf8_lossy(head).into_owned(),
        },
    };
    let mut out: String = text
        .trim_end()
        .chars()
        .take(SAMPLE_CHARS)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    out.truncate(out.trim_end().len());
    if text.trim_end().chars().count() > SAMPLE_CHARS || line.len() > head.len() {
        out.push('…');
    }
    out
}
