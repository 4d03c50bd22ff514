//! The counts an import keeps with the games it adds (schema steps 13
//! and 22): each player's games and results (`player_stat`), the games of
//! each event, site, variant, preset and status (`tag_value`) and of each start
//! position by first move and outcome (`start_move`). They are summed in
//! memory as games are added and written in the same transaction, one
//! upsert per name or value, before it commits; an update or a delete of a
//! game is counted by the triggers on `game` (schema step 6) and by
//! [`StartMove::remove`](crate::store::write::prepared::StartMove::remove).
//! A name, event or site counted for the first time is entered in the
//! index of names under the first game counted that holds it (schema step
//! 24, [`folds`]).

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction, params};

use crate::store::stored::StoreError;
use crate::store::stored::folds::{self, Entered, fold};
use crate::store::write::prepared::{CountedGame, StartMove};

/// One player's games and results under one variant, as `player_stat`
/// counts them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(in crate::store) struct PlayerCount {
    /// The preset of the first game counted (as the row keeps it).
    pub preset: String,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub unknown: i64,
    pub first_day: Option<String>,
    pub last_day: Option<String>,
}

impl PlayerCount {
    /// Counts a game ending in `outcome` from the player's side (1 won, 2
    /// lost, 3 draw, else unknown) on `day`.
    pub fn add(&mut self, outcome: i64, day: Option<&str>) {
        self.games += 1;
        match outcome {
            1 => self.wins += 1,
            2 => self.losses += 1,
            3 => self.draws += 1,
            _ => self.unknown += 1,
        }
        if let Some(day) = day {
            if self.first_day.as_deref().is_none_or(|first| day < first) {
                self.first_day = Some(day.to_string());
            }
            if self.last_day.as_deref().is_none_or(|last| day > last) {
                self.last_day = Some(day.to_string());
            }
        }
    }
}

/// The fields `tag_value` counts, in the order of [`GameCounts::tags`].
const TAG_FIELDS: [&str; 5] = ["event", "site", "variant", "preset", "status"];

/// How the fields of [`TAG_FIELDS`] whose values are found by a part of
/// them are held by a game.
const ENTERED_FIELDS: [Option<Entered>; 5] =
    [Some(Entered::Event), Some(Entered::Site), None, None, None];

/// Counts of added games not yet written.
#[derive(Debug, Default)]
pub(in crate::store) struct GameCounts {
    /// By variant, a NUL, then the name; with the text row of the first
    /// game counted (see [`Entered`]).
    players: HashMap<String, (PlayerCount, i64)>,
    /// Games and the text row of the first counted, by value, per field of
    /// [`TAG_FIELDS`].
    tags: [HashMap<String, (i64, i64)>; 5],
    /// By start key, first move, outcome, then variant, a NUL, then the
    /// start FEN ('' for the initial position); with the preset.
    starts: HashMap<(i64, i64, i64, String), (String, i64)>,
    /// The key being looked up (spares an allocation per known key).
    scratch: String,
    /// About how many bytes the names and values held take (see
    /// [`GameCounts::is_full`]).
    held: usize,
}

/// Bytes of names and values [`GameCounts`] holds before its writer writes
/// them (see [`GameCounts::is_full`]): a transaction of many games with
/// distinct or long names (a tag may take up to 1 MiB) keeps its counts in
/// bounded memory.
const HELD_BYTES: usize = 16 << 20;

/// Bytes a name or value held costs besides its text (its map entry and
/// counts), about.
const ENTRY_BYTES: usize = 64;

