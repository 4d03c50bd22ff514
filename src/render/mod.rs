//! Board pictures: a Unicode diagram for terminals ([`text`]), SVG
//! ([`svg`]) and the self-contained HTML report page ([`html`]).
//!
//! Every picture is drawn from one [`Board`]: a position, the notation
//! that names its squares (which also sets the board orientation: the
//! Luzon board is drawn mirrored), the move that led to it and the moves
//! to draw as arrows. White is always at the bottom.

mod board;
pub mod game;
pub mod html;
mod markup;
pub mod svg;
pub mod text;

pub use board::{ARROW_COLOURS, Arrow, Board, Mark, arrow_colour, captured_squares};
pub use markup::escape;
