//! Queries over the database: positions, games, the opening tree, reports.
//!
//! Every position found through its Zobrist key is checked against the
//! game itself (its stored moves replayed to that ply), so a 64-bit key
//! collision never returns a wrong game.

use std::collections::HashMap;
use std::ops::ControlFlow;

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::message::{Held, NoBoardMessage, RecordMessage, RequestMessage};
use crate::notation::{Fen, Notation, write_fen};
use crate::replay::{
    MovesError, RecordSource, SetupError, Status, VariantFrom, position_after_moves,
};
use crate::replay::{RecordBody, ResultCheck};
use crate::rules::{Color, Geometry, Move, Position, Preset, Rules};
use crate::store::codec::id_set::IdSet;
use crate::store::codec::moves::{canonical_moves, decode, index_at};
use crate::store::read::games::GameFilter;
use crate::store::read::listing::{Outcome, Place, Shown, first_side};
use crate::store::stored::error::StoredPart;
use crate::store::stored::game::{start_position, stored_text};
use crate::store::stored::id::GameId;
use crate::store::stored::param::{Param, Wording};
use crate::store::stored::record::ReportRecord;
use crate::store::stored::record::{parse_name, parse_record, parse_status, parse_tags};
use crate::store::stored::{Store, StoreError};

/// Which games a query looks at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantFilter(pub Option<String>);

impl VariantFilter {
    /// The filter for a variant as a user writes it: names compared
    /// without case or surrounding blanks, a preset's other names
    /// (`checkers`) as its own.
    pub fn new(variant: Option<&str>) -> VariantFilter {
        VariantFilter(variant.map(Rules::stored_form))
    }

    /// Whether a game's variant passes: a preset name matches the preset
    /// whatever the switches; a full variant string matches exactly
    /// (without case: stored names are lower case).
    pub(in crate::store) fn sql(&self) -> &'static str {
        match self.0 {
            None => "1",
            Some(_) => "(g.preset = lower(trim(?2)) OR g.variant = lower(trim(?2)))",
        }
    }
}

/// How a query's variant was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantChoice {
    /// Given by the user.
    Given,
    /// Not given, for a position given as a FEN: games of every variant.
    Every,
    /// Not given: the preset with most games in the database.
    MostGames(Preset),
}

impl VariantChoice {
    /// What a person is told about the variant a query used when it was
    /// not given (`filipino games (the variant with most games; --variant
    /// to choose)`); `None` when it was given.
    pub fn note(self) -> Option<String> {
        match self {
            VariantChoice::Given => None,
            VariantChoice::Every => {
                Some("games of every variant (--variant to choose one)".to_string())
            }
            VariantChoice::MostGames(preset) => Some(format!(
                "{} games (the variant with most games; --variant to choose)",
                preset.name()
            )),
        }
    }
}

/// Where a game came from (its first provenance).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Source {
    /// The file as given when imported.
    pub file: String,
    /// 1-based game index in the file.
    pub index: i64,
    /// Line of the game's first tag or move.
    pub line: i64,
    /// The original tags.
    pub tags: serde_json::Map<String, serde_json::Value>,
}

impl Source {
    /// Where the game stands in its file.
    pub fn place(&self) -> Place<'_> {
        Place {
            file: &self.file,
            line: self.line,
            index: self.index,
        }
    }
}

/// One game found by `search`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchHit {
    /// Game id.
    pub game: GameId,
    /// Source file.
    pub file: String,
    /// Index in the file.
    pub index: i64,
    /// Line of the game's first tag (or first move) in the file.
    pub line: i64,
    /// The first position number at which the game reaches the position.
    pub ply: i64,
    /// Original tags.
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// The result as written.
    pub result: Option<String>,
    /// Who won, by the variant's reading of the result.
    pub outcome: Outcome,
    /// The game's variant.
    pub variant: String,
    /// Who moves first by the game's rules (as [`GameRow::first_side`](crate::store::games::GameRow::first_side)).
    pub first_side: Color,
    /// The position found there, as FEN.
    pub fen: String,
    /// Whether it is the position asked for with colours reversed.
    pub reversed: bool,
    /// Every position number of the game that fits, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matching_plies: Option<Vec<i64>>,
    /// The name of its opening; `None` when it reaches no named position.
    pub opening: Option<String>,
    /// Its three-move ballot (English games).
    pub ballot: Option<String>,
}

impl SearchHit {
    /// Where the game stands in its file.
    pub fn place(&self) -> Place<'_> {
        Place {
            file: &self.file,
            line: self.line,
            index: self.index,
        }
    }
}

/// The games found by `search`: the first of them, and how many there are.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The games listed, by id.
    pub hits: Vec<SearchHit>,
    /// Every game that reaches the position.
    pub total: usize,
}

impl SearchResult {
    /// How many of how many games are listed.
    pub fn shown(&self) -> Shown {
        Shown {
            shown: self.hits.len(),
            total: self.total,
        }
    }
}

/// One move of the opening tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TreeMove {
    /// The move, canonical full path in the chosen notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Games that played it from the position.
    pub games: i64,
    /// Of those, won by White.
    pub white_wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Won by Black.
    pub black_wins: i64,
    /// Without a known result (`*`, `0-0` or none): `games` = `white_wins`
    /// + `draws` + `black_wins` + `unknown`.
    pub unknown: i64,
    /// Percentage of the games listed in the tree that played this move,
    /// one decimal.
    pub share: f64,
    /// 100 × (wins + ½ draws) / decided-or-drawn games, for the side to
    /// move; `None` with no such game.
    pub score: Option<f64>,
}

/// Moves with the positions they are played from.
pub type PlayedMoves = Vec<(Position, crate::rules::Move)>;

/// A game found at a position: id, first ply there, the id of the move
/// played from it (when certain) and the outcome code.
pub(in crate::store) type GameAt = (i64, i64, Option<Move>, i64);

/// Which rows of the position index a query reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::store) enum Ply {
    /// Every row.
    Any,
    /// Rows past the start position (the tree counts games at their start
    /// from `start_move`).
    AfterStart,
}

/// Games found at a position checked against `search`'s game filters at
/// once.
const FILTERED_AT_ONCE: usize = 16_384;

/// Move-list prefixes whose verdict a query keeps at most, per start.
const PREFIXES_KEPT: usize = 100_000;

/// A row of [`Store::games_at`]'s query: game, ply, whether the entry is
/// open, outcome, variant, start FEN and moves.
type GameAtRow<'r> = (i64, i64, bool, i64, &'r str, Option<&'r str>, &'r [u8]);

fn game_at_row<'r>(r: &'r rusqlite::Row<'_>) -> rusqlite::Result<GameAtRow<'r>> {
    let variant = r.get_ref(4)?.as_str().map_err(rusqlite::Error::from)?;
    let start_fen = r
        .get_ref(5)?
        .as_str_or_null()
        .map_err(rusqlite::Error::from)?;
    let moves = r
        .get_ref(6)?
        .as_blob_or_null()
        .map_err(rusqlite::Error::from)?
        .unwrap_or_default();
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        variant,
        start_fen,
        moves,
    ))
}

