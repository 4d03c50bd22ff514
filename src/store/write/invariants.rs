//! What must hold in every pdndb database, whatever was imported, removed
//! or interrupted: `pdndb stats --check`.
//!
//! SQLite keeps its own structures consistent (`PRAGMA quick_check`);
//! these are pdndb's: every game comes from a file, every file marked
//! complete holds the games it says, every indexed game's index rows are
//! what reading its stored text again gives, the tree's counts at start
//! positions and at popular positions agree with the index, and the counts
//! of each player's games and of the games by tag agree with the games,
//! the counts `stats` prints agree with a recount, and every event, site
//! and name is found by a part of it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rusqlite::{OptionalExtension, Transaction};
use serde::Serialize;

use crate::store::stored::postings;
use crate::store::stored::{Store, StoreError};
use crate::store::write::counts::PlayerCount;
use crate::store::write::popular::recount;
use crate::store::write::rows::Row;

/// Indexed games whose index rows are read again and compared, at most.
pub const SAMPLE_GAMES: i64 = 500;

/// Popular keys whose tree counts are recounted from the index, at most.
pub const SAMPLE_KEYS: i64 = 20;

/// What `stats --check` found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Checked {
    /// Whether every invariant holds.
    pub ok: bool,
    /// Games whose index rows were recounted.
    pub sampled: i64,
    /// Popular keys whose counts were recounted from their index rows.
    pub popular_sampled: i64,
    /// One line per broken invariant.
    pub problems: Vec<String>,
}

impl Store {
    /// Checks pdndb's invariants; index entries are recounted for up to
    /// [`SAMPLE_GAMES`] indexed games spread over the database (the entries
    /// a game's stored text gives must be stored as it gives them, and no
    /// other entry of the game; the sampled games' entries are gathered by
    /// one pass over the index).
    ///
    /// # Errors
    /// A database failure (a broken invariant is a problem, not an error).
    pub fn check_invariants(&self) -> Result<Checked, StoreError> {
        let tx = self.conn().unchecked_transaction()?;
        let mut problems = Vec::new();
        let tally = GameTally::read(&tx)?;
        let through = check_rows_and_counts(&tx, &tally, &mut problems)?;
        let sample = sample_of_indexed_games(&tx, through)?;
        let index = IndexPass::read(&tx, &sample)?;
        check_kept_counts(&tx, &tally, index.entries, &mut problems)?;
        check_index_of_sample(&tx, &sample, &index.sampled, &mut problems)?;
        problems.extend(unreadable_games(&tx, tally.broken)?);
        problems.extend(crate::store::stored::folds::check(&tx)?);
        let keys = check_popular_counts(&tx, &mut problems)?;
        Ok(Checked {
            ok: problems.is_empty(),
            sampled: sample.len() as i64,
            popular_sampled: keys as i64,
            problems,
        })
    }

    /// Games stored but not yet in the position index (an import was
    /// interrupted, or is running): search and tree do not find them yet.
    ///
    /// # Errors
    /// A database failure.
    pub fn unindexed(&self) -> Result<i64, StoreError> {
        Ok(self.conn().query_row(
            "SELECT count(*) FROM game WHERE id > (SELECT coalesce(max(indexed_through), 0) FROM index_state) \
             AND status IN ('ok', 'ambiguous', 'illegal')",
            [],
            |r| r.get(0),
        )?)
    }
}

/// The one number `sql` selects.
fn count(tx: &Transaction<'_>, sql: &str) -> Result<i64, StoreError> {
    Ok(tx.query_row(sql, [], |r| r.get(0))?)
}

/// A problem when `found` things are `what` (none should be).
fn expect(problems: &mut Vec<String>, found: i64, what: &str) {
    if found != 0 {
        problems.push(format!("{found} {what}"));
    }
}

/// What one pass over the game table finds: its games by variant, by
/// preset (`''` for an unsupported game, as `tag_value` counts them) and
/// by status, and those whose check record or status does not read back.
#[derive(Debug, Default)]
struct GameTally {
    by_variant: BTreeMap<String, i64>,
    by_preset: BTreeMap<String, i64>,
    by_status: BTreeMap<String, i64>,
    broken: BTreeSet<i64>,
}