impl GameCounts {
    /// Counts an added game, stored as `id`, under its players and tags.
    pub(in crate::store) fn add_game(&mut self, id: i64, game: &CountedGame<'_>) {
        let sides = [
            (game.white, 1, 2, Entered::White),
            (game.black, 2, 1, Entered::Black),
        ];
        for (name, won, lost, side) in sides {
            if name.is_empty() {
                continue;
            }
            let outcome = match game.outcome {
                o if o == won => 1,
                o if o == lost => 2,
                o => o,
            };
            self.scratch.clear();
            self.scratch.push_str(game.variant);
            self.scratch.push('\0');
            self.scratch.push_str(name);
            let (count, _) = match self.players.get_mut(self.scratch.as_str()) {
                Some(count) => count,
                None => {
                    self.held += self.scratch.len() + ENTRY_BYTES;
                    self.players.entry(self.scratch.clone()).or_insert_with(|| {
                        let count = PlayerCount {
                            preset: game.preset.to_string(),
                            ..PlayerCount::default()
                        };
                        (count, side.row(id))
                    })
                }
            };
            count.add(outcome, game.day);
        }
        let preset = if game.supported { game.preset } else { "" };
        for (field, value) in [game.event, game.site, game.variant, preset, game.status]
            .into_iter()
            .enumerate()
        {
            match self.tags[field].get_mut(value) {
                Some((games, _)) => *games += 1,
                None => {
                    self.held += value.len() + ENTRY_BYTES;
                    let row = ENTERED_FIELDS[field].map_or(0, |entered| entered.row(id));
                    self.tags[field].insert(value.to_string(), (1, row));
                }
            }
        }
    }

    /// Counts an added game under its start position and first move.
    pub(in crate::store) fn add_start(&mut self, start: &StartMove<'_>) {
        self.scratch.clear();
        self.scratch.push_str(start.variant);
        self.scratch.push('\0');
        self.scratch.push_str(start.start_fen.unwrap_or(""));
        let key = (start.key, start.next, start.outcome, self.scratch.clone());
        let held = &mut self.held;
        self.starts
            .entry(key)
            .or_insert_with(|| {
                *held += start.start_fen.map_or(0, str::len) + ENTRY_BYTES;
                (start.preset.to_string(), 0)
            })
            .1 += 1;
    }

    /// Whether the counts hold [`HELD_BYTES`] or more of names and values:
    /// time to write them, whether or not the transaction ends there.
    pub(in crate::store) fn is_full(&self) -> bool {
        self.held >= HELD_BYTES
    }

    /// Writes the counts into `player_stat`, `tag_value` and `start_move`
    /// (added to those stored) and forgets them.
    ///
    /// # Errors
    /// An SQLite failure.
    pub(in crate::store) fn write(&mut self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        self.held = 0;
        let mut entries = Vec::new();
        if !self.players.is_empty() {
            self.write_players(tx, &mut entries)?;
        }
        if self.tags.iter().any(|values| !values.is_empty()) {
            self.write_tags(tx, &mut entries)?;
        }
        if !self.starts.is_empty() {
            let mut upsert = tx.prepare_cached(
                "INSERT INTO start_move (start_key, variant, preset, start_fen, next, outcome, games) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO UPDATE SET games = games + excluded.games",
            )?;
            let mut starts: Vec<_> = self.starts.drain().collect();
            starts.sort_unstable_by(|((k1, n1, o1, p1), _), ((k2, n2, o2, p2), _)| {
                (k1, p1, n1, o1).cmp(&(k2, p2, n2, o2))
            });
            for ((key, next, outcome, place), (preset, games)) in starts {
                let (variant, start_fen) = place.split_once('\0').unwrap_or((&place, ""));
                upsert.execute(params![
                    key, variant, preset, start_fen, next, outcome, games
                ])?;
            }
        }
        // The names, events and sites counted for the first time, then
        // those that counts written with the triggers on left out.
        folds::enter(tx, entries)?;
        folds::enter_new(tx)?;
        Ok(())
    }

