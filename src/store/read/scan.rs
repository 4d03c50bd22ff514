//! Searches beyond one exact position: patterns and materials (see
//! [`crate::pattern`]), found by replaying every game of the variant
//! filter from its stored moves on every core; and exact positions with
//! colours reversed, found through the position index.
//!
//! A pattern search looks at the positions of each game's first reading
//! (the stored moves): all of them for a game that is not `ambiguous`,
//! those before the ply where the readings part for an ambiguous one
//! (the positions every reading shares). Every hit is the replayed
//! position itself tested, so a hit always holds; games come out in id
//! order whatever the number of cores.

use std::collections::HashMap;
use std::ops::{ControlFlow, Range};

use crate::notation::write_fen;
use crate::pattern::{
    Colours, Criteria, Manoeuvre, Material, Pattern, PatternError, reversed_position,
};
use crate::replay::Status;
use crate::rules::{Position, Rules};
use crate::store::codec::moves::{each_move, each_position};
use crate::store::codec::summary;
use crate::store::read::games::GameFilter;
use crate::store::read::listing::Shown;
use crate::store::read::prefilter;
use crate::store::read::query::{PositionQuery, SearchHit, VariantFilter};
use crate::store::stored::game::start_position;
use crate::store::stored::id::GameId;
use crate::store::stored::param::{Param, Wording};
use crate::store::stored::record::{parse_record, parse_status};
use crate::store::stored::{Store, StoreError};

/// Why the criteria of a search cannot be used: the value that is wrong
/// and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriteriaError {
    /// The value.
    pub param: Param,
    /// What is wrong.
    pub error: PatternError,
}

impl CriteriaError {
    /// The message, the value named as `wording` names it
    /// (`--pattern: …` or `pattern: …`).
    pub fn worded(&self, wording: Wording) -> String {
        self.said(wording).to_string()
    }

    /// The message as a code and its parts, the value named as `wording`
    /// names it.
    pub fn said(&self, wording: Wording) -> crate::message::RequestMessage {
        let param = match (self.param, wording) {
            (Param::PatternJson, Wording::Options) => "--pattern-json".to_string(),
            (param, wording) => wording.name(param),
        };
        crate::message::RequestMessage::BadPattern {
            param,
            why: self.error.to_string(),
        }
    }
}

impl std::fmt::Display for CriteriaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.worded(Wording::Options))
    }
}

impl std::error::Error for CriteriaError {}

/// The criteria of a search: a pattern (in its written or its JSON form),
/// a material, or both, read on the board of `rules`, in `colours`.
///
/// # Errors
/// A pattern or material that cannot be read, naming the value and the
/// part that is wrong.
pub fn criteria(
    pattern: Option<&str>,
    pattern_json: Option<&str>,
    material: Option<&str>,
    manoeuvres: &[&str],
    colours: Colours,
    rules: &Rules,
) -> Result<Criteria, CriteriaError> {
    let wrong = |param| move |error| CriteriaError { param, error };
    let pattern = match (pattern, pattern_json) {
        (Some(_), Some(_)) => {
            return Err(CriteriaError {
                param: Param::PatternJson,
                error: PatternError::whole("give a pattern in one form, not both"),
            });
        }
        (Some(text), None) => Some(Pattern::parse(text, rules).map_err(wrong(Param::Pattern))?),
        (None, Some(json)) => {
            Some(Pattern::from_json(json, rules).map_err(wrong(Param::PatternJson))?)
        }
        (None, None) => None,
    };
    let material = material
        .map(Material::parse)
        .transpose()
        .map_err(wrong(Param::Material))?;
    let manoeuvres = manoeuvres
        .iter()
        .map(|m| Manoeuvre::parse(m, rules))
        .collect::<Result<Vec<_>, _>>()
        .map_err(wrong(Param::Manoeuvre))?;
    Ok(Criteria::new(pattern, material, colours).with_manoeuvres(manoeuvres))
}

/// Games read from the database and replayed at once, split among the
/// cores.
const CHUNK: usize = 8_192;

/// Start positions kept between games (most games share few).
const STARTS_KEPT: usize = 4_096;

/// Games read from the database to be replayed at once, their moves and
/// stored summaries one after the other in one buffer.
#[derive(Default)]
pub(in crate::store) struct Chunk {
    /// The games, in id order.
    pub games: Vec<Candidate>,
    /// Their moves and summaries.
    pub bytes: Vec<u8>,
}

/// A game to replay.
pub(in crate::store) struct Candidate {
    pub id: i64,
    pub outcome: i64,
    pub rules: Rules,
    pub start: Position,
    /// Where its stored moves are in the chunk's bytes.
    pub moves: Range<usize>,
    /// Where its stored summary is in the chunk's bytes (`None`: it has
    /// none).
    pub summary: Option<Range<usize>>,
    /// The last position number of those a search looks at (all those of
    /// the stored reading, or those every reading shares).
    pub last: usize,
}

/// A game of a chunk to replay: its moves and the last position number
/// to look at.
pub(in crate::store) struct Replayed<'c> {
    pub game: &'c Candidate,
    pub moves: &'c [u8],
    pub last: usize,
}

/// A game that fits: where first, the position there, whether with
/// colours reversed, and (when asked for) every position number that fits.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::store) struct Fit {
    pub id: i64,
    pub outcome: i64,
    pub ply: usize,
    pub position: Position,
    pub reversed: bool,
    pub plies: Vec<i64>,
}

