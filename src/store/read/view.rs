//! What a stored game shows, the same for every front end: [`GameView`]
//! (the object of `show --json`) and the richer [`GameDetail`] of the web
//! explorer's game viewer (its moves as written, with comments, NAGs and
//! variations, the fault and the readings of an ambiguous game).

use serde::Serialize;

use crate::message::{NoBoardMessage, RequestMessage};
use crate::notation::{Notation, write_fen, write_move_among};
use crate::pdn::{Game, Line, Nag, Ply, Reader};
use crate::replay::{
    AsRead, Overrides, Reading, ReadingPly, ResolvedRecord, Status, VariantFrom, as_read,
    check_game, move_number, readings, replay, written_moves,
};
use crate::rules::{Color, Move, Position, Rules};
use crate::store::read::games::clean_tags;
use crate::store::read::listing::Outcome;
use crate::store::read::query::{PlayedMoves, Source, StoredGame};
use crate::store::stored::id::GameId;
use crate::store::stored::param::{Param, Wording};
use crate::store::stored::{Store, StoreError};

use crate::replay::RecordBody;

/// Why a game cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// No such game (or it has no source).
    #[error("{0}")]
    NotFound(Box<RequestMessage>),
    /// The game has no board to show at a ply ([`RequestMessage::NoBoard`]).
    #[error("{0}")]
    NoBoard(Box<RequestMessage>),
    /// A value given does not fit the game: a position beyond its end.
    #[error("{}", self.worded(Wording::Parameters))]
    Value {
        /// The value.
        param: Param,
        /// Why it does not fit.
        why: String,
    },
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ViewError {
    /// The message, a value named as `wording` names it.
    pub fn worded(&self, wording: Wording) -> String {
        match self {
            ViewError::Value { param, why } => format!("{}: {why}", wording.name(*param)),
            other => other.to_string(),
        }
    }
}

/// The first reading of a game that has a board, and the notation its
/// squares are named in.
#[derive(Clone, Debug)]
pub struct FirstReading {
    /// The rules the game was read by.
    pub rules: Rules,
    /// Its start position.
    pub start: Position,
    /// The moves of its first reading, with the positions they are played from.
    pub moves: PlayedMoves,
    /// How squares are named.
    pub notation: Notation,
}

/// A stored game at one position: the object of `show --json`.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game id.
    pub game: GameId,
    /// Source file as given when imported (its first copy).
    pub file: String,
    /// 1-based game index in the file.
    pub index: i64,
    /// Line of the game's first tag or move.
    pub line: i64,
    /// The original tags, names as written.
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// Who won, by the variant's reading of the result.
    pub outcome: Outcome,
    /// The game's variant.
    pub variant: String,
    /// Where its rules came from.
    pub variant_from: Option<VariantFrom>,
    /// Its status.
    pub status: Status,
    /// Its result checked against its moves.
    pub result_check: crate::replay::ResultCheck,
    /// The notation squares are named in (for a game without a board: the
    /// game's own, if any).
    pub notation: Option<Notation>,
    /// The moves of the first reading, in that notation.
    pub moves: Vec<String>,
    /// The position shown: plies played before it.
    pub ply: Option<usize>,
    /// Whether every reading passes through it.
    pub certain: bool,
    /// Its canonical FEN.
    pub fen: Option<String>,
    /// Why the game has no board, when it has none.
    pub no_board: Option<String>,
    /// The same as a code and its parts.
    pub no_board_message: Option<NoBoardMessage>,
    /// The name of its opening; `None` when it reaches no named position.
    pub opening: Option<String>,
    /// The ply where it reaches its opening's position: it leaves the
    /// named line after it.
    pub opening_ply: Option<i64>,
    /// Its three-move ballot (English games).
    pub ballot: Option<String>,
    /// The result as written (the game's terminator, else its `Result`
    /// tag); `None` when it has neither.
    pub result: Option<String>,
    /// Who moves first by the game's rules (Black in English checkers and
    /// pool); `None` when its variant is not known.
    pub first_side: Option<Color>,
    /// The comments written before the first move.
    pub comments: Vec<String>,
    /// The main line as written, one entry per ply, with comments, NAGs
    /// and variations (the objects of the API's `moves`).
    pub annotated: Vec<PlyView>,
    /// The game's check record.
    #[serde(skip)]
    pub record: RecordBody,
    /// The first reading, for a game with a board.
    #[serde(skip)]
    pub reading: Option<FirstReading>,
    /// The positions every reading passes through (plies before them).
    #[serde(skip)]
    pub certain_plies: Vec<usize>,
}

impl GameView {
    /// The position shown, for a game with a board.
    pub fn position(&self) -> Option<Position> {
        let reading = self.reading.as_ref()?;
        position_at(&reading.start, &reading.moves, self.ply?)
    }
}

