//! What a position search looks for beyond one exact position: a pattern
//! of squares (pieces that must be there, may not be, and groups of which
//! one must hold), the material on the board, and the same with colours
//! reversed.
//!
//! Everything here works on the engine's bitboards: a [`Pattern`] is a few
//! masks per kind of piece, a [`Material`] a range per count, and both
//! test a [`Position`](crate::rules::Position) in a handful of
//! instructions. [`Criteria`] holds what one search asks for.
//!
//! Reversing colours turns the board half a circle and swaps the colours
//! and the side to move: square `n` becomes square `count + 1 − n` (33 − n
//! on the 8×8 boards, 51 − n on the 10×10 board) whatever the numbering,
//! because turning the board reverses the order in which squares are
//! counted. The Italian and Spanish boards, whose bottom-right corner is a
//! playing square, stay so when turned, and their men start on the first
//! three rows of each side as on the other boards, so the same rule holds.

mod class;
mod criteria;
mod error;
mod forward;
mod json;
mod manoeuvre;
mod material;
mod phases;
mod played;
mod reverse;
mod spec;
mod summary;
mod text;

pub use class::PieceClass;
pub use criteria::{Colours, Criteria, ParseColoursError};
pub use error::PatternError;
pub use manoeuvre::{Manoeuvre, completed_at};
pub use material::Material;
pub use phases::{MenNeeded, PHASE_POSITIONS, PhaseTest, Phases};
pub use played::{Moved, Played};
pub use reverse::{mirror, mirror_label, reversed_position};
pub use spec::{Cond, Pattern};
pub use summary::Summary;
