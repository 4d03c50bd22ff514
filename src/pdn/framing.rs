//! Framing: cutting a byte stream into the texts of single games.
//!
//! A hand-written scanner over a fixed-size window of the input. It knows
//! just enough of PDN to find where a game ends — tags, comments `{…}` and
//! `;…`, escape lines `%…`, variation depth and result terminators — and
//! resynchronises on a line that starts with a tag:
//!
//! * a game ends after a result at variation depth 0, or before a line that
//!   starts with `[` once the game has movetext (a missing terminator), or
//!   at the end of the input; `1-1`, which is also a Dama move, is a result
//!   only where it ends the game: followed (past blanks and comments) by the
//!   end of the input, a `[`, an empty line or a line of junk, within a
//!   bounded look ahead (see `lex::draw_ends_game`);
//! * between games, blank lines and `%` escape lines are skipped silently;
//!   a line that starts with `[` or with movetext (a move number, a move, a
//!   result, `- -`, `/FEN`, a comment) starts the next game; any other line
//!   is junk, skipped and reported once per run of junk lines;
//! * an unterminated comment ends before the next line that looks like a
//!   tag, so the next game is not lost;
//! * a comment, line comment or tag value longer than [`MAX_TEXT_LEN`] is cut
//!   there, and a game longer than [`MAX_GAME_LEN`] is cut there; the rest is
//!   scanned but not kept, so memory stays bounded whatever the input.
//!
//! Every byte is looked at a bounded number of times, so reading is linear.

use std::cell::Cell;
use std::io::{self, Read};

use encoding_rs::{Encoding, UTF_8};

use super::encoding::{Choice, How, SNIFF_LEN, detect};
use super::error::{Note, Position};
use super::lex::{
    BRACKETLESS_LOOKAHEAD, DRAW_LOOKAHEAD, DRAW_OR_MOVE, bracketless_tag, draw_ends_game,
    ends_game_only_at_its_end, is_boundary, is_name_byte, lone_dash_len, looks_like_tag,
    result_len, skip_blanks, starts_movetext, unknown_move_len,
};
use super::{MAX_GAME_LEN, MAX_TEXT_LEN};

/// Bytes read from the input at a time.
const CHUNK: usize = 64 * 1024;

/// Bytes of lookahead guaranteed (unless the input ends) before deciding
/// what a line or a token is.
const LOOKAHEAD: usize = 512;

/// Bytes of window wanted from a possible result on: the longest result,
/// or a `1-1` (or a lone `-`) and more than the look ahead after it.
const RESULT_WINDOW: usize = DRAW_OR_MOVE.len() + DRAW_LOOKAHEAD + 1;
const _: () = assert!(RESULT_WINDOW <= LOOKAHEAD && 8 <= RESULT_WINDOW);

/// Longest sample of junk quoted in a message, in characters.
const SAMPLE_CHARS: usize = 60;

/// A run of a game's text that is contiguous in the input: the text from
/// byte `at` on stands at `start` in the input (until the next segment).
/// A game has more than one segment only where something was cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// Offset in the game's text.
    pub at: usize,
    /// Position in the input of the text at `at`.
    pub start: Position,
}

/// The raw text of one game, as framed.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawGame {
    /// The bytes kept (tags, movetext, comments; cut where too long).
    pub bytes: Vec<u8>,
    /// Where the kept bytes stand in the input; the first starts at 0.
    pub segments: Vec<Segment>,
    /// Warnings raised while framing (junk before the game, cuts).
    pub notes: Vec<Note>,
    /// Whether a tag was read.
    pub has_tags: bool,
    /// Whether anything but comments and blanks stood after the tags.
    pub has_movetext: bool,
    /// Whether the game ended with a result terminator.
    pub complete: bool,
    /// Whether the game was cut at [`MAX_GAME_LEN`].
    pub truncated: bool,
}

/// A buffered window on the input that tracks the position of its first byte.
///
/// Lines and columns are brought up to date only when a position is asked
/// for (or before passed bytes leave the buffer), over all the bytes passed
/// since: most bytes are passed without anyone asking where they stand.
///
/// It also decides the input's encoding (see `super::encoding`), as the
/// first byte outside ASCII arrives, before anything looks at that byte:
/// so columns count characters of that encoding from the start.
struct Source<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Offset in the input of `buf[pos]`.
    byte: u64,
    /// The bytes of `buf` before this index are counted in the line fields.
    synced: Cell<usize>,
    line: Cell<u64>,
    /// Offset in the input where the current line starts.
    line_start: Cell<u64>,
    /// UTF-8 continuation bytes between `line_start` and the synced byte
    /// (not characters of their own).
    continuation: Cell<u64>,
    /// The input's encoding, once decided (or given).
    choice: Option<Choice>,
    /// Every byte is a character (the encoding is not UTF-8).
    single_byte: bool,
}

impl<R: Read> Source<R> {
    fn new(inner: R, forced: Option<&'static Encoding>) -> Source<R> {
        let choice = forced.map(Choice::forced);
        Source {
            inner,
            buf: vec![0; CHUNK + LOOKAHEAD],
            pos: 0,
            end: 0,
            eof: false,
            byte: 0,
            synced: Cell::new(0),
            line: Cell::new(1),
            line_start: Cell::new(0),
            continuation: Cell::new(0),
            choice,
            single_byte: choice.is_some_and(|c| c.single_byte()),
        }
    }

    /// Makes at least `want` bytes available unless the input ends first.
    /// After an error the input counts as ended.
    fn fill(&mut self, want: usize) -> io::Result<()> {
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
    /// mark at the start decides for UTF-8.
    #[cold]
    #[inline(never)]
    fn decide(&mut self, read: usize) -> io::Result<()> {
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
        let sample = &self.buf[self.pos..stop];
        let choice = if self.byte == 0 && sample.starts_with(b"\xEF\xBB\xBF") {
            Choice {
                encoding: UTF_8,
                how: How::Detected,
            }
        } else {
            detect(sample, self.eof && stop == self.end)
        };
        // The bytes passed so far are ASCII: counted alike either way.
        self.sync();
        self.single_byte = choice.single_byte();
        self.choice = Some(choice);
        error.map_or(Ok(()), Err)
    }

    /// The encoding chosen so far, if any.
    fn encoding(&self) -> Option<&'static Encoding> {
        self.choice.map(|c| c.encoding)
    }