/// The position after `ply` moves of a reading; `None` past its end.
pub fn position_at(start: &Position, moves: &PlayedMoves, ply: usize) -> Option<Position> {
    if ply == 0 {
        return Some(*start);
    }
    let (before, mv) = moves.get(ply - 1)?;
    Some(before.play(mv))
}

/// A move with its name in the notation shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedMove {
    /// Canonical numeric full path.
    #[serde(rename = "move")]
    pub mv: String,
    /// As written in the notation shown (start and end, unless another
    /// legal move shares them).
    pub name: String,
}

/// One ply of a line as written, with what it was read as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlyView {
    /// The game ply (1-based; in a variation, the ply of the game it
    /// stands for).
    pub ply: usize,
    /// Its move number, counted (DESIGN §6).
    pub number: usize,
    /// Who plays it: `white` or `black`.
    pub side: &'static str,
    /// The token as written.
    pub token: String,
    /// The move of the first reading, canonical numeric full path; `None`
    /// past where the line can be replayed.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// That move in the notation shown.
    pub name: Option<String>,
    /// Canonical FEN after it; `None` when not replayed.
    pub fen: Option<String>,
    /// Whether the position after it is certain (every reading passes
    /// through it); always false in variations.
    pub certain: bool,
    /// In a variation, the comments written before its first move (on
    /// that move; empty elsewhere: the main line's are the game's).
    pub comments_before: Vec<String>,
    /// Comments after it.
    pub comments: Vec<String>,
    /// Annotations after it: `$n` glyphs, marks (`!`, `?!`, …) as written.
    pub nags: Vec<String>,
    /// The same annotations as people read them: `$1` as `!`, `$2` as
    /// `?`, … ([`Nag::shown`]).
    pub glyphs: Vec<String>,
    /// Whether it fits no legal move of the position before it (the moves
    /// after it in its line are not replayed).
    pub illegal: bool,
    /// Variations after it: alternatives to this ply, each replayed from
    /// the position before it.
    pub variations: Vec<Vec<PlyView>>,
}

/// Where a problem game goes wrong: where its readings part, or the first
/// move that fits no legal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fault {
    /// The ply (1-based).
    pub ply: usize,
    /// Its move number, counted.
    pub move_number: Option<usize>,
    /// Who plays it.
    pub side: Option<Color>,
    /// The token as written.
    pub token: Option<String>,
    /// Canonical FEN of the position before it: the certain one when
    /// there is one, else the first reading's (the board to draw).
    pub fen: Option<String>,
    /// Whether that position is certain.
    pub certain: bool,
    /// The moves readings take there (ambiguous).
    pub candidates: Vec<NamedMove>,
    /// The legal moves there (illegal); `None` for an ambiguous game.
    pub legal: Option<Vec<NamedMove>>,
    /// What is wrong, for people.
    pub message: Option<String>,
    /// The same as a code and its parts (see [`crate::message`]).
    pub message_key: Option<crate::message::RecordMessage>,
}

/// One reading of an ambiguous game, from the ply where the readings part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadingView {
    /// Its moves from there to the end of the reading.
    pub moves: Vec<ReadingMove>,
}

/// One move of a reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadingMove {
    /// The ply (1-based).
    pub ply: usize,
    /// Canonical numeric full path.
    #[serde(rename = "move")]
    pub mv: String,
    /// In the notation shown.
    pub name: String,
    /// Canonical FEN after it.
    pub fen: String,
}

/// Readings of an ambiguous game listed at most.
pub const MAX_READINGS: usize = 16;

/// A stored game for the game viewer: the fields of [`GameView`], its
/// moves as written (per ply: comments, NAGs, variations), the cleaned
/// tags, the start, the fault and the readings.
#[derive(Clone, Debug, Serialize)]
pub struct GameDetail {
    /// The game id.
    pub game: GameId,
    /// Source file as given when imported (its first copy).
    pub file: String,
    /// 1-based game index in the file.
    pub index: i64,
    /// Line of the game's first tag or move.
    pub line: i64,
    /// The original tags, names as written.
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// The tags as `games --json` shows them (cleaned).
    pub cleaned_tags: serde_json::Map<String, serde_json::Value>,
    /// Who won, by the variant's reading of the result.
    pub outcome: Outcome,
    /// The game's variant.
    pub variant: String,
    /// Where its rules came from.
    pub variant_from: Option<VariantFrom>,
    /// Its status.
    pub status: Status,
    /// Its result checked against its moves.
    pub result_check: crate::replay::ResultCheck,
    /// The notation squares are named in.
    pub notation: Option<Notation>,
    /// Canonical FEN of position 0; `None` without a board.
    pub start_fen: Option<String>,
    /// The result as written (as [`GameView::result`]).
    pub result: Option<String>,
    /// Who moves first by the game's rules.
    pub first_side: Option<Color>,
    /// The comments written before the first move.
    pub comments: Vec<String>,
    /// The main line as written, one entry per ply.
    pub moves: Vec<PlyView>,
    /// The position shown: plies played before it.
    pub ply: Option<usize>,
    /// Whether every reading passes through it.
    pub certain: bool,
    /// Its canonical FEN.
    pub fen: Option<String>,
    /// Why the game has no board, when it has none.
    pub no_board: Option<String>,
    /// The same as a code and its parts.
    pub no_board_message: Option<NoBoardMessage>,
    /// The name of its opening; `None` when it reaches no named position.
    pub opening: Option<String>,
    /// The ply where it reaches its opening's position: it leaves the
    /// named line after it.
    pub opening_ply: Option<i64>,
    /// Its three-move ballot (English games).
    pub ballot: Option<String>,
    /// Where the game goes wrong; `None` for an ok game.
    pub fault: Option<Fault>,
    /// For an ambiguous game: its readings (at most [`MAX_READINGS`]),
    /// from where they part.
    pub readings: Vec<ReadingView>,
    /// How many readings there are in all (`None` when not counted: past
    /// the replay limit, or a game that is not ambiguous).
    pub readings_total: Option<u64>,
    /// Resolved ambiguities, as in the record.
    pub resolved: Vec<ResolvedRecord>,
}

