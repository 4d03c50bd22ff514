//! Replaying records through the rules: every interpretation of the written
//! moves, their statuses, and the positions every reading passes through.

mod interpret;

pub use interpret::{
    CertainPosition, Limit, MAX_INTERPRETATIONS, MAX_POSITIONS_PER_PLY, MAX_TRACKED, ReadingPly,
    Replay, Resolved, replay,
};
