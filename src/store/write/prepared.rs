//! A game read and replayed, ready to be stored: its columns, the ids of
//! its first move, the text it is stored with, and the game already
//! stored that it equals.

use compact_str::CompactString;
use rusqlite::{OptionalExtension, Transaction, params};

use crate::notation::{Notation, write_fen};
use crate::openings::{Named, name_game};
use crate::pattern::{Phases, Summary};
use crate::pdn::Game;
use crate::replay::{CheckRecord, CheckedGame, Joiners, Reading, Replay, ResultCheck, Status};
use crate::rules::{Color, Move, Position, Rules};
use crate::store::codec::moves::{encode, encode_played};
use crate::store::stored::StoreError;
use crate::store::stored::game::outcome;
use crate::store::write::identity::{Identity, Openness};
use crate::store::write::index::index_entries;

/// What an added game is counted under.
pub(in crate::store) struct CountedGame<'a> {
    pub variant: &'a str,
    pub preset: &'a str,
    /// Whether the game's rules are supported (else its preset is counted
    /// as '').
    pub supported: bool,
    /// As `game.status`.
    pub status: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub event: &'a str,
    pub site: &'a str,
    /// As `game.day`.
    pub day: Option<&'a str>,
    /// As `game.outcome`.
    pub outcome: i64,
}

#[cfg(test)]
impl<'a> CountedGame<'a> {
    /// A supported English game between `white` and `black` ending in
    /// `outcome` on `day`, without event or site: what the tests of counts
    /// and of their readers count.
    pub(in crate::store) fn english(
        white: &'a str,
        black: &'a str,
        outcome: i64,
        day: Option<&'a str>,
    ) -> CountedGame<'a> {
        CountedGame {
            variant: "english",
            preset: "english",
            supported: true,
            status: "ok",
            white,
            black,
            event: "",
            site: "",
            day,
            outcome,
        }
    }
}

/// One game ready to be written.
pub(in crate::store) struct Prepared {
    pub(in crate::store) index: u64,
    pub(in crate::store) byte_offset: u64,
    pub(in crate::store) line: u64,
    /// The tags and the original move text, as stored (see [`crate::store::codec::text`]).
    pub(in crate::store) text: Vec<u8>,
    /// The hash of the tags and the move text (see [`text_hash`]).
    pub(in crate::store) text_hash: [u8; 32],
    pub(in crate::store) status: Status,
    pub(in crate::store) variant: CompactString,
    pub(in crate::store) preset: CompactString,
    pub(in crate::store) notation: Option<&'static str>,
    pub(in crate::store) white: CompactString,
    pub(in crate::store) black: CompactString,
    pub(in crate::store) event: CompactString,
    pub(in crate::store) site: CompactString,
    pub(in crate::store) date: CompactString,
    /// The date as `game.day` holds it (see [`crate::store::stored::game::day_of`]).
    pub(in crate::store) day: Option<CompactString>,
    pub(in crate::store) result: Option<CompactString>,
    pub(in crate::store) outcome: i64,
    pub(in crate::store) plies: Option<i64>,
    pub(in crate::store) start_fen: Option<String>,
    /// The first reading, encoded (see [`crate::store::codec::moves`]).
    pub(in crate::store) moves: Option<Vec<u8>>,
    pub(in crate::store) moves_key: Option<i64>,
    /// What the first reading's positions have in common, coded (see
    /// [`crate::store::codec::summary`]).
    pub(in crate::store) summary: Option<Vec<u8>>,
    /// The duplicate key (see [`crate::store::write::identity`]).
    pub(in crate::store) dup_key: i64,
    pub(in crate::store) record: Option<String>,
    pub(in crate::store) variant_from: &'static str,
    /// The certain positions, `(key, ply, open)` (see [`index_entries`]).
    pub(in crate::store) positions: Vec<(i64, u32, bool)>,
    /// The move played from the start, when certain.
    pub(in crate::store) first_move: Option<Move>,
    /// Its moves written with the other kind's joiner.
    pub(in crate::store) joiners: Joiners,
    /// Its opening, the ply where it reaches it and its ballot (see
    /// [`crate::openings`]).
    pub(in crate::store) named: Named,
    /// Its result checked against its moves.
    pub(in crate::store) result_check: ResultCheck,
}

