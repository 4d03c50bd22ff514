//! The state of reading one game ([`Reading`]), shared by the modules
//! that read each part of it, with what they all use: where the reader
//! stands, the line being built, and noting warnings and errors within the
//! game's limits. The variation being read ([`Open`]) lives here too.

use crate::pdn::decode::{GameText, Locator};
use crate::pdn::error::{Note, Position};
use crate::pdn::game::{GameResult, Line, MoveNumber, SetupCommand, SquareSummary, Tag};
use crate::pdn::limits::{MAX_DIAGNOSTICS, MAX_ITEMS};

/// A variation being read.
pub(super) struct Open {
    pub(super) line: Line,
    /// Offset of its `(`.
    pub(super) at: usize,
}

/// The state of reading one game.
pub(super) struct Reading<'t> {
    pub(super) text: &'t str,
    pub(super) bytes: &'t [u8],
    pub(super) i: usize,
    pub(super) loc: Locator<'t>,
    pub(super) first_column: u64,
    pub(super) notes: Vec<Note>,
    pub(super) items: usize,
    pub(super) tags: Vec<Tag>,
    pub(super) main: Line,
    pub(super) open: Vec<Open>,
    pub(super) number: Option<MoveNumber>,
    pub(super) result: Option<GameResult>,
    pub(super) first_fen_command: Option<SetupCommand>,
    /// Where the movetext starts: plies hold their offset from there.
    pub(super) movetext_at: usize,
    /// The squares of the main line's moves so far.
    pub(super) squares: SquareSummary,
    /// Whether a capture of some line starts where the capture before it
    /// ended (see [`Hints::split_captures`](crate::pdn::Hints::split_captures)).
    pub(super) split_captures: bool,
    /// Whether the main line has a set-up command after a move.
    pub(super) later_setup: bool,
    /// The framing ended the game on a result, which ends its text.
    pub(super) ends_on_result: bool,
    /// Whether runs of plain movetext ([`Reading::plain_run`]) and plain
    /// tags ([`plain_tag`](super::plain::plain_tag)) take the short way; off only to test that both
    /// ways read the same.
    pub(super) short_ways: bool,
}

impl<'t> Reading<'t> {
    /// The state at the start of a game's text (`start`: where it starts;
    /// `notes`: those found so far; `ends_on_result`: the framing ended it
    /// on a result).
    pub(super) fn new(
        text: &'t GameText,
        start: Position,
        notes: Vec<Note>,
        ends_on_result: bool,
        short_ways: bool,
    ) -> Reading<'t> {
        Reading {
            text: &text.text,
            bytes: text.text.as_bytes(),
            i: 0,
            loc: Locator::new(text),
            first_column: start.column,
            notes,
            items: 0,
            tags: Vec::new(),
            main: Line::default(),
            open: Vec::new(),
            number: None,
            result: None,
            first_fen_command: None,
            movetext_at: 0,
            squares: SquareSummary::default(),
            split_captures: false,
            later_setup: false,
            ends_on_result,
            short_ways,
        }
    }

    #[inline]
    pub(super) fn note(&mut self, note: Note) {
        if self.notes.len() < MAX_DIAGNOSTICS {
            self.notes.push(note);
        } else if self.notes.len() == MAX_DIAGNOSTICS {
            let position = note.position;
            self.notes.push(Note::warning(
                position,
                format!(
                    "more than {MAX_DIAGNOSTICS} diagnostics in this game: the rest are not shown"
                ),
            ));
        }
    }

    #[inline]
    pub(super) fn warn(&mut self, at: usize, message: impl Into<String>) {
        let position = self.loc.at(at);
        self.note(Note::warning(position, message));
    }

    #[inline]
    pub(super) fn error(&mut self, at: usize, message: impl Into<String>) {
        let position = self.loc.at(at);
        self.note(Note::error(position, message));
    }

    /// Counts an item; false (and a warning, once) past the limit.
    #[inline(always)]
    pub(super) fn room(&mut self, at: usize) -> bool {
        self.items += 1;
        if self.items == MAX_ITEMS + 1 {
            self.warn(
                at,
                format!("more than {MAX_ITEMS} moves, comments and annotations: the rest of the game is kept as text only"),
            );
        }
        self.items <= MAX_ITEMS
    }

    #[inline]
    pub(super) fn rest(&self) -> &'t str {
        &self.text[self.i..]
    }

    /// Moves to where `rest` (a suffix of the text) starts.
    #[inline]
    pub(super) fn seek(&mut self, rest: &str) {
        self.i = self.text.len() - rest.len();
    }

    #[inline]
    pub(super) fn line(&mut self) -> &mut Line {
        match self.open.last_mut() {
            Some(open) => &mut open.line,
            None => &mut self.main,
        }
    }

    #[inline]
    pub(super) fn at_column_one(&self, at: usize) -> bool {
        if at == 0 {
            self.first_column == 1
        } else {
            self.bytes[at - 1] == b'\n'
        }
    }

    /// Whether only blanks stand between the start of `at`'s line (or of
    /// the text) and `at`, as the framing counts them.
    #[inline]
    pub(super) fn at_line_start(&self, at: usize) -> bool {
        self.bytes[..at]
            .iter()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\x0C'))
            .is_none_or(|&b| b == b'\n')
    }

    #[inline]
    pub(super) fn skip_blanks(&mut self) {
        while self.i < self.bytes.len() && self.bytes[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
}