impl Store {
    /// A game at position `ply` (default: the last certain one), its
    /// squares named in `notation` (default: the game's own, numeric when
    /// it has none): what `show` prints.
    ///
    /// # Errors
    /// [`ViewError::NotFound`] for an unknown game;
    /// [`ViewError::Value`] for a ply beyond the game; [`ViewError::NoBoard`]
    /// for a ply asked of a game without a board; a database failure.
    pub fn game_view(
        &self,
        id: GameId,
        ply: Option<usize>,
        notation: Option<Notation>,
    ) -> Result<GameView, ViewError> {
        Ok(self.viewed(id, ply, notation)?.view)
    }

    /// A game for the game viewer: [`Store::game_view`]'s fields, and its
    /// moves as written with their comments, NAGs and variations, its
    /// fault and readings.
    ///
    /// # Errors
    /// As [`Store::game_view`].
    pub fn game_detail(
        &self,
        id: GameId,
        ply: Option<usize>,
        notation: Option<Notation>,
    ) -> Result<GameDetail, ViewError> {
        let Viewed {
            view,
            checked,
            original,
        } = self.viewed(id, ply, notation)?;
        let (fault, readings, readings_total) = match &view.reading {
            Some(reading) => (
                fault(&view.record, reading),
                game_readings(&view, reading, checked.as_ref(), original.as_ref()),
                match view.record.status {
                    Status::Ambiguous if view.record.ply.is_some() => view.record.interpretations,
                    _ => None,
                },
            ),
            None => (None, Vec::new(), None),
        };
        let cleaned_tags = clean_tags(&view.tags, &view.variant);
        Ok(GameDetail {
            game: view.game,
            file: view.file,
            index: view.index,
            line: view.line,
            tags: view.tags,
            cleaned_tags,
            outcome: view.outcome,
            variant: view.variant,
            variant_from: view.variant_from,
            status: view.status,
            result_check: view.result_check,
            notation: view.notation,
            start_fen: view.reading.as_ref().map(|r| write_fen(&r.start)),
            result: view.result,
            first_side: view.first_side,
            comments: view.comments,
            moves: view.annotated,
            ply: view.ply,
            certain: view.certain,
            fen: view.fen,
            no_board: view.no_board,
            no_board_message: view.no_board_message,
            opening: view.opening,
            opening_ply: view.opening_ply,
            ballot: view.ballot,
            fault,
            readings,
            readings_total,
            resolved: view.record.resolved,
        })
    }

    /// The view of a game with its main line as written, the check of
    /// its original text when it was checked again (a game that is not
    /// ok) and that text as read.
    fn viewed(
        &self,
        id: GameId,
        ply: Option<usize>,
        notation: Option<Notation>,
    ) -> Result<Viewed, ViewError> {
        let (mut view, checked) = self.positioned(id, ply, notation)?;
        let text = self.original_text(id)?.unwrap_or_default();
        let original = Reader::new(text.as_bytes()).next_game().ok().flatten();
        // The plies as read: a capture written one jump per move is one
        // ply, as the stored moves count them.
        let shape = match &checked {
            Some(reading) => as_read(reading),
            None => AsRead::joining(view.record.notation),
        };
        if let Some(game) = &original {
            view.annotated = main_line(game, &view, &shape);
            view.comments = comment_texts(&game.line.comments);
        }
        Ok(Viewed {
            view,
            checked,
            original,
        })
    }