/// A variant and start FEN met in a query, with its rules and start
/// position (`None` when they cannot be read), and which move-list
/// prefixes were found to lead to the queried position (games that share
/// their first moves are checked once).
struct KnownStart {
    variant: String,
    start_fen: Option<String>,
    start: Option<(Rules, Position)>,
    checked: HashMap<Vec<u8>, bool>,
    /// The legal moves at the queried position under these rules, in
    /// canonical order, once a game's next move was asked for.
    legal: Option<Vec<Move>>,
}

impl KnownStart {
    /// The start of `variant` from `start_fen` in `starts`, added when
    /// new.
    fn find<'s>(
        starts: &'s mut Vec<KnownStart>,
        variant: &str,
        start_fen: Option<&str>,
    ) -> &'s mut KnownStart {
        let known = starts
            .iter()
            .position(|s| s.variant == variant && s.start_fen.as_deref() == start_fen);
        let index = match known {
            Some(i) => i,
            None => {
                let rules = Rules::parse(variant).ok();
                let start = rules.and_then(|rules| {
                    start_position(&rules, start_fen).map(|start| (rules, start))
                });
                starts.push(KnownStart {
                    variant: variant.to_string(),
                    start_fen: start_fen.map(str::to_string),
                    start,
                    checked: HashMap::new(),
                    legal: None,
                });
                starts.len() - 1
            }
        };
        &mut starts[index]
    }

    /// Whether the game of stored `moves` from this start is at `position`
    /// after `ply` plies (games sharing their first `ply` moves are
    /// replayed once).
    fn reaches(&mut self, moves: &[u8], ply: usize, position: &Position) -> bool {
        let (Some((rules, start)), Some(prefix)) =
            (&self.start, crate::store::codec::moves::prefix(moves, ply))
        else {
            return false;
        };
        if let Some(&reached) = self.checked.get(prefix) {
            return reached;
        }
        let reached = position_after_plies(rules, start, prefix, ply).as_ref() == Some(position);
        if self.checked.len() >= PREFIXES_KEPT {
            self.checked.clear();
        }
        self.checked.insert(prefix.to_vec(), reached);
        reached
    }
}

/// A game's stored replay.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Game id.
    pub id: GameId,
    /// Its status.
    pub status: Status,
    /// Variant string.
    pub variant: String,
    /// The notation its moves were read in.
    pub notation: Option<Notation>,
    /// The start position's FEN, `None` for the initial position.
    pub start_fen: Option<String>,
    /// The first reading's moves, encoded.
    pub moves: Option<Vec<u8>>,
    /// The result as written.
    pub result: Option<String>,
    /// The check record (without file, index, line, tags).
    pub record: RecordBody,
    /// Where the rules came from (`None` for games stored before rules
    /// were inferred, until `recheck`).
    pub variant_from: Option<VariantFrom>,
    /// Its opening, the ply where it reaches it, its ballot (see
    /// [`crate::openings`]).
    pub opening: Option<String>,
    /// The ply where it reaches its opening's position.
    pub opening_ply: Option<i64>,
    /// Its three-move ballot (English).
    pub ballot: Option<String>,
    /// Its result checked against its moves.
    pub result_check: ResultCheck,
}

impl StoredGame {
    /// The rules the game was read by; `None` for unsupported games.
    pub fn rules(&self) -> Option<Rules> {
        Rules::parse(&self.variant).ok()
    }

    /// Who won, by the variant's reading of the result.
    pub fn outcome(&self) -> Outcome {
        Outcome::read(self.result.as_deref(), self.rules().as_ref())
    }

    /// Why the game has no position to show, if it has none: an
    /// unreadable game (a set-up that cannot be read, text the reader
    /// cannot parse, a game over the length limit) or an unsupported one
    /// was never replayed, and its stored start is not its own.
    pub fn no_board(&self) -> Option<NoBoardMessage> {
        self.board().err()
    }

    /// The first reading of a game that has a board (see
    /// [`StoredGame::reading`]).
    ///
    /// # Errors
    /// Why the game has no board, as [`StoredGame::no_board`] says it.
    pub fn board(&self) -> Result<(Rules, Position, PlayedMoves), NoBoardMessage> {
        let status = self.status.name().to_string();
        if matches!(self.status, Status::Unreadable | Status::Unsupported) {
            return Err(match (&self.record.message, &self.record.message_key) {
                (Some(why), reason) => NoBoardMessage::NotReplayedBecause {
                    status,
                    why: why.clone(),
                    reason: reason.clone().map(Box::new),
                },
                (None, _) => NoBoardMessage::NotReplayed { status },
            });
        }
        self.reading()
            .ok_or_else(|| NoBoardMessage::StartNotRebuilt {
                status,
                variant: self.variant.clone(),
            })
    }

    /// The start position.
    pub fn start(&self, rules: &Rules) -> Option<Position> {
        start_position(rules, self.start_fen.as_deref())
    }

    /// The first reading: every move with the position it is played from.
    pub fn reading(&self) -> Option<(Rules, Position, PlayedMoves)> {
        let rules = self.rules()?;
        let start = self.start(&rules)?;
        let moves = decode(&rules, &start, self.moves.as_deref().unwrap_or_default())?;
        Some((rules, start, moves))
    }
}

/// The position after the first `plies` moves of an encoded move list.
fn position_after_plies(
    rules: &Rules,
    start: &Position,
    moves: &[u8],
    plies: usize,
) -> Option<Position> {
    crate::store::codec::moves::decode_prefix(rules, start, moves, plies)
}

/// A position asked about: on which board, among which games, and the
/// move that led to it when it was given by moves.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionQuery {
    /// The position.
    pub position: Position,
    /// Rules with the position's board: the variant asked for, else those
    /// of a preset on the board the position needs.
    pub rules: Rules,
    /// The games looked at.
    pub filter: VariantFilter,
    /// The last of the moves that led to the position, if given by moves.
    pub last_move: Option<Move>,
    /// How the variant was chosen.
    pub variant: VariantChoice,
}

impl PositionQuery {
    /// The notation moves are usually written in under the query's rules
    /// (algebraic for Russian, Brazilian and Czech draughts).
    pub fn usual_notation(&self) -> Notation {
        Notation::usual_for(self.rules.preset)
    }
}

/// Why a position asked about cannot be used. Each but [`QueryError::Store`]
/// is about one value ([`QueryError::param`]); as text it names that
/// value as the command line does (`--fen: …`), and
/// [`QueryError::worded`] as either front end does.
#[derive(Debug)]
pub enum QueryError {
    /// The variant named is not one.
    Variant(crate::rules::RulesError),
    /// The FEN cannot be read, or is not a legal set-up.
    Fen(SetupError),
    /// The moves cannot be read, or do not make one legal sequence.
    Moves(String),
    /// A move of a line is not legal where it is played.
    NotLegalHere {
        /// The ply (1-based).
        ply: usize,
        /// The move as given, cut at 40 characters.
        token: String,
        /// The legal moves there, canonical numeric full paths.
        legal: Vec<String>,
    },
    /// The moves are not legal under the variant used but are under others.
    LegalElsewhere {
        /// Why they do not read under the variant used.
        message: String,
        /// That reason as a code and its parts, where the record of the
        /// moves read as a game gives one.
        said: Option<Box<RecordMessage>>,
        /// The variant used.
        variant: String,
        /// The presets under which they read, those with most games first.
        legal_under: Vec<Preset>,
    },
    /// No stored game has the variant asked for.
    Absent {
        /// The variant asked for.
        asked: String,
        /// The variants the database holds, with their games.
        present: Vec<(String, i64)>,
    },
    /// The database failed.
    Store(StoreError),
}

