//! PDN: a streaming, tolerant reader and a writer.
//!
//! [`Reader`] takes any [`std::io::Read`] and hands out one [`Game`] at a
//! time, in memory bounded whatever the input's size. It reads PDN 3.0 and
//! the deviations found in real files (see the project's design notes):
//! tags in any case, duplicated or empty, named in other languages (read
//! through [`Game::standard_tag`]); move numbers `1.`, `1...`, `1. ...`
//! or none; moves in numeric, algebraic or Dama notation joined by `-`, `x`,
//! `×` or `:` (or, for two 2-digit squares, not joined: `3228` is 32-28);
//! `- -` for unknown moves; comments `{…}` (nested or not
//! closed), `;…` and `%` escape lines; nested variations; NAGs and marks;
//! `/FEN "…"/` set-up commands; every result form; missing terminators; junk
//! between games; a byte-order mark, CRLF, and text in UTF-8 or a legacy
//! encoding.
//!
//! Encodings are decided per input, from a bounded sample of its bytes
//! taken when the first byte outside ASCII arrives: UTF-8 when the sample
//! is UTF-8 (or nearly: a few damaged bytes become U+FFFD, with a warning
//! on their game); otherwise the legacy encoding `chardetng` detects
//! (Windows-1252, Windows-1251, ISO-8859-2, KOI8-U, …), named once in a
//! warning on the first game that uses it. [`Reader::with_encoding`] gives
//! the encoding instead ([`encoding_for_label`] reads its name). Text in
//! UTF-16 with its byte-order mark is read too (without one, when its
//! encoding is given). [`sniff`] tells an input that is not PDN at all
//! (empty, binary, or text without a tag pair or a move) before it is
//! read; [`Input`] opens a file, or a stream (standard input, a pipe, a
//! device), read once into a temporary copy and sniffed on the way.
//!
//! Tolerance policy, in order: never panic and stay linear in time and
//! bounded in memory on any input; read valid PDN exactly; be fast; be
//! lenient. What is dubious or cannot be read becomes a [`Diagnostic`] on
//! its game; one bad game never costs the next.
//!
//! `1-1` is both a result (a draw, in some files) and a Dama move (the king
//! move between squares 11 and 22). It is read as the result only where it
//! ends the game: when what follows it, past blanks, comments `{…}`, `;`
//! line comments and `%` escape lines, is the end of the input, a `[` (the
//! next game's tags), an empty line (games are set apart by one) or a new
//! line of junk (as between games: its first word neither starts movetext
//! nor follows a move). Anything else after it — a move number, a move, a
//! variation, an annotation, a word on its line, or another result, since
//! a game has one — makes it a move. The look past it is bounded (256 bytes): when no decision is
//! reached within it, `1-1` is a move, so the game goes on and no text is
//! lost; at worst it then lacks its terminator, which is reported. Every
//! other result always ends the game. The writer writes the move
//! zero-padded (`01-1`), so that it reads back as a move anywhere. A lone
//! `-` (not the `- -` of an unknown move) is an unknown result, like `*`,
//! by the same rule: where it ends the game.
//!
//! Positions ([`Position`]): byte offsets are 0-based; lines, columns and
//! game indices are 1-based.
//!
//! ```
//! use pdndb::pdn::Reader;
//!
//! let text = "[Event \"Club\"]\n1. 11-15 24-20 {a comment} 2. 8-11 *\n";
//! let mut reader = Reader::new(text.as_bytes());
//! let game = reader.next_game()?.expect("one game");
//! assert_eq!(game.tag("event"), Some("Club"));
//! assert_eq!(game.plies().len(), 3);
//! assert_eq!(game.plies()[1].comments()[0].text, "a comment");
//! assert_eq!(game.result.as_ref().map(|r| r.text.as_str()), Some("*"));
//! assert!(reader.next_game()?.is_none());
//! # Ok::<_, std::io::Error>(())
//! ```

pub(crate) mod chunks;
mod decode;
mod encoding;
mod error;
mod framing;
mod game;
mod grammar;
mod input;
mod lex;
mod limits;
mod reader;
mod sniff;
mod tags;
mod text_encoding;
pub mod writer;

pub use encoding::{EncodingError, encoding_for_label};
pub use encoding_rs::Encoding;
pub use error::{Diagnostic, Position, Severity};
pub use game::{
    AfterMove, BoardSpec, Comment, CommentKind, FenHint, FenSource, Game, GameResult, GameType,
    GameTypeHint, Hints, Line, MoveNumber, Nag, Ply, PlyText, PlyToken, SetupCommand, SquareStyle,
    Tag,
};
pub use input::{Content, Hashed, Input, STDIN, Snapshot};
pub use limits::{
    MAX_DIAGNOSTICS, MAX_GAME_LEN, MAX_ITEMS, MAX_TEXT_LEN, MAX_TOKEN_LEN, MAX_VARIATION_DEPTH,
};
pub use reader::{FramedGame, Reader};
pub use sniff::{NotPdn, SNIFF_SAMPLE, STREAM_SNIFF_LIMIT, sniff, sniff_as};
pub use tags::{TAG_ALIASES, player_tag, standard_tag, tag_aliases};
pub use text_encoding::TextEncoding;
pub use writer::{game_to_string, guard_tag_lines, tags_to_string, write_game, write_games};

#[cfg(test)]
mod tests;
