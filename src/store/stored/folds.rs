//! Events, sites and player names found by a part of them (schema step
//! 24): `name_text` indexes each one's folded form ([`fold`]) by its
//! trigrams, under the *text row* its row of `tag_value` or `player_stat`
//! names: 4 × the id of a game that holds it + the field it holds it in
//! ([`Entered`]), so that a value found is read back from that game. A
//! part of three characters or more is looked up there, a shorter one by
//! reading every value of its field; either way each value found is
//! folded again and tested, so the answers are those of a test of every
//! value. A value whose row names no text row yet (a game that held it
//! went, or it came with a write that counts through triggers) is read
//! and folded by every query until a writer enters it ([`enter_new`]).

use std::collections::BTreeSet;

use rusqlite::{Connection, OptionalExtension, params};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::error::StoreError;
use crate::export::clean_tag_value;

/// Text as names are compared: cleaned, without accents, lower case.
pub fn fold(text: &str) -> String {
    let clean = clean_tag_value(text);
    if clean.is_ascii() {
        return clean.to_ascii_lowercase();
    }
    clean
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The values found by a part of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FoldField {
    /// The Event tags of the games.
    Event,
    /// The Site tags of the games.
    Site,
    /// The names of White and Black.
    Player,
}

impl FoldField {
    /// The fields of a game ([`Entered`]) that hold its values: the least
    /// and the greatest.
    fn entered(self) -> (i64, i64) {
        match self {
            FoldField::Event => (Entered::Event as i64, Entered::Event as i64),
            FoldField::Site => (Entered::Site as i64, Entered::Site as i64),
            FoldField::Player => (Entered::White as i64, Entered::Black as i64),
        }
    }
}

/// The field of a game a text row names (the text row less 4 × the
/// game's id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entered {
    /// `game.event`.
    Event = 0,
    /// `game.site`.
    Site = 1,
    /// `game.white`.
    White = 2,
    /// `game.black`.
    Black = 3,
}

impl Entered {
    /// The text row of the value game `game` holds in this field.
    pub(crate) fn row(self, game: i64) -> i64 {
        game.saturating_mul(4).saturating_add(self as i64)
    }
}

/// The value a text row names, read from its game (NULL when the game is
/// not there): `?1` is the text row.
const VALUE_OF_ROW: &str = "SELECT CASE ?1 % 4 WHEN 0 THEN event WHEN 1 THEN site \
     WHEN 2 THEN white ELSE black END FROM game WHERE id = ?1 / 4";

/// Enters a folded value in the index under `row`.
const ENTER: &str = "INSERT INTO name_text (rowid, folded) VALUES (?1, ?2)";

/// Values entered per statement that reads them, at most.
const BATCH: i64 = 10_000;

/// Enters in `name_text` every event, site and name whose row names no
/// text row, under a game that holds it; returns how many. Run in the
/// writer's transaction, after the writes that may have left such rows.
///
/// # Errors
/// A database failure.
pub(crate) fn enter_new(conn: &Connection) -> Result<u64, StoreError> {
    Ok(enter_new_tags(conn)? + enter_new_names(conn)?)
}

