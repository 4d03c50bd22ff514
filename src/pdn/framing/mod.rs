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
//! * a comment, line comment or tag value longer than
//!   [`MAX_TEXT_LEN`](super::MAX_TEXT_LEN) is cut there, and a game longer
//!   than [`MAX_GAME_LEN`](super::MAX_GAME_LEN) is cut there; the rest is
//!   scanned but not kept, so memory stays bounded whatever the input.
//!
//! Every byte is looked at a bounded number of times, so reading is linear.
//!
//! The parts: [`source`] (the input window and positions), [`buffer`]
//! (the game's text as collected), [`state`] (the framer and its scan
//! state), [`games`] (between games and the game loop), [`tags`],
//! [`comments`] and [`movetext`] (one scanner each).

mod buffer;
mod comments;
mod games;
mod movetext;
mod source;
mod state;
mod tags;

pub(crate) use buffer::{RawGame, Segment};
pub(crate) use games::Framed;
pub(crate) use state::Framer;

#[cfg(test)]
mod tests;
