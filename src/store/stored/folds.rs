//! Events, sites and player names found by a part of them (schema step
//! 23): `tag_fold` holds every distinct one, kept by triggers as
//! `tag_value` and `player_stat` gain and lose values, and `tag_fold_text`
//! indexes each one's folded form ([`fold`]) by its trigrams. A part of
//! three characters or more is looked up there, a shorter one by reading
//! every value of its field; either way each value found is folded again
//! and tested, so the answers are those of a test of every value.

use std::collections::BTreeSet;

use rusqlite::{Connection, params};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::error::StoreError;
use crate::export::clean_tag_value;

/// The schema step that makes `tag_fold`; [`index_new`] is its code.
pub(crate) const STEP: u32 = 23;

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

/// The values `tag_fold` holds: its `field`.
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
    /// As `tag_fold.field` names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            FoldField::Event => "event",
            FoldField::Site => "site",
            FoldField::Player => "player",
        }
    }
}

/// Values folded and indexed per statement that reads them, at most.
const BATCH: i64 = 10_000;

/// Puts every value of `tag_fold` not yet in the trigram index into it,
/// folded; returns how many. Run in the writer's transaction.
///
/// # Errors
/// A database failure.
pub(crate) fn index_new(conn: &Connection) -> Result<u64, StoreError> {
    let mut indexed = 0;
    loop {
        let batch: Vec<(i64, String)> = conn
            .prepare_cached("SELECT id, value FROM tag_fold WHERE indexed = 0 LIMIT ?1")?
            .query_map([BATCH], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if batch.is_empty() {
            return Ok(indexed);
        }
        let mut add =
            conn.prepare_cached("INSERT INTO tag_fold_text (rowid, folded) VALUES (?1, ?2)")?;
        let mut mark = conn.prepare_cached("UPDATE tag_fold SET indexed = 1 WHERE id = ?1")?;
        for (id, value) in &batch {
            add.execute(params![id, fold(value)])?;
            mark.execute([id])?;
        }
        indexed += batch.len() as u64;
    }
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
    let name = field.name();
    match trigram_query(&needle) {
        Some(query) => keep(
            &mut conn.prepare_cached(
                // From the index's candidates to their rows, never the
                // other way round (every value of the field).
                "SELECT t.value FROM tag_fold_text f CROSS JOIN tag_fold t ON t.id = f.rowid \
                 WHERE f.tag_fold_text MATCH ?2 AND t.field = ?1",
            )?,
            &[&name, &query],
        )?,
        None => keep(
            &mut conn
                .prepare_cached("SELECT value FROM tag_fold WHERE field = ?1 AND indexed = 1")?,
            &[&name],
        )?,
    }
    // Values no writer has folded yet.
    keep(
        &mut conn.prepare_cached("SELECT value FROM tag_fold WHERE field = ?1 AND indexed = 0")?,
        &[&name],
    )?;
    Ok(found.into_iter().collect())
}

/// Indexed values whose folded form is looked up in the trigram index by
/// [`check`], at most.
pub const SAMPLE_VALUES: i64 = 500;

/// What must hold of `tag_fold`: it holds the events and sites
/// `tag_value` counts and the names `player_stat` counts, and no other
/// value; the trigram index holds as many values as are marked indexed,
/// and finds each of up to [`SAMPLE_VALUES`] of them by its folded form.
/// One line per broken invariant.
///
/// # Errors
/// A database failure.
pub(crate) fn check(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let count =
        |sql: &str| -> Result<i64, StoreError> { Ok(conn.query_row(sql, [], |r| r.get(0))?) };
    let mut problems = Vec::new();
    let missing = count(
        "SELECT (SELECT count(*) FROM tag_value v WHERE v.field IN ('event', 'site') \
           AND NOT EXISTS (SELECT 1 FROM tag_fold f WHERE f.field = v.field AND f.value = v.value)) \
         + (SELECT count(*) FROM (SELECT DISTINCT name FROM player_stat) p \
           WHERE NOT EXISTS (SELECT 1 FROM tag_fold f WHERE f.field = 'player' AND f.value = p.name))",
    )?;
    let extra = count(
        "SELECT count(*) FROM tag_fold f WHERE NOT CASE f.field \
           WHEN 'player' THEN EXISTS (SELECT 1 FROM player_stat WHERE name = f.value) \
           WHEN 'event' THEN EXISTS (SELECT 1 FROM tag_value WHERE field = 'event' AND value = f.value) \
           WHEN 'site' THEN EXISTS (SELECT 1 FROM tag_value WHERE field = 'site' AND value = f.value) \
           ELSE 0 END",
    )?;
    if missing + extra > 0 {
        problems.push(format!(
            "{missing} events, sites or names cannot be found by a part of them, {extra} that are no more can"
        ));
    }
    let marked = count("SELECT count(*) FROM tag_fold WHERE indexed = 1")?;
    let held = count("SELECT count(*) FROM tag_fold_text")?;
    if marked != held {
        problems.push(format!(
            "the trigram index of names holds {held} values, {marked} are marked as in it"
        ));
    }
    let lost = sample_not_found(conn, marked)?;
    if lost > 0 {
        problems.push(format!(
            "{lost} names, events or sites sampled are not found in the trigram index by their folded form"
        ));
    }
    Ok(problems)
}

/// How many of up to [`SAMPLE_VALUES`] indexed values, spread over the
/// `marked` ones, the trigram index does not find by their folded form.
fn sample_not_found(conn: &Connection, marked: i64) -> Result<i64, StoreError> {
    let step = (marked / SAMPLE_VALUES).max(1);
    // The ids first, each value then on its own: a value may be as long as
    // a tag (1 MiB), and memory holds one at a time.
    let sample: Vec<i64> = conn
        .prepare(
            "SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n \
             FROM tag_fold WHERE indexed = 1) WHERE n % ?1 = 0 LIMIT ?2",
        )?
        .query_map([step, SAMPLE_VALUES], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut value_of = conn.prepare_cached("SELECT value FROM tag_fold WHERE id = ?1")?;
    let mut found = conn.prepare_cached(
        "SELECT 1 FROM tag_fold_text WHERE tag_fold_text MATCH ?1 AND rowid = ?2",
    )?;
    let mut lost = 0;
    for id in sample {
        let value: String = value_of.query_row([id], |r| r.get(0))?;
        if let Some(query) = trigram_query(&fold(&value)) {
            lost += i64::from(!found.exists(params![query, id])?);
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
    /// event) counted as an import counts them.
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
                "INSERT INTO tag_value VALUES ('event', '{event}', 1), ('site', '', 1) \
                 ON CONFLICT DO UPDATE SET games = games + 1; \
                 INSERT INTO player_stat VALUES ('{white}', 'english', 'english', 1, 0, 0, 0, 1, NULL, NULL), \
                 ('{black}', 'english', 'english', 1, 0, 0, 0, 1, NULL, NULL) \
                 ON CONFLICT DO UPDATE SET games = games + 1, unknown = unknown + 1;"
            ))
            .unwrap();
        }
        conn
    }

    #[test]
    fn values_are_found_folded_before_and_after_they_are_indexed_and_go_with_their_games() {
        let conn = store_with(&[
            ("José María", "Ann", "Open de Cebú"),
            ("Bo", "Ann", "Cebu Masters"),
        ]);
        let events = |needle: &str| values_containing(&conn, FoldField::Event, needle).unwrap();
        let players = |needle: &str| values_containing(&conn, FoldField::Player, needle).unwrap();
        for indexed in [false, true] {
            assert_eq!(
                events("CEBU"),
                ["Cebu Masters", "Open de Cebú"],
                "{indexed}"
            );
            assert_eq!(events("de c"), ["Open de Cebú"]);
            assert_eq!(events("u"), ["Cebu Masters", "Open de Cebú"]);
            assert!(events("cebux").is_empty());
            assert_eq!(players("maria"), ["José María"]);
            assert_eq!(players("a"), ["Ann", "José María"]);
            assert_eq!(players("n"), ["Ann"]);
            assert_eq!(check(&conn).unwrap(), Vec::<String>::new());
            assert_eq!(index_new(&conn).unwrap(), if indexed { 0 } else { 6 });
        }
        conn.execute_batch(
            "DELETE FROM tag_value WHERE field = 'event' AND value = 'Cebu Masters'; \
             DELETE FROM player_stat WHERE name = 'José María';",
        )
        .unwrap();
        assert_eq!(events("cebu"), ["Open de Cebú"]);
        assert!(players("jose").is_empty());
        assert_eq!(check(&conn).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn values_missing_extra_or_lost_from_the_index_are_found() {
        let conn = store_with(&[("Ann", "Bo", "Open")]);
        index_new(&conn).unwrap();
        conn.execute_batch(
            "INSERT INTO tag_fold (field, value) VALUES ('event', 'Gone'); \
             DELETE FROM tag_fold_text WHERE rowid = (SELECT id FROM tag_fold WHERE value = 'Open');",
        )
        .unwrap();
        let problems = check(&conn).unwrap();
        assert!(
            problems[0]
                .starts_with("0 events, sites or names cannot be found by a part of them, 1 "),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("holds 3 values, 4 are marked"),
            "{problems:?}"
        );
        assert!(
            problems[2].starts_with("1 names, events or sites sampled"),
            "{problems:?}"
        );
    }
}
