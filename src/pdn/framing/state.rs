//! The framer ([`Framer`]) and what its parts share: what the scanner
//! knows about the game being read ([`Scan`]), the junk and stray text
//! reported once per run, and the lookahead sizes.

use std::io::Read;

use encoding_rs::Encoding;

use super::source::Source;
use crate::pdn::encoding::Choice;
use crate::pdn::error::{Note, Position};

/// What the scanner knows about the game being read.
pub(super) struct Scan {
    /// Only blanks so far on the current line.
    pub(super) line_blank: bool,
    /// An empty line since the last tag.
    pub(super) blank_line: bool,
    /// Variation depth.
    pub(super) depth: u32,
    /// The last byte looked at (for token boundaries).
    pub(super) prev: Option<u8>,
    /// Lower-cased names of the tags read, each followed by a 0 byte (to
    /// split tag blocks that lack a
    /// terminator between them).
    pub(super) names: Vec<u8>,
}

/// A run of junk lines between games, reported once.
pub(super) struct Junk {
    pub(super) start: Position,
    pub(super) sample: String,
    pub(super) lines: u64,
}

impl Junk {
    pub(super) fn into_note(self) -> Note {
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
pub(super) struct Stray {
    /// Where the first stands.
    pub(super) at: Position,
    /// A sample of the first.
    pub(super) sample: String,
    /// After how many tags some was found.
    pub(super) tags: u64,
}

impl Stray {
    pub(super) fn into_note(self) -> Note {
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
    pub(super) src: Source<R>,
    pub(super) started: bool,
    /// A buffer to collect the next game in (reused from game to game).
    pub(super) spare: Vec<u8>,
    /// The tag names of the game being read (see `Scan::names`; the buffer
    /// is reused from game to game).
    pub(super) names: Vec<u8>,
    pub(super) junk: Option<Junk>,
    /// Notes about text after the last game.
    pub trailing: Vec<Note>,
    /// Whether plain tags are kept in one copy (see `plain_tag_len`);
    /// turned off only to check that the general way keeps the same.
    pub(super) plain_tags: bool,
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

    /// A framer over `inner`, whose first byte stands at `at` in the input
    /// (in column 1) where one game has ended and the next has not begun,
    /// read in the encoding `choice` (decided from the input when `None`):
    /// it frames what a framer that read the input from its start frames
    /// from there on (see [`Framer::next_before`]).
    pub fn resume(inner: R, choice: Option<Choice>, at: Position) -> Framer<R> {
        Framer {
            src: Source::resume(inner, choice, at),
            started: at.byte > 0,
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
}