/// [`enter_new`] for the events and sites of `tag_value`.
fn enter_new_tags(conn: &Connection) -> Result<u64, StoreError> {
    let mut entered = 0;
    let mut after = (String::new(), String::new());
    loop {
        // By key, from the last read on: a value no game holds (the counts
        // are then wrong) stays as it is and is not read again.
        let batch: Vec<(String, String)> = conn
            .prepare_cached(
                "SELECT field, value FROM tag_value INDEXED BY tag_value_unentered WHERE text_row IS NULL \
                 AND field IN ('event', 'site') AND (field, value) > (?1, ?2) \
                 ORDER BY field, value LIMIT ?3",
            )?
            .query_map(params![after.0, after.1, BATCH], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<Result<_, _>>()?;
        let Some(last) = batch.last() else {
            return Ok(entered);
        };
        after = last.clone();
        let mut rows = Vec::new();
        for (field, value) in &batch {
            let (column, entered_as) = match field.as_str() {
                "event" => ("event", Entered::Event),
                _ => ("site", Entered::Site),
            };
            let game: Option<i64> = conn
                .prepare_cached(&format!(
                    "SELECT id FROM game WHERE {column} = ?1 ORDER BY id LIMIT 1"
                ))?
                .query_row([value], |r| r.get(0))
                .optional()?;
            if let Some(game) = game {
                let row = entered_as.row(game);
                conn.prepare_cached(
                    "UPDATE tag_value SET text_row = ?3 WHERE field = ?1 AND value = ?2",
                )?
                .execute(params![field, value, row])?;
                rows.push((row, fold(value)));
            }
        }
        entered += enter(conn, rows)?;
    }
}

/// [`enter_new`] for the names of `player_stat`: a name another row of
/// which names a text row takes it, the others are entered.
fn enter_new_names(conn: &Connection) -> Result<u64, StoreError> {
    let mut entered = 0;
    let mut after = String::new();
    loop {
        let batch: Vec<String> = conn
            .prepare_cached(
                "SELECT DISTINCT name FROM player_stat INDEXED BY player_stat_unentered WHERE text_row IS NULL AND name > ?1 \
                 ORDER BY name LIMIT ?2",
            )?
            .query_map(params![after, BATCH], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let Some(last) = batch.last() else {
            return Ok(entered);
        };
        after = last.clone();
        let mut rows = Vec::new();
        for name in &batch {
            let named: Option<i64> = conn
                .prepare_cached(
                    "SELECT text_row FROM player_stat WHERE name = ?1 AND text_row IS NOT NULL LIMIT 1",
                )?
                .query_row([name], |r| r.get(0))
                .optional()?;
            let row = match named {
                Some(row) => Some(row),
                None => {
                    let row = game_of_name(conn, name)?;
                    if let Some(row) = row {
                        rows.push((row, fold(name)));
                    }
                    row
                }
            };
            if let Some(row) = row {
                conn.prepare_cached(
                    "UPDATE player_stat SET text_row = ?2 WHERE name = ?1 AND text_row IS NULL",
                )?
                .execute(params![name, row])?;
            }
        }
        entered += enter(conn, rows)?;
    }
}

/// The text row of a game where `name` plays: as White, else as Black.
fn game_of_name(conn: &Connection, name: &str) -> Result<Option<i64>, StoreError> {
    for (column, side) in [("white", Entered::White), ("black", Entered::Black)] {
        let game: Option<i64> = conn
            .prepare_cached(&format!("SELECT id FROM game WHERE {column} = ?1 LIMIT 1"))?
            .query_row([name], |r| r.get(0))
            .optional()?;
        if let Some(game) = game {
            return Ok(Some(side.row(game)));
        }
    }
    Ok(None)
}

/// Enters folded values under their text rows, in increasing order (the
/// index appends); returns how many.
///
/// # Errors
/// A database failure.
pub(crate) fn enter(conn: &Connection, mut rows: Vec<(i64, String)>) -> Result<u64, StoreError> {
    rows.sort_unstable_by_key(|&(row, _)| row);
    let mut add = conn.prepare_cached(ENTER)?;
    for (row, folded) in &rows {
        add.execute(params![row, folded])?;
    }
    Ok(rows.len() as u64)
}

/// Trigrams of a part looked up in the index, at most: a value holds
/// every trigram of a part it contains, and the index reads each one's
/// list of values, so the rarest two find few candidates at the cost of
/// two lists, when adding a common one would read it all through.
const TRIGRAMS_LOOKED_UP: usize = 2;

/// How rare a character makes a trigram, at a guess: digits and letters
/// beyond ASCII most, punctuation more than letters, blanks least (they
/// are in nearly every name).
fn rarity(c: char) -> u32 {
    match c {
        '0'..='9' => 3,
        c if !c.is_ascii() => 3,
        c if c.is_ascii_whitespace() => 0,
        c if c.is_ascii_alphabetic() => 1,
        _ => 2,
    }
}

/// The full-text query that finds the values whose folded form holds
/// `folded` (and others, which the caller tests): the
/// [`TRIGRAMS_LOOKED_UP`] of its trigrams that look rarest (the later on
/// a tie), all of which must be there; `None` when it is shorter than a
/// trigram.
fn trigram_query(folded: &str) -> Option<String> {
    let chars: Vec<char> = folded.chars().collect();
    if chars.len() < 3 {
        return None;
    }
    let mut starts: Vec<usize> = (0..chars.len() - 2).collect();
    let score = |at: usize| chars[at..at + 3].iter().map(|&c| rarity(c)).sum::<u32>();
    starts.sort_by_key(|&at| std::cmp::Reverse((score(at), at)));
    starts.truncate(TRIGRAMS_LOOKED_UP);
    starts.sort_unstable();
    let quoted = starts.into_iter().map(|at| {
        let trigram: String = chars[at..at + 3].iter().collect();
        format!("\"{}\"", trigram.replace('"', "\"\""))
    });
    Some(quoted.collect::<Vec<_>>().join(" AND "))
}

/// The values of `field` whose folded form contains `needle` folded, in
/// the order of values.
///
/// # Errors
/// A database failure.
pub(crate) fn values_containing(
    conn: &Connection,
    field: FoldField,
    needle: &str,
) -> Result<Vec<String>, StoreError> {
    let needle = fold(needle);
    let mut found = BTreeSet::new();
    let mut keep = |stmt: &mut rusqlite::CachedStatement<'_>,
                    params: &[&dyn rusqlite::ToSql]|
     -> Result<(), StoreError> {
        let mut rows = stmt.query(params)?;
        while let Some(row) = rows.next()? {
            let text = row.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
            if fold(text).contains(&needle) {
                found.insert(text.to_string());
            }
        }
        Ok(())
    };
    let (least, greatest) = field.entered();
    let tag = match field {
        FoldField::Event => Some("event"),
        FoldField::Site => Some("site"),
        FoldField::Player => None,
    };
    let Some(query) = trigram_query(&needle) else {
        // Every value of the field, entered or not.
        return match tag {
            Some(tag) => {
                keep(
                    &mut conn.prepare_cached("SELECT value FROM tag_value WHERE field = ?1")?,
                    &[&tag],
                )?;
                Ok(found.into_iter().collect())
            }
            None => {
                keep(
                    &mut conn.prepare_cached("SELECT DISTINCT name FROM player_stat")?,
                    &[],
                )?;
                Ok(found.into_iter().collect())
            }
        };
    };
    keep(
        &mut conn.prepare_cached(
            // From the index's candidates to their games, never the other
            // way round (every game).
            "SELECT CASE f.rowid % 4 WHEN 0 THEN g.event WHEN 1 THEN g.site \
             WHEN 2 THEN g.white ELSE g.black END \
             FROM name_text f CROSS JOIN game g ON g.id = f.rowid / 4 \
             WHERE f.name_text MATCH ?1 AND f.rowid % 4 BETWEEN ?2 AND ?3",
        )?,
        &[&query, &least, &greatest],
    )?;
    // Values no writer has entered yet.
    match tag {
        Some(tag) => keep(
            &mut conn.prepare_cached(
                // The partial index: by its key SQLite would read every value.
                "SELECT value FROM tag_value INDEXED BY tag_value_unentered WHERE field = ?1 AND text_row IS NULL",
            )?,
            &[&tag],
        )?,
        None => keep(
            &mut conn
                .prepare_cached("SELECT DISTINCT name FROM player_stat INDEXED BY player_stat_unentered WHERE text_row IS NULL")?,
            &[],
        )?,
    }
    Ok(found.into_iter().collect())
}

/// Entered values whose folded form is looked up in the trigram index by
/// [`check`], at most.
pub const SAMPLE_VALUES: i64 = 500;

/// Rows of `tag_value` and `player_stat` whose text row does not name a
/// game that holds their value in the field it says (or that name one and
/// are not of an event, a site or a name), with the names whose rows name
/// more than one text row.
const ASTRAY: &str = "SELECT (SELECT count(*) FROM tag_value v WHERE v.text_row IS NOT NULL \
       AND NOT EXISTS (SELECT 1 FROM game g WHERE g.id = v.text_row / 4 AND CASE v.field \
         WHEN 'event' THEN v.text_row % 4 = 0 AND g.event = v.value \
         WHEN 'site' THEN v.text_row % 4 = 1 AND g.site = v.value ELSE 0 END)) \
     + (SELECT count(*) FROM player_stat p WHERE p.text_row IS NOT NULL \
       AND NOT EXISTS (SELECT 1 FROM game g WHERE g.id = p.text_row / 4 AND CASE p.text_row % 4 \
         WHEN 2 THEN g.white = p.name WHEN 3 THEN g.black = p.name ELSE 0 END)) \
     + (SELECT count(*) FROM (SELECT name FROM player_stat GROUP BY name \
       HAVING count(DISTINCT text_row) > 1))";

/// The text rows the rows of `tag_value` and `player_stat` name, each once.
const NAMED_ROWS: &str = "SELECT text_row FROM tag_value WHERE text_row IS NOT NULL \
     UNION SELECT text_row FROM player_stat WHERE text_row IS NOT NULL";

/// What must hold of the index of names: every event and site of
/// `tag_value` and every name of `player_stat` names a text row, of a game
/// that holds it, and each name one only; the index holds as many entries
/// as text rows are named, and finds each of up to [`SAMPLE_VALUES`] of
/// them by its value's folded form. One line per broken invariant.
///
/// # Errors
/// A database failure.
pub(crate) fn check(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let count =
        |sql: &str| -> Result<i64, StoreError> { Ok(conn.query_row(sql, [], |r| r.get(0))?) };
    let mut problems = Vec::new();
    let unentered = count(
        "SELECT (SELECT count(*) FROM tag_value WHERE text_row IS NULL AND field IN ('event', 'site')) \
         + (SELECT count(DISTINCT name) FROM player_stat WHERE text_row IS NULL)",
    )?;
    if unentered > 0 {
        problems.push(format!(
            "{unentered} events, sites or names are not in the index of names"
        ));
    }
    let astray = count(ASTRAY)?;
    if astray > 0 {
        problems.push(format!(
            "{astray} events, sites or names are entered in the index of names under a game that does not hold them"
        ));
    }
    let named = count(&format!("SELECT count(*) FROM ({NAMED_ROWS})"))?;
    let held = count("SELECT count(*) FROM name_text")?;
    if named != held {
        problems.push(format!(
            "the index of names holds {held} entries, {named} are named by events, sites and names"
        ));
    }
    let lost = sample_not_found(conn, named)?;
    if lost > 0 {
        problems.push(format!(
            "{lost} names, events or sites sampled are not found in the index of names by their folded form"
        ));
    }
    Ok(problems)
}

/// How many of up to [`SAMPLE_VALUES`] text rows, spread over the `named`
/// ones, the trigram index does not find by their value's folded form.
fn sample_not_found(conn: &Connection, named: i64) -> Result<i64, StoreError> {
    let step = (named / SAMPLE_VALUES).max(1);
    // The rows first, each value then on its own: a value may be as long
    // as a tag (1 MiB), and memory holds one at a time.
    let sample: Vec<i64> = conn
        .prepare(&format!(
            "SELECT text_row FROM (SELECT text_row, row_number() OVER (ORDER BY text_row) AS n \
             FROM ({NAMED_ROWS})) WHERE n % ?1 = 0 LIMIT ?2"
        ))?
        .query_map([step, SAMPLE_VALUES], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut value_of = conn.prepare_cached(VALUE_OF_ROW)?;
    let mut found =
        conn.prepare_cached("SELECT 1 FROM name_text WHERE name_text MATCH ?1 AND rowid = ?2")?;
    let mut lost = 0;
    for row in sample {
        let value: Option<String> = value_of.query_row([row], |r| r.get(0)).optional()?;
        let query = value.and_then(|value| trigram_query(&fold(&value)));
        if let Some(query) = query {
            lost += i64::from(!found.exists(params![query, row])?);
        }
    }
    Ok(lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_case_accents_and_extra_blanks() {
        assert_eq!(fold("  José   MARÍA "), "jose maria");
        assert_eq!(fold("Ølsen"), "ølsen");
        assert!(fold("Łukasz Ñúñez").contains("nunez"));
        assert_eq!(fold("100%_sure"), "100%_sure");
    }

    #[test]
    fn a_part_is_looked_up_by_its_two_rarest_looking_trigrams() {
        assert_eq!(trigram_query("ab"), None);
        assert_eq!(trigram_query("abc").as_deref(), Some("\"abc\""));
        assert_eq!(
            trigram_query("generated game 66667").as_deref(),
            Some("\"666\" AND \"667\"")
        );
        assert_eq!(
            trigram_query("santos").as_deref(),
            Some("\"nto\" AND \"tos\"")
        );
        assert_eq!(
            trigram_query("a\"bcdé").as_deref(),
            Some("\"\"\"bc\" AND \"cdé\"")
        );
    }

    /// A database at the latest step with games of these (white, black,
    /// event), counted as a write with the triggers on counts them: their
    /// values not entered.
    fn store_with(games: &[(&str, &str, &str)]) -> rusqlite::Connection {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        crate::store::schema::migrate::migrate(&mut conn).unwrap();
        for (white, black, event) in games {
            conn.execute(
                "INSERT INTO game (status, variant, preset, white, black, event) \
                 VALUES ('ok', 'english', 'english', ?1, ?2, ?3)",
                [white, black, event],
            )
            .unwrap();
            conn.execute_batch(&format!(
                "INSERT INTO tag_value (field, value, games) VALUES ('event', '{event}', 1), ('site', '', 1) \
                 ON CONFLICT DO UPDATE SET games = games + 1; \
                 INSERT INTO player_stat (name, variant, preset, games, wins, draws, losses, unknown) \
                 VALUES ('{white}', 'english', 'english', 1, 0, 0, 0, 1), \
                 ('{black}', 'english', 'english', 1, 0, 0, 0, 1) \
                 ON CONFLICT DO UPDATE SET games = games + 1, unknown = unknown + 1;"
            ))
            .unwrap();
        }
        conn
    }

    fn text_rows(conn: &Connection) -> Vec<(String, Option<i64>)> {
        conn.prepare(
            "SELECT value, text_row FROM tag_value WHERE field = 'event' \
             UNION ALL SELECT DISTINCT name, text_row FROM player_stat ORDER BY 1",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    #[test]
    fn values_are_found_folded_before_and_after_they_are_entered_and_go_with_their_games() {
        let conn = store_with(&[
            ("Ann", "José María", "Open de Cebú"),
            ("Bo", "Ann", "Cebu Masters"),
        ]);
        let events = |needle: &str| values_containing(&conn, FoldField::Event, needle).unwrap();
        let players = |needle: &str| values_containing(&conn, FoldField::Player, needle).unwrap();
        for entered in [false, true] {
            assert_eq!(
                events("CEBU"),
                ["Cebu Masters", "Open de Cebú"],
                "{entered}"
            );
            assert_eq!(events("de c"), ["Open de Cebú"]);
            assert_eq!(events("u"), ["Cebu Masters", "Open de Cebú"]);
            assert!(events("cebux").is_empty());
            assert_eq!(players("maria"), ["José María"]);
            assert_eq!(players("a"), ["Ann", "José María"]);
            assert_eq!(players("n"), ["Ann"]);
            assert!(
                values_containing(&conn, FoldField::Site, "cebu")
                    .unwrap()
                    .is_empty()
            );
            let problems = check(&conn).unwrap();
            if entered {
                assert_eq!(problems, Vec::<String>::new());
            } else {
                assert_eq!(
                    problems,
                    ["6 events, sites or names are not in the index of names"]
                );
            }
            assert_eq!(enter_new(&conn).unwrap(), if entered { 0 } else { 6 });
        }
        // Each under a game that holds it, in the field it holds it in (a
        // name as White first).
        assert_eq!(
            text_rows(&conn),
            [
                ("Ann".to_string(), Some(4 + 2)),
                ("Bo".to_string(), Some(8 + 2)),
                ("Cebu Masters".to_string(), Some(8)),
                ("José María".to_string(), Some(4 + 3)),
                ("Open de Cebú".to_string(), Some(4)),
            ]
        );
        // Game 1 goes (the counts as the triggers of `game` keep them):
        // its values go with it, Ann stays, entered again under game 2.
        conn.execute("DELETE FROM game WHERE id = 1", []).unwrap();
        assert_eq!(
            text_rows(&conn),
            [
                ("Ann".to_string(), None),
                ("Bo".to_string(), Some(10)),
                ("Cebu Masters".to_string(), Some(8)),
            ]
        );
        assert_eq!(events("cebu"), ["Cebu Masters"]);
        assert!(players("jose").is_empty());
        assert_eq!(players("ann"), ["Ann"]);
        // Ann, and the Site '' game 1 held first.
        assert_eq!(enter_new(&conn).unwrap(), 2);
        assert_eq!(text_rows(&conn)[0], ("Ann".to_string(), Some(8 + 3)));
        assert_eq!(players("ann"), ["Ann"]);
        assert_eq!(check(&conn).unwrap(), Vec::<String>::new());
        let entries: i64 = conn
            .query_row("SELECT count(*) FROM name_text", [], |r| r.get(0))
            .unwrap();
        assert_eq!(entries, 4);
    }

    #[test]
    fn a_game_that_changes_or_moves_takes_its_text_rows_with_it() {
        let conn = store_with(&[("Ann", "Bo", "Open"), ("Ann", "Cy", "Open")]);
        enter_new(&conn).unwrap();
        // Game 1's event changes (the counts as the triggers keep them),
        // then game 2 moves to id 7.
        conn.execute("UPDATE game SET event = 'Closed' WHERE id = 1", [])
            .unwrap();
        assert_eq!(
            text_rows(&conn),
            [
                ("Ann".to_string(), Some(6)),
                // Its one game counted out, then in: a new row.
                ("Bo".to_string(), None),
                ("Closed".to_string(), None),
                ("Cy".to_string(), Some(11)),
                ("Open".to_string(), None),
            ]
        );
        assert_eq!(enter_new(&conn).unwrap(), 3);
        conn.execute("UPDATE game SET id = 7 WHERE id = 2", [])
            .unwrap();
        assert_eq!(text_rows(&conn)[3], ("Cy".to_string(), None));
        assert_eq!(text_rows(&conn)[4], ("Open".to_string(), None));
        assert_eq!(enter_new(&conn).unwrap(), 2);
        assert_eq!(
            text_rows(&conn),
            [
                ("Ann".to_string(), Some(6)),
                ("Bo".to_string(), Some(7)),
                ("Closed".to_string(), Some(4)),
                ("Cy".to_string(), Some(31)),
                ("Open".to_string(), Some(28)),
            ]
        );
        assert_eq!(check(&conn).unwrap(), Vec::<String>::new());
        assert_eq!(
            values_containing(&conn, FoldField::Event, "ope").unwrap(),
            ["Open"]
        );
    }

    #[test]
    fn values_not_entered_astray_or_lost_from_the_index_are_found() {
        let conn = store_with(&[("Ann", "Bo", "Open")]);
        enter_new(&conn).unwrap();
        conn.execute_batch(
            "INSERT INTO tag_value (field, value, games) VALUES ('event', 'Gone', 1); \
             UPDATE tag_value SET text_row = 3996 WHERE field = 'event' AND value = 'Open'; \
             DELETE FROM name_text WHERE rowid = 6;",
        )
        .unwrap();
        assert_eq!(
            check(&conn).unwrap(),
            [
                "1 events, sites or names are not in the index of names",
                "1 events, sites or names are entered in the index of names under a game that does not hold them",
                "the index of names holds 2 entries, 4 are named by events, sites and names",
                "1 names, events or sites sampled are not found in the index of names by their folded form",
            ]
        );
    }
}
