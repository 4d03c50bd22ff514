//! The grammar of one game, read from its decoded text.
//!
//! Small nom parsers, one per production, each headed by its production;
//! a driver loop dispatches on the first byte of each element and builds
//! the lines of play with an explicit stack, so that deeply nested input
//! costs no recursion. Everything the grammar meets becomes an item or a
//! diagnostic: nothing is dropped silently except blanks and `%` escape
//! lines (which PDN asks readers to ignore).
//!
//! ```text
//! game        := (blank | escape | comment | tag)* movetext
//! tag         := "[" name blank* value blank* "]"
//! movetext    := (blank | escape | comment | line-comment | number | ellipsis
//!                 | move | unknown | nag | mark | setup | variation)* result?
//! variation   := "(" movetext ")"
//! ```
//!
//! [`parse_game`] is the entry point: it decodes a framed game and reads
//! it with a [`state::Reading`], whose parts live by what they read
//! ([`tags`], [`moves`], [`comments`], [`results`], [`variations`]) over
//! the nom [`productions`] and the [`plain`] short ways.

mod comments;
mod moves;
mod notes;
mod plain;
mod productions;
mod results;
mod state;
mod tags;
mod variations;

use crate::pdn::decode::{GameText, MovetextMap, decode};
use crate::pdn::encoding::Choice;
use crate::pdn::error::{Diagnostic, Note, Position};
use crate::pdn::framing::RawGame;
use crate::pdn::game::{Game, Hints, hints};
use notes::{encoding_notes, repeated_tags};
use state::Reading;

impl<'t> Reading<'t> {
    /// Reads the whole game: its tags, then its movetext (`truncated`: the
    /// game was cut at the length limit, already reported). Returns where
    /// the movetext starts and ends.
    fn read(&mut self, truncated: bool) -> (usize, usize) {
        let movetext_at = self.header();
        self.movetext_at = movetext_at;
        for note in repeated_tags(&self.tags) {
            self.note(note);
        }
        // Rarely fewer than five bytes of movetext per move (`1. 9-13 22-18 `
        // takes 7.5): one allocation, usually.
        self.main
            .plies
            .reserve(((self.bytes.len() - movetext_at) / 5).min(1024));
        self.main.position = self.loc.at(movetext_at);
        self.movetext();
        self.close_all();
        let end = self.text.trim_end().len().max(movetext_at);
        // A game cut at the length limit has already been reported.
        if self.result.is_none() && !truncated {
            self.warn(end, "no result terminator: the game ends here");
        }
        (movetext_at, end)
    }

    /// The hints the game's tags and moves give, their warnings noted.
    fn hints(&mut self) -> Hints {
        let (mut hints, warnings) =
            hints(&self.tags, &self.squares, self.first_fen_command.as_ref());
        hints.split_captures = self.split_captures;
        hints.later_setup = self.later_setup;
        for (position, message) in warnings {
            self.note(Note::warning(position, message));
        }
        hints
    }
}

/// Reads one framed game, its text in the input's encoding (`choice`);
/// `announce` asks for the warning that names a detected legacy encoding
/// (given once per input). Also returns the game's byte buffer for reuse.
pub(crate) fn parse_game(
    raw: RawGame,
    index: u64,
    choice: Option<Choice>,
    announce: bool,
) -> (Game, Vec<u8>) {
    parse_game_as(raw, index, choice, announce, true)
}

/// [`parse_game`], with plain runs and tags read the short way or not.
fn parse_game_as(
    raw: RawGame,
    index: u64,
    choice: Option<Choice>,
    announce: bool,
    short_ways: bool,
) -> (Game, Vec<u8>) {
    let RawGame {
        bytes,
        segments,
        notes: framing_notes,
        complete,
        truncated,
        ..
    } = raw;
    let (text, spare): (GameText, _) = decode(bytes, segments, choice);
    let mut notes = framing_notes;
    notes.extend(encoding_notes(&text, choice, announce));
    let start = text.segments.first().map_or(Position::START, |s| s.start);
    // A game cut at the length limit ends where it was cut.
    let mut r = Reading::new(&text, start, notes, complete && !truncated, short_ways);
    let (movetext_at, end) = r.read(truncated);
    let movetext_start = r.main.position;
    let hints = r.hints();
    let Reading {
        notes,
        tags,
        main,
        result,
        ..
    } = r;
    let encoding = text.encoding;
    let movetext = text.text[movetext_at..end].to_string();
    let movetext_map = MovetextMap::new(&text, movetext_at, end);
    let buffer = spare.unwrap_or_else(|| text.text.into_bytes());
    let mut notes = notes;
    notes.sort_by_key(|n| n.position.byte);
    let diagnostics: Vec<Diagnostic> = notes
        .into_iter()
        .map(|n| n.into_diagnostic(Some(index)))
        .collect();
    let game = Game {
        index,
        start,
        tags,
        line: main,
        result,
        movetext,
        movetext_start,
        movetext_map,
        encoding,
        hints,
        diagnostics,
    };
    (game, buffer)
}

#[cfg(test)]
mod tests;
