//! From one game to the next: skipping blank, escape and junk lines
//! between games, and the loop that reads a game's text, handing tags,
//! comments and movetext to their scanners, up to where the game ends.

use std::io::{self, Read};

use super::buffer::{GameBuf, Limited, RawGame};
use super::movetext::{Stop, scan_movetext};
use super::source::{LOOKAHEAD, sample};
use super::state::{Framer, Junk, Scan, Stray};
use super::tags::repeats_name;
use crate::pdn::error::Position;
use crate::pdn::lex::{bracketless_tag, looks_like_tag, starts_movetext};

/// What [`Framer::next_before`] found.
#[derive(Debug)]
pub(crate) enum Framed {
    /// The next game's text.
    Game(RawGame),
    /// The framer stands between games at or past the byte asked for:
    /// `clean` when exactly there, with nothing pending for the next game
    /// (no junk before it), so that a framer resumed there (see
    /// [`Framer::resume`]) goes on as this one would.
    Stop {
        /// Whether it stands exactly at the byte, nothing pending.
        clean: bool,
    },
    /// The end of the input.
    End,
}

impl<R: Read> Framer<R> {
    /// The next game's text, or `None` at the end of the input.
    ///
    /// # Errors
    /// An I/O error of the input; the input then counts as ended.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        match self.next_before(u64::MAX)? {
            Framed::Game(game) => Ok(Some(game)),
            Framed::Stop { .. } | Framed::End => Ok(None),
        }
    }

    /// The next game's text, unless the framer stands between games at
    /// byte `stop` of the input or past it (then it stops there, and can
    /// be asked again with a later byte), or the input ends.
    ///
    /// # Errors
    /// An I/O error of the input; the input then counts as ended.
    pub(crate) fn next_before(&mut self, stop: u64) -> io::Result<Framed> {
        if !self.started {
            self.started = true;
            self.src.skip_bom()?;
        }
        loop {
            if self.src.byte >= stop {
                let clean = self.src.byte == stop && self.junk.is_none();
                return Ok(Framed::Stop { clean });
            }
            self.src.fill(LOOKAHEAD)?;
            let w = self.src.window();
            let Some(&b) = w.first() else {
                if let Some(junk) = self.junk.take() {
                    self.trailing.push(junk.into_note());
                }
                return Ok(Framed::End);
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
                return Ok(Framed::Game(game));
            }
            let text = sample(w, self.src.encoding());
            self.add_junk(at, text);
            self.skip_line(None)?;
        }
    }

    pub(super) fn add_junk(&mut self, at: Position, sample: String) {
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
    pub(super) fn skip_line(
        &mut self,
        mut keep: Option<(&mut GameBuf, Position, &str)>,
    ) -> io::Result<()> {
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
    pub(super) fn read_game(&mut self, start: Position) -> io::Result<RawGame> {
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
    pub(super) fn skip_stray(
        &mut self,
        g: &mut GameBuf,
        stray: &mut Option<Stray>,
    ) -> io::Result<()> {
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
}