/// Where `game` first fits `criteria` (and, with `all_plies`, everywhere
/// it does); `None` when nowhere.
pub(in crate::store) fn fit_in(
    Replayed { game, moves, last }: Replayed<'_>,
    criteria: &Criteria,
    all_plies: bool,
) -> Option<Fit> {
    if !criteria.manoeuvres.is_empty() {
        return manoeuvres_in(Replayed { game, moves, last }, criteria, all_plies);
    }
    let mut fit: Option<Fit> = None;
    each_position(&game.rules, &game.start, moves, last, |ply, position| {
        let Some(reversed) = criteria.test(position) else {
            // Nothing later can fit once a side is too short of men
            // or pieces.
            return if criteria.hopeless(position, &game.rules) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            };
        };
        match &mut fit {
            Some(fit) => fit.plies.push(ply as i64),
            None => {
                fit = Some(Fit {
                    id: game.id,
                    outcome: game.outcome,
                    ply,
                    position: *position,
                    reversed,
                    plies: vec![ply as i64],
                });
            }
        }
        if all_plies {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    fit
}

/// Where `game` first completes the criteria's manoeuvres, as given or
/// with colours reversed, and then fits their pattern and material in the
/// same colours: the first such position from the one after the move that
/// plays the last manoeuvre on (as given on a tie); `None` when none.
/// With `all_plies` and a pattern or material, every later position that
/// fits them in the same colours is listed too.
fn manoeuvres_in(
    Replayed { game, moves, last }: Replayed<'_>,
    criteria: &Criteria,
    all_plies: bool,
) -> Option<Fit> {
    let sequences = criteria.sequences();
    let more = all_plies && (criteria.pattern.is_some() || criteria.material.is_some());
    let mut done = [0usize; 2];
    let mut fit: Option<Fit> = None;
    each_move(&game.rules, &game.start, moves, last, |ply, before, mv| {
        let after = before.play(mv);
        if let Some(fit) = &mut fit {
            if criteria.holds(fit.reversed, &after) {
                fit.plies.push(ply as i64);
            }
            return ControlFlow::Continue(());
        }
        for (way, sequence) in sequences.iter().enumerate() {
            let Some(sequence) = sequence else {
                continue;
            };
            if sequence
                .get(done[way])
                .is_some_and(|m| m.matches(before, mv, &after))
            {
                done[way] += 1;
            }
            if done[way] == sequence.len() && criteria.holds(way == 1, &after) {
                fit = Some(Fit {
                    id: game.id,
                    outcome: game.outcome,
                    ply,
                    position: after,
                    reversed: way == 1,
                    plies: vec![ply as i64],
                });
                return if more {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                };
            }
        }
        ControlFlow::Continue(())
    });
    fit
}

/// Games a core takes from a chunk at a time.
const PIECE: usize = 128;

/// The games of `chunk` that fit, in the chunk's order, found on up to
/// `threads` cores, each taking the next [`PIECE`] games as it is done
/// with its last (games take unequal times to replay: long games, games
/// stopped early). A game is replayed only up to the last position its
/// stored summary leaves (see [`Criteria::last_to_look_at`]).
pub(in crate::store) fn fits_of(
    chunk: &Chunk,
    criteria: &Criteria,
    all_plies: bool,
    threads: usize,
) -> Vec<Fit> {
    let pieces = chunk.games.len().div_ceil(PIECE);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut found = Vec::new();
        let mut phases = Vec::new();
        loop {
            let piece = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(games) = chunk.games.chunks(PIECE).nth(piece) else {
                return found;
            };
            for game in games {
                let summary = game.summary.clone().map(|at| &chunk.bytes[at]);
                let Some(last) = prefilter::last_to_look_at(summary, criteria, &mut phases) else {
                    continue;
                };
                let replayed = Replayed {
                    game,
                    moves: &chunk.bytes[game.moves.clone()],
                    last: game.last.min(last),
                };
                if let Some(fit) = fit_in(replayed, criteria, all_plies) {
                    found.push((piece, fit));
                }
            }
        }
    };
    let mut found: Vec<(usize, Fit)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads.clamp(1, pieces.max(1)))
            .map(|_| scope.spawn(work))
            .collect();
        let mut found = work();
        for worker in workers {
            // A worker panics only on a bug; its games are then left out.
            found.extend(worker.join().unwrap_or_default());
        }
        found
    });
    // Each piece's fits are in order; pieces are put back in order.
    found.sort_by_key(|(piece, _)| *piece);
    found.into_iter().map(|(_, fit)| fit).collect()
}

/// The cores to scan on.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(16))
}

/// Rules and start positions met during a scan, by variant and start FEN
/// (looked up without copying the row's text: most games share both).
#[derive(Default)]
struct Starts {
    by_variant: HashMap<String, VariantStarts>,
    kept: usize,
    /// The variant of the last game from its initial position, its rules
    /// and that position (most games follow one of the same variant).
    last_initial: Option<(String, Rules, Position)>,
}

/// A variant's rules, its initial position and the set-up starts met.
struct VariantStarts {
    rules: Option<Rules>,
    initial: Option<Position>,
    set_up: HashMap<String, Option<Position>>,
}

impl Starts {
    /// The rules and start of a game of `variant` from `start_fen` (the
    /// variant's initial position when `None`); `None` when either cannot
    /// be rebuilt.
    fn get(&mut self, variant: &str, start_fen: Option<&str>) -> Option<(Rules, Position)> {
        if start_fen.is_none()
            && let Some((last, rules, start)) = &self.last_initial
            && last == variant
        {
            return Some((*rules, *start));
        }
        let found = self.look_up(variant, start_fen);
        if let (None, Some((rules, start))) = (start_fen, found) {
            self.last_initial = Some((variant.to_string(), rules, start));
        }
        found
    }

    /// [`Starts::get`] through the maps.
    fn look_up(&mut self, variant: &str, start_fen: Option<&str>) -> Option<(Rules, Position)> {
        if !self.by_variant.contains_key(variant) {
            let rules = Rules::parse(variant).ok();
            let starts = VariantStarts {
                rules,
                initial: rules.map(|r| Position::initial(&r)),
                set_up: HashMap::new(),
            };
            self.by_variant.insert(variant.to_string(), starts);
        }
        let starts = self.by_variant.get(variant)?;
        let rules = starts.rules?;
        let Some(fen) = start_fen else {
            return Some((rules, starts.initial?));
        };
        if let Some(start) = starts.set_up.get(fen) {
            return Some((rules, (*start)?));
        }
        if self.kept >= STARTS_KEPT {
            for starts in self.by_variant.values_mut() {
                starts.set_up.clear();
            }
            self.kept = 0;
        }
        let starts = self.by_variant.get_mut(variant)?;
        let start = start_position(&rules, Some(fen));
        starts.set_up.insert(fen.to_string(), start);
        self.kept += 1;
        Some((rules, start?))
    }
}

impl Store {
    /// Every game of the variant filter, in id order, as [`Candidate`]s
    /// handed to `each` a chunk at a time (games never replayed, games
    /// whose rules or start cannot be rebuilt and games whose summary
    /// rules out `criteria` left out); `each` gives back
    /// the chunk to fill next (one it is done with, so that the buffers
    /// are made once).
    fn each_candidate_chunk<E: From<StoreError>>(
        &self,
        filter: &VariantFilter,
        criteria: &Criteria,
        mut each: impl FnMut(Chunk) -> Result<Chunk, E>,
    ) -> Result<(), E> {
        let sql = format!(
            "SELECT g.id, g.status, g.variant, g.start_fen, g.moves, g.outcome, g.record, g.summary \
             FROM game g WHERE {} ORDER BY g.id",
            filter.sql().replace("?2", "?1")
        );
        let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
        let mut stmt = self.conn().prepare(&sql).map_err(sqlite)?;
        let mut rows = match &filter.0 {
            None => stmt.query([]),
            Some(v) => stmt.query([v]),
        }
        .map_err(sqlite)?;
        let mut starts = Starts::default();
        let mut chunk = Chunk::default();
        while let Some(r) = rows.next().map_err(sqlite)? {
            read_candidate(r, criteria, &mut starts, &mut chunk)?;
            if chunk.games.len() == CHUNK {
                chunk = each(chunk)?;
                chunk.games.clear();
                chunk.bytes.clear();
            }
        }
        if !chunk.games.is_empty() {
            each(chunk)?;
        }
        Ok(())
    }

