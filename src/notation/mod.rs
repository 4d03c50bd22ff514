//! The four ways of naming squares, move tokens and FEN.
//!
//! Internally a square is its numeric label on the game's board (see
//! [`Geometry`](crate::rules::Geometry)); every notation is a view of it:
//!
//! * [`Notation::Numeric`] — the board's own numbers: 1..32 row by row from
//!   Black's back row on the 8×8 board (from White's bottom-right corner on
//!   the Spanish board), 1..50 on the 10×10 board;
//! * [`Notation::Vismin`] — algebraic squares (a1..h8, a1..j10) lettered
//!   from the left, as White sees the board: on the usual boards a1 is a
//!   playing square;
//! * [`Notation::Luzon`] — algebraic squares lettered from the right: the
//!   mirrored lettering of Filipino Luzon files, where h1 is a playing square;
//! * [`Notation::Dama`] — the local numbers 1..16 of the 8×8 Dama board,
//!   each naming two squares.

mod algebraic;
mod dama;
mod fen;
mod system;
mod token;

pub use algebraic::{Orientation, algebraic_name, parse_algebraic};
pub use dama::{dama_number, dama_squares};
pub use fen::{Fen, FenError, parse_fen, parse_fen_on, write_fen};
pub use system::{Notation, ParseNotationError};
pub use token::{
    INLINE_SQUARES, MAX_TOKEN_LEN, MoveToken, SquareToken, Squares, TokenError, Views, write_move,
    write_move_among,
};