impl GameTally {
    /// Reads every game once, in the table's order.
    fn read(tx: &Transaction<'_>) -> Result<GameTally, StoreError> {
        let mut tally = GameTally::default();
        let mut games = tx.prepare(
            "SELECT id, status, variant, CASE WHEN status = 'unsupported' THEN '' ELSE preset END, \
             record FROM game",
        )?;
        let mut rows = games.query([])?;
        while let Some(r) = rows.next()? {
            let id = crate::store::stored::id::GameId(r.get(0)?);
            let status = r.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?;
            let bad_record = r
                .get_ref(4)?
                .as_str_or_null()
                .map_err(rusqlite::Error::from)?
                .is_some_and(|json| crate::store::stored::record::parse_record(id, json).is_err());
            if bad_record || crate::store::stored::record::parse_status(id, status).is_err() {
                tally.broken.insert(id.get());
            }
            for (map, at) in [
                (&mut tally.by_status, 1),
                (&mut tally.by_variant, 2),
                (&mut tally.by_preset, 3),
            ] {
                let value = r.get_ref(at)?.as_str().map_err(rusqlite::Error::from)?;
                match map.get_mut(value) {
                    Some(n) => *n += 1,
                    None => {
                        map.insert(value.to_string(), 1);
                    }
                }
            }
        }
        Ok(tally)
    }

    /// The games replayed (and so counted by the tree at their start).
    fn replayed(&self) -> i64 {
        ["ok", "ambiguous", "illegal"]
            .iter()
            .filter_map(|s| self.by_status.get(*s))
            .sum()
    }
}

/// What one pass over the position index finds: how many entries it
/// holds, and the entries of the sampled games as (kept key, ply, open)
/// per game (the index has no order by game).
struct IndexPass {
    entries: i64,
    sampled: HashMap<i64, BTreeSet<(i64, u32, bool)>>,
}

impl IndexPass {
    /// Reads every chunk of the index once.
    fn read(tx: &Transaction<'_>, sample: &[i64]) -> Result<IndexPass, StoreError> {
        let wanted: std::collections::HashSet<i64> = sample.iter().copied().collect();
        let mut pass = IndexPass {
            entries: 0,
            sampled: HashMap::new(),
        };
        postings::each_chunk(tx, |bucket, entries| {
            pass.entries += entries.len() as i64;
            for e in entries.iter().filter(|e| wanted.contains(&e.game)) {
                let kept = (bucket << postings::SUFFIX_BITS) | i64::from(e.suffix);
                pass.sampled
                    .entry(e.game)
                    .or_default()
                    .insert((kept, e.ply, e.open));
            }
            Ok(())
        })?;
        Ok(pass)
    }
}

/// SQLite's check, then the games against their files and the counts of
/// games by start, tag and player; returns the last game indexed.
fn check_rows_and_counts(
    tx: &Transaction<'_>,
    tally: &GameTally,
    problems: &mut Vec<String>,
) -> Result<i64, StoreError> {
    let count = |sql: &str| count(tx, sql);
    let quick: String = tx.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
    if quick != "ok" {
        problems.push(format!("SQLite's quick_check: {quick}"));
    }
    expect(
        problems,
        count(
            "SELECT count(*) FROM game g WHERE NOT EXISTS (SELECT 1 FROM provenance p WHERE p.game = g.id)",
        )?,
        "games come from no file",
    );
    expect(
        problems,
        count(
            "SELECT count(*) FROM provenance p WHERE NOT EXISTS (SELECT 1 FROM game g WHERE g.id = p.game)",
        )?,
        "copies in files are of no stored game",
    );
    expect(
        problems,
        count(
            "SELECT count(*) FROM source_file f WHERE complete = 1 \
             AND games <> (SELECT count(*) FROM provenance p WHERE p.file = f.id)",
        )?,
        "files marked complete hold another number of games than they say",
    );
    let duplicates =
        count("SELECT (SELECT count(*) FROM provenance) - (SELECT count(*) FROM game)")?;
    if duplicates < 0 {
        problems.push(format!("{duplicates} duplicates (fewer copies than games)"));
    }
    let through: i64 = count("SELECT coalesce(max(indexed_through), 0) FROM index_state")?;
    let at_start = count("SELECT coalesce(sum(games), 0) FROM start_move")?;
    let replayed = tally.replayed();
    if at_start != replayed {
        problems.push(format!(
            "the tree counts {at_start} games at their start positions, the database holds {replayed} replayed games"
        ));
    }
    expect(
        problems,
        tag_differences(tx, tally)?,
        "differences between the counts of games by event, site, variant or preset and the games",
    );
    expect(
        problems,
        player_differences(tx)?,
        "differences between the players' counts (games, results, dates) and their games",
    );
    Ok(through)
}