    /// Every game of the variant filter and the game filters with a
    /// position that fits `criteria` (sorted by id, at most `limit`; 0 for
    /// all), handed to `each` as found, at its first such position (with
    /// `all_plies`, also every position that fits); then how many were
    /// handed out of how many fit.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_pattern_hit<E: From<StoreError>>(
        &self,
        criteria: &Criteria,
        filter: &VariantFilter,
        games: &GameFilter,
        all_plies: bool,
        limit: usize,
        mut each: impl FnMut(SearchHit) -> Result<(), E>,
    ) -> Result<Shown, E> {
        let threads = threads();
        let (mut shown, mut total) = (0, 0);
        let mut hand_out = |fits: Vec<Fit>| -> Result<(), E> {
            for fit in self.passing(fits, games, |f| f.id)? {
                total += 1;
                if limit != 0 && shown >= limit {
                    continue;
                }
                let fen = write_fen(&fit.position);
                if let Some(mut hit) = self.search_hit(fit.id, fit.ply as i64, fit.outcome, fen)? {
                    hit.reversed = fit.reversed;
                    hit.matching_plies = all_plies.then_some(fit.plies);
                    each(hit)?;
                    shown += 1;
                }
            }
            Ok(())
        };
        // The games are read while the chunk before is replayed; the fits
        // come back in the chunks' order.
        std::thread::scope(|scope| -> Result<(), E> {
            let (to_replay, chunks) = std::sync::mpsc::sync_channel::<Chunk>(1);
            let (to_hand_out, found) = std::sync::mpsc::channel::<(Vec<Fit>, Chunk)>();
            scope.spawn(move || {
                for chunk in chunks {
                    let fits = fits_of(&chunk, criteria, all_plies, threads);
                    if to_hand_out.send((fits, chunk)).is_err() {
                        break;
                    }
                }
            });
            let mut spare = None;
            self.each_candidate_chunk(filter, criteria, |chunk| -> Result<Chunk, E> {
                // Sending fails only when the replaying thread is gone
                // (on a bug); its chunks are then left out.
                let _ = to_replay.send(chunk);
                while let Ok((fits, done)) = found.try_recv() {
                    hand_out(fits)?;
                    spare = Some(done);
                }
                Ok(spare.take().unwrap_or_default())
            })?;
            drop(to_replay);
            for (fits, _) in found {
                hand_out(fits)?;
            }
            Ok(())
        })?;
        Ok(Shown { shown, total })
    }

    /// Of `found`, those whose game passes `games`, in the same order.
    fn passing<T>(
        &self,
        found: Vec<T>,
        games: &GameFilter,
        id: impl Fn(&T) -> i64,
    ) -> Result<Vec<T>, StoreError> {
        if games.is_empty() || found.is_empty() {
            return Ok(found);
        }
        let ids: Vec<i64> = found.iter().map(&id).collect();
        let passing: std::collections::HashSet<i64> =
            self.games_passing(games, &ids)?.into_iter().collect();
        Ok(found
            .into_iter()
            .filter(|f| passing.contains(&id(f)))
            .collect())
    }

    /// Every game that reaches the query's position in `colours` (see
    /// [`Colours`]), sorted by id, at most `limit` (0 for all), handed to
    /// `each`; then how many were handed out of how many there are. The
    /// position with colours reversed is looked up in the position index
    /// as the position itself is.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_search_hit_in<E: From<StoreError>>(
        &self,
        query: &PositionQuery,
        colours: Colours,
        games: &GameFilter,
        limit: usize,
        mut each: impl FnMut(SearchHit) -> Result<(), E>,
    ) -> Result<Shown, E> {
        let reversed = reversed_position(&query.position, &query.rules);
        match colours {
            Colours::AsGiven => {
                self.each_search_hit(&query.position, &query.filter, games, limit, each)
            }
            Colours::Reversed => {
                self.each_search_hit(&reversed, &query.filter, games, limit, |mut hit| {
                    hit.reversed = true;
                    each(hit)
                })
            }
            Colours::Both if games.is_empty() => self.both_in_order(query, &reversed, limit, each),
            Colours::Both => {
                let given = self.first_plies_at(&query.position, &query.filter)?;
                let turned = self.first_plies_at(&reversed, &query.filter)?;
                let merged = merge_first(given, turned);
                let (mut shown, mut total) = (0, 0);
                for part in merged.chunks(CHUNK) {
                    for (game, ply, outcome, is_reversed) in
                        self.passing(part.to_vec(), games, |f| f.0)?
                    {
                        total += 1;
                        if limit != 0 && shown >= limit {
                            continue;
                        }
                        let at = if is_reversed {
                            &reversed
                        } else {
                            &query.position
                        };
                        if let Some(mut hit) = self.search_hit(game, ply, outcome, write_fen(at))? {
                            hit.reversed = is_reversed;
                            each(hit)?;
                            shown += 1;
                        }
                    }
                }
                Ok(Shown { shown, total })
            }
        }
    }
}