    /// Writes the counts of players into `player_stat`; a name counted for
    /// the first time names the text row of its first game counted, which
    /// it is entered under (added to `entries`), a name stored already the
    /// text row it names.
    fn write_players(
        &mut self,
        tx: &Transaction<'_>,
        entries: &mut Vec<(i64, String)>,
    ) -> Result<(), StoreError> {
        let mut upsert = tx.prepare_cached(
            "INSERT INTO player_stat (name, variant, preset, games, wins, draws, losses, unknown, \
             first_day, last_day, text_row) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) \
             ON CONFLICT DO UPDATE SET \
             games = games + excluded.games, wins = wins + excluded.wins, \
             draws = draws + excluded.draws, losses = losses + excluded.losses, \
             unknown = unknown + excluded.unknown, \
             first_day = CASE WHEN first_day IS NULL OR excluded.first_day < first_day \
                              THEN coalesce(excluded.first_day, first_day) ELSE first_day END, \
             last_day = CASE WHEN last_day IS NULL OR excluded.last_day > last_day \
                             THEN coalesce(excluded.last_day, last_day) ELSE last_day END",
        )?;
        let mut named =
            tx.prepare_cached("SELECT text_row FROM player_stat WHERE name = ?1 LIMIT 1")?;
        // In the table's order (name, variant): the same file whatever
        // the order the games were counted in, and pages filled in turn.
        let mut players: Vec<((String, String), PlayerCount, i64)> = self
            .players
            .drain()
            .map(|(key, (c, row))| {
                let (variant, name) = key.split_once('\0').unwrap_or(("", &key));
                ((name.to_string(), variant.to_string()), c, row)
            })
            .collect();
        players.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for rows in players.chunk_by(|a, b| a.0.0 == b.0.0) {
            let name = &rows[0].0.0;
            let row = match named.query_row([name], |r| r.get(0)).optional()? {
                Some(stored) => stored,
                None => {
                    let first = rows.iter().map(|&(_, _, row)| row).min().unwrap_or(0);
                    entries.push((first, fold(name)));
                    Some(first)
                }
            };
            for ((name, variant), c, _) in rows {
                upsert.execute(params![
                    name,
                    variant,
                    c.preset,
                    c.games,
                    c.wins,
                    c.draws,
                    c.losses,
                    c.unknown,
                    c.first_day,
                    c.last_day,
                    row
                ])?;
            }
        }
        Ok(())
    }

    /// Writes the counts of tags into `tag_value`; an event or a site that
    /// names no text row yet takes that of its first game counted and is
    /// entered under it (added to `entries`).
    fn write_tags(
        &mut self,
        tx: &Transaction<'_>,
        entries: &mut Vec<(i64, String)>,
    ) -> Result<(), StoreError> {
        let mut upsert = tx.prepare_cached(
            "INSERT INTO tag_value (field, value, games, text_row) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT DO UPDATE SET games = games + excluded.games, \
             text_row = coalesce(text_row, excluded.text_row) RETURNING text_row",
        )?;
        for ((field, entered), values) in TAG_FIELDS.iter().zip(ENTERED_FIELDS).zip(&mut self.tags)
        {
            let mut values: Vec<(String, (i64, i64))> = values.drain().collect();
            values.sort_unstable();
            for (value, (games, first)) in values {
                let row = entered.map(|_| first);
                let named: Option<i64> =
                    upsert.query_row(params![field, value, games, row], |r| r.get(0))?;
                if row.is_some() && named == row {
                    entries.push((first, fold(&value)));
                }
            }
        }
        Ok(())
    }