/// The counts `stats` reads (schema step 22) against a recount (the
/// games by status from `tally`, the index's entries from one pass over
/// it): one problem per count that differs.
fn check_kept_counts(
    tx: &Transaction<'_>,
    tally: &GameTally,
    entries: i64,
    problems: &mut Vec<String>,
) -> Result<(), StoreError> {
    let count = |sql: &str| count(tx, sql);
    let kept = |name: &str| -> Result<Option<i64>, StoreError> {
        Ok(tx
            .prepare_cached("SELECT n FROM kept_count WHERE name = ?1")?
            .query_row([name], |r| r.get(0))
            .optional()?)
    };
    let recounted = [
        ("files", "files", count("SELECT count(*) FROM source_file")?),
        (
            "copies",
            "copies of games in files",
            count("SELECT count(*) FROM provenance")?,
        ),
        ("positions", "positions indexed", entries),
    ];
    for (name, what, found) in recounted {
        let kept = kept(name)?;
        if kept != Some(found) {
            let kept = kept.map_or_else(|| "no count".to_string(), |n| n.to_string());
            problems.push(format!(
                "stats keeps {kept} {what}, a recount finds {found}"
            ));
        }
    }
    let mut by_status: BTreeMap<String, (i64, i64)> = (tally.by_status.iter())
        .map(|(status, &n)| (status.clone(), (n, 0)))
        .collect();
    for (status, n) in stored_counts(tx, "status")? {
        by_status.entry(status).or_default().1 = n;
    }
    for (status, (found, kept)) in by_status {
        if found != kept {
            problems.push(format!(
                "stats keeps {kept} {status} games, a recount finds {found}"
            ));
        }
    }
    Ok(())
}