impl Store {
    /// The games that reach the query's position as given or `reversed`
    /// (no game filters), in id order, each once at its first ply there
    /// (as given on a tie), at most `limit` (0 for all) handed to `each`.
    /// The games of the position fewer games reach are listed; the others
    /// are read in order beside them, only until the limit and the last
    /// listed game are passed (the total is then known from the counts).
    fn both_in_order<E: From<StoreError>>(
        &self,
        query: &PositionQuery,
        reversed: &Position,
        limit: usize,
        mut each: impl FnMut(SearchHit) -> Result<(), E>,
    ) -> Result<Shown, E> {
        let given = &query.position;
        let counts = [
            self.games_at_count(given, &query.filter)?,
            self.games_at_count(reversed, &query.filter)?,
        ];
        // Which side is listed: the reversed position when it has fewer.
        let listed_reversed = counts[1] <= counts[0];
        let (listed_at, read_at) = if listed_reversed {
            (reversed, given)
        } else {
            (given, reversed)
        };
        let mut listed = self.first_plies_at(listed_at, &query.filter)?;
        listed.sort_unstable();
        listed.dedup_by_key(|f| f.0);
        let last_listed = listed.last().map(|f| f.0);
        let (mut next, mut in_both, mut shown) = (0, 0, 0);
        // Whether `limit` games have been handed out, after this one.
        let mut hand_out = |(game, ply, outcome): (i64, i64, i64), is_reversed: bool| {
            if limit == 0 || shown < limit {
                let at = if is_reversed { reversed } else { given };
                if let Some(mut hit) = self.search_hit(game, ply, outcome, write_fen(at))? {
                    hit.reversed = is_reversed;
                    each(hit)?;
                    shown += 1;
                }
            }
            Ok::<_, E>(limit != 0 && shown >= limit)
        };
        self.each_first_ply_at(read_at, &query.filter, |found| {
            while listed.get(next).is_some_and(|l| l.0 < found.0) {
                hand_out(listed[next], listed_reversed)?;
                next += 1;
            }
            let all_shown = match listed.get(next) {
                Some(&other) if other.0 == found.0 => {
                    in_both += 1;
                    next += 1;
                    // The first ply; on a tie, the position as given.
                    let (reversed_at, given_at) = if listed_reversed {
                        (other, found)
                    } else {
                        (found, other)
                    };
                    if reversed_at.1 < given_at.1 {
                        hand_out(reversed_at, true)?
                    } else {
                        hand_out(given_at, false)?
                    }
                }
                _ => hand_out(found, !listed_reversed)?,
            };
            Ok::<_, E>(if all_shown && last_listed.is_none_or(|l| found.0 >= l) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        })?;
        for &rest in &listed[next..] {
            hand_out(rest, listed_reversed)?;
        }
        let total = (counts[0] + counts[1]).saturating_sub(in_both);
        Ok(Shown { shown, total })
    }
}

/// Two lists of `(game, ply, outcome)` merged by game: each game once, at
/// its first ply, marked when that comes from `turned` alone.
fn merge_first(
    mut given: Vec<(i64, i64, i64)>,
    mut turned: Vec<(i64, i64, i64)>,
) -> Vec<(i64, i64, i64, bool)> {
    given.sort_unstable();
    turned.sort_unstable();
    let mut all: Vec<(i64, i64, i64, bool)> = given
        .into_iter()
        .map(|(g, p, o)| (g, p, o, false))
        .chain(turned.into_iter().map(|(g, p, o)| (g, p, o, true)))
        .collect();
    // By game, then ply, the position as given first on a tie.
    all.sort_unstable_by_key(|&(g, p, _, r)| (g, p, r));
    all.dedup_by_key(|f| f.0);
    all
}

/// Adds the game of a row of [`Store::each_candidate_chunk`]'s query to
/// `chunk`, with its moves and stored summary; not a game never
/// replayed, one whose start cannot be rebuilt, nor one whose summary
/// shows that no position of it fits `criteria` (its phases are tested
/// where it is replayed: [`fits_of`]).
fn read_candidate(
    r: &rusqlite::Row<'_>,
    criteria: &Criteria,
    starts: &mut Starts,
    chunk: &mut Chunk,
) -> Result<(), StoreError> {
    let id: i64 = r.get(0)?;
    let summary = r
        .get_ref(7)?
        .as_blob_or_null()
        .map_err(rusqlite::Error::from)?;
    // What the moves did is read only when a manoeuvre may rule it out.
    let decode = if criteria.manoeuvres.is_empty() {
        summary::decode_positions
    } else {
        summary::decode
    };
    if summary
        .and_then(decode)
        .is_some_and(|s| !criteria.may_fit(&s))
    {
        return Ok(());
    }
    let status = parse_status(
        GameId(id),
        r.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?,
    )?;
    if matches!(status, Status::Unreadable | Status::Unsupported) {
        return Ok(());
    }
    let variant = r.get_ref(2)?.as_str().map_err(rusqlite::Error::from)?;
    let start_fen = r
        .get_ref(3)?
        .as_str_or_null()
        .map_err(rusqlite::Error::from)?;
    let Some((rules, start)) = starts.get(variant, start_fen) else {
        return Ok(());
    };
    let moves = r
        .get_ref(4)?
        .as_blob_or_null()
        .map_err(rusqlite::Error::from)?;
    let last = match status {
        // The positions every reading shares: those before the readings part.
        Status::Ambiguous => match r
            .get_ref(6)?
            .as_str_or_null()
            .map_err(rusqlite::Error::from)?
        {
            Some(json) => parse_record(GameId(id), json)?
                .ply
                .map_or(0, |p| p.saturating_sub(1)),
            None => 0,
        },
        _ => usize::MAX,
    };
    let outcome = r.get(5)?;
    let bytes = &mut chunk.bytes;
    let mut append = |part: &[u8]| {
        bytes.extend_from_slice(part);
        bytes.len() - part.len()..bytes.len()
    };
    let moves = append(moves.unwrap_or_default());
    let summary = summary.map(append);
    chunk.games.push(Candidate {
        id,
        outcome,
        rules,
        start,
        moves,
        summary,
        last,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, SplitMix64, generate};
    use crate::notation::Notation;
    use crate::pattern::{Cond, Manoeuvre, Material, Pattern, PieceClass, completed_at};
    use crate::rules::{Color, Preset, Square, squares};
    use crate::store::GameId;
    use crate::store::stored::handle::Mode;

    /// A database of `games` generated games of each preset.
    fn archive(dir: &std::path::Path, presets: &[Preset], games: usize) -> Store {
        let db = dir.join("db.sqlite");
        let mut store = Store::open(&db, Mode::Write).unwrap();
        let mut inputs = Vec::new();
        for (i, preset) in presets.iter().enumerate() {
            let path = dir.join(format!("{}.pdn", preset.name()));
            let mut out = std::fs::File::create(&path).unwrap();
            let options = GenerateOptions {
                games,
                seed: 7 + i as u64,
                rules: preset.rules(),
                notation: Notation::usual_for(*preset),
            };
            generate(&options, &mut out).unwrap();
            inputs.push(crate::pdn::Input::open(&path, None).unwrap().unwrap());
        }
        crate::store::import::Importer::new(&mut store, crate::replay::Overrides::default())
            .run(&inputs, &mut |_| {})
            .unwrap();
        drop(store);
        Store::open(&db, Mode::Read).unwrap()
    }

    /// Every game's positions: replayed through the stored game, as a
    /// game view does, one position a ply.
    fn every_position(store: &Store, preset: Preset) -> Vec<(i64, Rules, Vec<Position>)> {
        let mut all = Vec::new();
        let filter = VariantFilter::new(Some(preset.name()));
        store
            .each_game_id(&filter, |id| {
                let game = store.game(GameId(id)).unwrap().unwrap();
                let (rules, start, moves) = game.reading().unwrap();
                let mut positions = vec![start];
                positions.extend(moves.iter().map(|(p, m)| p.play(m)));
                if game.status == Status::Ambiguous {
                    positions.truncate(game.record.ply.unwrap_or(1));
                }
                all.push((id, rules, positions));
                Ok::<_, StoreError>(ControlFlow::Continue(()))
            })
            .unwrap();
        all
    }

    /// A condition tested square by square, as a person reads it.
    fn naive_holds(c: &Cond, position: &Position) -> bool {
        let each = |s: Square| {
            let piece = position.piece_at(s);
            let is = match c.class {
                PieceClass::WhiteMan => piece.is_some_and(|p| p.color == Color::White && !p.king),
                PieceClass::WhiteKing => piece.is_some_and(|p| p.color == Color::White && p.king),
                PieceClass::White => piece.is_some_and(|p| p.color == Color::White),
                PieceClass::BlackMan => piece.is_some_and(|p| p.color == Color::Black && !p.king),
                PieceClass::BlackKing => piece.is_some_and(|p| p.color == Color::Black && p.king),
                PieceClass::Black => piece.is_some_and(|p| p.color == Color::Black),
                PieceClass::Piece => piece.is_some(),
                PieceClass::Empty => piece.is_none(),
            };
            is != c.negated
        };
        squares(c.squares).all(each)
    }

    /// A random pattern and material, taken from a position (so that
    /// some games fit) and changed at random.
    fn random_criteria(
        rng: &mut SplitMix64,
        rules: &Rules,
        seen: &Position,
    ) -> (Vec<Cond>, Vec<Vec<Cond>>, Option<Color>, Option<Material>) {
        let g = rules.geometry;
        let class_there = |rng: &mut SplitMix64, s: Square| match seen.piece_at(s) {
            None => PieceClass::Empty,
            Some(p) => {
                let options = match (p.color, p.king) {
                    (Color::White, false) => [PieceClass::WhiteMan, PieceClass::White],
                    (Color::White, true) => [PieceClass::WhiteKing, PieceClass::White],
                    (Color::Black, false) => [PieceClass::BlackMan, PieceClass::Black],
                    (Color::Black, true) => [PieceClass::BlackKing, PieceClass::Black],
                };
                if rng.below(4) == 0 {
                    PieceClass::Piece
                } else {
                    options[rng.below(2)]
                }
            }
        };
        let square = |rng: &mut SplitMix64| Square::new(1 + rng.below(g.len()) as u32).unwrap();
        let mut conds = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let s = square(rng);
            let negated = rng.below(5) == 0;
            let class = if negated {
                PieceClass::ALL[rng.below(8)]
            } else {
                class_there(rng, s)
            };
            conds.push(Cond {
                class,
                squares: s.bit(),
                negated,
            });
        }
        let mut groups = Vec::new();
        if rng.below(3) == 0 {
            let s = square(rng);
            let other = square(rng);
            groups.push(vec![
                Cond {
                    class: class_there(rng, s),
                    squares: s.bit(),
                    negated: false,
                },
                Cond {
                    class: PieceClass::ALL[rng.below(8)],
                    squares: other.bit(),
                    negated: false,
                },
            ]);
        }
        let side = [None, Some(Color::White), Some(Color::Black)][rng.below(3)];
        let material = (rng.below(3) == 0).then(|| {
            let counts = Material::counts(seen);
            let mut m = Material {
                bounds: [(0, u32::MAX); 6],
            };
            let k = rng.below(6);
            m.bounds[k] = (counts[k].saturating_sub(rng.below(2) as u32), counts[k]);
            m
        });
        (conds, groups, side, material)
    }

    #[test]
    fn the_scan_finds_what_replaying_every_game_finds() {
        let dir = tempfile::tempdir().unwrap();
        let presets = [
            Preset::English,
            Preset::Filipino,
            Preset::Russian,
            Preset::Pool,
            Preset::International,
            Preset::Czech,
            Preset::Italian,
            Preset::Spanish,
        ];
        let store = archive(dir.path(), &presets, 40);
        let mut rng = SplitMix64::new(2026);
        let mut hits_seen = 0;
        for preset in presets {
            let games = every_position(&store, preset);
            assert!(!games.is_empty(), "{preset:?}");
            for round in 0..12 {
                let (_, rules, positions) = &games[rng.below(games.len())];
                let seen = positions[rng.below(positions.len())];
                let (conds, groups, side, material) = random_criteria(&mut rng, rules, &seen);
                let mut pattern = Pattern::empty(rules.geometry);
                pattern.side = side;
                for c in &conds {
                    pattern.require(*c);
                }
                pattern.any_of = groups.clone();
                let pattern = (!pattern.is_empty() && round % 4 != 3).then_some(pattern);
                let material = material.or_else(|| {
                    pattern.is_none().then_some(Material {
                        bounds: [
                            (0, u32::MAX),
                            (1, u32::MAX),
                            (0, u32::MAX),
                            (0, u32::MAX),
                            (0, u32::MAX),
                            (0, u32::MAX),
                        ],
                    })
                });
                let colours = [Colours::AsGiven, Colours::Reversed, Colours::Both][round % 3];
                // By hand: every position of every game, each condition
                // square by square; reversed by turning the position.
                let naive = |p: &Position| {
                    pattern.as_ref().is_none_or(|_| {
                        side.is_none_or(|s| s == p.side())
                            && conds.iter().all(|c| naive_holds(c, p))
                            && groups.iter().all(|g| g.iter().any(|c| naive_holds(c, p)))
                    }) && material.is_none_or(|m| m.matches(p))
                };
                let mut expected = Vec::new();
                for (id, rules, positions) in &games {
                    let mut fit: Option<(usize, bool, Vec<i64>)> = None;
                    for (ply, p) in positions.iter().enumerate() {
                        let how = if colours.as_given() && naive(p) {
                            Some(false)
                        } else if colours.reversed() && naive(&reversed_position(p, rules)) {
                            Some(true)
                        } else {
                            None
                        };
                        if let Some(reversed) = how {
                            fit.get_or_insert((ply, reversed, Vec::new()))
                                .2
                                .push(ply as i64);
                        }
                    }
                    if let Some((ply, reversed, plies)) = fit {
                        expected.push((*id, ply as i64, reversed, plies));
                    }
                }
                let criteria = Criteria::new(pattern.clone(), material, colours);
                let mut found = Vec::new();
                let shown = store
                    .each_pattern_hit(
                        &criteria,
                        &VariantFilter::new(Some(preset.name())),
                        &GameFilter::default(),
                        true,
                        0,
                        |hit| {
                            found.push((
                                hit.game.get(),
                                hit.ply,
                                hit.reversed,
                                hit.matching_plies.unwrap(),
                            ));
                            Ok::<_, StoreError>(())
                        },
                    )
                    .unwrap();
                assert_eq!(
                    found, expected,
                    "{preset:?} {pattern:?} {material:?} {colours:?}"
                );
                assert_eq!(shown.total, expected.len());
                hits_seen += expected.len();
            }
        }
        assert!(hits_seen > 100, "{hits_seen}");
    }

    /// A pattern of men a position has (one to three, and perhaps a group
    /// of two more of which one must hold).
    fn men_of(rng: &mut SplitMix64, rules: &Rules, seen: &Position) -> Pattern {
        let men: Vec<Cond> = squares(rules.geometry.all())
            .filter_map(|s| {
                let piece = seen.piece_at(s).filter(|p| !p.king)?;
                let class = match piece.color {
                    Color::White => PieceClass::WhiteMan,
                    Color::Black => PieceClass::BlackMan,
                };
                Some(Cond {
                    class,
                    squares: s.bit(),
                    negated: false,
                })
            })
            .collect();
        let mut pattern = Pattern::empty(rules.geometry);
        if men.is_empty() {
            return pattern;
        }
        for _ in 0..1 + rng.below(3) {
            pattern.require(men[rng.below(men.len())]);
        }
        if rng.below(2) == 0 {
            pattern.any_of = vec![vec![men[rng.below(men.len())], men[rng.below(men.len())]]];
        }
        pattern
    }

    /// Every hit of `criteria` among the games of `preset`, each with all
    /// its matching plies: (game, first ply, reversed, plies).
    fn every_hit(
        store: &Store,
        criteria: &Criteria,
        preset: Preset,
    ) -> Vec<(i64, i64, bool, Vec<i64>)> {
        let mut found = Vec::new();
        store
            .each_pattern_hit(
                criteria,
                &VariantFilter::new(Some(preset.name())),
                &GameFilter::default(),
                true,
                0,
                |hit| {
                    let plies = hit.matching_plies.unwrap();
                    found.push((hit.game.get(), hit.ply, hit.reversed, plies));
                    Ok::<_, StoreError>(())
                },
            )
            .unwrap();
        found
    }

    #[test]
    fn games_whose_men_went_past_are_left_as_replaying_them_through_finds() {
        let dir = tempfile::tempdir().unwrap();
        let presets = [
            Preset::English,
            Preset::Italian,
            Preset::Czech,
            Preset::Spanish,
        ];
        let store = archive(dir.path(), &presets, 60);
        let mut rng = SplitMix64::new(1906);
        let (mut hits_seen, mut stopped) = (0, 0);
        for preset in presets {
            let games = every_position(&store, preset);
            for round in 0..12 {
                let (_, rules, positions) = &games[rng.below(games.len())];
                let seen = positions[rng.below(positions.len())];
                let pattern = men_of(&mut rng, rules, &seen);
                let colours = [Colours::AsGiven, Colours::Reversed, Colours::Both][round % 3];
                let criteria = Criteria::new(Some(pattern.clone()), None, colours);
                let backwards = Rules {
                    men_capture_backward: true,
                    ..*rules
                };
                let mut expected = Vec::new();
                for (id, rules, positions) in &games {
                    let fits = |p: &Position| {
                        (colours.as_given() && pattern.matches(p))
                            || (colours.reversed() && pattern.matches(&reversed_position(p, rules)))
                    };
                    let plies: Vec<i64> = (0..positions.len())
                        .filter(|&ply| fits(&positions[ply]))
                        .map(|ply| ply as i64)
                        .collect();
                    if let Some(&first) = plies.first() {
                        let reversed =
                            !(colours.as_given() && pattern.matches(&positions[first as usize]));
                        expected.push((*id, first, reversed, plies));
                    }
                    // Games the men's rows end early (the counts alone would not).
                    stopped +=
                        usize::from(positions.iter().any(|p| {
                            criteria.hopeless(p, rules) && !criteria.hopeless(p, &backwards)
                        }));
                }
                let found = every_hit(&store, &criteria, preset);
                assert_eq!(found, expected, "{preset:?} {pattern:?} {colours:?}");
                hits_seen += expected.len();
            }
        }
        assert!(hits_seen > 100, "{hits_seen}");
        assert!(stopped > 100, "{stopped}");
    }

    /// How far a search replays the game `id`: the last position its
    /// stored summary and phases leave to look at (see
    /// [`Criteria::last_to_look_at`]).
    fn stored_last(store: &Store, id: i64, criteria: &Criteria) -> Option<usize> {
        let bytes: Vec<u8> = store
            .conn()
            .query_row("SELECT summary FROM game WHERE id = ?1", [id], |r| r.get(0))
            .unwrap();
        let mut phases = Vec::new();
        summary::decode_phases(&bytes, &mut phases);
        assert!(!phases.is_empty(), "game {id} has no phases");
        let decoded = criteria.last_to_look_at(&summary::decode(&bytes).unwrap(), &phases);
        // Tested in place, as the scan does: the same.
        let in_place = prefilter::last_to_look_at(Some(&bytes), criteria, &mut phases);
        assert_eq!(in_place, decoded, "game {id} {criteria:?}");
        decoded
    }

    #[test]
    fn patterns_of_pieces_from_two_moments_are_found_where_replaying_every_game_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        let presets = [
            Preset::Filipino,
            Preset::English,
            Preset::International,
            Preset::Italian,
        ];
        let store = archive(dir.path(), &presets, 40);
        let mut rng = SplitMix64::new(1961);
        let (mut hits_seen, mut cut, mut out) = (0, 0, 0);
        for preset in presets {
            let games = every_position(&store, preset);
            for round in 0..12 {
                // A man of one position of a game and a piece of another.
                let (_, rules, positions) = &games[rng.below(games.len())];
                let mut pattern = Pattern::empty(rules.geometry);
                for men_only in [true, false] {
                    let seen = positions[rng.below(positions.len())];
                    let wanted = if men_only { !seen.kings() } else { !0 };
                    let occupied: Vec<Square> = squares(seen.occupied() & wanted).collect();
                    if !occupied.is_empty() {
                        let s = occupied[rng.below(occupied.len())];
                        let piece = seen.piece_at(s).unwrap();
                        let class = match (piece.color, piece.king) {
                            (Color::White, false) => PieceClass::WhiteMan,
                            (Color::White, true) => PieceClass::White,
                            (Color::Black, false) => PieceClass::BlackMan,
                            (Color::Black, true) => PieceClass::Black,
                        };
                        pattern.require(Cond {
                            class,
                            squares: s.bit(),
                            negated: false,
                        });
                    }
                }
                let colours = [Colours::AsGiven, Colours::Reversed, Colours::Both][round % 3];
                let criteria = Criteria::new(Some(pattern.clone()), None, colours);
                let mut expected = Vec::new();
                for (id, _, positions) in &games {
                    let plies: Vec<i64> = (0..positions.len())
                        .filter(|&ply| criteria.test(&positions[ply]).is_some())
                        .map(|ply| ply as i64)
                        .collect();
                    if let Some(&first) = plies.first() {
                        let reversed = criteria.test(&positions[first as usize]) == Some(true);
                        expected.push((*id, first, reversed, plies));
                    }
                    let last = stored_last(&store, *id, &criteria);
                    cut += usize::from(last.is_some_and(|l| l + 1 < positions.len()));
                    out += usize::from(last.is_none());
                }
                let found = every_hit(&store, &criteria, preset);
                assert_eq!(found, expected, "{preset:?} {pattern:?} {colours:?}");
                hits_seen += expected.len();
            }
        }
        // Games were found, stopped before their end and left out.
        assert!(hits_seen > 50, "{hits_seen}");
        assert!(cut > 500 && out > 100, "{cut} {out}");
    }

