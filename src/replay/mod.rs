//! Replaying records through the rules: every interpretation of the written
//! moves, their statuses, and the positions every reading passes through.

mod chunked;
mod detect;
mod file_check;
mod game;
mod interpret;
mod joiners;
mod pipeline;
mod record;
mod result_check;
mod setups;
mod shape;
mod warning;

pub use detect::{
    MAX_PLIES, Overrides, Reading, RecordText, UnknownVariantFrom, VariantFrom,
    presets_reading_cleanly, read_record, read_record_in, written_moves,
};
pub use file_check::{FileCheck, FileEnd, Handed};
pub use game::{
    CALIBRATION_GAMES, CheckedGame, FileChecker, MovesError, as_read, check_game, move_tokens,
    position_after_moves, record_tags, record_text,
};
pub use interpret::{
    CertainPosition, KeptPositions, Limit, MAX_INTERPRETATIONS, MAX_POSITIONS_PER_PLY, MAX_TRACKED,
    ReadingPly, Replay, Resolved, Written, readings, replay, replay_keeping,
};
pub use joiners::{JoinerTally, Joiners};
pub use record::{
    CheckRecord, RecordBody, RecordSource, ResolvedRecord, Status, UnknownStatus, move_number,
    ply_label,
};
pub use result_check::{ResultCheck, UnknownResultCheck, check_result};
pub use setups::SetupError;
pub use shape::{AsRead, joins_jumps, split_captures};
pub use warning::GameWarning;