/// Inserts `game`'s row; returns its id. The caller counts it (see
/// [`Prepared::counted`]) and indexes it.
pub(in crate::store) fn insert_row(
    tx: &Transaction<'_>,
    game: &Prepared,
) -> Result<i64, StoreError> {
    tx.prepare_cached(
        "INSERT INTO game (status, variant, preset, notation, white, black, event, date, result, outcome, \
         plies, start_fen, moves, moves_key, record, variant_from, site, day, dup_key, summary, \
         opening, opening_ply, ballot, result_check) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, \
         ?20, ?21, ?22, ?23, ?24)",
    )?
    .execute(params![
        game.status.name(),
        game.variant.as_str(),
        game.preset.as_str(),
        game.notation,
        game.white.as_str(),
        game.black.as_str(),
        game.event.as_str(),
        game.date.as_str(),
        game.result.as_deref(),
        game.outcome,
        game.plies,
        game.start_fen,
        game.moves,
        game.moves_key,
        game.record,
        game.variant_from,
        game.site.as_str(),
        game.day.as_deref(),
        game.dup_key,
        game.summary,
        game.named.opening,
        game.named.ply,
        game.named.ballot,
        game.result_check.name(),
    ])?;
    Ok(tx.last_insert_rowid())
}

/// Another stored game that is `game` (see [`crate::store::write::identity`]), other
/// than `except`: the game a copy of it is a duplicate of.
pub(in crate::store) fn equal_game(
    tx: &Transaction<'_>,
    game: &Prepared,
    except: Option<i64>,
) -> Result<Option<i64>, StoreError> {
    Ok(tx
        .prepare_cached(EQUAL_GAME)?
        .query_row(
            params![
                game.dup_key,
                game.status.name(),
                game.variant.as_str(),
                game.start_fen,
                game.moves,
                except
            ],
            |r| r.get(0),
        )
        .optional()?)
}

/// The query of [`equal_game`].
pub(in crate::store) const EQUAL_GAME: &str = "SELECT id FROM game WHERE dup_key = ?1 AND status = ?2 AND variant = ?3 \
     AND start_fen IS ?4 AND moves IS ?5 AND id IS NOT ?6 ORDER BY id LIMIT 1";

/// A game counted under its start position and first move (`start_move`).
pub(in crate::store) struct StartMove<'a> {
    /// The start position's key.
    pub key: i64,
    /// The game's variant and preset.
    pub variant: &'a str,
    pub preset: &'a str,
    /// Its start FEN, `None` for the variant's initial position.
    pub start_fen: Option<&'a str>,
    /// The first move's name id, 0 when not certain.
    pub next: i64,
    /// The game's outcome.
    pub outcome: i64,
}

impl StartMove<'_> {
    /// Counts the game.
    pub(in crate::store) fn add(&self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        tx.prepare_cached(
            "INSERT INTO start_move (start_key, variant, preset, start_fen, next, outcome, games) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1) ON CONFLICT DO UPDATE SET games = games + 1",
        )?
        .execute(params![
            self.key,
            self.variant,
            self.preset,
            self.start_fen.unwrap_or(""),
            self.next,
            self.outcome
        ])?;
        Ok(())
    }

    /// Counts the game no more.
    pub(in crate::store) fn remove(&self, tx: &Transaction<'_>) -> Result<(), StoreError> {
        tx.prepare_cached(
            "UPDATE start_move SET games = games - 1 WHERE start_key = ?1 AND variant = ?2 \
             AND start_fen = ?3 AND next = ?4 AND outcome = ?5",
        )?
        .execute(params![
            self.key,
            self.variant,
            self.start_fen.unwrap_or(""),
            self.next,
            self.outcome
        ])?;
        tx.prepare_cached("DELETE FROM start_move WHERE games <= 0")?
            .execute([])?;
        Ok(())
    }
}

/// The encoder of games' stored texts, one for every game of a file.
pub(in crate::store) type Deflater = crate::store::codec::text::TextEncoder;

/// The name of the player of `color` as stored: the `White` or `Black`
/// tag, else PlayStrategy's `P1` (the first side under `rules`) or `P2`.
fn player(game: &Game, color: Color, rules: Option<&Rules>) -> CompactString {
    let first = rules.map_or(Color::White, |r| r.first);
    CompactString::from(game.player(color, first).map(str::trim).unwrap_or_default())
}