    /// A manoeuvre taken from a move a game plays, some of its parts left
    /// open at random.
    fn manoeuvre_of(
        rng: &mut SplitMix64,
        rules: &Rules,
        before: &Position,
        mv: &crate::rules::Move,
    ) -> Manoeuvre {
        let mut words = Vec::new();
        if rng.below(2) == 0 {
            words.push(
                if before.side() == Color::White {
                    "W"
                } else {
                    "B"
                }
                .to_string(),
            );
        }
        if rng.below(2) == 0 {
            words.push(if mv.by_king() { "K" } else { "M" }.to_string());
        }
        let from = if rng.below(3) == 0 {
            "*".to_string()
        } else {
            mv.from().to_string()
        };
        let to = if rng.below(3) == 0 {
            "*".to_string()
        } else {
            mv.to().to_string()
        };
        let sep = match (rng.below(3), mv.is_capture()) {
            (0, _) => "/",
            (_, true) => "x",
            (_, false) => "-",
        };
        words.push(format!("{from}{sep}{to}"));
        if mv.is_capture() && rng.below(2) == 0 {
            words.push(format!("taken={}", mv.captured().count_ones()));
        }
        if rng.below(4) == 0 {
            words.push(format!(
                "promotes={}",
                if mv.promotes() { "yes" } else { "no" }
            ));
        }
        Manoeuvre::parse(&words.join(" "), rules).unwrap()
    }