impl QueryError {
    /// The value that is wrong; `None` for a database failure.
    pub fn param(&self) -> Option<Param> {
        match self {
            QueryError::Variant(_) | QueryError::Absent { .. } => Some(Param::Variant),
            QueryError::Fen(_) => Some(Param::Fen),
            QueryError::Moves(_)
            | QueryError::NotLegalHere { .. }
            | QueryError::LegalElsewhere { .. } => Some(Param::Moves),
            QueryError::Store(_) => None,
        }
    }

    /// The message, values named as `wording` names them.
    pub fn worded(&self, wording: Wording) -> String {
        match (self, self.said(wording)) {
            (_, Some(said)) => said.to_string(),
            (QueryError::Store(e), None) => e.to_string(),
            (_, None) => String::new(),
        }
    }

    /// The message as a code and its parts, values named as `wording`
    /// names them; `None` for a database failure.
    pub fn said(&self, wording: Wording) -> Option<RequestMessage> {
        let name = |param| wording.name(param);
        Some(match self {
            QueryError::Variant(e) => e.said(name(Param::Variant)),
            QueryError::Fen(e) => RequestMessage::BadFen {
                param: name(Param::Fen),
                why: e.to_string(),
                fen: Some(e.said()),
            },
            QueryError::Moves(m) => RequestMessage::BadMoves {
                param: name(Param::Moves),
                why: m.clone(),
            },
            QueryError::NotLegalHere { ply, token, legal } if legal.is_empty() => {
                RequestMessage::NoMoveLeft {
                    param: name(Param::Moves),
                    ply: *ply,
                    token: format!("{token:?}"),
                }
            }
            QueryError::NotLegalHere { ply, token, legal } => RequestMessage::MoveNotLegalHere {
                param: name(Param::Moves),
                ply: *ply,
                token: format!("{token:?}"),
                legal: legal.join(", "),
            },
            QueryError::LegalElsewhere {
                message,
                said,
                variant,
                legal_under,
            } => RequestMessage::LegalElsewhere {
                param: name(Param::Moves),
                why: message.clone(),
                reason: said.as_deref().cloned(),
                variant: variant.clone(),
                legal_under: names(legal_under),
                variant_param: name(Param::Variant),
                first: legal_under.first().map_or("", |p| p.name()).to_string(),
            },
            QueryError::Absent { asked, present } => RequestMessage::VariantAbsent {
                param: name(Param::Variant),
                asked: asked.clone(),
                holdings: holdings(present),
                held: present
                    .iter()
                    .map(|(variant, games)| Held {
                        variant: variant.clone(),
                        games: *games,
                    })
                    .collect(),
            },
            QueryError::Store(_) => return None,
        })
    }
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.worded(Wording::Options))
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            QueryError::Variant(e) => Some(e),
            QueryError::Fen(e) => Some(e),
            QueryError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<crate::rules::RulesError> for QueryError {
    fn from(e: crate::rules::RulesError) -> QueryError {
        QueryError::Variant(e)
    }
}

impl From<StoreError> for QueryError {
    fn from(e: StoreError) -> QueryError {
        QueryError::Store(e)
    }
}