/// The game's result as stored: its Result tag (or a name of it in
/// another language) when it says something, else the result after its
/// moves.
fn stored_result(game: &Game) -> Option<CompactString> {
    game.standard_tag("Result")
        .map(str::trim)
        .filter(|r| !r.is_empty() && *r != "?")
        .map(CompactString::from)
        .or_else(|| {
            game.result
                .as_ref()
                .map(|r| CompactString::from(r.text.as_str()))
        })
}

/// The check record kept with the game, without what the game's other
/// columns hold: only for a game that is not ok or had ambiguities
/// resolved (an ok game's record follows from its columns).
fn record_json(record: &CheckRecord) -> Option<String> {
    (record.outcome.status != Status::Ok || !record.outcome.resolved.is_empty()).then(|| {
        let mut value = serde_json::to_value(record).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            for field in ["file", "index", "line", "tags"] {
                map.remove(field);
            }
        }
        value.to_string()
    })
}

/// What a game's certain positions name it, when it starts from the
/// standard position.
fn named(rules: Option<&Rules>, standard_start: bool, positions: &[(i64, u32, bool)]) -> Named {
    match rules {
        Some(rules) if standard_start => {
            let keys = positions.iter().map(|&(key, ply, _)| (key as u64, ply));
            name_game(rules.preset, keys)
        }
        _ => Named::default(),
    }
}

/// The moves of the first reading, encoded here, a move to a byte: the
/// moves as played would take 48 bytes a ply while the game waits to be
/// written.
fn encoded_moves(rules: &Rules, start: &Position, replay: &Replay) -> Option<Vec<u8>> {
    // Where every position is certain, replay has them all.
    if replay.certain.len() == replay.reached + 1 {
        let played = replay.certain.iter().zip(&replay.reading);
        let played = played.map(|(at, ply)| (at.position, ply.chosen));
        return encode_played(rules, played, replay.reading.len());
    }
    let played: Vec<Move> = replay.reading.iter().map(|p| p.chosen).collect();
    encode(rules, start, &played)
}

/// The coded summary of the first reading's positions and moves, with
/// its phases (see [`crate::pattern::Summary`], [`Phases`]).
fn summary_of(rules: &Rules, start: &Position, replay: &Replay) -> Vec<u8> {
    let mut summary = Summary::new();
    let mut phases = Phases::default();
    let mut position = *start;
    summary.add(&position);
    phases.add(&position);
    for ply in &replay.reading {
        summary.add_move(&position, &ply.chosen);
        position = position.play(&ply.chosen);
        summary.add(&position);
        phases.add(&position);
    }
    crate::store::codec::summary::encode(&summary, Some(&phases), rules.geometry)
}

pub(in crate::store) fn prepare(
    game: &Game,
    checked: &CheckedGame,
    deflater: &mut Deflater,
) -> Prepared {
    let record = &checked.record;
    // The standard tags, or their names in other languages (`Bianco`, …).
    let trimmed = |name: &str| {
        CompactString::from(game.standard_tag(name).map(str::trim).unwrap_or_default())
    };
    let result = stored_result(game);
    let (rules, start, replay) = match &checked.reading {
        Reading::Replayed {
            rules,
            start,
            replay,
            ..
        } => (Some(rules), Some(start), Some(replay)),
        Reading::Unreadable { rules, .. } => (rules.as_ref(), None, None),
        Reading::Unsupported { .. } => (None, None, None),
    };
    let start_fen = match (rules, start) {
        (Some(rules), Some(start)) if *start != Position::initial(rules) => Some(write_fen(start)),
        _ => None,
    };
    let (moves, summary) = match (rules, start, replay) {
        (Some(rules), Some(start), Some(replay)) => (
            encoded_moves(rules, start, replay),
            Some(summary_of(rules, start, replay)),
        ),
        _ => (None, None),
    };
    let moves_key = match (&moves, record.outcome.status) {
        (Some(m), Status::Ok) => Some(moves_key(&record.outcome.variant, start_fen.as_deref(), m)),
        _ => None,
    };
    let (positions, first_move) = index_entries(&checked.reading);
    let preset = match &checked.reading {
        Reading::Replayed { rules, .. } => CompactString::from(rules.preset.name()),
        _ => CompactString::from(record.outcome.variant.split('+').next().unwrap_or_default()),
    };
    let record_json = record_json(record);
    // Written as `Value::Object` writes it, without copying the map first.
    let tags = serde_json::to_string(&record.source.tags).unwrap_or_default();
    let mut prepared = Prepared {
        index: game.index,
        byte_offset: game.start.byte,
        line: game.start.line,
        text_hash: text_hash(&tags, &game.movetext),
        text: deflater.encode(&tags, &game.movetext),
        status: record.outcome.status,
        variant: CompactString::from(record.outcome.variant.as_str()),
        preset,
        notation: record.outcome.notation.map(Notation::name),
        white: player(game, Color::White, rules),
        black: player(game, Color::Black, rules),
        event: trimmed("Event"),
        site: trimmed("Site"),
        date: trimmed("Date"),
        day: None,
        outcome: outcome(result.as_deref(), rules),
        result,
        plies: record.outcome.plies.map(|p| p as i64),
        named: named(rules, start_fen.is_none(), &positions),
        start_fen,
        moves,
        moves_key,
        summary,
        dup_key: 0,
        record: record_json,
        variant_from: checked.reading.variant_from().name(),
        positions,
        first_move,
        joiners: checked.joiners,
        result_check: checked.result_check,
    };
    prepared.dup_key = prepared.key(game, checked);
    prepared.day = crate::store::stored::game::day_of(&prepared.date).map(CompactString::from);
    prepared
}