/// The counts of `tag_value` under `field`, by value.
fn stored_counts(tx: &Transaction<'_>, field: &str) -> Result<BTreeMap<String, i64>, StoreError> {
    let mut stmt = tx.prepare_cached("SELECT value, games FROM tag_value WHERE field = ?1")?;
    let rows = stmt.query_map([field], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Up to [`SAMPLE_GAMES`] games indexed by `through`, spread over them.
fn sample_of_indexed_games(tx: &Transaction<'_>, through: i64) -> Result<Vec<i64>, StoreError> {
    let count = |sql: &str| count(tx, sql);
    let indexed = count(&format!(
        "SELECT count(*) FROM game WHERE id <= {through} AND status IN ('ok', 'ambiguous', 'illegal')"
    ))?;
    let step = (indexed / SAMPLE_GAMES).max(1);
    let sample: Vec<i64> = tx
        .prepare(&format!(
            "SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM game \
             WHERE id <= {through} AND status IN ('ok', 'ambiguous', 'illegal')) \
             WHERE n % {step} = 0 LIMIT {SAMPLE_GAMES}"
        ))?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(sample)
}

/// The index entries of the sampled games (`stored`, gathered by
/// [`IndexPass`]) against those reading them again gives, and their
/// copies' stored texts.
fn check_index_of_sample(
    tx: &Transaction<'_>,
    sample: &[i64],
    stored: &HashMap<i64, BTreeSet<(i64, u32, bool)>>,
    problems: &mut Vec<String>,
) -> Result<(), StoreError> {
    // Each entry with the name of the move its game plays there (its
    // stored move, unless open) against the certain positions and next
    // moves reading the game again gives.
    let mut boards = crate::store::write::popular::Boards::default();
    let mut differ = 0;
    for &id in sample {
        let (Some(row), Some(text)) = (
            Row::stored(tx, id)?,
            crate::store::stored::game::stored_text(tx, id)?,
        ) else {
            continue;
        };
        let recount: BTreeSet<(i64, u32, String, bool)> = row
            .positions(&text)
            .into_iter()
            .map(|(key, ply, next, open)| {
                let name = next.map(|m| m.full_numeric()).unwrap_or_default();
                (postings::kept(key), ply, name, open)
            })
            .collect();
        let mut found: BTreeSet<(i64, u32, String, bool)> = BTreeSet::new();
        let moves = row.moves.as_deref().unwrap_or_default();
        for &(kept, ply, open) in stored.get(&id).into_iter().flatten() {
            let played = boards
                .played_at(&row.variant, row.start_fen.as_deref(), moves, ply as usize)
                .and_then(|(_, played)| played);
            let name = match played {
                Some(mv) if !open => mv.full_numeric(),
                _ => String::new(),
            };
            found.insert((kept, ply, name, open));
        }
        if recount != found {
            differ += 1;
        }
    }
    if differ > 0 {
        problems.push(format!(
            "{differ} of {} games read again have other index rows than stored",
            sample.len()
        ));
    }
    let mut unreadable = 0;
    let mut copies = tx.prepare_cached("SELECT text FROM provenance WHERE game = ?1")?;
    for &id in sample {
        for text in copies.query_map([id], |r| r.get::<_, Vec<u8>>(0))? {
            unreadable += i64::from(crate::store::codec::text::decode(&text?).is_none());
        }
    }
    expect(
        problems,
        unreadable,
        "copies of the games sampled have a stored text that does not read back",
    );
    Ok(())
}

/// The counts at popular positions: none empty or under a key that is
/// not popular, and up to [`SAMPLE_KEYS`] keys recounted from the index;
/// returns how many were.
fn check_popular_counts(
    tx: &Transaction<'_>,
    problems: &mut Vec<String>,
) -> Result<usize, StoreError> {
    let count = |sql: &str| count(tx, sql);
    expect(
        problems,
        count(
            "SELECT count(*) FROM popular_move m WHERE games <= 0 \
             OR NOT EXISTS (SELECT 1 FROM popular_key k WHERE k.key = m.key)",
        )?,
        "counts at popular positions are empty or under a key that is not popular",
    );
    expect(
        problems,
        count(
            "SELECT count(*) FROM popular_rows r WHERE rows <= 0 \
             OR NOT EXISTS (SELECT 1 FROM popular_key k WHERE k.key = r.key)",
        )?,
        "counts of index rows at popular keys are not positive or under a key that is not popular",
    );
    let popular = count("SELECT count(*) FROM popular_key")?;
    let step = (popular / SAMPLE_KEYS).max(1);
    let keys: Vec<i64> = tx
        .prepare(&format!(
            "SELECT key FROM (SELECT key, row_number() OVER (ORDER BY key) AS n FROM popular_key) \
             WHERE n % {step} = 0 LIMIT {SAMPLE_KEYS}"
        ))?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut wrong = 0;
    for &key in &keys {
        let (stored, mut recounted) = recount(tx, key)?;
        recounted.moves.retain(|_, games| *games != 0);
        recounted.rows.retain(|_, (_, rows)| *rows != 0);
        if stored != recounted {
            wrong += 1;
        }
    }
    if wrong > 0 {
        problems.push(format!(
            "{wrong} of {} popular keys recounted have other counts than stored",
            keys.len()
        ));
    }
    Ok(keys.len())
}

/// The rows of `tag_value` (but its games by status, checked by
/// [`check_kept_counts`]) and of `tag_value` as the games give it that
/// are not in the other (a value whose count differs counts twice, once
/// on each side). Events and sites are read in the order of values, from
/// the games' index and the table's key, and compared as they come: no
/// sort, and memory for one value at a time; variants and presets, few,
/// come from `tally`.
fn tag_differences(tx: &Transaction<'_>, tally: &GameTally) -> Result<i64, StoreError> {
    let mut differences = 0;
    for field in ["event", "site"] {
        let mut counted = tx.prepare(&format!(
            "SELECT {field}, count(*) FROM game GROUP BY {field} ORDER BY {field}"
        ))?;
        let mut stored = tx
            .prepare_cached("SELECT value, games FROM tag_value WHERE field = ?1 ORDER BY value")?;
        let pair = |r: &rusqlite::Row<'_>| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?));
        let mut counted = counted.query_map([], pair)?.peekable();
        let mut stored = stored.query_map([field], pair)?.peekable();
        loop {
            first_error(&mut counted)?;
            first_error(&mut stored)?;
            let (c, s) = (peeked(&mut counted), peeked(&mut stored));
            differences += match (&c, &s) {
                (None, None) => break,
                (Some(c), Some(s)) if c.0 == s.0 => {
                    counted.next();
                    stored.next();
                    if c.1 == s.1 { 0 } else { 2 }
                }
                (Some(c), Some(s)) if c.0 < s.0 => {
                    counted.next();
                    1
                }
                (Some(_), None) => {
                    counted.next();
                    1
                }
                _ => {
                    stored.next();
                    1
                }
            };
        }
    }
    for (field, counted) in [("variant", &tally.by_variant), ("preset", &tally.by_preset)] {
        let stored = stored_counts(tx, field)?;
        differences += (counted.iter())
            .filter(|&(value, n)| stored.get(value) != Some(n))
            .count() as i64;
        differences += (stored.iter())
            .filter(|&(value, n)| counted.get(value) != Some(n))
            .count() as i64;
    }
    Ok(differences)
}

/// The row `rows` reads next, if it reads one.
fn peeked<T: Clone>(
    rows: &mut std::iter::Peekable<impl Iterator<Item = rusqlite::Result<T>>>,
) -> Option<T> {
    rows.peek().and_then(|r| r.as_ref().ok()).cloned()
}

/// Returns the error `rows` reads next, if it reads one.
fn first_error<T>(
    rows: &mut std::iter::Peekable<impl Iterator<Item = rusqlite::Result<T>>>,
) -> rusqlite::Result<()> {
    if let Some(Err(_)) = rows.peek() {
        rows.next().transpose()?;
    }
    Ok(())
}

/// The games of one side, a row per game: the player's name, the variant,
/// the outcome and the day, in the order of names (read through the index
/// on the name, so nothing is sorted in memory however long the names:
/// SQLite's sorter holds whole rows, 300 MiB for 160 names of 1 MB).
const SIDE: &str =
    "SELECT {side}, variant, outcome, day FROM game WHERE {side} <> '' ORDER BY {side}";

/// The rows of `player_stat` and of `player_stat` as the games give it
/// that are not in the other (a row that differs counts twice, once on
/// each side). Both are read in the order of names, a player at a time,
/// so memory holds one player's rows whatever the names' length.
fn player_differences(tx: &rusqlite::Transaction<'_>) -> Result<i64, StoreError> {
    type Side = (String, String, i64, Option<String>);
    let mut white = tx.prepare(&SIDE.replace("{side}", "white"))?;
    let mut black = tx.prepare(&SIDE.replace("{side}", "black"))?;
    let mut stored = tx.prepare(
        "SELECT name, variant, games, wins, draws, losses, unknown, first_day, last_day \
         FROM player_stat ORDER BY name, variant",
    )?;
    let side = |r: &rusqlite::Row<'_>| -> rusqlite::Result<Side> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
    };
    let mut white = white.query_map([], side)?.peekable();
    let mut black = black.query_map([], side)?.peekable();
    let mut stored = stored
        .query_map([], |r| {
            let counts = PlayerCount {
                // Not compared: the preset of the first game counted.
                preset: String::new(),
                games: r.get(2)?,
                wins: r.get(3)?,
                draws: r.get(4)?,
                losses: r.get(5)?,
                unknown: r.get(6)?,
                first_day: r.get(7)?,
                last_day: r.get(8)?,
            };
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, counts))
        })?
        .peekable();
    let mut differences = 0;
    loop {
        first_error(&mut white)?;
        first_error(&mut black)?;
        first_error(&mut stored)?;
        // The least name any of the three reads next.
        let name = [
            white.peek().and_then(|r| r.as_ref().ok()).map(|r| &r.0),
            black.peek().and_then(|r| r.as_ref().ok()).map(|r| &r.0),
            stored.peek().and_then(|r| r.as_ref().ok()).map(|r| &r.0),
        ]
        .into_iter()
        .flatten()
        .min();
        let Some(name) = name.cloned() else {
            return Ok(differences);
        };
        let mut counted: BTreeMap<String, PlayerCount> = BTreeMap::new();
        for (rows, won, lost) in [(&mut white, 1, 2), (&mut black, 2, 1)] {
            while let Some((_, variant, outcome, day)) = rows
                .next_if(|r| r.as_ref().is_ok_and(|r| r.0 == name))
                .transpose()?
            {
                // The outcome from the player's side: 1 won, 2 lost.
                let outcome = match outcome {
                    o if o == won => 1,
                    o if o == lost => 2,
                    o => o,
                };
                counted
                    .entry(variant)
                    .or_default()
                    .add(outcome, day.as_deref());
            }
        }
        let mut held: BTreeMap<String, PlayerCount> = BTreeMap::new();
        while let Some((_, variant, counts)) = stored
            .next_if(|r| r.as_ref().is_ok_and(|r| r.0 == name))
            .transpose()?
        {
            held.insert(variant, counts);
        }
        for (variant, counts) in &counted {
            differences += match held.remove(variant) {
                Some(stored) if stored == *counts => 0,
                Some(_) => 2,
                None => 1,
            };
        }
        differences += held.len() as i64;
    }
}