    /// Forgets the counts (their games were rolled back).
    pub(in crate::store) fn clear(&mut self) {
        self.players.clear();
        self.tags.iter_mut().for_each(HashMap::clear);
        self.starts.clear();
        self.held = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::stored::handle::{Mode, Store};

    fn game<'a>(white: &'a str, black: &'a str, outcome: i64, day: &'a str) -> CountedGame<'a> {
        CountedGame {
            event: "Open",
            ..CountedGame::english(white, black, outcome, (!day.is_empty()).then_some(day))
        }
    }

    #[test]
    fn counts_are_summed_per_name_and_added_to_those_stored() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let mut counts = GameCounts::default();
        let tx = store.conn_mut().transaction().unwrap();
        counts.add_game(1, &game("Ann", "Bob", 1, "2002.01.01"));
        counts.add_game(2, &game("Bob", "Ann", 3, ""));
        counts.write(&tx).unwrap();
        counts.add_game(3, &game("Ann", "", 2, "2001.01.01"));
        counts.add_game(
            4,
            &CountedGame {
                supported: false,
                ..game("Cy", "Ann", 0, "2003.01.01")
            },
        );
        counts.write(&tx).unwrap();
        let ann: (i64, i64, i64, i64, i64, String, String) = tx
            .query_row(
                "SELECT games, wins, draws, losses, unknown, first_day, last_day \
                 FROM player_stat WHERE name = 'Ann'",
                [],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ))
                },
            )
            .unwrap();
        assert_eq!(
            ann,
            (4, 1, 1, 1, 1, "2001.01.01".into(), "2003.01.01".into())
        );
        let tags: Vec<(String, String, i64)> = tx
            .prepare("SELECT field, value, games FROM tag_value ORDER BY field, value")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let expected = [
            ("event", "Open", 4),
            ("preset", "", 1),
            ("preset", "english", 3),
            ("site", "", 4),
            ("status", "ok", 4),
            ("variant", "english", 4),
        ];
        let expected: Vec<(String, String, i64)> = expected
            .iter()
            .map(|&(f, v, n)| (f.to_string(), v.to_string(), n))
            .collect();
        assert_eq!(tags, expected);
    }

    #[test]
    fn values_counted_first_are_entered_under_their_first_game_and_a_name_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let mut counts = GameCounts::default();
        let tx = store.conn_mut().transaction().unwrap();
        let games = [
            (3, "english", "Ann", "Bob"),
            (4, "english", "Bob", "Ann"),
            (5, "pool", "Cy", "Ann"),
        ];
        for (at, &(id, variant, white, black)) in games.iter().enumerate() {
            tx.execute(
                "INSERT INTO game (id, status, variant, preset, white, black, event) \
                 VALUES (?1, 'ok', ?2, ?2, ?3, ?4, 'Open')",
                params![id, variant, white, black],
            )
            .unwrap();
            counts.add_game(
                id,
                &CountedGame {
                    variant,
                    preset: variant,
                    ..game(white, black, 0, "")
                },
            );
            // Game 5 in a write of its own: Ann is stored by then.
            if at >= 1 {
                counts.write(&tx).unwrap();
            }
        }
        let rows: Vec<(String, Option<i64>)> = tx
            .prepare(
                "SELECT field || ' ' || value, text_row FROM tag_value \
                 WHERE field IN ('event', 'site', 'variant') \
                 UNION ALL SELECT name || ' ' || variant, text_row FROM player_stat ORDER BY 1",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let expected = [
            ("Ann english", Some(3 * 4 + 2)),
            ("Ann pool", Some(3 * 4 + 2)),
            ("Bob english", Some(3 * 4 + 3)),
            ("Cy pool", Some(5 * 4 + 2)),
            ("event Open", Some(3 * 4)),
            ("site ", Some(3 * 4 + 1)),
            ("variant english", None),
            ("variant pool", None),
        ];
        assert_eq!(rows, expected.map(|(v, row)| (v.to_string(), row)));
        assert_eq!(
            crate::store::stored::folds::check(&tx).unwrap(),
            Vec::<String>::new()
        );
    }

    #[test]
    fn games_at_a_start_are_counted_by_first_move_and_outcome() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let mut counts = GameCounts::default();
        let tx = store.conn_mut().transaction().unwrap();
        let start = |next, fen| StartMove {
            key: 42,
            variant: "english",
            preset: "english",
            start_fen: fen,
            next,
            outcome: 1,
        };
        for (next, fen) in [(7, None), (7, None), (8, None), (7, Some("W:W1:B2"))] {
            counts.add_start(&start(next, fen));
        }
        counts.write(&tx).unwrap();
        counts.add_start(&start(7, None));
        counts.write(&tx).unwrap();
        let rows: Vec<(String, i64, i64)> = tx
            .prepare("SELECT start_fen, next, games FROM start_move ORDER BY start_fen, next")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            rows,
            vec![
                (String::new(), 7, 3),
                (String::new(), 8, 1),
                ("W:W1:B2".to_string(), 7, 1)
            ]
        );
    }
}