    /// The view of a game at its position, with the check of its original
    /// text when it was checked again.
    fn positioned(
        &self,
        id: GameId,
        ply: Option<usize>,
        notation: Option<Notation>,
    ) -> Result<(GameView, Option<Reading>), ViewError> {
        let game = self.game(id)?.ok_or_else(|| {
            ViewError::NotFound(Box::new(RequestMessage::NoSuchGame { id: id.0 }))
        })?;
        let source = self
            .source(id)?
            .ok_or_else(|| ViewError::NotFound(Box::new(RequestMessage::NoSource { id: id.0 })))?;
        let notation = notation.or(game.notation).unwrap_or(Notation::Numeric);
        let mut view = empty_view(id, &game, source);
        let (rules, start, moves) = match game.board() {
            Ok(reading) => reading,
            Err(reason) if ply.is_some() => {
                return Err(ViewError::NoBoard(Box::new(RequestMessage::NoBoard {
                    why: format!("game {id} has no board to show: {reason}"),
                    id: Some(id.0),
                    reason: Some(reason),
                })));
            }
            Err(reason) => {
                view.notation = game.notation;
                view.no_board = Some(reason.to_string());
                view.no_board_message = Some(reason);
                return Ok((view, None));
            }
        };
        let (certain, checked) = self.certain_plies(id, &game, rules, moves.len(), &view.file)?;
        let ply = ply.unwrap_or_else(|| certain.last().copied().unwrap_or(0));
        let Some(position) = position_at(&start, &moves, ply) else {
            return Err(ViewError::Value {
                param: Param::Ply,
                why: format!(
                    "game {id} has {} plies: there is no position {ply}",
                    moves.len()
                ),
            });
        };
        view.notation = Some(notation);
        view.moves = moves
            .iter()
            .map(|(before, mv)| {
                write_move_among(mv, &before.legal_moves(&rules), notation, rules.geometry)
            })
            .collect();
        view.ply = Some(ply);
        view.certain = certain.contains(&ply);
        view.fen = Some(write_fen(&position));
        view.certain_plies = certain;
        view.reading = Some(FirstReading {
            rules,
            start,
            moves,
            notation,
        });
        Ok((view, checked))
    }

    /// Which positions of the game are certain: every one for an ok game;
    /// else those replaying its original text again finds (with that
    /// reading).
    fn certain_plies(
        &self,
        id: GameId,
        game: &StoredGame,
        rules: Rules,
        plies: usize,
        file: &str,
    ) -> Result<(Vec<usize>, Option<Reading>), ViewError> {
        let mut checked = None;
        let certain: Vec<usize> = if game.status == Status::Ok {
            (0..=plies).collect()
        } else {
            let text = self.original_text(id)?.unwrap_or_default();
            let overrides = Overrides {
                rules: Some(rules),
                notation: game.notation,
                skip_alternatives: true,
                ..Overrides::default()
            };
            match Reader::new(text.as_bytes()).next_game() {
                Ok(Some(original)) => {
                    let reading = check_game(&original, file, &overrides).reading;
                    let certain = match &reading {
                        Reading::Replayed { replay, .. } => {
                            replay.certain.iter().map(|c| c.ply).collect()
                        }
                        _ => vec![0],
                    };
                    checked = Some(reading);
                    certain
                }
                _ => vec![0],
            }
        };
        Ok((certain, checked))
    }
}

/// A view, how the game's text read when it was checked again, and that
/// text as read.
struct Viewed {
    view: GameView,
    checked: Option<Reading>,
    original: Option<Game>,
}

/// The texts of comments.
fn comment_texts(comments: &[crate::pdn::Comment]) -> Vec<String> {
    comments.iter().map(|c| c.text.clone()).collect()
}

/// The view of a game before its position is chosen.
fn empty_view(id: GameId, game: &StoredGame, source: Source) -> GameView {
    GameView {
        game: id,
        file: source.file,
        index: source.index,
        line: source.line,
        tags: source.tags,
        outcome: game.outcome(),
        variant: game.variant.clone(),
        variant_from: game.variant_from,
        status: game.status,
        result_check: game.result_check,
        notation: None,
        moves: Vec::new(),
        ply: None,
        certain: false,
        fen: None,
        no_board: None,
        no_board_message: None,
        opening: game.opening.clone(),
        opening_ply: game.opening_ply,
        ballot: game.ballot.clone(),
        result: game.result.clone(),
        first_side: game.rules().map(|rules| rules.first),
        comments: Vec::new(),
        annotated: Vec::new(),
        record: game.record.clone(),
        reading: None,
        certain_plies: Vec::new(),
    }
}

/// How a view names moves: rules, notation, who moved first.
#[derive(Clone, Copy)]
struct Naming<'a> {
    rules: &'a Rules,
    notation: Notation,
    /// The notation the game's moves are written in, to read variations.
    written_in: Option<Notation>,
    start_side: Color,
}

impl Naming<'_> {
    fn name(&self, before: &Position, mv: &Move) -> NamedMove {
        NamedMove {
            mv: mv.full_numeric(),
            name: write_move_among(
                mv,
                &before.legal_moves(self.rules),
                self.notation,
                self.rules.geometry,
            ),
        }
    }
}