/// Preset names, comma-separated.
fn names(presets: &[Preset]) -> String {
    presets
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the database holds: `english (14 games), filipino (3 games)`.
fn holdings(present: &[(String, i64)]) -> String {
    if present.is_empty() {
        return "the database holds no games".to_string();
    }
    let list: Vec<String> = present
        .iter()
        .map(|(variant, games)| {
            format!(
                "{variant} ({games} game{})",
                if *games == 1 { "" } else { "s" }
            )
        })
        .collect();
    format!("it holds {}", list.join(", "))
}

/// Reads a position from a FEN for queries: numeric or algebraic; a `?`
/// side means White. The board is the variant's when one is given, else the
/// 8×8 board when the set-up is one there, else the 10×10 board (numbers
/// name the same position on both, so the key is the same either way).
///
/// # Errors
/// A FEN that cannot be read or is not a legal set-up on the board.
pub fn position_from_fen(
    fen: &str,
    variant: Option<&Rules>,
) -> Result<(Position, Rules), SetupError> {
    let fen = Fen::parse(fen)?;
    let on = |rules: Rules| -> Result<(Position, Rules), SetupError> {
        let mut setup = fen.setup(rules.geometry)?;
        setup.side.get_or_insert(Color::White);
        let position = Position::from_setup(&setup, &rules)?;
        Ok((position, rules))
    };
    match variant {
        Some(rules) => on(*rules),
        None => on(Rules::default())
            .or_else(|small| on(Preset::International.rules()).map_err(|_| small)),
    }
}

impl Store {
    /// The position a query is about: given by `fen`, or by `moves` played
    /// from the start, or the start position itself; `variant` filters the
    /// games and, for moves and the start, chooses the rules (default: the
    /// preset with most games).
    ///
    /// # Errors
    /// A variant, FEN or moves that cannot be read, naming the bad part; a
    /// database failure.
    pub fn position_query(
        &self,
        fen: Option<&str>,
        moves: Option<&str>,
        variant: Option<&str>,
    ) -> Result<PositionQuery, QueryError> {
        let given = VariantFilter::new(variant);
        let asked = given.0.as_deref().map(Rules::parse).transpose()?;
        if let Some(asked) = &given.0
            && self.games_of(&given)? == 0
        {
            return Err(QueryError::Absent {
                asked: asked.clone(),
                present: self.variant_counts()?,
            });
        }
        let choice = |default| match asked {
            Some(_) => VariantChoice::Given,
            None => default,
        };
        if let Some(fen) = fen {
            let (position, rules) =
                position_from_fen(fen, asked.as_ref()).map_err(QueryError::Fen)?;
            return Ok(PositionQuery {
                position,
                rules,
                filter: given,
                last_move: None,
                variant: choice(VariantChoice::Every),
            });
        }
        let rules = match asked {
            Some(rules) => rules,
            None => self.main_preset()?.rules(),
        };
        let filter = match given.0 {
            Some(_) => given,
            None => VariantFilter(Some(rules.preset.name().to_string())),
        };
        let (position, last_move) = match moves {
            Some(moves) => self.after_moves(moves, rules, filter.0.as_deref())?,
            None => (Position::initial(&rules), None),
        };
        Ok(PositionQuery {
            position,
            rules,
            filter,
            last_move,
            variant: choice(VariantChoice::MostGames(rules.preset)),
        })
    }

    /// The position after `moves` under `rules`; when they do not read
    /// there, an error naming the presets under which they do.
    fn after_moves(
        &self,
        moves: &str,
        rules: Rules,
        variant: Option<&str>,
    ) -> Result<(Position, Option<Move>), QueryError> {
        let (message, said) = match position_after_moves(moves, rules) {
            Ok(found) => return Ok(found),
            // Not moves under any rules.
            Err(e @ (MovesError::None | MovesError::NotAMove { .. })) => {
                return Err(QueryError::Moves(e.to_string()));
            }
            Err(e) => {
                let said = match &e {
                    MovesError::NotOk { said, .. } => said.clone(),
                    _ => None,
                };
                (e.to_string(), said)
            }
        };
        let variant = variant.map_or_else(|| rules.name(), str::to_string);
        // Only the presets the database holds games of, most games first:
        // a query under any other finds nothing.
        let legal_under: Vec<Preset> = self
            .preset_counts()?
            .into_iter()
            .filter_map(|(name, _)| name.parse::<Preset>().ok())
            .filter(|p| p.rules() != rules && position_after_moves(moves, p.rules()).is_ok())
            .collect();
        if legal_under.is_empty() {
            return Err(QueryError::Moves(format!(
                "{message} under {variant} (and under every other variant of the database's games)"
            )));
        }
        Err(QueryError::LegalElsewhere {
            message,
            said,
            variant,
            legal_under,
        })
    }

    /// How many games the database holds.
    ///
    /// # Errors
    /// A database failure.
    pub fn game_count(&self) -> Result<usize, StoreError> {
        Ok(usize::try_from(self.games_of(&VariantFilter(None))?).unwrap_or(0))
    }

    /// How many games pass a variant filter (from the counts kept in
    /// `tag_value`, not by reading the games).
    fn games_of(&self, filter: &VariantFilter) -> Result<i64, StoreError> {
        Ok(self.conn().query_row(
            "SELECT coalesce(sum(games), 0) FROM tag_value WHERE field = 'variant' \
             AND (?1 IS NULL OR value = ?1 OR substr(value, 1, length(?1) + 1) = ?1 || '+')",
            [filter.0.as_deref()],
            |r| r.get(0),
        )?)
    }

    /// Games per variant (full variant strings), most first.
    ///
    /// # Errors
    /// A database failure.
    pub fn variant_counts(&self) -> Result<Vec<(String, i64)>, StoreError> {
        self.counts_by("variant")
    }

    /// Games per preset (unsupported games aside), most first.
    ///
    /// # Errors
    /// A database failure.
    pub fn preset_counts(&self) -> Result<Vec<(String, i64)>, StoreError> {
        self.counts_by("preset")
    }

    /// Games per value of a column of `game` (`variant`, `preset`; '' for
    /// unsupported games' preset, left out), most first, ties by value:
    /// the counts kept in `tag_value`.
    fn counts_by(&self, field: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT value, games FROM tag_value WHERE field = ?1 AND value <> '' AND games > 0 \
             ORDER BY games DESC, value",
        )?;
        let rows = stmt
            .query_map([field], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(rows)
    }

    /// The preset with the most games (unsupported ones aside); `filipino`
    /// in an empty database.
    ///
    /// # Errors
    /// A database failure.
    pub fn main_preset(&self) -> Result<Preset, StoreError> {
        Ok(self
            .preset_counts()?
            .into_iter()
            .find_map(|(name, _)| name.parse().ok())
            .unwrap_or(Preset::Filipino))
    }

    /// A game by id.
    ///
    /// # Errors
    /// A database failure.
    pub fn game(&self, id: GameId) -> Result<Option<StoredGame>, StoreError> {
        let row = self
            .conn()
            .prepare_cached(
                "SELECT id, status, variant, notation, start_fen, moves, result, record, plies, variant_from, \
                 opening, opening_ply, ballot, result_check FROM game WHERE id = ?1",
            )?
            .query_row([id], |r| {
                let plies: Option<i64> = r.get(8)?;
                let game = StoredGame {
                    id: r.get(0)?,
                    status: Status::Ok,
                    variant: r.get(2)?,
                    notation: None,
                    start_fen: r.get(4)?,
                    moves: r.get(5)?,
                    result: r.get(6)?,
                    record: RecordBody::ok(
                        String::new(),
                        None,
                        plies.and_then(|p| usize::try_from(p).ok()),
                    ),
                    variant_from: None,
                    opening: r.get(10)?,
                    opening_ply: r.get(11)?,
                    ballot: r.get(12)?,
                    result_check: ResultCheck::parse(r.get_ref(13)?.as_str_or_null()?)
                        .unwrap_or(ResultCheck::Unknown),
                };
                let names: [Option<String>; 2] = [r.get(3)?, r.get(9)?];
                let status: String = r.get(1)?;
                Ok((game, status, r.get::<_, Option<String>>(7)?, names))
            })
            .optional()?;
        let Some((mut game, status, record, [notation, variant_from])) = row else {
            return Ok(None);
        };
        game.status = parse_status(id, &status)?;
        game.notation = parse_name(id, StoredPart::Notation, notation.as_deref())?;
        game.variant_from = parse_name(id, StoredPart::VariantFrom, variant_from.as_deref())?;
        game.record = match record {
            Some(json) => parse_record(id, &json)?,
            None => RecordBody {
                variant: game.variant.clone(),
                notation: game.notation,
                status: game.status,
                ..game.record
            },
        };
        // The column is what recheck keeps up to date.
        game.record.variant_from = game.variant_from;
        Ok(Some(game))
    }

    /// Where a game came from: its first provenance.
    ///
    /// # Errors
    /// A database failure.
    pub fn source(&self, game: GameId) -> Result<Option<Source>, StoreError> {
        self
            .conn()
            .prepare_cached(
                "SELECT f.path, p.idx, p.line, p.text FROM provenance p JOIN source_file f ON f.id = p.file \
                 WHERE p.game = ?1 ORDER BY p.file, p.idx LIMIT 1",
            )?
            .query_row([game], |r| {
                let stored = r.get_ref(3)?.as_blob().unwrap_or_default();
                let source = Source {
                    file: r.get(0)?,
                    index: r.get(1)?,
                    line: r.get(2)?,
                    tags: serde_json::Map::new(),
                };
                Ok((source, parse_tags(game, stored)))
            })
            .optional()?
            .map(|(source, tags)| {
                Ok(Source {
                    tags: tags?,
                    ..source
                })
            })
            .transpose()
    }

    /// The games that reach `position`, by id, with the first ply they are
    /// there; checked against each game's own moves. Each is handed to
    /// `each` as it is found, until `each` breaks.
    fn games_at<E: From<StoreError>>(
        &self,
        position: &Position,
        filter: &VariantFilter,
        from_ply: Ply,
        each: impl FnMut(GameAt) -> Result<ControlFlow<()>, E>,
    ) -> Result<(), E> {
        self.games_at_among(position, filter, from_ply, None, each)
    }

    /// As [`Store::games_at`], of the games in `among` only (all when
    /// `None`): the others are passed over before their rows are read.
    pub(in crate::store) fn games_at_among<E: From<StoreError>>(
        &self,
        position: &Position,
        filter: &VariantFilter,
        from_ply: Ply,
        among: Option<&IdSet>,
        mut each: impl FnMut(GameAt) -> Result<ControlFlow<()>, E>,
    ) -> Result<(), E> {
        let sql = format!(
            "SELECT g.id, ?3, ?4, g.outcome, g.variant, g.start_fen, g.moves FROM game g \
             WHERE g.id = ?1 AND {}",
            filter.sql(),
        );
        let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
        let mut stmt = self.conn().prepare_cached(&sql).map_err(sqlite)?;
        let key = position.zobrist() as i64;
        // Start positions by (variant, start FEN): few distinct ones per query.
        let mut starts: Vec<KnownStart> = Vec::new();
        crate::store::stored::postings::each_at(self.conn(), key, |entry| {
            if (from_ply == Ply::AfterStart && entry.ply == 0)
                || among.is_some_and(|ids| !ids.contains(entry.game))
            {
                return Ok(ControlFlow::Continue(()));
            }
            let variant = filter.0.as_deref().unwrap_or("");
            let mut rows = stmt
                .query(params![entry.game, variant, entry.ply, entry.open])
                .map_err(sqlite)?;
            let Some(r) = rows.next().map_err(sqlite)? else {
                return Ok(ControlFlow::Continue(()));
            };
            let (game, ply, open, outcome, variant, start_fen, moves) =
                game_at_row(r).map_err(sqlite)?;
            let known = KnownStart::find(&mut starts, variant, start_fen);
            let verified = known.reaches(moves, ply as usize, position);
            if verified {
                // The game is at `position`: its next move is its stored
                // move there, unless open.
                let next = match (&known.start, open) {
                    (Some((rules, _)), false) => index_at(moves, ply as usize).and_then(|index| {
                        known
                            .legal
                            .get_or_insert_with(|| canonical_moves(position, rules))
                            .get(index)
                            .copied()
                    }),
                    _ => None,
                };
                return each((game, ply, next, outcome));
            }
            Ok(ControlFlow::Continue(()))
        })
    }

    /// How many games of the filter's variants reach `position`: at a
    /// popular key, the rows of games there counted by variant; else the
    /// entries under its key, each checked against its game as a search
    /// checks it (a position that merely shares the key's kept bits is not
    /// counted).
    fn count_at(&self, position: &Position, filter: &VariantFilter) -> Result<usize, StoreError> {
        let key = position.zobrist() as i64;
        let count: i64 = if crate::store::stored::popular::is_popular(self.conn(), key)? {
            let sql = format!(
                "SELECT coalesce(sum(g.rows), 0) FROM popular_rows g WHERE g.key = ?1 AND {}",
                filter.sql()
            );
            let mut stmt = self.conn().prepare_cached(&sql)?;
            match &filter.0 {
                None => stmt.query_row(params![key], |r| r.get(0))?,
                Some(v) => stmt.query_row(params![key, v], |r| r.get(0))?,
            }
        } else {
            let mut n = 0i64;
            self.games_at(position, filter, Ply::Any, |_| {
                n += 1;
                Ok::<_, StoreError>(ControlFlow::Continue(()))
            })?;
            n
        };
        Ok(count.max(0) as usize)
    }

    /// The games that start at `position`, as `(first move, outcome,
    /// games)`; first moves that are not certain left out. Each variant
    /// and start FEN found under the position's key is checked once.
    fn games_starting_at(
        &self,
        position: &Position,
        filter: &VariantFilter,
    ) -> Result<Vec<(i64, i64, i64)>, StoreError> {
        let sql = format!(
            "SELECT g.variant, g.start_fen, g.next, g.outcome, g.games FROM start_move g \
             WHERE g.start_key = ?1 AND g.next <> 0 AND {}",
            filter.sql()
        );
        let mut stmt = self.conn().prepare_cached(&sql)?;
        let key = position.zobrist() as i64;
        let mut rows = match &filter.0 {
            None => stmt.query(params![key])?,
            Some(v) => stmt.query(params![key, v])?,
        };
        let mut checked: HashMap<(String, String), bool> = HashMap::new();
        let mut found = Vec::new();
        while let Some(r) = rows.next()? {
            let (variant, start_fen): (String, String) = (r.get(0)?, r.get(1)?);
            let starts_here =
                *checked
                    .entry((variant, start_fen))
                    .or_insert_with_key(|(variant, start_fen)| {
                        let fen = (!start_fen.is_empty()).then_some(start_fen.as_str());
                        Rules::parse(variant)
                            .ok()
                            .and_then(|rules| start_position(&rules, fen))
                            .as_ref()
                            == Some(position)
                    });
            if starts_here {
                found.push((r.get(2)?, r.get(3)?, r.get(4)?));
            }
        }
        Ok(found)
    }

    /// The games that reach popular `position` past their start, as
    /// `(next move, outcome, games)`: the counts kept for it (by the
    /// position itself, not only its key).
    fn games_later_at(
        &self,
        position: &Position,
        filter: &VariantFilter,
    ) -> Result<Vec<(i64, i64, i64)>, StoreError> {
        let sql = format!(
            "SELECT g.next, g.outcome, g.games FROM popular_move g \
             WHERE g.key = ?1 AND g.board = ?3 AND {}",
            filter.sql()
        );
        let mut stmt = self.conn().prepare_cached(&sql)?;
        let rows = stmt.query_map(
            params![position.zobrist() as i64, filter.0, &position.packed()[..]],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every game of the variant filter that reaches `position`, by id, as
    /// `(game, first ply there, outcome code)`, handed to `each` as found
    /// until it breaks.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub(in crate::store) fn each_first_ply_at<E: From<StoreError>>(
        &self,
        position: &Position,
        filter: &VariantFilter,
        mut each: impl FnMut((i64, i64, i64)) -> Result<ControlFlow<()>, E>,
    ) -> Result<(), E> {
        self.games_at(position, filter, Ply::Any, |(game, ply, _, outcome)| {
            each((game, ply, outcome))
        })
    }

    /// How many games of the variant filter reach `position`.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn games_at_count(
        &self,
        position: &Position,
        filter: &VariantFilter,
    ) -> Result<usize, StoreError> {
        self.count_at(position, filter)
    }

    /// Every game of the variant filter that reaches `position`, by id, as
    /// `(game, first ply there, outcome code)`.
    ///
    /// # Errors
    /// A database failure.
    pub(in crate::store) fn first_plies_at(
        &self,
        position: &Position,
        filter: &VariantFilter,
    ) -> Result<Vec<(i64, i64, i64)>, StoreError> {
        let mut found = Vec::new();
        self.games_at(position, filter, Ply::Any, |(game, ply, _, outcome)| {
            found.push((game, ply, outcome));
            Ok::<_, StoreError>(ControlFlow::Continue(()))
        })?;
        Ok(found)
    }

    /// Every game that reaches `position`, by id, handed to `each` as it
    /// is found, until `each` breaks.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_game_id_at<E: From<StoreError>>(
        &self,
        position: &Position,
        filter: &VariantFilter,
        mut each: impl FnMut(i64) -> Result<ControlFlow<()>, E>,
    ) -> Result<(), E> {
        self.games_at(position, filter, Ply::Any, |(game, ..)| each(game))
    }

    /// Every game of the variant filter, by id, handed to `each` as it is
    /// read, until `each` breaks.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_game_id<E: From<StoreError>>(
        &self,
        filter: &VariantFilter,
        mut each: impl FnMut(i64) -> Result<ControlFlow<()>, E>,
    ) -> Result<(), E> {
        let sql = format!(
            "SELECT g.id FROM game g WHERE {} ORDER BY g.id",
            filter.sql().replace("?2", "?1")
        );
        let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
        let mut stmt = self.conn().prepare(&sql).map_err(sqlite)?;
        let mut rows = match &filter.0 {
            None => stmt.query([]),
            Some(v) => stmt.query([v]),
        }
        .map_err(sqlite)?;
        while let Some(r) = rows.next().map_err(sqlite)? {
            if each(r.get(0).map_err(sqlite)?)?.is_break() {
                break;
            }
        }
        Ok(())
    }

    /// Every game that reaches `position` (sorted by id, at most `limit`;
    /// 0 for all), with how many games reach it.
    ///
    /// # Errors
    /// A database failure.
    pub fn search(
        &self,
        position: &Position,
        filter: &VariantFilter,
        games: &GameFilter,
        limit: usize,
    ) -> Result<SearchResult, StoreError> {
        let mut hits = Vec::new();
        let shown = self.each_search_hit(position, filter, games, limit, |hit| {
            hits.push(hit);
            Ok::<_, StoreError>(())
        })?;
        Ok(SearchResult {
            hits,
            total: shown.total,
        })
    }

    /// Every game that reaches `position` (sorted by id, at most `limit`;
    /// 0 for all), handed to `each` as it is found; then how many were
    /// handed out of how many games reach the position.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_search_hit<E: From<StoreError>>(
        &self,
        position: &Position,
        filter: &VariantFilter,
        games: &GameFilter,
        limit: usize,
        mut each: impl FnMut(SearchHit) -> Result<(), E>,
    ) -> Result<Shown, E> {
        let mut shown = 0;
        let mut hand_out = |(game, ply, _, outcome): GameAt| -> Result<(), E> {
            if let Some(hit) = self.search_hit(game, ply, outcome, write_fen(position))? {
                each(hit)?;
                shown += 1;
            }
            Ok(())
        };
        if games.is_empty() {
            // Without game filters, the games past the limit are only counted.
            let mut found = 0;
            self.games_at(position, filter, Ply::Any, |game| {
                hand_out(game)?;
                found += 1;
                Ok::<_, E>(if found == limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            })?;
            let total = if limit == 0 || found < limit {
                found
            } else {
                self.count_at(position, filter)?
            };
            return Ok(Shown { shown, total });
        }
        // The games found are checked against the filters some at a time.
        let mut total = 0;
        let mut waiting: Vec<GameAt> = Vec::new();
        let mut pass = |waiting: &mut Vec<GameAt>| -> Result<(), E> {
            let ids: Vec<i64> = waiting.iter().map(|g| g.0).collect();
            let passing: std::collections::HashSet<i64> =
                self.games_passing(games, &ids)?.into_iter().collect();
            for found in waiting.drain(..).filter(|g| passing.contains(&g.0)) {
                total += 1;
                if limit == 0 || total <= limit {
                    hand_out(found)?;
                }
            }
            Ok(())
        };
        self.games_at(position, filter, Ply::Any, |found| {
            waiting.push(found);
            if waiting.len() == FILTERED_AT_ONCE {
                pass(&mut waiting)?;
            }
            Ok::<_, E>(ControlFlow::Continue(()))
        })?;
        pass(&mut waiting)?;
        Ok(Shown { shown, total })
    }

    /// What `search` lists of a game found at `ply`; `None` when the game
    /// or its source is gone.
    pub(in crate::store) fn search_hit(
        &self,
        game: i64,
        ply: i64,
        outcome: i64,
        fen: String,
    ) -> Result<Option<SearchHit>, StoreError> {
        let (Some(stored), Some(source)) = (self.game(GameId(game))?, self.source(GameId(game))?)
        else {
            return Ok(None);
        };
        Ok(Some(SearchHit {
            game: GameId(game),
            file: source.file,
            index: source.index,
            line: source.line,
            ply,
            tags: source.tags,
            result: stored.result,
            outcome: Outcome::from_code(outcome),
            first_side: first_side(&stored.variant),
            variant: stored.variant,
            fen,
            reversed: false,
            matching_plies: None,
            opening: stored.opening,
            ballot: stored.ballot,
        }))
    }

    /// The moves played from `position`, most played first (ties by move),
    /// with results read for the side to move.
    ///
    /// # Errors
    /// A database failure.
    pub fn tree(
        &self,
        position: &Position,
        filter: &VariantFilter,
        notation: Notation,
        geometry: &Geometry,
    ) -> Result<Vec<TreeMove>, StoreError> {
        let mut by_move: HashMap<String, [i64; 5]> = HashMap::new();
        let mut names = self
            .conn()
            .prepare_cached("SELECT name FROM move_name WHERE id = ?1")?;
        // Games that start here, counted at import by start and first move.
        for (next, outcome, games) in self.games_starting_at(position, filter)? {
            count_move(
                &mut by_move,
                names.query_row([next], |r| r.get(0))?,
                outcome,
                games,
            );
        }
        // Games that come here later: counted with the position when it is
        // popular, else one by one.
        if crate::store::stored::popular::is_popular(self.conn(), position.zobrist() as i64)? {
            for (next, outcome, games) in self.games_later_at(position, filter)? {
                count_move(
                    &mut by_move,
                    names.query_row([next], |r| r.get(0))?,
                    outcome,
                    games,
                );
            }
        } else {
            self.games_at(
                position,
                filter,
                Ply::AfterStart,
                |(_, _, next, outcome)| {
                    if let Some(next) = next {
                        count_move(&mut by_move, next.full_numeric(), outcome, 1);
                    }
                    Ok::<_, StoreError>(ControlFlow::Continue(()))
                },
            )?;
        }
        Ok(tree_moves(by_move, position.side(), notation, geometry))
    }
}

