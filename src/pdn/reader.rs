//! The streaming reader: framing, then the grammar, one game at a time.

use std::io::{self, Read};

use super::error::{Diagnostic, Position};
use super::framing::Framer;
use super::game::Game;
use super::grammar::parse_game;

/// Reads PDN games one at a time from any byte source.
///
/// Memory stays bounded by the limits of this module (a game's text is at
/// most [`MAX_GAME_LEN`](super::MAX_GAME_LEN) bytes), however large the
/// input. Problems in the text are reported as [`Diagnostic`]s on the games
/// they concern; only I/O errors of the source are errors.
///
/// It is also an [`Iterator`] of `io::Result<Game>`.
pub struct Reader<R> {
    framer: Framer<R>,
    games: u64,
    trailing: Vec<Diagnostic>,
}

impl<R: Read> Reader<R> {
    /// A reader over `source`. Wrapping the source in a `BufReader` is not
    /// needed: the reader buffers.
    pub fn new(source: R) -> Reader<R> {
        Reader {
            framer: Framer::new(source),
            games: 0,
            trailing: Vec::new(),
        }
    }

    /// The next game, or `None` at the end of the input.
    ///
    /// # Errors
    /// An I/O error of the source. The source then counts as ended: the
    /// next call returns `Ok(None)`.
    pub fn next_game(&mut self) -> io::Result<Option<Game>> {
        match self.framer.next_game()? {
            Some(raw) => {
                self.games += 1;
                let (game, buffer) = parse_game(raw, self.games);
                self.framer.recycle(buffer);
                Ok(Some(game))
            }
            None => {
                let notes = std::mem::take(&mut self.framer.trailing);
                self.trailing
                    .extend(notes.into_iter().map(|n| n.into_diagnostic(None)));
                Ok(None)
            }
        }
    }

    /// Diagnostics about text after the last game (junk at the end of the
    /// input); complete once [`Reader::next_game`] has returned `None`.
    pub fn trailing_diagnostics(&self) -> &[Diagnostic] {
        &self.trailing
    }

    /// How many games have been handed out.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// How far the input has been read.
    pub fn position(&self) -> Position {
        self.framer.position()
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = io::Result<Game>;

    fn next(&mut self) -> Option<io::Result<Game>> {
        self.next_game().transpose()
    }
}