/// The main line of the game's text, each ply with the first reading's
/// move where there is one.
fn main_line(game: &Game, view: &GameView, shape: &AsRead<'_>) -> Vec<PlyView> {
    let fallback = Rules::default();
    let (rules, start_side) = match &view.reading {
        Some(r) => (&r.rules, r.start.side()),
        None => (&fallback, fallback.first),
    };
    let naming = Naming {
        rules,
        notation: view
            .reading
            .as_ref()
            .map_or(Notation::Numeric, |r| r.notation),
        written_in: view.record.notation,
        start_side,
    };
    let played: Vec<(Position, Move)> = view
        .reading
        .as_ref()
        .map(|r| r.moves.clone())
        .unwrap_or_default();
    let mut positions: Vec<Position> = played.iter().map(|(p, _)| *p).collect();
    if let Some(reading) = &view.reading {
        positions.push(
            position_at(&reading.start, &reading.moves, played.len()).unwrap_or(reading.start),
        );
    }
    let moves: Vec<Move> = played.iter().map(|(_, m)| *m).collect();
    let read = shape.line(game, &game.line);
    let replayed = Replayed {
        positions: &positions,
        moves: &moves,
        certain: &|ply| view.certain_plies.contains(&ply),
        // Past the replay limit the main line stops without a fault.
        stops_illegal: view.record.status == Status::Illegal,
    };
    line_view(
        read.as_ref().unwrap_or(&game.line),
        &game.movetext,
        1,
        &replayed,
        naming,
    )
}

/// How far a line was replayed: `positions[k]` is the position before
/// its `k`-th ply and `moves[k]` the move read there.
struct Replayed<'a> {
    positions: &'a [Position],
    moves: &'a [Move],
    /// Whether the position after a game ply is certain.
    certain: &'a dyn Fn(usize) -> bool,
    /// Whether a ply reached but not read fits no legal move (rather than
    /// lying past a limit).
    stops_illegal: bool,
}

/// The plies of a line from game ply `first`, as far as it was replayed.
fn line_view(
    line: &Line,
    movetext: &str,
    first: usize,
    replayed: &Replayed<'_>,
    naming: Naming<'_>,
) -> Vec<PlyView> {
    line.plies
        .iter()
        .enumerate()
        .map(|(k, ply)| {
            let at = first + k;
            let (number, side) = move_number(naming.rules, naming.start_side, at);
            let before = replayed.positions.get(k);
            let read = before.zip(replayed.moves.get(k));
            let named = read.map(|(before, mv)| naming.name(before, mv));
            let nags = ply.nags();
            PlyView {
                ply: at,
                number,
                side: side.name(),
                token: ply.text(movetext).to_string(),
                fen: read.map(|(before, mv)| write_fen(&before.play(mv))),
                certain: read.is_some() && (replayed.certain)(at),
                mv: named.as_ref().map(|n| n.mv.clone()),
                name: named.map(|n| n.name),
                comments_before: Vec::new(),
                comments: comment_texts(ply.comments()),
                nags: nags.iter().map(nag_text).collect(),
                glyphs: nags.iter().map(Nag::shown).collect(),
                illegal: replayed.stops_illegal && before.is_some() && read.is_none(),
                variations: ply
                    .variations()
                    .iter()
                    .map(|v| variation_view(v, movetext, at, before.copied(), naming))
                    .collect(),
            }
        })
        .collect()
}

/// A variation replacing game ply `at`, replayed from `before` (the
/// position before that ply) when it is known.
fn variation_view(
    line: &Line,
    movetext: &str,
    at: usize,
    before: Option<Position>,
    naming: Naming<'_>,
) -> Vec<PlyView> {
    let (positions, moves) = match (before, naming.written_in) {
        (Some(before), Some(notation)) => {
            let tokens: Vec<_> = line.plies.iter().map(Ply::move_token).collect();
            let written = written_moves(&tokens, Some(notation), naming.rules);
            let r = replay(naming.rules, before, &written);
            let moves: Vec<Move> = r.reading.iter().map(|p: &ReadingPly| p.chosen).collect();
            let mut positions = vec![before];
            for mv in &moves {
                let last = *positions.last().expect("the branch position");
                positions.push(last.play(mv));
            }
            (positions, moves)
        }
        _ => (Vec::new(), Vec::new()),
    };
    let replayed = Replayed {
        positions: &positions,
        moves: &moves,
        certain: &|_| false,
        stops_illegal: true,
    };
    let mut plies = line_view(line, movetext, at, &replayed, naming);
    if let Some(first) = plies.first_mut() {
        first.comments_before = comment_texts(&line.comments);
    }
    plies
}

/// A NAG as written in JSON: `$n`, or the mark as written.
fn nag_text(nag: &Nag) -> String {
    match nag {
        Nag::Glyph(n) => format!("${n}"),
        Nag::Mark(mark) => mark.clone(),
    }
}

