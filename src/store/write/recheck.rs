//! Reading stored games again with the current rules and their inference:
//! `pdndb recheck`, and the next import of a file read by an older version.
//!
//! Each file's games are read again from their stored text, in file order
//! (so that the file's preset is chosen as an import would choose it),
//! with the options the file was imported with. A game whose status,
//! variant, notation, record or columns change is updated in place: its
//! old positions leave the index, its new ones enter it, and the counts of
//! the opening tree follow; a game that becomes equal to another stored
//! game is merged into it, as an import would have done; a further copy
//! of a game that is not that game (an older pdndb merged records that
//! differ in site, round or set-up) is taken apart from it. Each file is
//! rechecked in one transaction, so an interrupted recheck leaves every
//! file either as it was or read again, and running it again completes it.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::ops::ControlFlow;

use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use crate::notation::Notation;
use crate::pdn::{GameType, Reader};
use crate::replay::{
    CheckedGame, FileChecker, Overrides, RecordText, Status, VariantFrom, check_game, record_tags,
    record_text,
};
use crate::rules::{Preset, Rules};
use crate::store::codec::id_set::IdSet;
use crate::store::stored::{Store, StoreError};
use crate::store::write::prepared::{Deflater, Prepared, equal_game, prepare};
use crate::store::write::rows::{Update, insert_game, update_game};

/// The version of the rules and their inference that reads games: a file
/// read by an older one is read again. Version 1 read every record under
/// the five 8×8 presets, guessing Filipino or English without tags.
pub const READING_VERSION: i64 = 2;

/// The options a file was imported with, as stored with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileOptions {
    /// `--variant` (with `--rules` applied), as a recorded variant string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// `--rules` without `--variant`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// `--notation`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    /// `--encoding`, by its WHATWG name (the text is stored decoded, so a
    /// recheck does not need it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
}

impl FileOptions {
    /// The options of an import.
    pub fn of(overrides: &Overrides) -> FileOptions {
        FileOptions {
            variant: overrides.rules.map(|r| r.name()),
            rules: overrides.switches.as_ref().map(ToString::to_string),
            notation: overrides.notation.map(|n| n.name().to_string()),
            encoding: None,
        }
    }

    /// The choices to read the file's games with again.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            rules: self.variant.as_deref().and_then(|v| Rules::parse(v).ok()),
            switches: self.rules.as_deref().and_then(|s| s.parse().ok()),
            notation: self.notation.as_deref().and_then(|n| n.parse().ok()),
            skip_alternatives: false,
            positions: crate::replay::KeptPositions::All,
        }
    }

    /// The options as the arguments that give them
    /// (`--variant russian --notation vismin`).
    pub fn as_arguments(&self) -> String {
        let given = [
            ("--variant", &self.variant),
            ("--rules", &self.rules),
            ("--notation", &self.notation),
            ("--encoding", &self.encoding),
        ];
        let words: Vec<String> = given
            .iter()
            .filter_map(|(flag, value)| value.as_ref().map(|v| format!("{flag} {v}")))
            .collect();
        words.join(" ")
    }

    /// Whether they choose how games are read (rules or notation), which
    /// `--variant auto` forgets; the encoding only says how text is.
    pub fn choose_reading(&self) -> bool {
        self.variant.is_some() || self.rules.is_some() || self.notation.is_some()
    }

    /// The stored form: a JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string())
    }
}

/// What a recheck changed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RecheckSummary {
    /// Files whose games were read again.
    pub files: usize,
    /// Games read again.
    pub games: usize,
    /// Games whose status, variant or notation changed.
    pub changed: usize,
    /// Games whose stored row changed in any way (the changed ones, and
    /// those whose record, tags read or rules' source are written afresh).
    pub updated: usize,
    /// Games that became equal to another stored game and were merged into it.
    pub merged: usize,
    /// Copies that are not the game they were stored as (an older pdndb
    /// merged records that differ in site, round or set-up), now games of
    /// their own or copies of the stored game they are.
    pub split: usize,
    /// Index rows added and removed.
    pub positions_added: usize,
    /// Index rows removed.
    pub positions_removed: usize,
    /// Changed games by old and new status and variant, e.g.
    /// `"unsupported international → ok international": 12`.
    pub changes: BTreeMap<String, usize>,
    /// Wall-clock time.
    pub seconds: f64,
}