/// Counts one move of the tree: `games` games that played `next` from the
/// position and ended in `outcome`.
pub(in crate::store) fn count_move(
    by_move: &mut HashMap<String, [i64; 5]>,
    next: String,
    outcome: i64,
    games: i64,
) {
    let counts = by_move.entry(next).or_default();
    counts[0] += games;
    let column = match Outcome::from_code(outcome) {
        Outcome::White => 1,
        Outcome::Draw => 2,
        Outcome::Black => 3,
        Outcome::Unknown => 4,
    };
    counts[column] += games;
}

/// The tree's moves from the counts by move (games, White's wins, draws,
/// Black's wins, unknown), scored for `side` to move, most played first
/// (ties by move).
pub(in crate::store) fn tree_moves(
    by_move: HashMap<String, [i64; 5]>,
    side: Color,
    notation: Notation,
    geometry: &Geometry,
) -> Vec<TreeMove> {
    let all: i64 = by_move.values().map(|counts| counts[0]).sum();
    let mut moves = Vec::new();
    for (name, [games, white, draws, black, unknown]) in by_move {
        let (wins, losses) = match side {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let decided = wins + draws + losses;
        let score = (decided > 0)
            .then(|| (1000.0 * (wins as f64 + draws as f64 / 2.0) / decided as f64).round() / 10.0);
        moves.push(TreeMove {
            mv: rename_move(&name, notation, geometry),
            games,
            white_wins: white,
            draws,
            black_wins: black,
            unknown,
            share: (1000.0 * games as f64 / all as f64).round() / 10.0,
            score,
        });
    }
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.mv.cmp(&b.mv)));
    moves
}

