//! The rules core: board geometry, positions, variants, move generation,
//! Zobrist keys and perft. Nothing here knows about notation or PDN.

mod board;
mod canonical;
mod fit;
mod movegen;
mod outcome;
mod perft;
mod position;
mod switch;
mod variant;
pub mod zobrist;

pub use board::{
    Bitboard, Color, Corner, Direction, Geometry, GeometryError, MAX_SQUARES, Numbering, Piece,
    Square, squares,
};
pub use fit::{fitting_moves, fitting_moves_into};
pub use movegen::{Jump, MAX_PATH, Move, Route};
pub use perft::{divide, perft};
pub use position::{KingRun, PACKED_BYTES, Position, PositionError, Setup, SetupProblem};
pub use switch::{KingFirst, KingLimit, MaxCapture, Promotion, Switch, SwitchError, Switches};
pub use variant::{Preset, Rules, RulesError, WinCondition, game_type_name};