impl Store {
    /// How many imported files there are (of `files`, when given).
    ///
    /// # Errors
    /// A database failure.
    pub fn file_count(&self, files: Option<&[i64]>) -> Result<u64, StoreError> {
        Ok(match files {
            Some(ids) => ids.len() as u64,
            None => self
                .conn()
                .query_row("SELECT count(*) FROM source_file", [], |r| {
                    r.get::<_, i64>(0)
                })?
                .max(0) as u64,
        })
    }

    /// Reads every stored game again (or those of the files given by id),
    /// with the current rules and inference; see the module documentation.
    /// With `forget_options`, the rules and notation given when a file was
    /// imported are forgotten: its games are read by their tags and moves
    /// (`--variant auto`). `progress` hears of each file as it is done.
    ///
    /// # Errors
    /// A database failure (the files already rechecked stay rechecked).
    pub fn recheck(
        &mut self,
        files: Option<&[i64]>,
        forget_options: bool,
        progress: &mut dyn FnMut(&str),
    ) -> Result<RecheckSummary, StoreError> {
        let began = std::time::Instant::now();
        let all: Vec<i64> = {
            let mut stmt = self
                .conn()
                .prepare("SELECT id FROM source_file ORDER BY id")?;
            stmt.query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?
        };
        let mut summary = RecheckSummary::default();
        let mut done = IdSet::default();
        for file in all
            .into_iter()
            .filter(|f| files.is_none_or(|only| only.contains(f)))
        {
            let tx = self.conn_mut().transaction()?;
            let name = recheck_file(&tx, file, forget_options, &mut done, &mut summary)?;
            // Names, events and sites that games read again brought, or
            // whose game changed.
            crate::store::stored::folds::enter_new(&tx)?;
            tx.commit()?;
            summary.files += 1;
            progress(&name);
        }
        // Keys that games read again made popular.
        let tx = self.conn_mut().transaction()?;
        let known = crate::store::write::popular::popular_keys(&tx)?;
        crate::store::write::popular::designate(&tx, &[], false, &known)?;
        tx.commit()?;
        summary.seconds = began.elapsed().as_secs_f64();
        Ok(summary)
    }
}

impl RecheckSummary {
    /// Counts what one game's update did.
    pub(in crate::store) fn count(&mut self, update: &Update) {
        self.updated += usize::from(update.updated);
        self.merged += usize::from(update.merged);
        self.positions_added += update.positions_added;
        self.positions_removed += update.positions_removed;
        if let Some(((old_status, old_variant), (status, variant))) = &update.change {
            self.changed += 1;
            *self
                .changes
                .entry(format!("{old_status} {old_variant} → {status} {variant}"))
                .or_default() += 1;
        }
    }
}

/// Copies of a file whose texts are read at a time.
const COPIES_AT_ONCE: i64 = 1_000;

/// The copies of a file: each one's index in the file and its game as
/// stored before any was read again (16 bytes a copy; their texts are read
/// a chunk at a time). A game merged into another while the file is read
/// again keeps its old id here, so that its later copies count as done.
struct Copies(Vec<(i64, i64)>);