/// The fault of a problem game with a board: the position before its
/// faulty ply (the certain one, else the first reading's), the
/// candidates or the legal moves there.
fn fault(record: &RecordBody, reading: &FirstReading) -> Option<Fault> {
    let ply = record.ply?;
    let naming = Naming {
        rules: &reading.rules,
        notation: reading.notation,
        written_in: None,
        start_side: reading.start.side(),
    };
    let certain = record.fen.as_deref().and_then(|fen| {
        let setup = crate::notation::parse_fen_on(fen, reading.rules.geometry).ok()?;
        Position::from_setup(&setup, &reading.rules).ok()
    });
    let before = certain.or_else(|| position_at(&reading.start, &reading.moves, ply - 1));
    let legal = before
        .map(|p| p.legal_moves(&reading.rules))
        .unwrap_or_default();
    let named = |moves: &mut dyn Iterator<Item = &Move>| -> Vec<NamedMove> {
        match &before {
            Some(p) => moves.map(|mv| naming.name(p, mv)).collect(),
            None => Vec::new(),
        }
    };
    let candidates = named(
        &mut record
            .candidates
            .iter()
            .filter_map(|c| legal.iter().find(|m| m.full_numeric() == *c)),
    );
    let legal = (record.status == Status::Illegal).then(|| named(&mut legal.iter()));
    Some(Fault {
        ply,
        move_number: record.move_number,
        side: record.side,
        token: record.token.clone(),
        fen: before.as_ref().map(write_fen),
        certain: certain.is_some(),
        candidates,
        legal,
        message: record.message.clone(),
        message_key: record.message_key.clone(),
    })
}

