//! A game's text as it is collected: the bytes kept ([`GameBuf`]), the
//! contiguous runs of the input they come from ([`Segment`]), text cut at
//! the length limits ([`Limited`]), and the framed game handed on
//! ([`RawGame`]).

use super::source::{char_boundary, position_after};
use crate::pdn::error::{Note, Position};
use crate::pdn::limits::{MAX_GAME_LEN, MAX_TEXT_LEN};

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

/// A position worked out at most once, when first needed.
pub(super) struct Lazy<F> {
    pub(super) make: Option<F>,
    pub(super) value: Position,
}

impl<F: FnOnce() -> Position> Lazy<F> {
    pub(super) fn new(make: F) -> Lazy<F> {
        Lazy {
            make: Some(make),
            value: Position::START,
        }
    }

    pub(super) fn get(&mut self) -> Position {
        if let Some(make) = self.make.take() {
            self.value = make();
        }
        self.value
    }
}

/// The game being collected: its bytes, where they come from, its notes.
pub(super) struct GameBuf {
    pub(super) game: RawGame,
    /// Bytes were skipped since the last copy: the next copy opens a segment.
    pub(super) gap: bool,
    /// [`MAX_GAME_LEN`] was reached; nothing more is kept.
    pub(super) full: bool,
}

impl GameBuf {
    /// Whether `len` more bytes can be kept whole.
    #[inline]
    pub(super) fn has_room(&self, len: usize) -> bool {
        !self.full && self.game.bytes.len() + len <= MAX_GAME_LEN
    }

    pub(super) fn new(start: Position, bytes: Vec<u8>) -> GameBuf {
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
    #[inline]
    pub(super) fn copy(&mut self, data: &[u8], single_byte: bool, at: impl FnOnce() -> Position) {
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
    #[inline]
    pub(super) fn skip(&mut self) {
        self.gap = true;
    }
}

/// A text span whose content is kept up to [`MAX_TEXT_LEN`] bytes.
pub(super) struct Limited {
    pub(super) kept: usize,
    pub(super) cut: bool,
}

impl Limited {
    pub(super) fn new() -> Limited {
        Limited {
            kept: 0,
            cut: false,
        }
    }

    /// Keeps as much of `data` (standing at `at`) as the limit allows;
    /// reports the cut once, at `start` (the span's first byte).
    pub(super) fn take(
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