impl Copies {
    fn of(tx: &Transaction<'_>, file: i64) -> Result<Copies, StoreError> {
        let mut stmt =
            tx.prepare("SELECT idx, game FROM provenance WHERE file = ?1 ORDER BY idx")?;
        let copies = stmt.query_map([file], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(Copies(copies.collect::<Result<_, _>>()?))
    }

    /// Hands each copy that reads as a game to `each`, in file order, with
    /// its game's id, until `each` breaks.
    fn each_game(
        &self,
        tx: &Transaction<'_>,
        file: i64,
        mut each: impl FnMut(i64, crate::pdn::Game) -> Result<ControlFlow<()>, StoreError>,
    ) -> Result<(), StoreError> {
        let mut texts = tx.prepare_cached(
            "SELECT idx, text FROM provenance WHERE file = ?1 AND idx BETWEEN ?2 AND ?3 \
             ORDER BY idx",
        )?;
        for chunk in self.0.chunks(COPIES_AT_ONCE as usize) {
            let (Some(first), Some(last)) = (chunk.first(), chunk.last()) else {
                continue;
            };
            let read: Vec<(i64, String)> = texts
                .query_map(params![file, first.0, last.0], |r| {
                    let stored = r.get_ref(1)?.as_blob().unwrap_or_default();
                    Ok((r.get(0)?, crate::store::stored::game::game_text(stored)))
                })?
                .collect::<Result<_, _>>()?;
            for (idx, text) in read {
                let Ok(at) = chunk.binary_search_by_key(&idx, |c| c.0) else {
                    continue;
                };
                let Some(mut game) = Reader::new(text.as_bytes()).next_game().ok().flatten() else {
                    continue;
                };
                game.index = idx.max(0) as u64;
                if each(chunk[at].1, game)?.is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// A file's path, reading options (JSON) and reading version as stored;
/// with `forget_options`, the options but the encoding are forgotten first.
fn file_reading(
    tx: &Transaction<'_>,
    file: i64,
    forget_options: bool,
) -> Result<(String, Option<String>, i64), StoreError> {
    let (path, mut options, reading): (String, Option<String>, i64) = tx.query_row(
        "SELECT path, options, reading FROM source_file WHERE id = ?1",
        [file],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    if forget_options {
        // Only the encoding, which says how its text was read, stays.
        let stored: FileOptions = options
            .as_deref()
            .and_then(|json| serde_json::from_str(json).ok())
            .unwrap_or_default();
        let kept = FileOptions {
            encoding: stored.encoding,
            ..FileOptions::default()
        };
        tx.execute(
            "UPDATE source_file SET options = ?2 WHERE id = ?1",
            params![file, kept.to_json()],
        )?;
        options = Some(kept.to_json());
    }
    Ok((path, options, reading))
}

/// Reads the games of one file again; returns the file's path. The games
/// are read, checked and updated one at a time, in file order.
fn recheck_file(
    tx: &Transaction<'_>,
    file: i64,
    forget_options: bool,
    done: &mut IdSet,
    summary: &mut RecheckSummary,
) -> Result<String, StoreError> {
    let (path, options, reading) = file_reading(tx, file, forget_options)?;
    let copies = Copies::of(tx, file)?;
    let overrides = match options.as_deref() {
        Some(json) => serde_json::from_str::<FileOptions>(json)
            .unwrap_or_default()
            .overrides(),
        None => legacy_overrides(tx, file, &copies)?,
    };
    let legacy = reading < READING_VERSION && options.is_none();
    // Games an older import read with rules given on its command line keep
    // them, unless forgotten.
    let per_game_forced = overrides.rules.is_none() && !forget_options;
    let mut checker = FileChecker::new(path.as_str(), &overrides);
    // The copies to read again, in file order, with whether each is its
    // game's first (which updates the game; the others may split from it),
    // and those checked (the checker hands games out late while it chooses
    // the file's preset).
    let mut waiting: VecDeque<(u64, i64, bool)> = VecDeque::new();
    let mut checked: BTreeMap<u64, (crate::pdn::Game, CheckedGame)> = BTreeMap::new();
    let mut deflater = Deflater::new();
    let mut move_ids = HashMap::new();
    let mut update_ready = |waiting: &mut VecDeque<(u64, i64, bool)>,
                            checked: &mut BTreeMap<u64, _>|
     -> Result<(), StoreError> {
        while let Some(&(index, id, first)) = waiting.front() {
            let Some((game, result)) = checked.remove(&index) else {
                break;
            };
            waiting.pop_front();
            let prepared = prepare(&game, &result, &mut deflater);
            if first {
                summary.games += 1;
                summary.count(&update_game(tx, id, &prepared, &mut move_ids)?);
            } else if let Some(added) = split_copy(tx, file, index, &prepared, &mut move_ids)? {
                summary.split += 1;
                summary.positions_added += added;
            }
        }
        Ok(())
    };
    copies.each_game(tx, file, |id, game| {
        let first = done.insert(id);
        waiting.push_back((game.index, id, first));
        let kept = if !per_game_forced {
            None
        } else if legacy {
            legacy_forced(tx, id, &game)?
        } else {
            stored_forced(tx, id)?
        };
        if let Some(rules) = kept {
            // A game an older import read with rules given on its command
            // line keeps them.
            let forced = Overrides {
                rules: Some(rules),
                ..overrides.clone()
            };
            let mut result = check_game(&game, &path, &forced);
            result.record.source.tags = record_tags(&game);
            checked.insert(game.index, (game, result));
        } else {
            let Ok(()) = checker.push(game, true, true, &mut |game, result| {
                checked.insert(game.index, (game, result));
                Ok::<_, std::convert::Infallible>(())
            });
        }
        update_ready(&mut waiting, &mut checked)?;
        Ok(ControlFlow::Continue(()))
    })?;
    let Ok(()) = checker.finish(true, &mut |game, result| {
        checked.insert(game.index, (game, result));
        Ok::<_, std::convert::Infallible>(())
    });
    update_ready(&mut waiting, &mut checked)?;
    // The options worked out for a file of an older version are kept, so
    // that the next recheck reads it the same way.
    tx.execute(
        "UPDATE source_file SET reading = ?2, options = coalesce(options, ?3) WHERE id = ?1",
        params![file, READING_VERSION, FileOptions::of(&overrides).to_json()],
    )?;
    Ok(path)
}

/// Copy `index` of `file`, read again as `new`, when it is not the game it
/// is stored as: an older pdndb merged it with records that differ in site,
/// round or set-up. It becomes a copy of the stored game it is, or a game
/// of its own; returns the index rows added then (`None`: nothing to do).
fn split_copy(
    tx: &Transaction<'_>,
    file: i64,
    index: u64,
    new: &Prepared,
    move_ids: &mut HashMap<crate::rules::Move, i64>,
) -> Result<Option<usize>, StoreError> {
    let stored_as: Option<(i64, Option<i64>)> = tx
        .prepare_cached(
            "SELECT g.id, g.dup_key FROM provenance p JOIN game g ON g.id = p.game \
             WHERE p.file = ?1 AND p.idx = ?2",
        )?
        .query_row(params![file, index as i64], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((game, key)) = stored_as else {
        return Ok(None);
    };
    if key == Some(new.dup_key) {
        return Ok(None);
    }
    let (target, added) = match equal_game(tx, new, Some(game))? {
        Some(other) => (other, 0),
        None => insert_game(tx, new, move_ids)?,
    };
    tx.prepare_cached("UPDATE provenance SET game = ?3 WHERE file = ?1 AND idx = ?2")?
        .execute(params![file, index as i64, target])?;
    Ok(Some(added))
}

/// The options an import before version 2 used for a file, as far as its
/// games tell: when every game whose variant is not what that version chose
/// by itself has the same variant, `--variant` named it; otherwise none was
/// given (games that still differ are kept as they were, one by one).
fn legacy_overrides(
    tx: &Transaction<'_>,
    file: i64,
    copies: &Copies,
) -> Result<Overrides, StoreError> {
    let mut given: Option<String> = None;
    let mut several = false;
    copies.each_game(tx, file, |id, game| {
        let Some(variant) = legacy_deviation(tx, id, &game)? else {
            return Ok(ControlFlow::Continue(()));
        };
        match &given {
            None => given = Some(variant),
            Some(v) if *v == variant => {}
            Some(_) => {
                several = true;
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    if several {
        return Ok(Overrides::default());
    }
    Ok(Overrides {
        rules: given.as_deref().and_then(|v| Rules::parse(v).ok()),
        ..Overrides::default()
    })
}

/// The stored rules of a game read with rules given on the command line
/// (`variant_from` is `forced`).
fn stored_forced(tx: &Transaction<'_>, id: i64) -> Result<Option<Rules>, StoreError> {
    let stored: Option<(String, Option<String>)> = tx
        .prepare_cached("SELECT variant, variant_from FROM game WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(stored
        .filter(|(_, from)| from.as_deref() == Some(VariantFrom::Forced.name()))
        .and_then(|(variant, _)| Rules::parse(&variant).ok()))
}

/// The stored rules of a game that an import before version 2 did not
/// choose by itself (so they were given on its command line).
fn legacy_forced(
    tx: &Transaction<'_>,
    id: i64,
    game: &crate::pdn::Game,
) -> Result<Option<Rules>, StoreError> {
    Ok(legacy_deviation(tx, id, game)?.and_then(|v| Rules::parse(&v).ok()))
}

/// A game's stored variant when it is not the one an import before version
/// 2 would have chosen without options.
fn legacy_deviation(
    tx: &Transaction<'_>,
    id: i64,
    game: &crate::pdn::Game,
) -> Result<Option<String>, StoreError> {
    let stored: Option<(String, String)> = tx
        .prepare_cached("SELECT variant, status FROM game WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((variant, status)) = stored else {
        return Ok(None);
    };
    if status == Status::Unsupported.name() || Rules::parse(&variant).is_err() {
        return Ok(None);
    }
    let text = record_text(game);
    let chosen = legacy_preset(&text);
    Ok((chosen.map(Preset::name) != Some(variant.as_str())).then_some(variant))
}

/// The preset pdndb chose before version 2 for a record read without
/// options: the tags' (GameType 21, 23, 25, 26), Filipino for the Dama
/// notation, English for numbers whose first move starts on 1..12 from the
/// start position, Filipino otherwise; `None` where it did not play the game.
fn legacy_preset(text: &RecordText<'_>) -> Option<Preset> {
    if let Some(raw) = text.game_type.map(str::trim).filter(|t| !t.is_empty()) {
        let number = GameType::parse(raw)?.number;
        return match number {
            21 => Some(Preset::English),
            23 => Some(Preset::Pool),
            25 => Some(Preset::Russian),
            26 => Preset::of_game_type(26, text.variant),
            _ => None,
        };
    }
    if text
        .notation
        .is_some_and(|n| n.trim().eq_ignore_ascii_case("dama"))
    {
        return Some(Preset::Filipino);
    }
    let start = Preset::Filipino.rules();
    let standard_start = match text.fen.map(crate::notation::parse_fen) {
        None => true,
        Some(Ok(mut setup)) => {
            setup.side = Some(crate::rules::Color::White);
            crate::rules::Position::from_setup(&setup, &start).is_ok_and(|p| {
                p.to_setup().pieces == crate::rules::Position::initial(&start).to_setup().pieces
            })
        }
        Some(Err(_)) => false,
    };
    let first_from = text
        .moves
        .first()
        .copied()
        .flatten()
        .and_then(|t| t.squares.first())
        .and_then(|s| s.squares(Notation::Numeric, start.geometry));
    Some(match first_from {
        Some(from) if standard_start && from & 0xFFF != 0 => Preset::English,
        _ => Preset::Filipino,
    })
}