    /// The bytes available now.
    fn window(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// The position of the first available byte.
    fn position(&self) -> Position {
        self.sync();
        Position {
            byte: self.byte,
            line: self.line.get(),
            column: self.byte - self.line_start.get() - self.continuation.get() + 1,
        }
    }

    /// Counts the lines and characters of the bytes passed since the last
    /// count.
    fn sync(&self) {
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
    fn at_column_one(&self) -> bool {
        match self.pos.checked_sub(1).map(|k| self.buf[k]) {
            Some(b'\n') => true,
            // A character of the line before this byte.
            Some(b) if (b as i8) >= -64 => false,
            _ => self.position().column == 1,
        }
    }

    /// Moves past `n` available bytes.
    fn advance(&mut self, n: usize) {
        debug_assert!(self.pos + n <= self.end);
        self.pos += n;
        self.byte += n as u64;
    }

    /// Skips a UTF-8 byte-order mark at the very start; it is not a
    /// character, so the first column stays 1.
    fn skip_bom(&mut self) -> io::Result<()> {
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
fn count_continuation(bytes: &[u8], single_byte: bool) -> u64 {
    if single_byte {
        return 0;
    }
    bytes.iter().filter(|b| (**b as i8) < -64).count() as u64
}

/// The position reached from `start` after the text `bytes` (in UTF-8, or
/// a character per byte when `single_byte`).
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
fn char_boundary(bytes: &[u8], at: usize, single_byte: bool) -> usize {
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

/// A position worked out at most once, when first needed.
struct Lazy<F> {
    make: Option<F>,
    value: Position,
}

impl<F: FnOnce() -> Position> Lazy<F> {
    fn new(make: F) -> Lazy<F> {
        Lazy {
            make: Some(make),
            value: Position::START,
        }
    }

    fn get(&mut self) -> Position {
        if let Some(make) = self.make.take() {
            self.value = make();
        }
        self.value
    }
}

/// The game being collected: its bytes, where they come from, its notes.
struct GameBuf {
    game: RawGame,
    /// Bytes were skipped since the last copy: the next copy opens a segment.
    gap: bool,
    /// [`MAX_GAME_LEN`] was reached; nothing more is kept.
    full: bool,
}

impl GameBuf {
    /// Whether `len` more bytes can be kept whole.
    fn has_room(&self, len: usize) -> bool {
        !self.full && self.game.bytes.len() + len <= MAX_GAME_LEN
    }

    fn new(start: Position, bytes: Vec<u8>) -> GameBuf {
        GameBuf {
            game: RawGame {
                bytes,
                segments: vec![Segment { at: 0, start }],
                ..RawGame::default()
            },
            gap: false,
            full: false,
        }
    }

    /// Keeps `data`, which stands at `at()` in the input (asked for only
    /// when needed); `single_byte` says whether every byte is a character.
    fn copy(&mut self, data: &[u8], single_byte: bool, at: impl FnOnce() -> Position) {
        if self.full || data.is_empty() {
            return;
        }
        let mut at = Lazy::new(at);
        if self.gap {
            self.game.segments.push(Segment {
                at: self.game.bytes.len(),
                start: at.get(),
            });
            self.gap = false;
        }
        let room = MAX_GAME_LEN - self.game.bytes.len();
        if data.len() <= room {
            self.game.bytes.extend_from_slice(data);
        } else {
            let cut = char_boundary(data, room, single_byte);
            self.game.bytes.extend_from_slice(&data[..cut]);
            self.full = true;
            self.game.truncated = true;
            self.game.notes.push(Note::warning(
                position_after(at.get(), &data[..cut], single_byte),
                format!(
                    "game text longer than {} MiB: the rest of this game is skipped",
                    MAX_GAME_LEN >> 20
                ),
            ));
        }
    }

    /// Notes that bytes of the input were passed without keeping them.
    fn skip(&mut self) {
        self.gap = true;
    }
}

/// A text span whose content is kept up to [`MAX_TEXT_LEN`] bytes.
struct Limited {
    kept: usize,
    cut: bool,
}

impl Limited {
    fn new() -> Limited {
        Limited {
            kept: 0,
            cut: false,
        }
    }

    /// Keeps as much of `data` (standing at `at`) as the limit allows;
    /// reports the cut once, at `start` (the span's first byte).
    fn take(
        &mut self,
        g: &mut GameBuf,
        data: &[u8],
        single_byte: bool,
        at: impl FnOnce() -> Position,
        start: Position,
        what: &str,
    ) {
        if self.cut {
            g.skip();
            return;
        }
        let room = MAX_TEXT_LEN - self.kept;
        if data.len() <= room {
            g.copy(data, single_byte, at);
            self.kept += data.len();
        } else {
            let cut = char_boundary(data, room, single_byte);
            g.copy(&data[..cut], single_byte, at);
            g.skip();
            self.cut = true;
            g.game.notes.push(Note::warning(
                start,
                format!("{what} longer than {} MiB: cut there", MAX_TEXT_LEN >> 20),
            ));
        }
    }
}

/// What the scanner knows about the game being read.
struct Scan {
    /// Only blanks so far on the current line.
    line_blank: bool,
    /// An empty line since the last tag.
    blank_line: bool,
    /// Variation depth.
    depth: u32,
    /// The last byte looked at (for token boundaries).
    prev: Option<u8>,
    /// Lower-cased names of the tags read, each followed by a 0 byte (to
    /// split tag blocks that lack a
    /// terminator between them).
    names: Vec<u8>,
}

/// A run of junk lines between games, reported once.
struct Junk {
    start: Position,
    sample: String,
    lines: u64,
}

impl Junk {
    fn into_note(self) -> Note {
        let more = match self.lines {
            0 | 1 => String::new(),
            n => format!(" ({} more lines)", n - 1),
        };
        Note::warning(
            self.start,
            format!("junk between games skipped: `{}`{more}", self.sample),
        )
    }
}

/// Text found after the tags of one game, reported once (see
/// `Framer::skip_stray`).
struct Stray {
    /// Where the first stands.
    at: Position,
    /// A sample of the first.
    sample: String,
    /// After how many tags some was found.
    tags: u64,
}

impl Stray {
    fn into_note(self) -> Note {
        let more = match self.tags {
            0 | 1 => String::new(),
            n => format!(" (and after {} more tags)", n - 1),
        };
        Note::warning(
            self.at,
            format!("text after a tag skipped: `{}`{more}", self.sample),
        )
    }
}

/// Splits an input into game texts.
pub(crate) struct Framer<R> {
    src: Source<R>,
    started: bool,
    /// A buffer to collect the next game in (reused from game to game).
    spare: Vec<u8>,
    /// The tag names of the game being read (see `Scan::names`; the buffer
    /// is reused from game to game).
    names: Vec<u8>,
    junk: Option<Junk>,
    /// Notes about text after the last game.
    pub trailing: Vec<Note>,
    /// Whether plain tags are kept in one copy (see `plain_tag_len`);
    /// turned off only to check that the general way keeps the same.
    plain_tags: bool,
}

impl<R: Read> Framer<R> {
    #[cfg(test)]
    pub fn new(inner: R) -> Framer<R> {
        Framer::with_encoding(inner, None)
    }

    /// A framer over `inner`, in `encoding` (decided from the input when
    /// `None`).
    pub fn with_encoding(inner: R, encoding: Option<&'static Encoding>) -> Framer<R> {
        Framer {
            src: Source::new(inner, encoding),
            started: false,
            spare: Vec::new(),
            names: Vec::new(),
            junk: None,
            trailing: Vec::new(),
            plain_tags: true,
        }
    }

    /// Takes back a game's buffer to collect the next game in; small ones
    /// only, so that one huge game does not hold memory.
    pub fn recycle(&mut self, mut buffer: Vec<u8>) {
        if buffer.capacity() <= 1 << 20 {
            buffer.clear();
            self.spare = buffer;
        }
    }

    /// Where the reader stands in the input.
    pub fn position(&self) -> Position {
        self.src.position()
    }

    /// The input's encoding and how it was chosen; `None` while every byte
    /// read is ASCII. Decided before any byte outside ASCII is framed.
    pub fn encoding(&self) -> Option<Choice> {
        self.src.choice
    }

    /// The next game's text, or `None` at the end of the input.
    ///
    /// # Errors
    /// An I/O error of the input; the input then counts as ended.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        if !self.started {
            self.started = true;
            self.src.skip_bom()?;
        }
        loop {
            self.src.fill(LOOKAHEAD)?;
            let w = self.src.window();
            let Some(&b) = w.first() else {
                if let Some(junk) = self.junk.take() {
                    self.trailing.push(junk.into_note());
                }
                return Ok(None);
            };
            if b.is_ascii_whitespace() {
                let n = w.iter().take_while(|b| b.is_ascii_whitespace()).count();
                self.src.advance(n);
                continue;
            }
            let at = self.src.position();
            if b == b'%' && at.column == 1 {
                self.skip_line(None)?;
                continue;
            }
            if b == b'[' || starts_movetext(w) || bracketless_tag(w, self.src.eof) {
                let game = self.read_game(at)?;
                if !game.has_tags && !game.has_movetext && !game.complete {
                    // Only comments: not a game.
                    let text = sample(&game.bytes, self.src.encoding());
                    self.add_junk(at, text);
                    continue;
                }
                let mut game = game;
                if let Some(junk) = self.junk.take() {
                    game.notes.insert(0, junk.into_note());
                }
                return Ok(Some(game));
            }
            let text = sample(w, self.src.encoding());
            self.add_junk(at, text);
            self.skip_line(None)?;
        }
    }

    fn add_junk(&mut self, at: Position, sample: String) {
        match &mut self.junk {
            Some(junk) => junk.lines += 1,
            None => {
                self.junk = Some(Junk {
                    start: at,
                    sample,
                    lines: 1,
                })
            }
        }
    }

    /// Passes the rest of the line (not its `\n`), keeping it in `keep` (up
    /// to the text limit) when given.
    fn skip_line(&mut self, mut keep: Option<(&mut GameBuf, Position, &str)>) -> io::Result<()> {
        let mut limited = Limited::new();
        loop {
            self.src.fill(1)?;
            let w = self.src.window();
            if w.is_empty() {
                return Ok(());
            }
            let (n, done) = match memchr::memchr(b'\n', w) {
                Some(n) => (n, true),
                None => (w.len(), false),
            };
            if let Some((g, start, what)) = keep.as_mut() {
                let single_byte = self.src.single_byte;
                limited.take(
                    g,
                    &w[..n],
                    single_byte,
                    || self.src.position(),
                    *start,
                    what,
                );
            }
            self.src.advance(n);
            if done {
                return Ok(());
            }
        }
    }

    /// Reads one game starting at `start` (a `[` or the first movetext
    /// byte).
    fn read_game(&mut self, start: Position) -> io::Result<RawGame> {
        let mut g = GameBuf::new(start, std::mem::take(&mut self.spare));
        let mut s = Scan {
            line_blank: true,
            blank_line: false,
            depth: 0,
            prev: None,
            names: std::mem::take(&mut self.names),
        };
        let mut stray = None;
        loop {
            self.src.fill(LOOKAHEAD)?;
            let w = self.src.window();
            if w.is_empty() {
                break;
            }
            let (i, stop) = scan_movetext(
                w,
                self.src.eof,
                self.src.at_column_one(),
                &mut s,
                &mut g.game.has_movetext,
            );
            g.copy(&w[..i], self.src.single_byte, || self.src.position());
            self.src.advance(i);
            match stop {
                Stop::Refill => continue,
                Stop::Result => {
                    g.game.complete = true;
                    break;
                }
                Stop::Special => {}
            }
            // A tag, an escape line or a comment starts here.
            self.src.fill(LOOKAHEAD)?;
            let w = self.src.window();
            let Some(&b) = w.first() else {
                break;
            };
            match b {
                // A tag, or a tag line that lost its `[` (see
                // `lex::bracketless_tag`): one call, kept inline.
                b'[' | b'a'..=b'z' | b'A'..=b'Z' => {
                    let bracket = b == b'[';
                    if bracket
                        && s.line_blank
                        && (g.game.has_movetext
                            || s.blank_line && g.game.has_tags && repeats_name(w, &s.names))
                    {
                        break;
                    }
                    self.read_tag(&mut g, &mut s)?;
                    if bracket && !g.game.has_movetext {
                        self.skip_stray(&mut g, &mut stray)?;
                    }
                }
                b'%' => {
                    s.line_blank = false;
                    let at = self.src.position();
                    self.skip_line(Some((&mut g, at, "escape line")))?;
                    s.prev = Some(b' ');
                }
                b';' => {
                    s.line_blank = false;
                    let at = self.src.position();
                    self.skip_line(Some((&mut g, at, "comment")))?;
                    s.prev = Some(b' ');
                }
                _ => {
                    // An unterminated comment stops at the start of a line.
                    s.line_blank = self.read_comment(&mut g)?;
                    s.prev = Some(b'}');
                }
            }
        }
        s.names.clear();
        self.names = s.names;
        if let Some(stray) = stray {
            g.game.notes.push(stray.into_note());
        }
        Ok(g.game)
    }

    /// After a tag of a game's header: text on the rest of the tag's line
    /// that starts neither movetext, nor a comment, nor another tag (some
    /// programs end every tag line with a literal `\r`) is skipped up to
    /// the end of the line (or a tag, or movetext, on it), and counted in
    /// `stray` for one warning per game. Moves after a tag on its line are
    /// read as before.
    fn skip_stray(&mut self, g: &mut GameBuf, stray: &mut Option<Stray>) -> io::Result<()> {
        // Most tag lines end right after the `]`.
        if let [b'\n', ..] | [b'\r', b'\n', ..] = self.src.window() {
            return Ok(());
        }
        self.src.fill(LOOKAHEAD)?;
        let w = self.src.window();
        let blanks = w
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\x0C'))
            .count();
        let rest = &w[blanks..];
        if matches!(rest.first(), None | Some(b'\n' | b'[' | b'{' | b';')) || starts_movetext(rest)
        {
            return Ok(());
        }
        // The stray text ends with the line, or where a tag or, after a
        // blank, movetext starts on it.
        let line = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let end = (1..line)
            .find(|&k| {
                (rest[k] == b'[' && looks_like_tag(&rest[k..]))
                    || (matches!(rest[k - 1], b' ' | b'\t') && starts_movetext(&rest[k..]))
            })
            .unwrap_or(line);
        let quoted = sample(&rest[..end], self.src.encoding());
        let runs_on = end == rest.len();
        self.src.advance(blanks);
        let at = self.src.position();
        self.src.advance(end);
        if runs_on {
            // The line goes on past the window.
            self.skip_line(None)?;
        }
        g.skip();
        match stray {
            Some(stray) => stray.tags += 1,
            None => {
                *stray = Some(Stray {
                    at,
                    sample: quoted,
                    tags: 1,
                })
            }
        }
        Ok(())
    }

    /// Reads a tag line from its `[` (or its name, when it lost the `[`) to
    /// its `]` (or to the end of the line when it is not closed), cutting a
    /// value over the text limit.
    fn read_tag(&mut self, g: &mut GameBuf, s: &mut Scan) -> io::Result<()> {
        g.game.has_tags = true;
        s.blank_line = false;
        s.line_blank = false;
        s.names.extend(tag_name(self.src.window()));
        s.names.push(0);
        // The commonest tag, `[Name "value"]` whole in the window with no
        // escape in its value, is kept in one copy: the bytes the general
        // way below keeps piece by piece.
        let w = self.src.window();
        if self.plain_tags
            && let Some(len) = plain_tag_len(w)
            && g.has_room(len)
        {
            let single_byte = self.src.single_byte;
            g.copy(&w[..len], single_byte, || self.src.position());
            self.src.advance(len);
            s.prev = Some(b']');
            return Ok(());
        }
        let start = self.src.position();
        let mut quoted = false;
        let mut escaped = false;
        let mut value = Limited::new();
        loop {
            self.src.fill(1)?;
            if self.src.window().is_empty() {
                break;
            }
            let next = if quoted {
                self.tag_value_part(g, &mut value, start, &mut escaped)
            } else {
                self.tag_name_part(g)
            };
            match next {
                Some(q) => quoted = q,
                None => break,
            }
        }
        s.prev = Some(b']');
        Ok(())
    }

    /// A tag's value bytes in the window, up to the closing quote or the
    /// end of the line (`start`: where the tag starts; `escaped`: the
    /// last byte was an unescaped `\`). Returns whether the value goes on
    /// (`Some(true)`), the rest of the tag follows it (`Some(false)`) or
    /// the line ends (`None`).
    #[inline]
    fn tag_value_part(
        &mut self,
        g: &mut GameBuf,
        value: &mut Limited,
        start: Position,
        escaped: &mut bool,
    ) -> Option<bool> {
        let w = self.src.window();
        let single_byte = self.src.single_byte;
        let at = || self.src.position();
        let mut i = 0;
        let mut closed = None;
        while i < w.len() {
            let b = w[i];
            if b == b'\n' {
                closed = Some(false);
                break;
            }
            if *escaped {
                *escaped = false;
            } else if b == b'\\' {
                *escaped = true;
            } else if b == b'"' {
                closed = Some(true);
                break;
            }
            i += 1;
        }
        value.take(g, &w[..i], single_byte, at, start, "tag value");
        match closed {
            Some(true) => {
                g.copy(b"\"", single_byte, || {
                    position_after(at(), &w[..i], single_byte)
                });
                self.src.advance(i + 1);
                Some(false)
            }
            Some(false) => {
                self.src.advance(i);
                None
            }
            None => {
                self.src.advance(i);
                Some(true)
            }
        }
    }

    /// The `[`, the name and blanks of a tag in the window, up to a quote,
    /// `]` or the end of the line. Returns whether a value starts
    /// (`Some(true)`), the window ended first (`Some(false)`) or the tag
    /// or the line ends (`None`).
    #[inline]
    fn tag_name_part(&mut self, g: &mut GameBuf) -> Option<bool> {
        let w = self.src.window();
        let single_byte = self.src.single_byte;
        let at = || self.src.position();
        match w.iter().position(|b| matches!(b, b'\n' | b'"' | b']')) {
            Some(i) if w[i] == b'\n' => {
                g.copy(&w[..i], single_byte, at);
                self.src.advance(i);
                None
            }
            Some(i) => {
                let close = w[i] == b']';
                g.copy(&w[..=i], single_byte, at);
                self.src.advance(i + 1);
                (!close).then_some(true)
            }
            None => {
                let n = w.len();
                g.copy(w, single_byte, at);
                self.src.advance(n);
                Some(false)
            }
        }
    }

    /// Reads a comment from its `{` to the matching `}` (nested braces
    /// counted). An unterminated comment ends at the end of the input or
    /// before a line that looks like a tag. Returns whether it stopped at
    /// the start of a line.
    fn read_comment(&mut self, g: &mut GameBuf) -> io::Result<bool> {
        let start = self.src.position();
        g.copy(b"{", self.src.single_byte, || start);
        self.src.advance(1);
        let mut depth = 1u32;
        let mut text = Limited::new();
        loop {
            self.src.fill(1)?;
            let w = self.src.window();
            if w.is_empty() {
                return Ok(false);
            }
            let single_byte = self.src.single_byte;
            let at = || self.src.position();
            let Some(k) = memchr::memchr3(b'{', b'}', b'\n', w) else {
                text.take(g, w, single_byte, at, start, "comment");
                let n = w.len();
                self.src.advance(n);
                continue;
            };
            match w[k] {
                b'}' if depth == 1 => {
                    text.take(g, &w[..k], single_byte, at, start, "comment");
                    g.copy(b"}", single_byte, || {
                        position_after(at(), &w[..k], single_byte)
                    });
                    self.src.advance(k + 1);
                    return Ok(false);
                }
                b'{' => depth = depth.saturating_add(1),
                b'}' => depth -= 1,
                _ => {}
            }
            text.take(g, &w[..=k], single_byte, at, start, "comment");
            let newline = w[k] == b'\n';
            self.src.advance(k + 1);
            if newline {
                self.src.fill(LOOKAHEAD)?;
                if looks_like_tag(skip_blanks(self.src.window())) {
                    return Ok(true);
                }
            }
        }
    }
}

/// Bytes that, inside a word on a line that already holds movetext, change
/// nothing for [`scan_movetext`] but the last byte seen: neither blanks, nor
/// what starts a tag, comment or variation, nor a token boundary (after which
/// a result may start).
const PLAIN: [bool; 256] = {
    let mut table = [true; 256];
    let special = b" \t\n\r\x0C[;{}()].!?/";
    let mut k = 0;
    while k < special.len() {
        table[special[k] as usize] = false;
        k += 1;
    }
    table
};

/// [`CLASS`] bit: a byte that changes more than the last byte seen, even
/// inside a line that holds movetext (a newline, what starts a tag, escape
/// line, comment or variation, the end of a variation).
const STOP: u8 = 1;
/// [`CLASS`] bit: a byte that may start a result (after a token boundary).
const RESULT_START: u8 = 2;
/// [`CLASS`] bit: a token boundary (see `lex::is_boundary`).
const BOUNDARY: u8 = 4;
/// [`CLASS`] bit: a digit that may start a result (`0` to `2`).
const DIGIT: u8 = 8;
/// [`CLASS`] bit: a byte after which such a digit starts a result (`-`,
/// `/`).
const JOINER: u8 = 16;
const _: () =
    assert!(BOUNDARY >> 1 == RESULT_START && DIGIT >> 2 == RESULT_START && JOINER >> 1 == DIGIT);

/// What each byte may change for [`scan_movetext`], as bits.
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let stops = b"\n[%;{()";
    let mut k = 0;
    while k < stops.len() {
        table[stops[k] as usize] |= STOP;
        k += 1;
    }
    let starts = b"012*-\xC2\xBD";
    k = 0;
    while k < starts.len() {
        table[starts[k] as usize] |= RESULT_START;
        k += 1;
    }
    let digits = b"012";
    k = 0;
    while k < digits.len() {
        table[digits[k] as usize] |= DIGIT;
        k += 1;
    }
    let boundaries = b" \t\n\r\x0C.)(}]!?/";
    k = 0;
    while k < boundaries.len() {
        table[boundaries[k] as usize] |= BOUNDARY;
        k += 1;
    }
    table[b'-' as usize] |= JOINER;
    table[b'/' as usize] |= JOINER;
    table
};

/// Why [`scan_movetext`] stopped.
enum Stop {
    /// The window ends (or lookahead is needed): refill and go on.
    Refill,
    /// A result was read: the game ends.
    Result,
    /// A tag, escape line, line comment or comment starts here.
    Special,
}

/// Scans plain movetext in `w` (blanks, moves, numbers, parentheses) up to
/// something that needs its own reader, a result, or the end of the window.
/// Returns how many bytes were passed (all kept) and why it stopped.
fn scan_movetext(
    w: &[u8],
    eof: bool,
    column_one: bool,
    s: &mut Scan,
    movetext: &mut bool,
) -> (usize, Stop) {
    // Locals, written back once: this loop sees every byte of the movetext.
    let mut column_one = column_one;
    let mut line_blank = s.line_blank;
    let mut blank_line = s.blank_line;
    let mut depth = s.depth;
    let mut prev = s.prev;
    let mut seen = *movetext;
    let mut i = 0;
    let stop = loop {
        if !line_blank && !column_one && seen {
            // Inside a line that holds movetext, blanks and the bytes of
            // words change nothing but the last byte seen: pass them up to
            // a byte that may (see `CLASS`).
            i = pass_words_noting(w, i, &mut prev);
        }
        let Some(&b) = w.get(i) else {
            break Stop::Refill;
        };
        match b {
            b'\n' => {
                blank_line |= line_blank;
                line_blank = true;
                column_one = true;
                prev = Some(b);
                i += 1;
                continue;
            }
            // The blanks of `u8::is_ascii_whitespace`, as the grammar sees them
            // (a vertical tab is not one).
            b' ' | b'\t' | b'\r' | b'\x0C' => {
                column_one = false;
                prev = Some(b' ');
                i += 1;
                continue;
            }
            b'[' if line_blank || !seen => break Stop::Special,
            b'%' if column_one => break Stop::Special,
            b';' | b'{' => break Stop::Special,
            _ => {}
        }
        if !seen
            && line_blank
            && b.is_ascii_alphabetic()
            && let Some(stop) = bracketless_stop(w, i, eof)
        {
            break stop;
        }
        column_one = false;
        line_blank = false;
        seen = true;
        if depth == 0 && matches!(b, b'0'..=b'2' | b'*' | b'-' | 0xC2 | 0xBD) && is_boundary(prev) {
            match at_result(w, i, b, eof) {
                AtResult::Refill => break Stop::Refill,
                AtResult::UnknownMove(n) => {
                    // `- -`, an unknown move: its second `-` is no result.
                    i += n;
                    prev = Some(b'-');
                    continue;
                }
                AtResult::Result(n) => {
                    i += n;
                    break Stop::Result;
                }
                AtResult::Neither => {}
            }
        }
        match b {
            b'(' => depth = depth.saturating_add(1),
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        prev = Some(b);
        i += 1;
        // The rest of a word (`1-15` of `11-15`) changes nothing but `prev`:
        // pass it at once. After a byte that is no token boundary, no byte
        // of the run may start a result or anything else.
        if !is_boundary(prev) {
            i = pass_plain(w, i, &mut prev);
        }
    };
    s.line_blank = line_blank;
    s.blank_line = blank_line;
    s.depth = depth;
    s.prev = prev;
    *movetext = seen;
    (i, stop)
}

/// [`pass_words`] from `i`, with `prev` the last byte seen (updated);
/// returns where it stopped.
#[inline]
fn pass_words_noting(w: &[u8], i: usize, prev: &mut Option<u8>) -> usize {
    let last = if is_boundary(*prev) { BOUNDARY } else { 0 };
    let end = pass_words(w, i, last);
    if end > i {
        *prev = Some(w[end - 1]);
    }
    end
}

/// Passes the [`PLAIN`] bytes from `i`, with `prev` the last byte seen
/// (updated); returns where the run ends.
#[inline]
fn pass_plain(w: &[u8], i: usize, prev: &mut Option<u8>) -> usize {
    let run = w[i..].iter().take_while(|&&c| PLAIN[c as usize]).count();
    if run > 0 {
        *prev = Some(w[i + run - 1]);
    }
    i + run
}

/// Whether [`scan_movetext`] stops at `w[i]`, a letter that starts a line
/// among the header's lines, for a tag line that lost its `[`: the whole
/// line must be seen.
#[inline]
fn bracketless_stop(w: &[u8], i: usize, eof: bool) -> Option<Stop> {
    if i + BRACKETLESS_LOOKAHEAD > w.len() && !eof && i > 0 {
        return Some(Stop::Refill);
    }
    bracketless_tag(&w[i..], eof).then_some(Stop::Special)
}

/// What stands at a byte that may start a result, for [`scan_movetext`].
enum AtResult {
    /// The window ends too soon to tell: refill and look again.
    Refill,
    /// `- -`, an unknown move, this many bytes long.
    UnknownMove(usize),
    /// A result that ends the game, this many bytes long.
    Result(usize),
    /// Neither: the byte is read as any other.
    Neither,
}

/// What stands at `w[i]` (`b`), a byte that may start a result after a
/// token boundary at variation depth 0 (`eof`: `w` runs to the end of the
/// input).
#[inline]
fn at_result(w: &[u8], i: usize, b: u8, eof: bool) -> AtResult {
    // Enough of the window for any result and, after a `1-1` or a lone
    // `-`, for the whole look ahead (so that it sees the same bytes however
    // the input arrives).
    if i + RESULT_WINDOW > w.len() && !eof && i > 0 {
        return AtResult::Refill;
    }
    if b == b'-'
        && let Some(n) = unknown_move_len(&w[i..])
    {
        return AtResult::UnknownMove(n);
    }
    let found = if b == b'-' {
        lone_dash_len(&w[i..])
    } else {
        result_len(&w[i..])
    };
    match found {
        Some(n) if !ends_game_only_at_its_end(&w[i..i + n]) || draw_ends_game(&w[i + n..], eof) => {
            AtResult::Result(n)
        }
        _ => AtResult::Neither,
    }
}

/// Where [`scan_movetext`]'s pass over a line holding movetext stops,
/// from `i`: at the first byte that may change more than the last byte
/// seen (a [`STOP`] byte, or a byte that may start a result after a token
/// boundary; a digit does so only before `-` or `/`, see
/// `lex::result_len`, the end of `w` counting as one). `last` is the class
/// of the byte before `i` (only its [`BOUNDARY`] bit counts).
///
/// Eight bytes are classed at a time, as lanes of a `u64`, without a
/// branch per byte; the last few bytes of `w` one at a time
/// ([`pass_words_bytewise`], the same rule).
fn pass_words(w: &[u8], mut i: usize, mut last: u8) -> usize {
    const LANES: u64 = u64::from_le_bytes([1; 8]);
    // Each chunk needs the byte after its eighth.
    while let Some(chunk) = w.get(i..i + 9) {
        let mut class = 0u64;
        for (lane, &b) in chunk[..8].iter().enumerate() {
            class |= u64::from(CLASS[b as usize]) << (8 * lane);
        }
        let before = (class << 8) | u64::from(last);
        let after = (class >> 8) | (u64::from(CLASS[chunk[8] as usize]) << 56);
        // Bits moved by one or two stay within their lane (see the
        // assertion on the bits).
        let starts = class & ((before & (BOUNDARY as u64 * LANES)) >> 1);
        let joined = (after & (JOINER as u64 * LANES)) >> 1;
        let digit_alone = (class & (DIGIT as u64 * LANES) & !joined) >> 2;
        let stops = (class & (STOP as u64 * LANES)) | (starts & !digit_alone);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        last = (class >> 56) as u8;
        i += 8;
    }
    pass_words_bytewise(w, i, last)
}

/// [`pass_words`] one byte at a time.
fn pass_words_bytewise(w: &[u8], mut i: usize, mut last: u8) -> usize {
    while let Some(&b) = w.get(i) {
        let class = CLASS[b as usize];
        let next = w.get(i + 1).map_or(JOINER, |&n| CLASS[n as usize]);
        let starts = class & ((last & BOUNDARY) >> 1);
        let digit_alone = (class & DIGIT & !((next & JOINER) >> 1)) >> 2;
        if (class & STOP) | (starts & !digit_alone) != 0 {
            break;
        }
        last = class;
        i += 1;
    }
    i
}

/// The lower-cased name of the tag at the start of `w` (a `[`, or the
/// name of a tag that lost it).
fn tag_name(w: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let rest = match w.strip_prefix(b"[") {
        Some(rest) => skip_blanks(rest),
        None => w,
    };
    rest.iter()
        .take_while(|b| is_name_byte(**b))
        .map(u8::to_ascii_lowercase)
}

/// The length of the tag at the start of `w`, up to its `]`, when it is
/// `[`, a name and blanks, a quoted value holding no backslash, and blanks
/// before the `]`, all on one line (and within the text limit).
fn plain_tag_len(w: &[u8]) -> Option<usize> {
    if w.first() != Some(&b'[') {
        return None;
    }
    let open = memchr::memchr3(b'\n', b'"', b']', w)?;
    if w[open] != b'"' {
        return None;
    }
    let close = open + 1 + memchr::memchr3(b'\n', b'"', b'\\', &w[open + 1..])?;
    if w[close] != b'"' {
        return None;
    }
    let end = close + 1 + memchr::memchr3(b'\n', b'"', b']', &w[close + 1..])?;
    (w[end] == b']' && end < MAX_TEXT_LEN).then_some(end + 1)
}

/// Whether the tag at the start of `w` repeats one of `names`.
fn repeats_name(w: &[u8], names: &[u8]) -> bool {
    let name: Vec<u8> = tag_name(w).collect();
    !name.is_empty() && names.split(|&b| b == 0).any(|n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames `input` and returns each game's text.
    fn frame(input: &[u8]) -> Vec<String> {
        let mut framer = Framer::new(input);
        let mut out = Vec::new();
        while let Some(game) = framer.next_game().unwrap() {
            out.push(String::from_utf8_lossy(&game.bytes).into_owned());
        }
        out
    }

    /// A reader that hands out one byte at a time.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((b, rest)), Some(slot)) => {
                    *slot = *b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn games_end_at_results() {
        let games = frame(b"[Event \"a\"]\n1. 11-15 24-20 1-0\n\n[Event \"b\"]\n1. 9-13 *\n");
        assert_eq!(
            games,
            vec![
                "[Event \"a\"]\n1. 11-15 24-20 1-0",
                "[Event \"b\"]\n1. 9-13 *"
            ]
        );
    }

    #[test]
    fn a_header_on_the_line_of_the_previous_result() {
        let games = frame(b"1. 11-15 0-1 [Event \"b\"] 1. 9-13 1/2-1/2");
        assert_eq!(games, vec!["1. 11-15 0-1", "[Event \"b\"] 1. 9-13 1/2-1/2"]);
    }

    #[test]
    fn a_tag_line_ends_a_game_without_result() {
        let games = frame(b"[Event \"a\"]\n1. 11-15 24-20\n[Event \"b\"]\n1. 9-13 *");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0], "[Event \"a\"]\n1. 11-15 24-20\n");
    }

    #[test]
    fn tag_blocks_split_on_a_repeated_name_after_a_blank_line() {
        let games = frame(b"[Event \"a\"]\n\n[Event \"b\"]\n*");
        assert_eq!(games.len(), 2);
        let games = frame(b"[Event \"a\"]\n\n[Site \"b\"]\n*");
        assert_eq!(games.len(), 1);
        let games = frame(b"[Event \"a\"]\n[Event \"b\"]\n*");
        assert_eq!(games.len(), 1, "duplicate tags without a blank line stay");
    }

    #[test]
    fn text_after_a_tag_on_its_line_is_skipped_once_per_game() {
        let text = b"[Event \"a\"]\\r\n[Site \"b\"] \\r\n1. 11-15 *\n[Event \"c\"]\\r\n*";
        let mut framer = Framer::new(&text[..]);
        let game = framer.next_game().unwrap().unwrap();
        assert_eq!(game.bytes, b"[Event \"a\"]\n[Site \"b\"]\n1. 11-15 *");
        assert_eq!(game.segments.len(), 3);
        // The next segment starts at the end of the line.
        let resume = game.segments[2].start;
        assert_eq!((resume.line, resume.column), (2, 14));
        assert_eq!(game.notes.len(), 1);
        assert_eq!(
            game.notes[0].message,
            "text after a tag skipped: `\\r` (and after 1 more tags)"
        );
        assert_eq!(
            game.notes[0].position,
            Position {
                byte: 11,
                line: 1,
                column: 12
            }
        );
        let game = framer.next_game().unwrap().unwrap();
        assert_eq!(game.bytes, b"[Event \"c\"]\n*");
        assert_eq!(game.notes.len(), 1);
        assert!(framer.next_game().unwrap().is_none());
    }

    #[test]
    fn results_inside_comments_variations_and_tags_do_not_end_games() {
        let text = b"[Result \"1-0\"]\n1. 11-15 {1-0 here} (24-20 1-0) 24-19 ; 0-1\n 2. 8-11 *";
        let games = frame(text);
        assert_eq!(games.len(), 1);
        assert!(games[0].ends_with('*'));
    }

    #[test]
    fn junk_between_games_is_reported_once_per_run() {
        let mut framer = Framer::new(
            &b"1. 11-15 *\nDownloaded from somewhere\n=====\n\n[Event \"b\"]\n*\nbye\n"[..],
        );
        let first = framer.next_game().unwrap().unwrap();
        assert!(first.notes.is_empty());
        let second = framer.next_game().unwrap().unwrap();
        assert_eq!(second.notes.len(), 1);
        assert_eq!(
            second.notes[0].message,
            "junk between games skipped: `Downloaded from somewhere` (1 more lines)"
        );
        assert_eq!(second.notes[0].position.line, 2);
        assert!(framer.next_game().unwrap().is_none());
        assert_eq!(framer.trailing.len(), 1);
        assert_eq!(framer.trailing[0].position.line, 7);
    }

    #[test]
    fn an_unterminated_comment_stops_before_a_tag_line() {
        let games = frame(b"[Event \"a\"]\n1. 11-15 {oops\n24-20 1-0\n\n[Event \"b\"]\n*");
        assert_eq!(games.len(), 2);
        assert!(games[1].starts_with("[Event \"b\"]"));
    }

    #[test]
    fn nested_comments() {
        let games = frame(b"1. 11-15 {a {b} 1-0 c} 24-20 *");
        assert_eq!(games, vec!["1. 11-15 {a {b} 1-0 c} 24-20 *"]);
    }

    #[test]
    fn escape_lines_and_bom() {
        let games = frame(b"\xEF\xBB\xBF% comment\n[Date \"x\"]\n% inside\n1. 32-28 *");
        assert_eq!(games, vec!["[Date \"x\"]\n% inside\n1. 32-28 *"]);
        let mut framer = Framer::new(&b"\xEF\xBB\xBF[A \"b\"]"[..]);
        let game = framer.next_game().unwrap().unwrap();
        assert_eq!(
            game.segments[0].start,
            Position {
                byte: 3,
                line: 1,
                column: 1
            }
        );
    }

    #[test]
    fn windows_1252_draw() {
        let games = frame(b"1. 11-15 \xBD-\xBD\n[Event \"b\"] *");
        assert_eq!(games.len(), 2);
    }

    #[test]
    fn escaped_quotes_and_brackets_in_tag_values() {
        let games = frame(b"[White \"a \\\"b\\\" ]c\"] 32-28 *");
        assert_eq!(games, vec!["[White \"a \\\"b\\\" ]c\"] 32-28 *"]);
    }

    #[test]
    fn one_byte_reads_frame_the_same() {
        let text: &[u8] = b"\xEF\xBB\xBF[Event \"a\"]\r\n1. 11-15 {x\r\n} 24-20 1-0\r\njunk\r\n[Event \"b\"]\r\n1. 9-13 1/2-1/2\r\n";
        let mut a = Framer::new(text);
        let mut b = Framer::new(Trickle(text));
        loop {
            let (x, y) = (a.next_game().unwrap(), b.next_game().unwrap());
            match (x, y) {
                (Some(x), Some(y)) => {
                    assert_eq!(x.bytes, y.bytes);
                    assert_eq!(x.segments, y.segments);
                    assert_eq!(x.notes, y.notes);
                }
                (None, None) => break,
                _ => panic!("different game counts"),
            }
        }
    }

    /// Whether `1-1` ends a game depends on the bytes after it, never on
    /// where the input's chunks happen to end.
    #[test]
    fn one_one_frames_the_same_wherever_the_window_ends() {
        let tail: &[u8] = b" 1-1 {a comment} \n\n1-1 12-7 1-1\n[E \"b\"]\n1. 1-1 1-1\n";
        // The first window ends at `CHUNK + LOOKAHEAD`: put each `1-1` of
        // the tail a little before and after it.
        let end = CHUNK + LOOKAHEAD;
        for pad in (end - RESULT_WINDOW - 40..end + 10).step_by(3) {
            let mut text = b"[E \"a\"]\n1. 9-15".to_vec();
            text.resize(pad, b' ');
            text.extend_from_slice(tail);
            let whole = frame(&text);
            let mut framer = Framer::new(Trickle(&text));
            let mut trickled = Vec::new();
            while let Some(game) = framer.next_game().unwrap() {
                trickled.push(String::from_utf8_lossy(&game.bytes).into_owned());
            }
            assert_eq!(whole, trickled, "{pad}");
            assert_eq!(whole.len(), 3, "{pad}");
            assert!(whole[0].ends_with(" 1-1"), "{pad}");
            assert_eq!(whole[1], "{a comment} \n\n1-1 12-7 1-1");
            assert_eq!(whole[2], "[E \"b\"]\n1. 1-1 1-1");
        }
    }

    /// A tag line that lost its `[` is told from movetext the same way
    /// wherever the input's chunks end.
    #[test]
    fn bracketless_tags_frame_the_same_wherever_the_window_ends() {
        let end = CHUNK + LOOKAHEAD;
        for pad in (end - BRACKETLESS_LOOKAHEAD - 40..end + 10).step_by(7) {
            let mut text = b"[Event \"a\"]\n{".to_vec();
            text.resize(pad, b'x');
            text.extend_from_slice(b"}\nSite \"b\"]\n[Round \"1\"]\n1. 9-13 *\n");
            let whole = frame(&text);
            let mut framer = Framer::new(Trickle(&text));
            let mut trickled = Vec::new();
            while let Some(game) = framer.next_game().unwrap() {
                trickled.push(String::from_utf8_lossy(&game.bytes).into_owned());
            }
            assert_eq!(whole, trickled, "{pad}");
            assert_eq!(whole.len(), 1, "{pad}");
        }
    }

    #[test]
    fn long_comments_are_cut_and_positions_resume_after_them() {
        let mut text = b"1. 11-15 {".to_vec();
        text.extend(std::iter::repeat_n(b'a', MAX_TEXT_LEN + 10));
        text.extend_from_slice(b"} 24-20 *");
        let mut framer = Framer::new(&text[..]);
        let game = framer.next_game().unwrap().unwrap();
        assert!(game.complete);
        assert_eq!(game.bytes.len(), 10 + MAX_TEXT_LEN + 9);
        assert_eq!(game.segments.len(), 2);
        let resume = game.segments[1];
        assert_eq!(resume.at, 10 + MAX_TEXT_LEN);
        assert_eq!(resume.start.byte, 10 + MAX_TEXT_LEN as u64 + 10);
        assert_eq!(game.notes.len(), 1);
        assert_eq!(
            game.notes[0].message,
            "comment longer than 1 MiB: cut there"
        );
    }

    #[test]
    fn byte_classes_agree_with_the_lexical_rules() {
        for b in 0..=255u8 {
            let class = CLASS[b as usize];
            assert_eq!(class & BOUNDARY != 0, is_boundary(Some(b)), "{b}");
            assert_eq!(
                class & RESULT_START != 0,
                matches!(b, b'0'..=b'2' | b'*' | b'-' | 0xC2 | 0xBD),
                "{b}"
            );
            assert_eq!(class & DIGIT != 0, matches!(b, b'0'..=b'2'), "{b}");
            assert_eq!(class & JOINER != 0, matches!(b, b'-' | b'/'), "{b}");
        }
    }

    #[test]
    fn positions_after_text() {
        let p = position_after(Position::START, "ab\ncé".as_bytes(), false);
        assert_eq!(
            p,
            Position {
                byte: 6,
                line: 2,
                column: 3
            }
        );
    }

    #[test]
    fn samples_are_readable() {
        assert_eq!(sample(b"abc\ndef", None), "abc");
        assert_eq!(sample(b"a\x00b", None), "a\u{FFFD}b");
        assert_eq!(
            sample(b"M\xFCller", Some(encoding_rs::WINDOWS_1252)),
            "Müller"
        );
        assert_eq!(sample(b"M\xFCller", None), "M\u{FFFD}ller");
        assert_eq!(sample("Müller é".as_bytes(), None), "Müller é");
        let long = vec![b'x'; 200];
        assert_eq!(sample(&long, None).chars().count(), SAMPLE_CHARS + 1);
    }

    /// Pieces of tag lines, good and broken, for the test below.
    const TAG_PIECES: &[&str] = &[
        "[Event \"a\"]",
        "[Site \"b c\" ]",
        "[White \"x\\\"y\"]",
        "[Annotator \"a\\\"] 1. 9-13\"]",
        "[Black \"open",
        "[Round \"1\"] [Date \"2\"]",
        "[Result \"1-0\"]\r",
        "[Event]",
        "[Event \"a\" \"b\"]",
        "[Event \"]\"]",
        "[ Name   \"v\"]",
        "Event \"bracketless\"]",
        "1. 11-15 24-20",
        "{c [Event \"in a comment\"]}",
        "1-0",
        "*",
        "",
    ];

    proptest::proptest! {
        #[test]
        fn words_pass_by_eights_as_byte_by_byte(
            picks in proptest::collection::vec(0usize..30, 0..80),
            from in 0usize..80,
            boundary in proptest::bool::ANY,
        ) {
            const BYTES: &[u8] = b"0123456789-/x. \n\t[%;{()*\xC2\xBD}!?a";
            let w: Vec<u8> = picks.iter().map(|&k| BYTES[k]).collect();
            let from = from.min(w.len());
            let last = if boundary { BOUNDARY } else { 0 };
            proptest::prop_assert_eq!(
                pass_words(&w, from, last),
                pass_words_bytewise(&w, from, last)
            );
        }

        #[test]
        fn plain_tags_are_kept_as_the_general_way_keeps_them(
            picks in proptest::collection::vec((0..TAG_PIECES.len(), 0usize..4), 0..30)
        ) {
            let mut text = String::new();
            for (piece, gap) in picks {
                text.push_str(TAG_PIECES[piece]);
                text.push_str(["\n", " ", "\n\n", ""][gap]);
            }
            let frames = |plain_tags: bool| {
                let mut framer = Framer::new(text.as_bytes());
                framer.plain_tags = plain_tags;
                let mut out = Vec::new();
                while let Some(game) = framer.next_game().unwrap() {
                    out.push(format!("{game:?}"));
                }
                out.push(format!("{:?}", framer.trailing));
                out
            };
            proptest::prop_assert_eq!(frames(true), frames(false));
        }
    }
}