/// Ids listed in a problem, at most.
const IDS_SHOWN: usize = 10;

/// The games whose stored check record or status (`broken`, found by
/// [`GameTally`]) or tags (of any copy) do not read back, as a problem
/// naming how many and the first [`IDS_SHOWN`] ids; `None` when every
/// game's read.
fn unreadable_games(
    tx: &rusqlite::Transaction<'_>,
    mut broken: BTreeSet<i64>,
) -> Result<Option<String>, StoreError> {
    let mut copies = tx.prepare("SELECT game, text FROM provenance")?;
    let mut rows = copies.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let stored = r.get_ref(1)?.as_blob().unwrap_or_default();
        if crate::store::stored::record::parse_tags(crate::store::stored::id::GameId(id), stored)
            .is_err()
        {
            broken.insert(id);
        }
    }
    if broken.is_empty() {
        return Ok(None);
    }
    let mut ids: Vec<String> = broken.iter().take(IDS_SHOWN).map(i64::to_string).collect();
    if broken.len() > IDS_SHOWN {
        ids.push("…".to_string());
    }
    Ok(Some(format!(
        "{} games whose stored check record, status or tags do not read back (ids {})",
        broken.len(),
        ids.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::stored::handle::Mode;
    use crate::store::write::import::Importer;

    #[test]
    fn an_imported_database_is_clean_and_lost_or_extra_entries_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let pdn = dir.path().join("g.pdn");
        let mut text = Vec::new();
        let options = crate::generate::GenerateOptions {
            games: 40,
            seed: 3,
            rules: crate::rules::Preset::Filipino.rules(),
            notation: crate::notation::Notation::Numeric,
        };
        crate::generate::generate(&options, &mut text).unwrap();
        std::fs::write(&pdn, text).unwrap();
        let mut store = Store::open(&db, Mode::Write).unwrap();
        Importer::new(&mut store, Default::default())
            .run(
                &[crate::pdn::Input::open(&pdn, None).unwrap().unwrap()],
                &mut |_| {},
            )
            .unwrap();
        let checked = store.check_invariants().unwrap();
        assert!(checked.ok, "{:?}", checked.problems);
        assert_eq!(checked.sampled, 40);
        assert_eq!(store.unindexed().unwrap(), 0);
        // An entry lost (game 7's at ply 5), and one too many (game 9's).
        let tx = store.conn().unchecked_transaction().unwrap();
        let (kept, _, ply, _) = postings::all(&tx)
            .unwrap()
            .into_iter()
            .find(|&(_, game, ply, _)| (game, ply) == (7, 5))
            .unwrap();
        let key = kept << (64 - postings::KEPT_BITS);
        assert!(postings::remove(&tx, key, 7, ply).unwrap().is_some());
        let (bucket, suffix) = postings::split(0x0123_4567_89AB_CDEF);
        let extra = postings::Entry {
            suffix,
            game: 9,
            ply: 3,
            open: false,
        };
        assert_eq!(postings::add(&tx, bucket, &[extra], false).unwrap(), [true]);
        tx.commit().unwrap();
        store
            .conn()
            .execute("UPDATE index_state SET indexed_through = 30", [])
            .unwrap();
        let checked = store.check_invariants().unwrap();
        assert!(!checked.ok);
        assert!(
            checked
                .problems
                .iter()
                .any(|p| p.contains("2 of 30 games read again")),
            "{:?}",
            checked.problems
        );
        assert_eq!(store.unindexed().unwrap(), 10);
    }

    #[test]
    fn the_counts_stats_keeps_equal_a_recount_and_a_tampered_one_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db.sqlite");
        let pdn = dir.path().join("g.pdn");
        let mut text = Vec::new();
        let options = crate::generate::GenerateOptions {
            games: 30,
            seed: 5,
            rules: crate::rules::Preset::English.rules(),
            notation: crate::notation::Notation::Numeric,
        };
        crate::generate::generate(&options, &mut text).unwrap();
        std::fs::write(&pdn, text).unwrap();
        let mut store = Store::open(&db, Mode::Write).unwrap();
        Importer::new(&mut store, Default::default())
            .run(
                &[crate::pdn::Input::open(&pdn, None).unwrap().unwrap()],
                &mut |_| {},
            )
            .unwrap();
        let stats = store.stats().unwrap();
        let recount = |sql: &str| -> i64 { store.conn().query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(stats.files, 1);
        assert_eq!(stats.games, recount("SELECT count(*) FROM game"));
        assert_eq!(stats.games, 30);
        assert_eq!(stats.positions, postings::count(store.conn()).unwrap());
        assert_eq!(stats.by_status.get("ok"), Some(&serde_json::json!(30)));
        assert!(store.check_invariants().unwrap().ok);
        store
            .conn()
            .execute_batch(
                "UPDATE kept_count SET n = n + 2 WHERE name = 'positions'; \
                 UPDATE game SET status = 'illegal' WHERE id = 3; \
                 UPDATE tag_value SET games = games + 1 WHERE field = 'status' AND value = 'ok';",
            )
            .unwrap();
        let stats = store.stats().unwrap();
        assert_eq!(stats.by_status.get("illegal"), Some(&serde_json::json!(1)));
        let found = store.check_invariants().unwrap().problems;
        let positions = postings::count(store.conn()).unwrap();
        assert!(
            found.contains(&format!(
                "stats keeps {} positions indexed, a recount finds {positions}",
                positions + 2
            )),
            "{found:?}"
        );
        assert!(
            found.contains(&"stats keeps 30 ok games, a recount finds 29".to_string()),
            "{found:?}"
        );
        assert!(
            !found.iter().any(|p| p.contains("illegal games")),
            "{found:?}"
        );
    }

    #[test]
    fn counts_of_players_and_tags_that_differ_from_the_games_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let problems = |store: &Store| store.check_invariants().unwrap().problems;
        store
            .conn()
            .execute_batch(
                "INSERT INTO game (id, status, variant, preset, white, black, event, outcome, day) \
                 VALUES (1, 'ok', 'english', 'english', 'Ann', 'Bo', 'Open', 1, '2001.01.01'); \
                 INSERT INTO source_file (id, path, size, hash, imported_at) VALUES (1, 'a', 0, '', ''); \
                 INSERT INTO provenance (file, idx, game, byte_offset, line, text) VALUES (1, 1, 1, 0, 1, x'');",
            )
            .unwrap();
        let found = problems(&store);
        assert!(found.iter().any(|p| p.contains("event, site")), "{found:?}");
        assert!(
            found.iter().any(|p| p.contains("the players' counts")),
            "{found:?}"
        );
        store
            .conn()
            .execute_batch(
                "INSERT INTO tag_value (field, value, games) VALUES ('event', 'Open', 1), ('site', '', 1), \
                 ('variant', 'english', 1), ('preset', 'english', 1); \
                 INSERT INTO player_stat (name, variant, preset, games, wins, draws, losses, unknown, \
                 first_day, last_day) VALUES ('Ann', 'english', 'english', 1, 1, 0, 0, 0, '2001.01.01', '2001.01.01'), \
                 ('Bo', 'english', 'english', 1, 0, 0, 1, 0, '2001.01.01', '2002.01.01');",
            )
            .unwrap();
        let found = problems(&store);
        assert!(
            !found.iter().any(|p| p.contains("event, site")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.starts_with("2 differences between the players'")),
            "{found:?}"
        );
    }
}