/// A group of different games with identical moves, as listed: its
/// members (where each game came from) are read one at a time, so that a
/// group of many games takes little memory. Serialized as
/// `{variant, plies, games, members}`.
pub struct TwinGroup<'s> {
    /// The shared variant.
    pub variant: String,
    /// Plies of the shared move list.
    pub plies: i64,
    /// The games, by id.
    pub games: Vec<GameId>,
    store: &'s Store,
}

impl TwinGroup<'_> {
    /// Where each game came from, in the order of `games` (a game without
    /// a source is left out).
    pub fn members(&self) -> impl Iterator<Item = Result<TwinMember, StoreError>> + '_ {
        self.games.iter().filter_map(|&game| {
            let source = match self.store.source(game) {
                Ok(source) => source?,
                Err(err) => return Some(Err(err)),
            };
            Some(Ok(TwinMember {
                game,
                file: source.file,
                index: source.index,
                line: source.line,
                tags: source.tags,
                first_side: first_side(&self.variant),
            }))
        })
    }
}

impl Serialize for TwinGroup<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut group = serializer.serialize_struct("TwinGroup", 4)?;
        group.serialize_field("variant", &self.variant)?;
        group.serialize_field("plies", &self.plies)?;
        group.serialize_field("games", &self.games)?;
        group.serialize_field("members", &TwinMembers(self))?;
        group.end()
    }
}