impl Prepared {
    /// About how many bytes the game takes in memory while it waits to be
    /// written: what bounds a batch besides its number of games.
    pub(in crate::store) fn memory_size(&self) -> usize {
        // Strings short enough are held inline, in the size of `Prepared`.
        let on_heap = |s: &CompactString| if s.is_heap_allocated() { s.len() } else { 0 };
        let strings: usize = [
            &self.variant,
            &self.preset,
            &self.white,
            &self.black,
            &self.event,
            &self.site,
            &self.date,
        ]
        .into_iter()
        .chain(&self.day)
        .chain(&self.result)
        .map(on_heap)
        .sum::<usize>()
            + self
                .start_fen
                .iter()
                .chain(&self.record)
                .map(String::len)
                .sum::<usize>();
        std::mem::size_of::<Prepared>()
            + strings
            + self.text.capacity()
            + self.moves.as_ref().map_or(0, Vec::capacity)
            + self.positions.capacity() * std::mem::size_of::<(i64, u32, bool)>()
    }

    /// What the game is counted under in `player_stat` and `tag_value`.
    pub(in crate::store) fn counted(&self) -> CountedGame<'_> {
        CountedGame {
            variant: &self.variant,
            preset: &self.preset,
            supported: self.status != Status::Unsupported,
            status: self.status.name(),
            white: &self.white,
            black: &self.black,
            event: &self.event,
            site: &self.site,
            day: self.day.as_deref(),
            outcome: self.outcome,
        }
    }

    /// The duplicate key of this game, read from `game` as `checked` says.
    fn key(&self, game: &Game, checked: &CheckedGame) -> i64 {
        let record = &checked.record;
        let reading = Openness {
            plies: checked.plies(game),
            status: record.outcome.status,
            reached: record.outcome.reached,
            ply: record.outcome.ply,
            candidates: &record.outcome.candidates,
        };
        let identity = Identity {
            status: self.status.name(),
            variant: &self.variant,
            start_fen: self.start_fen.as_deref(),
            moves: self.moves.as_deref(),
            open_part: "",
            white: &self.white,
            black: &self.black,
            event: &self.event,
            date: &self.date,
            result: self.result.as_deref(),
            site: &self.site,
            round: "",
            setup: "",
        };
        identity.of_record(game, &reading)
    }
}

/// The key that finds the stored games whose moves may equal these: the
/// first 64 bits of a hash of the variant, start and moves; only for `ok`
/// games.
fn moves_key(variant: &str, start_fen: Option<&str>, moves: &[u8]) -> i64 {
    let mut hasher = blake3::Hasher::new();
    hasher.update(variant.as_bytes());
    hasher.update(&[0]);
    hasher.update(start_fen.unwrap_or("").as_bytes());
    hasher.update(&[0]);
    hasher.update(moves);
    let bytes = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&bytes.as_bytes()[..8]);
    i64::from_le_bytes(first)
}

/// The hash of a game's text as stored: its tags (JSON) and move text.
pub(in crate::store) fn text_hash(tags: &str, movetext: &str) -> [u8; 32] {
    let mut hasher = blake3::Hasher::new();
    hasher.update(tags.as_bytes());
    hasher.update(&[0]);
    hasher.update(movetext.as_bytes());
    *hasher.finalize().as_bytes()
}
