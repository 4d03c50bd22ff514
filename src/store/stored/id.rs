//! [`GameId`]: a stored game's id, as the store's query results, its
//! lookups and the API's JSON carry it.

use serde::{Deserialize, Serialize};

/// A stored game's id (its row id): written, printed and serialised as
/// the bare number.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct GameId(pub i64);

impl GameId {
    /// The number.
    pub fn get(self) -> i64 {
        self.0
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for GameId {
    type Err = std::num::ParseIntError;

    /// The id written as a number, as an `i64` reads.
    fn from_str(s: &str) -> Result<GameId, std::num::ParseIntError> {
        s.parse().map(GameId)
    }
}

impl From<i64> for GameId {
    fn from(id: i64) -> GameId {
        GameId(id)
    }
}

impl From<GameId> for i64 {
    fn from(id: GameId) -> i64 {
        id.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_id_is_written_and_read_as_its_number() {
        let id = GameId(42);
        assert_eq!(serde_json::to_string(&id).unwrap(), "42");
        assert_eq!(serde_json::from_str::<GameId>("42").unwrap(), id);
        assert_eq!(id.to_string(), "42");
        assert_eq!("42".parse::<GameId>(), Ok(id));
        assert_eq!(
            "x".parse::<GameId>().unwrap_err().to_string(),
            "x".parse::<i64>().unwrap_err().to_string()
        );
        assert!(serde_json::from_str::<GameId>("\"42\"").is_err());
    }
}