/// The members of a group, serialized as they are read.
struct TwinMembers<'g, 's>(&'g TwinGroup<'s>);

impl Serialize for TwinMembers<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = serializer.serialize_seq(None)?;
        for member in self.0.members() {
            seq.serialize_element(&member.map_err(S::Error::custom)?)?;
        }
        seq.end()
    }
}

/// One game of a twin group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TwinMember {
    /// Game id.
    pub game: GameId,
    /// Source file.
    pub file: String,
    /// Index in the file.
    pub index: i64,
    /// Line of the game's first tag (or first move) in the file.
    pub line: i64,
    /// Original tags.
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// Who moves first by the group's rules (as [`GameRow::first_side`](crate::store::games::GameRow::first_side)).
    pub first_side: Color,
}

impl TwinMember {
    /// Where the game stands in its file.
    pub fn place(&self) -> Place<'_> {
        Place {
            file: &self.file,
            line: self.line,
            index: self.index,
        }
    }
}

/// Counts for `stats`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Source files imported.
    pub files: i64,
    /// Games stored.
    pub games: i64,
    /// Games by status.
    pub by_status: serde_json::Map<String, serde_json::Value>,
    /// Games by variant.
    pub by_variant: serde_json::Map<String, serde_json::Value>,
    /// Provenances beyond the first of each game (duplicates met).
    pub duplicates: i64,
    /// Indexed (game, position) pairs.
    pub positions: i64,
    /// Games stored but not yet in the position index (see
    /// [`Store::unindexed`]).
    pub unindexed: i64,
    /// Database size in bytes.
    pub bytes: i64,
}