/// The readings of an ambiguous game, from where they part, at most
/// [`MAX_READINGS`].
fn game_readings(
    view: &GameView,
    reading: &FirstReading,
    checked: Option<&Reading>,
    original: Option<&Game>,
) -> Vec<ReadingView> {
    let (Some(from), Some(game)) = (view.record.ply, original) else {
        return Vec::new();
    };
    if view.record.status != Status::Ambiguous {
        return Vec::new();
    }
    let Some(
        checked @ Reading::Replayed {
            rules,
            notation,
            start,
            ..
        },
    ) = checked
    else {
        return Vec::new();
    };
    let plies = as_read(checked).main_line(game);
    let tokens: Vec<_> = plies.iter().map(Ply::move_token).collect();
    let written = written_moves(&tokens, *notation, rules);
    let naming = Naming {
        rules,
        notation: reading.notation,
        written_in: None,
        start_side: start.side(),
    };
    readings(rules, *start, &written, MAX_READINGS)
        .into_iter()
        .map(|moves| {
            let mut position = *start;
            let mut shown = Vec::new();
            for (k, mv) in moves.iter().enumerate() {
                let ply = k + 1;
                let after = position.play(mv);
                if ply >= from {
                    let named = naming.name(&position, mv);
                    shown.push(ReadingMove {
                        ply,
                        mv: named.mv,
                        name: named.name,
                        fen: write_fen(&after),
                    });
                }
                position = after;
            }
            ReadingView { moves: shown }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::stored::handle::Mode;
    use crate::store::write::import::Importer;

    /// A store holding the games of `pdn`, and the folder it lives in.
    fn store_of(pdn: &str) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("g.pdn");
        std::fs::write(&file, pdn).unwrap();
        let mut store = Store::open(&dir.path().join("db.sqlite"), Mode::Write).unwrap();
        Importer::new(&mut store, Overrides::default())
            .run(
                &[crate::pdn::Input::open(&file, None).unwrap().unwrap()],
                &mut |_| {},
            )
            .unwrap();
        (dir, store)
    }

    #[test]
    fn an_ok_game_lists_its_comments_nags_and_variations() {
        let (_dir, store) = store_of(
            "[White \"  Ann \"]\n[Date \"2001.1.2\"]\n\
             1. 23-18 {a good start} 10-15 $1 (9-14 2. 18x9 {forced}) 2. 21-17 6-10 !? *\n",
        );
        let detail = store.game_detail(GameId(1), None, None).unwrap();
        assert_eq!(detail.status, Status::Ok);
        assert_eq!(detail.ply, Some(4));
        assert!(detail.certain);
        assert_eq!(detail.fault, None);
        assert!(detail.readings.is_empty());
        assert_eq!(detail.cleaned_tags["White"], "Ann");
        assert_eq!(detail.tags["White"], "  Ann ");
        let start = Position::initial(&Rules::default());
        assert_eq!(detail.start_fen, Some(write_fen(&start)));
        let moves = &detail.moves;
        assert_eq!(moves.len(), 4);
        assert_eq!(moves[0].token, "23-18");
        assert_eq!(moves[0].mv.as_deref(), Some("23-18"));
        assert_eq!(moves[0].comments, ["a good start"]);
        assert_eq!((moves[1].number, moves[1].side), (1, "black"));
        assert_eq!(moves[1].nags, ["$1"]);
        assert_eq!(moves[3].nags, ["!?"]);
        assert!(moves.iter().all(|m| m.certain && m.fen.is_some()));
        assert_eq!(moves[3].fen, detail.fen);
        let variation = &moves[1].variations[0];
        assert_eq!(variation.len(), 2);
        assert_eq!((variation[0].ply, variation[0].token.as_str()), (2, "9-14"));
        assert_eq!(variation[0].mv.as_deref(), Some("9-14"));
        assert_eq!(variation[1].ply, 3);
        assert_eq!(variation[1].mv.as_deref(), Some("18x9"));
        assert_eq!(variation[1].comments, ["forced"]);
        assert!(!variation[1].certain);
        // The view of `show --json`: its fields, in order.
        let view =
            serde_json::to_value(store.game_view(GameId(1), Some(2), None).unwrap()).unwrap();
        let fields: Vec<&str> = view
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            fields,
            [
                "game",
                "file",
                "index",
                "line",
                "tags",
                "outcome",
                "variant",
                "variant_from",
                "status",
                "result_check",
                "notation",
                "moves",
                "ply",
                "certain",
                "fen",
                "no_board",
                "no_board_message",
                "opening",
                "opening_ply",
                "ballot",
                "result",
                "first_side",
                "comments",
                "annotated"
            ]
        );
        assert_eq!(view["annotated"][1]["glyphs"], serde_json::json!(["!"]));
        assert_eq!(view["first_side"], "white");
        assert_eq!(
            view["moves"],
            serde_json::json!(["23-18", "10-15", "21-17", "6-10"])
        );
    }

    #[test]
    fn a_game_without_a_board_says_why_in_words_and_as_a_code() {
        let (_dir, store) = store_of("[FEN \"W:W18,18:B1\"]\n1. 18-14 *\n");
        let view = store.game_view(GameId(1), None, None).unwrap();
        assert_eq!(
            view.no_board.as_deref(),
            Some("the game is unreadable: FEN: invalid position: two pieces on square 18")
        );
        let json = serde_json::to_value(&view).unwrap();
        let said = &json["no_board_message"];
        assert_eq!(said["code"], "not_replayed_because", "{said}");
        assert_eq!(said["parts"]["status"], "unreadable");
        assert_eq!(said["parts"]["reason"]["code"], "unusable_fen");
        assert_eq!(view.no_board_message.map(|m| m.to_string()), view.no_board);
        let Err(ViewError::NoBoard(refused)) = store.game_view(GameId(1), Some(1), None) else {
            panic!("a ply of a game without a board was shown");
        };
        assert_eq!(
            refused.to_string(),
            "game 1 has no board to show: the game is unreadable: FEN: invalid position: \
             two pieces on square 18"
        );
        let json = serde_json::to_value(&*refused).unwrap();
        assert_eq!(json["code"], "no_board");
        assert_eq!(json["parts"]["id"], 1);
        assert_eq!(json["parts"]["reason"]["code"], "not_replayed_because");
    }

    #[test]
    fn a_game_whose_start_does_not_read_back_names_its_variant() {
        let (_dir, store) = store_of("1. 22-18 11-15 *\n");
        assert!(
            store
                .game_view(GameId(1), None, None)
                .unwrap()
                .no_board
                .is_none()
        );
        store
            .conn()
            .execute("UPDATE game SET start_fen = 'W:W99:B1' WHERE id = 1", [])
            .unwrap();
        let view = store.game_view(GameId(1), None, None).unwrap();
        let said = serde_json::to_value(&view.no_board_message).unwrap();
        assert_eq!(said["code"], "start_not_rebuilt", "{said}");
        assert_eq!(said["parts"]["status"], "ok");
        assert_eq!(said["parts"]["variant"], view.variant);
        assert_eq!(
            view.no_board.as_deref(),
            Some(
                format!(
                    "the game is ok: its start cannot be rebuilt under {}",
                    view.variant
                )
                .as_str()
            )
        );
    }

    #[test]
    fn comments_before_the_first_move_and_illegal_variation_moves_are_shown() {
        let (_dir, store) = store_of(
            "[GameType \"21\"]\n{before any move} 1. 11-15 $2 23-19 \
             ({first} 22-18 15x22 {taken} 25x18 ({then} 26x17)) \
             (22-17 15-20 2. 17-13) 2. 8-11 1-0\n",
        );
        let detail = store.game_detail(GameId(1), None, None).unwrap();
        assert_eq!(detail.comments, ["before any move"]);
        assert_eq!(detail.first_side, Some(Color::Black));
        assert_eq!(detail.result.as_deref(), Some("1-0"));
        let moves = &detail.moves;
        assert_eq!(
            (moves[0].nags.clone(), moves[0].glyphs.clone()),
            (vec!["$2".to_string()], vec!["?".to_string()])
        );
        assert!(
            moves
                .iter()
                .all(|m| m.comments_before.is_empty() && !m.illegal)
        );
        let first = &moves[1].variations[0];
        assert_eq!(first[0].comments_before, ["first"]);
        assert_eq!(first[1].comments, ["taken"]);
        assert!(first.iter().all(|m| m.fen.is_some() && !m.illegal));
        // A variation inside a variation replays from the position before
        // the move it replaces.
        let inner = &first[2].variations[0];
        assert_eq!((inner[0].ply, inner[0].mv.as_deref()), (4, Some("26x17")));
        assert_eq!(inner[0].comments_before, ["then"]);
        // 15-20 is no move here: shown as such, the rest not replayed.
        let second = &moves[1].variations[1];
        assert_eq!(second[0].mv.as_deref(), Some("22-17"));
        assert!(second[0].comments_before.is_empty());
        assert!(second[1].illegal && second[1].fen.is_none());
        assert!(!second[2].illegal && second[2].fen.is_none());
        let view = store.game_view(GameId(1), None, None).unwrap();
        assert_eq!(view.annotated, detail.moves);
        assert_eq!(view.comments, detail.comments);
    }

    #[test]
    fn the_dama_seed_game_shows_where_its_readings_part() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pdn/seed-dama.pdn"),
        )
        .unwrap();
        let (_dir, store) = store_of(&text);
        let detail = store.game_detail(GameId(1), None, None).unwrap();
        assert_eq!(detail.status, Status::Ambiguous);
        assert_eq!(detail.notation, Some(Notation::Dama));
        let fault = detail.fault.as_ref().unwrap();
        assert_eq!((fault.ply, fault.token.as_deref()), (70, Some("15-5")));
        assert_eq!(fault.fen.as_deref(), Some("B:WK6,30:B3,K18,21,K31"));
        assert!(fault.certain);
        let candidates: Vec<&str> = fault.candidates.iter().map(|c| c.mv.as_str()).collect();
        assert_eq!(candidates, ["18-25", "18-8"]);
        assert!(fault.candidates.iter().all(|c| c.name.starts_with("15-5")));
        assert_eq!(fault.legal, None);
        assert_eq!(detail.readings_total, Some(16));
        assert_eq!(detail.readings.len(), 16);
        for reading in &detail.readings {
            assert_eq!(reading.moves[0].ply, 70);
            assert_eq!(reading.moves.last().unwrap().ply, 80);
        }
        assert_eq!(detail.readings[0].moves[0].mv, "18-25");
        assert_eq!(detail.readings[15].moves[0].mv, "18-8");
        // The first reading is the one the game's moves show.
        for m in &detail.readings[0].moves {
            assert_eq!(detail.moves[m.ply - 1].mv.as_deref(), Some(m.mv.as_str()));
        }
        assert_eq!(detail.resolved[0].ply, 62);
        assert_eq!(detail.ply, Some(69));
        assert!(detail.moves[68].certain && !detail.moves[69].certain);
        assert_eq!(detail.moves.len(), 80);
    }

    #[test]
    fn an_illegal_game_lists_the_legal_moves_at_its_fault() {
        let (_dir, store) = store_of("1. 23-18 10-15 2. 18-13 7-10 *\n");
        let detail = store
            .game_detail(GameId(1), None, Some(Notation::Vismin))
            .unwrap();
        assert_eq!(detail.status, Status::Illegal);
        let fault = detail.fault.as_ref().unwrap();
        assert_eq!((fault.ply, fault.token.as_deref()), (3, Some("18-13")));
        let legal = fault.legal.as_ref().unwrap();
        let names: Vec<(&str, &str)> = legal
            .iter()
            .map(|m| (m.mv.as_str(), m.name.as_str()))
            .collect();
        assert_eq!(names.len(), 7);
        assert!(names.contains(&("22-17", "c3-b4")), "{names:?}");
        assert!(!names.iter().any(|(mv, _)| *mv == "18-13"));
        assert!(fault.candidates.is_empty());
        assert_eq!(fault.fen, detail.fen);
        assert_eq!(detail.ply, Some(2));
        assert_eq!(detail.moves[2].mv, None);
        assert!(detail.moves[2].illegal && !detail.moves[3].illegal);
        assert_eq!(detail.moves[3].token, "7-10");
        assert!(matches!(
            store.game_detail(GameId(1), Some(3), None),
            Err(e @ ViewError::Value { param: Param::Ply, .. })
                if e.worded(Wording::Options) == "--ply: game 1 has 2 plies: there is no position 3"
        ));
        assert!(matches!(
            store.game_view(GameId(9), None, None),
            Err(ViewError::NotFound(m)) if m.to_string() == "no game 9 in the database"
        ));
    }
}
