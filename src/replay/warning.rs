//! The warnings a game's check gives, with where each stands (the game's
//! check and its setups both give them).

/// A warning about one game, with where it stands.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameWarning {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
    /// What is wrong.
    pub message: String,
}