impl Store {
    /// The games whose status is one of `statuses`, plus (with
    /// `resolved`) the `ok` games that had resolved ambiguities: their ids,
    /// in order, handed to `each` as they are read. Returns how many.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_report_id<E: From<StoreError>>(
        &self,
        statuses: &[&str],
        resolved: bool,
        mut each: impl FnMut(i64) -> Result<(), E>,
    ) -> Result<usize, E> {
        let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
        let mut stmt = self
            .conn()
            .prepare("SELECT id, status, record IS NOT NULL FROM game ORDER BY id")
            .map_err(sqlite)?;
        let mut rows = stmt.query([]).map_err(sqlite)?;
        let mut listed = 0;
        while let Some(r) = rows.next().map_err(sqlite)? {
            let status = r.get_ref(1).and_then(|v| Ok(v.as_str()?)).map_err(sqlite)?;
            // Ok games keep a record only when they had resolved ambiguities.
            let listed_here = statuses.contains(&status)
                || (resolved && status == "ok" && r.get::<_, bool>(2).map_err(sqlite)?);
            if listed_here {
                each(r.get(0).map_err(sqlite)?)?;
                listed += 1;
            }
        }
        Ok(listed)
    }

    /// The ids of the games whose result contradicts their moves
    /// (`result_check` is `contradicts_position` or
    /// `contradicts_movetext`), in id order, handed to `each`; then how
    /// many.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_result_contradiction<E: From<StoreError>>(
        &self,
        mut each: impl FnMut(i64) -> Result<(), E>,
    ) -> Result<usize, E> {
        let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
        let mut stmt = self
            .conn()
            .prepare(
                "SELECT id FROM game WHERE result_check IN ('contradicts_position', 'contradicts_movetext') \
                 ORDER BY id",
            )
            .map_err(sqlite)?;
        let mut rows = stmt.query([]).map_err(sqlite)?;
        let mut listed = 0;
        while let Some(r) = rows.next().map_err(sqlite)? {
            each(r.get(0).map_err(sqlite)?)?;
            listed += 1;
        }
        Ok(listed)
    }

    /// The check record of a stored game, with its source (file, index,
    /// line, tags) in front, as `check --json` prints it.
    ///
    /// # Errors
    /// A database failure.
    pub fn record(&self, id: GameId) -> Result<Option<ReportRecord>, StoreError> {
        let (Some(game), Some(source)) = (self.game(id)?, self.source(id)?) else {
            return Ok(None);
        };
        Ok(Some(ReportRecord {
            game: id,
            source: RecordSource {
                file: source.file,
                index: usize::try_from(source.index).unwrap_or_default(),
                line: u64::try_from(source.line).unwrap_or_default(),
                tags: source.tags,
            },
            result_check: game.result_check,
            opening: game.opening,
            ballot: game.ballot,
            first_side: first_side(&game.record.variant),
            record: game.record,
        }))
    }

    /// Groups of different games with identical moves, variant and start,
    /// in order of their first game, handed to `each` as they are read.
    ///
    /// # Errors
    /// A database failure, or the first error `each` returns.
    pub fn each_twin_group<E: From<StoreError>>(
        &self,
        mut each: impl FnMut(TwinGroup<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let sqlite = |e: rusqlite::Error| E::from(StoreError::from(e));
        let mut stmt = self
            .conn()
            .prepare(
                "SELECT g.variant, g.plies, group_concat(g.id) FROM game g \
                 WHERE g.moves_key IN (SELECT moves_key FROM game WHERE moves_key IS NOT NULL \
                                       GROUP BY moves_key HAVING count(*) > 1) \
                 GROUP BY g.variant, g.start_fen, g.moves HAVING count(*) > 1 ORDER BY min(g.id)",
            )
            .map_err(sqlite)?;
        let mut rows = stmt.query([]).map_err(sqlite)?;
        while let Some(r) = rows.next().map_err(sqlite)? {
            let variant: String = r.get(0).map_err(sqlite)?;
            let plies: i64 = r.get(1).map_err(sqlite)?;
            let ids: String = r.get(2).map_err(sqlite)?;
            let mut games: Vec<GameId> = ids.split(',').filter_map(|i| i.parse().ok()).collect();
            games.sort_unstable();
            each(TwinGroup {
                variant,
                plies,
                games,
                store: self,
            })?;
        }
        Ok(())
    }

    /// The original text of a game (its first provenance): the tags as
    /// written, then the move text.
    ///
    /// # Errors
    /// A database failure.
    pub fn original_text(&self, game: GameId) -> Result<Option<String>, StoreError> {
        stored_text(self.conn(), game.get())
    }

    /// Counts of what the database holds, as its writers keep them (schema
    /// step 22): a few rows read whatever its size. `stats --check`
    /// ([`Store::check_invariants`]) counts them again.
    ///
    /// # Errors
    /// A database failure.
    pub fn stats(&self) -> Result<Stats, StoreError> {
        let conn = self.conn();
        let count =
            |sql: &str| -> Result<i64, StoreError> { Ok(conn.query_row(sql, [], |r| r.get(0))?) };
        let kept = |name: &str| -> Result<i64, StoreError> {
            Ok(conn
                .prepare_cached("SELECT coalesce(sum(n), 0) FROM kept_count WHERE name = ?1")?
                .query_row([name], |r| r.get(0))?)
        };
        let games = count("SELECT coalesce(sum(games), 0) FROM tag_value WHERE field = 'variant'")?;
        let mut stats = Stats {
            files: kept("files")?,
            games,
            duplicates: kept("copies")? - games,
            positions: kept("positions")?,
            unindexed: self.unindexed()?,
            bytes: count(
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
            )?,
            ..Stats::default()
        };
        for (field, map) in [
            ("status", &mut stats.by_status),
            ("variant", &mut stats.by_variant),
        ] {
            let mut stmt = conn.prepare_cached(
                "SELECT value, games FROM tag_value WHERE field = ?1 AND games > 0 \
                 ORDER BY games DESC, value",
            )?;
            let rows: Vec<(String, i64)> = stmt
                .query_map([field], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            for (name, n) in rows {
                map.insert(name, n.into());
            }
        }
        Ok(stats)
    }
}

/// A canonical numeric move (`30x23x14x21`) written in another notation
/// on `geometry` (numbers where the notation has no names for its squares).
pub fn rename_move(numeric: &str, notation: Notation, geometry: &Geometry) -> String {
    if notation == Notation::Numeric || !notation.names_squares_of(geometry) {
        return numeric.to_string();
    }
    let joiner = if numeric.contains('x') { 'x' } else { '-' };
    numeric
        .split(['x', '-'])
        .map(|label| {
            label
                .parse()
                .ok()
                .and_then(crate::rules::Square::new)
                .map_or_else(|| label.to_string(), |s| notation.square_name(geometry, s))
        })
        .collect::<Vec<_>>()
        .join(&joiner.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_is_read_on_the_board_it_fits() {
        let (_, rules) = position_from_fen("W:W21-32:B1-12", None).unwrap();
        assert_eq!(rules.geometry, Geometry::standard());
        // Black men on 28 and 31: on their crowning row of the 8×8 board,
        // not of the 10×10 one.
        let (_, rules) = position_from_fen("W:W6:B1,4,28,31", None).unwrap();
        assert_eq!(rules.geometry, Geometry::international());
        let (_, rules) = position_from_fen("W:W31-50:B1-20", None).unwrap();
        assert_eq!(rules.geometry, Geometry::international());
        let err = position_from_fen("W:W6:B1,4,28,31", Some(&Rules::default())).unwrap_err();
        assert!(err.to_string().contains("its own crowning row"), "{err}");
        let italian = Preset::Italian.rules();
        let (position, _) = position_from_fen("W:W21-32:B1-12", Some(&italian)).unwrap();
        assert_eq!(position, Position::initial(&italian));
    }

    #[test]
    fn variants_are_compared_without_case_and_choices_are_said() {
        assert_eq!(
            VariantFilter::new(Some(" English ")),
            VariantFilter(Some("english".to_string()))
        );
        assert_eq!(VariantFilter::new(None), VariantFilter(None));
        assert_eq!(VariantChoice::Given.note(), None);
        assert_eq!(
            VariantChoice::MostGames(Preset::Filipino).note().unwrap(),
            "filipino games (the variant with most games; --variant to choose)"
        );
        assert!(
            VariantChoice::Every
                .note()
                .unwrap()
                .contains("every variant")
        );
        let absent = QueryError::Absent {
            asked: "pool".to_string(),
            present: vec![("english".to_string(), 2), ("filipino".to_string(), 1)],
        };
        assert_eq!(
            absent.to_string(),
            "--variant pool: no game in the database is pool; it holds english (2 games), filipino (1 game)"
        );
        let elsewhere = QueryError::LegalElsewhere {
            message: "ply 1 (1.) 23-18 is illegal".to_string(),
            said: None,
            variant: "english".to_string(),
            legal_under: vec![Preset::Filipino, Preset::Russian],
        };
        assert_eq!(
            elsewhere.to_string(),
            "--moves: ply 1 (1.) 23-18 is illegal under english; legal under filipino, russian: add --variant filipino"
        );
    }

    #[test]
    fn moves_are_renamed_square_by_square() {
        let g = Geometry::standard();
        assert_eq!(
            rename_move("30x23x14x21", Notation::Vismin, g),
            "c1xe3xc5xa3"
        );
        assert_eq!(rename_move("23-18", Notation::Luzon, g), "d3-e4");
        assert_eq!(rename_move("23-18", Notation::Dama, g), "2-15");
        assert_eq!(rename_move("23-18", Notation::Numeric, g), "23-18");
        let ten = Geometry::international();
        assert_eq!(rename_move("32-28", Notation::Vismin, ten), "d4-e5");
        assert_eq!(rename_move("32-28", Notation::Dama, ten), "32-28");
    }
}
