//! Each player's record (`pdndb players`), from the per-variant counts of
//! `player_stat` (kept by the importer and by triggers on `game`, schema
//! steps 6 and 12).
//!
//! A player is a cleaned name (blanks trimmed and collapsed, control
//! characters removed), compared exactly: `Lee, A.` and `lee, a.` are two
//! players, since only a person can tell whether they are one (`pdndb
//! alias` records it; `players --similar` proposes names to look at). A
//! name that is an alias counts under its canonical name. Empty names and
//! `?` are nobody and are left out.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::export::clean_tag_value;
use crate::store::stored::aliases::alias_map;
use crate::store::stored::{Store, StoreError};

/// One player's games and results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRow {
    /// The cleaned name (the canonical one, for a player with aliases).
    pub name: String,
    /// The player's other names that games have (see `pdndb alias`).
    pub aliases: Vec<String>,
    /// Games played (as White or Black).
    pub games: i64,
    /// Games won, by each variant's reading of the result.
    pub wins: i64,
    /// Games drawn.
    pub draws: i64,
    /// Games lost.
    pub losses: i64,
    /// Games without a result that says who won.
    pub unknown: i64,
    /// 100 × (wins + ½ draws) / (wins + draws + losses), one decimal;
    /// `None` with no decided game.
    pub score: Option<f64>,
    /// The earliest readable date (`YYYY.MM.DD`, `??` for unknown parts).
    pub first_date: Option<String>,
    /// The latest readable date.
    pub last_date: Option<String>,
}

impl Store {
    /// Every player with at least `min_games` games (of `variant` when
    /// given: a preset, any switches, or a full variant string), most games
    /// first, then by name.
    ///
    /// # Errors
    /// A database failure.
    pub fn players(
        &self,
        variant: Option<&str>,
        min_games: u64,
    ) -> Result<Vec<PlayerRow>, StoreError> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT name, games, wins, draws, losses, unknown, first_day, last_day FROM player_stat \
             WHERE ?1 IS NULL OR preset = ?1 OR variant = ?1",
        )?;
        let mut rows = stmt.query([variant.map(crate::rules::Rules::stored_form)])?;
        let aliases = alias_map(self.conn())?;
        let mut by_name: BTreeMap<String, PlayerRow> = BTreeMap::new();
        while let Some(r) = rows.next()? {
            let stored = r.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
            let clean = clean_tag_value(stored);
            if clean.is_empty() || clean == "?" {
                continue;
            }
            let name = aliases
                .get(&clean)
                .cloned()
                .unwrap_or_else(|| clean.clone());
            let row = by_name.entry(name).or_insert_with_key(|name| PlayerRow {
                name: name.clone(),
                aliases: Vec::new(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                unknown: 0,
                score: None,
                first_date: None,
                last_date: None,
            });
            if clean != row.name && !row.aliases.contains(&clean) {
                row.aliases.push(clean);
            }
            row.games += r.get::<_, i64>(1)?;
            row.wins += r.get::<_, i64>(2)?;
            row.draws += r.get::<_, i64>(3)?;
            row.losses += r.get::<_, i64>(4)?;
            row.unknown += r.get::<_, i64>(5)?;
            let (first, last): (Option<String>, Option<String>) = (r.get(6)?, r.get(7)?);
            row.first_date = pick(row.first_date.take(), first, |a, b| a <= b);
            row.last_date = pick(row.last_date.take(), last, |a, b| a >= b);
        }
        let mut players: Vec<PlayerRow> = by_name
            .into_values()
            .filter(|p| p.games.max(0) as u64 >= min_games)
            .map(|mut p| {
                p.aliases.sort();
                let decided = p.wins + p.draws + p.losses;
                p.score = (decided > 0).then(|| {
                    (1000.0 * (p.wins as f64 + p.draws as f64 / 2.0) / decided as f64).round()
                        / 10.0
                });
                p
            })
            .collect();
        players.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
        Ok(players)
    }
}

/// Of two optional dates, the one `prefer(a, b)` chooses (either when one is missing).
fn pick(
    a: Option<String>,
    b: Option<String>,
    prefer: impl Fn(&str, &str) -> bool,
) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if prefer(&a, &b) { a } else { b }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::stored::handle::Mode;
    use crate::store::write::counts::GameCounts;
    use crate::store::write::prepared::CountedGame;

    /// A store with games written straight into `game`, as import and
    /// recheck write them.
    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        (dir, store)
    }

    fn add(store: &Store, id: i64, white: &str, black: &str, outcome: i64, day: &str) {
        let tx = store.conn().unchecked_transaction().unwrap();
        tx.execute(
            "INSERT INTO game (id, status, variant, preset, white, black, outcome, day) \
             VALUES (?1, 'ok', 'english', 'english', ?2, ?3, ?4, ?5)",
            rusqlite::params![id, white, black, outcome, day],
        )
        .unwrap();
        let mut counts = GameCounts::default();
        counts.add_game(id, &CountedGame::english(white, black, outcome, Some(day)));
        counts.write(&tx).unwrap();
        tx.commit().unwrap();
    }

    fn find(players: &[PlayerRow], name: &str) -> PlayerRow {
        players.iter().find(|p| p.name == name).unwrap().clone()
    }

    #[test]
    fn counts_follow_inserts_updates_and_deletes() {
        let (_dir, store) = store();
        add(&store, 1, "Ann", "Bob", 1, "2001.01.01");
        add(&store, 2, "Bob", "Ann", 3, "2003.03.03");
        add(&store, 3, "Ann  ", "Cy", 2, "2002.02.02");
        let players = store.players(None, 0).unwrap();
        let ann = find(&players, "Ann");
        assert_eq!(
            (ann.games, ann.wins, ann.draws, ann.losses, ann.score),
            (3, 1, 1, 1, Some(50.0))
        );
        assert_eq!(ann.first_date.as_deref(), Some("2001.01.01"));
        assert_eq!(ann.last_date.as_deref(), Some("2003.03.03"));
        assert_eq!(players[0].name, "Ann");

        // A recheck changes a game's result and date; a remove deletes one.
        store
            .conn()
            .execute(
                "UPDATE game SET outcome = 0, day = '2000.??.??' WHERE id = 2",
                [],
            )
            .unwrap();
        store
            .conn()
            .execute("DELETE FROM game WHERE id = 1", [])
            .unwrap();
        let players = store.players(None, 0).unwrap();
        let ann = find(&players, "Ann");
        assert_eq!(
            (ann.games, ann.wins, ann.draws, ann.losses, ann.unknown),
            (2, 0, 0, 1, 1)
        );
        assert_eq!(ann.first_date.as_deref(), Some("2000.??.??"));
        assert_eq!(ann.last_date.as_deref(), Some("2002.02.02"));
        let bob = find(&players, "Bob");
        assert_eq!((bob.games, bob.unknown, bob.score), (1, 1, None));
        assert!(store.players(None, 2).unwrap().iter().all(|p| p.games >= 2));
        assert!(store.players(Some("filipino"), 0).unwrap().is_empty());
    }
}
