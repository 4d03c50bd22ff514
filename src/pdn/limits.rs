//! The reader's bounds: how much of a game, a text or a token is kept,
//! how deep variations go, how many items and diagnostics a game holds.

/// Deepest variation nesting read; deeper variations are skipped with a
/// warning.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// Longest comment or tag value kept, in bytes; longer ones are cut there
/// with a warning.
pub const MAX_TEXT_LEN: usize = 1 << 20;

/// Longest token that can be a move, in bytes; a longer one is kept as
/// text with a warning.
pub const MAX_TOKEN_LEN: usize = 256;

/// Longest game text kept, in bytes; the rest of a longer game is skipped
/// with a warning.
pub const MAX_GAME_LEN: usize = 8 << 20;

/// Most moves, comments, annotations and set-up commands read in one game;
/// past it the rest of the game is kept as text only, with a warning.
pub const MAX_ITEMS: usize = 100_000;

/// Most diagnostics kept for one game; one more says the rest were dropped.
pub const MAX_DIAGNOSTICS: usize = 1_000;