    #[test]
    fn manoeuvres_are_found_where_replaying_every_game_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        let presets = [
            Preset::English,
            Preset::International,
            Preset::Italian,
            Preset::Russian,
        ];
        let store = archive(dir.path(), &presets, 30);
        let mut rng = SplitMix64::new(46);
        let mut hits_seen = 0;
        for preset in presets {
            let filter = VariantFilter::new(Some(preset.name()));
            let mut games = Vec::new();
            store
                .each_game_id(&filter, |id| {
                    let game = store.game(GameId(id)).unwrap().unwrap();
                    games.push((id, game.reading().unwrap()));
                    Ok::<_, StoreError>(ControlFlow::Continue(()))
                })
                .unwrap();
            for round in 0..10 {
                let (_, (rules, _, moves)) = &games[rng.below(games.len())];
                if moves.len() < 4 {
                    continue;
                }
                let first = rng.below(moves.len() / 2);
                let second = first + 1 + rng.below(moves.len() - first - 1);
                let mut sequence = vec![manoeuvre_of(
                    &mut rng,
                    rules,
                    &moves[first].0,
                    &moves[first].1,
                )];
                if round % 2 == 0 {
                    sequence.push(manoeuvre_of(
                        &mut rng,
                        rules,
                        &moves[second].0,
                        &moves[second].1,
                    ));
                }
                let colours = [Colours::AsGiven, Colours::Reversed, Colours::Both][round % 3];
                let criteria = Criteria::new(None, None, colours).with_manoeuvres(sequence.clone());
                let reversed: Vec<Manoeuvre> = sequence.iter().map(Manoeuvre::reversed).collect();
                let mut expected = Vec::new();
                for (id, (_, _, moves)) in &games {
                    let played = || moves.iter().map(|(p, m)| (p, m));
                    let given = colours
                        .as_given()
                        .then(|| completed_at(&sequence, played()))
                        .flatten();
                    let turned = colours
                        .reversed()
                        .then(|| completed_at(&reversed, played()))
                        .flatten();
                    let first = match (given, turned) {
                        (Some(g), Some(t)) if t < g => Some((t, true)),
                        (Some(g), _) => Some((g, false)),
                        (None, Some(t)) => Some((t, true)),
                        (None, None) => None,
                    };
                    if let Some((ply, reversed)) = first {
                        expected.push((*id, ply as i64, reversed));
                    }
                }
                let mut found = Vec::new();
                store
                    .each_pattern_hit(
                        &criteria,
                        &filter,
                        &GameFilter::default(),
                        false,
                        0,
                        |hit| {
                            found.push((hit.game.get(), hit.ply, hit.reversed));
                            Ok::<_, StoreError>(())
                        },
                    )
                    .unwrap();
                assert_eq!(found, expected, "{preset:?} {sequence:?} {colours:?}");
                hits_seen += expected.len();
            }
        }
        assert!(hits_seen > 20, "{hits_seen}");
    }

    /// Where a game first fits `pattern` and `material` from position
    /// `from` on, replaying it whole: `positions[k]` is position `k + 1`.
    fn fits_from(
        positions: &[Position],
        from: usize,
        pattern: Option<&Pattern>,
        material: Option<&Material>,
    ) -> Option<usize> {
        (from..=positions.len()).find(|&ply| {
            let at = &positions[ply - 1];
            pattern.is_none_or(|p| p.matches(at)) && material.is_none_or(|m| m.matches(at))
        })
    }

    #[test]
    fn manoeuvres_with_a_pattern_or_material_are_found_where_replaying_every_game_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        let presets = [Preset::English, Preset::International];
        let store = archive(dir.path(), &presets, 30);
        let mut rng = SplitMix64::new(47);
        let (mut hits_seen, mut later_seen) = (0, 0);
        for preset in presets {
            let filter = VariantFilter::new(Some(preset.name()));
            let mut games = Vec::new();
            store
                .each_game_id(&filter, |id| {
                    let game = store.game(GameId(id)).unwrap().unwrap();
                    games.push((id, game.reading().unwrap()));
                    Ok::<_, StoreError>(ControlFlow::Continue(()))
                })
                .unwrap();
            for round in 0..12 {
                let (_, (rules, _, moves)) = &games[rng.below(games.len())];
                if moves.len() < 6 {
                    continue;
                }
                let at = rng.below(moves.len() / 2);
                let sequence = vec![manoeuvre_of(&mut rng, rules, &moves[at].0, &moves[at].1)];
                // Asked of a position at or after the manoeuvre's in the
                // same game: its numbers of pieces, or one of its pieces.
                let (before, mv) = &moves[at + rng.below(moves.len() - at)];
                let later = before.play(mv);
                let (pattern, material) = if round % 2 == 0 {
                    let counts = Material::counts(&later);
                    let text = format!("w={},b={}", counts[4], counts[5]);
                    (None, Some(Material::parse(&text).unwrap()))
                } else {
                    let white = squares(later.pieces(Color::White)).next().unwrap();
                    let text = format!("W*{}", white.label());
                    (Some(Pattern::parse(&text, rules).unwrap()), None)
                };
                let colours = [Colours::AsGiven, Colours::Reversed, Colours::Both][round % 3];
                let criteria = Criteria::new(pattern.clone(), material, colours)
                    .with_manoeuvres(sequence.clone());
                let reversed: Vec<Manoeuvre> = sequence.iter().map(Manoeuvre::reversed).collect();
                let (pattern_r, material_r) = (
                    pattern.as_ref().map(Pattern::reversed),
                    material.as_ref().map(Material::reversed),
                );
                let mut expected = Vec::new();
                for (id, (_, _, moves)) in &games {
                    let played = || moves.iter().map(|(p, m)| (p, m));
                    let positions: Vec<Position> = moves.iter().map(|(p, m)| p.play(m)).collect();
                    let given = colours
                        .as_given()
                        .then(|| completed_at(&sequence, played()))
                        .flatten();
                    let turned = colours
                        .reversed()
                        .then(|| completed_at(&reversed, played()))
                        .flatten();
                    let given_fit = given.and_then(|g| {
                        fits_from(&positions, g, pattern.as_ref(), material.as_ref())
                    });
                    let turned_fit = turned.and_then(|t| {
                        fits_from(&positions, t, pattern_r.as_ref(), material_r.as_ref())
                    });
                    let first = match (given_fit, turned_fit) {
                        (Some(g), Some(t)) if t < g => Some((t, true)),
                        (Some(g), _) => Some((g, false)),
                        (None, Some(t)) => Some((t, true)),
                        (None, None) => None,
                    };
                    if let Some((ply, is_reversed)) = first {
                        let (p, m) = match is_reversed {
                            false => (pattern.as_ref(), material.as_ref()),
                            true => (pattern_r.as_ref(), material_r.as_ref()),
                        };
                        let every: Vec<i64> = (ply..=positions.len())
                            .filter(|&q| fits_from(&positions, q, p, m) == Some(q))
                            .map(|q| q as i64)
                            .collect();
                        expected.push((*id, ply as i64, is_reversed, every));
                        later_seen += usize::from(Some(ply) != given && Some(ply) != turned);
                    }
                }
                let mut found = Vec::new();
                store
                    .each_pattern_hit(&criteria, &filter, &GameFilter::default(), true, 0, |hit| {
                        let every = hit.matching_plies.unwrap_or_default();
                        found.push((hit.game.get(), hit.ply, hit.reversed, every));
                        Ok::<_, StoreError>(())
                    })
                    .unwrap();
                assert_eq!(
                    found, expected,
                    "{preset:?} {sequence:?} {pattern:?} {material:?} {colours:?}"
                );
                hits_seen += expected.len();
            }
        }
        assert!(hits_seen > 10, "{hits_seen}");
        assert!(later_seen > 0, "no hit after the manoeuvre's position");
    }

    #[test]
    fn both_colours_without_filters_read_in_order_find_what_both_lists_merged_find() {
        let dir = tempfile::tempdir().unwrap();
        let store = archive(dir.path(), &[Preset::English], 40);
        // Games set up at the reversal of positions of the others, with a
        // move or none: positions reached both ways.
        let games = every_position(&store, Preset::English);
        let rules = Preset::English.rules();
        let mut rng = SplitMix64::new(33);
        let mut picked = Vec::new();
        let mut text = String::new();
        for (_, _, positions) in games.iter().take(12) {
            let p = positions[rng.below(positions.len().min(12))];
            let turned = reversed_position(&p, &rules);
            for _ in 0..1 + rng.below(3) {
                let moves = turned.legal_moves(&rules);
                let first = moves
                    .get(rng.below(moves.len().max(1)))
                    .map(|m| m.short_numeric());
                text.push_str(&format!(
                    "[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n\n{} *\n\n",
                    write_fen(&turned),
                    first.map_or(String::new(), |m| format!("1. {m}"))
                ));
            }
            picked.push(p);
        }
        drop(store);
        let pdn = dir.path().join("turned.pdn");
        std::fs::write(&pdn, text).unwrap();
        let mut store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        let inputs = vec![crate::pdn::Input::open(&pdn, None).unwrap().unwrap()];
        crate::store::import::Importer::new(&mut store, crate::replay::Overrides::default())
            .run(&inputs, &mut |_| {})
            .unwrap();
        drop(store);
        let store = Store::open(&dir.path().join("db.sqlite"), Mode::Read).unwrap();
        let mut turned_hits = 0;
        for p in picked {
            let query = store
                .position_query(Some(&write_fen(&p)), None, Some("english"))
                .unwrap();
            let turned = reversed_position(&query.position, &query.rules);
            let given = store
                .first_plies_at(&query.position, &query.filter)
                .unwrap();
            let other = store.first_plies_at(&turned, &query.filter).unwrap();
            turned_hits += other.len();
            let merged = merge_first(given, other);
            for limit in [0, 1, 2, 5] {
                let mut found = Vec::new();
                let shown = store
                    .each_search_hit_in(
                        &query,
                        Colours::Both,
                        &GameFilter::default(),
                        limit,
                        |hit| {
                            found.push((hit.game.get(), hit.ply, hit.reversed));
                            Ok::<_, StoreError>(())
                        },
                    )
                    .unwrap();
                let mut expected: Vec<_> = merged.iter().map(|m| (m.0, m.1, m.3)).collect();
                if limit != 0 {
                    expected.truncate(limit);
                }
                assert_eq!(found, expected, "{} {limit}", write_fen(&p));
                assert_eq!(shown.total, merged.len());
            }
        }
        assert!(turned_hits > 10, "{turned_hits}");
    }

    /// Writes every summary of the database at `db` again in the older
    /// shape with phases; the bytes before and after.
    fn rewrite_in_older_shape(db: &std::path::Path) -> (usize, usize) {
        let store = Store::open(db, Mode::Write).unwrap();
        let conn = store.conn();
        let mut stmt = conn
            .prepare("SELECT id, variant, summary FROM game WHERE summary IS NOT NULL")
            .unwrap();
        let rows: Vec<(i64, String, Vec<u8>)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let (mut before, mut after) = (0, 0);
        for (id, variant, bytes) in rows {
            let geometry = Rules::parse(&variant).unwrap().geometry;
            let mut phases = crate::pattern::Phases::default();
            summary::decode_phases(&bytes, &mut phases.men);
            let decoded = summary::decode(&bytes).unwrap();
            let older = summary::encode_older(&decoded, Some(&phases), geometry);
            assert_eq!(summary::decode(&older), Some(decoded));
            before += bytes.len();
            after += older.len();
            conn.execute(
                "UPDATE game SET summary = ?1 WHERE id = ?2",
                rusqlite::params![older, id],
            )
            .unwrap();
        }
        (before, after)
    }

    #[test]
    fn summaries_of_the_older_shape_find_what_compact_ones_find() {
        let dir = tempfile::tempdir().unwrap();
        let presets = [Preset::English, Preset::International, Preset::Russian];
        let store = archive(dir.path(), &presets, 40);
        let mut rng = SplitMix64::new(1925);
        let mut asked = Vec::new();
        for preset in presets {
            let games = every_position(&store, preset);
            for round in 0..16 {
                let (_, rules, positions) = &games[rng.below(games.len())];
                let seen = positions[rng.below(positions.len())];
                let (conds, groups, side, material) = random_criteria(&mut rng, rules, &seen);
                let mut pattern = men_of(&mut rng, rules, &seen);
                if round % 2 == 0 {
                    pattern.any_of.clear();
                }
                pattern.side = side;
                for c in conds {
                    pattern.require(c);
                }
                if round % 4 == 1 {
                    pattern.any_of.extend(groups);
                }
                let colours = [Colours::AsGiven, Colours::Reversed, Colours::Both][round % 3];
                let criteria = Criteria::new(Some(pattern), material, colours);
                let hits = every_hit(&store, &criteria, preset);
                asked.push((preset, criteria, hits));
            }
        }
        drop(store);
        let (compact, older) = rewrite_in_older_shape(&dir.path().join("db.sqlite"));
        assert!(compact * 5 < older * 4, "{compact} {older}");
        let store = Store::open(&dir.path().join("db.sqlite"), Mode::Read).unwrap();
        let mut hits_seen = 0;
        for (preset, criteria, hits) in asked {
            assert_eq!(every_hit(&store, &criteria, preset), hits, "{criteria:?}");
            hits_seen += hits.len();
        }
        assert!(hits_seen > 50, "{hits_seen}");
    }

    #[test]
    fn both_colours_merge_by_game_at_the_first_ply() {
        let merged = merge_first(
            vec![(3, 5, 1), (1, 9, 0)],
            vec![(1, 4, 0), (2, 7, 2), (3, 5, 1)],
        );
        assert_eq!(
            merged,
            vec![(1, 4, 0, true), (2, 7, 2, true), (3, 5, 1, false)]
        );
    }
}
