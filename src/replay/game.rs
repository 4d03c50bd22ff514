//! Checking one game as read: detection, replay of the main line and of
//! its variations, and the record of `check`.

use crate::message::RecordMessage;
use crate::notation::Notation;
use crate::pdn::{Game, Line, Ply, Position as TextPosition, Severity};
use crate::rules::{Position, Preset, Rules};

use super::detect::{
    Overrides, Reading, RecordText, VariantFrom, presets_reading_cleanly, read_record_in,
    written_moves,
};
use super::interpret::replay;
use super::joiners::Joiners;
use super::record::{CheckRecord, RecordSource, ply_label};
use super::result_check::{ResultCheck, check_result};
use super::shape::{AsRead, split_captures};
use super::warning::GameWarning;

/// A game checked: its record, how it was read, and the warnings about it
/// (the reader's, and faults in its variations).
#[derive(Clone, Debug)]
pub struct CheckedGame {
    /// The record of `check`.
    pub record: CheckRecord,
    /// How it was read.
    pub reading: Reading,
    /// Where the token of `record.ply` stands, when there is one.
    pub fault_at: Option<TextPosition>,
    /// Warnings in text order.
    pub warnings: Vec<GameWarning>,
    /// The main line as read, when that differs from the text's: each
    /// capture written one jump per move one ply, squares named on a
    /// turned board (see [`AsRead`]). [`CheckedGame::plies`] gives it.
    pub as_read: Option<Line>,
    /// Moves written with the other kind's joiner.
    pub joiners: Joiners,
    /// The result checked against the moves.
    pub result_check: ResultCheck,
}

impl CheckedGame {
    /// The plies of the main line of `game` (the game checked) as read:
    /// the `k`-th is the one replay's ply `k + 1` stands for.
    pub fn plies<'a>(&'a self, game: &'a Game) -> &'a [Ply] {
        self.as_read
            .as_ref()
            .map_or(game.plies(), |line| &line.plies)
    }
}

/// How the moves of a game read as `reading` are read besides their
/// notation (moves as written for a reading that replayed nothing).
pub fn as_read(reading: &Reading) -> AsRead<'_> {
    match reading {
        Reading::Replayed {
            rules,
            notation,
            turned,
            ..
        } => AsRead::new(*notation, *turned, rules.geometry),
        _ => AsRead::default(),
    }
}

/// Checks a game read from `file`, by itself (see [`FileChecker`] for the
/// games of a whole file).
pub fn check_game(game: &Game, file: &str, overrides: &Overrides) -> CheckedGame {
    check_in(game, file, overrides, None, true)
}

/// Games of a file held to choose the file's preset, at most.
pub const CALIBRATION_GAMES: usize = 64;

/// Bytes of memory (see [`Game::memory_size`]) the games held to choose
/// the file's preset take, at most: fewer than [`CALIBRATION_GAMES`] games
/// are held when they are very long.
const CALIBRATION_BYTES: usize = 16 << 20;

/// The count, over a file's first games, of the presets each reads
/// cleanly under: what chooses the file's preset.
#[derive(Debug, Default)]
pub(super) struct Calibration {
    games: usize,
    bytes: usize,
    /// Per preset (in [`Preset::ALL`] order), games reading cleanly.
    clean: [u32; Preset::ALL.len()],
}

impl Calibration {
    /// Counts the next game of the file: its memory size and the presets
    /// it reads cleanly under (see [`calibration_evidence`]). Returns
    /// whether the games counted are enough to choose.
    pub(super) fn count(&mut self, memory: usize, presets: Option<Vec<Preset>>) -> bool {
        for preset in presets.into_iter().flatten() {
            self.clean[preset as usize] += 1;
        }
        self.games += 1;
        self.bytes += memory;
        self.games >= CALIBRATION_GAMES || self.bytes >= CALIBRATION_BYTES
    }

    /// The preset most games counted read cleanly under (ties go to
    /// [`Preset::INFERENCE_ORDER`]), if any reads cleanly.
    pub(super) fn choose(&self) -> Option<Preset> {
        let mut best: Option<(Preset, u32)> = None;
        for preset in Preset::INFERENCE_ORDER {
            let count = self.clean[preset as usize];
            if count > 0 && best.is_none_or(|(_, most)| count > most) {
                best = Some((preset, count));
            }
        }
        best.map(|(preset, _)| preset)
    }
}

/// What a game tells of its file's preset: the presets it reads cleanly
/// under, when its text has no errors and its rules are inferred.
pub(super) fn calibration_evidence(game: &Game, overrides: &Overrides) -> Option<Vec<Preset>> {
    if game.has_errors() {
        None
    } else {
        presets_reading_cleanly(&record_text(game), overrides)
    }
}

/// Checks the games of one file in order, on the caller's thread (see
/// [`FileCheck`](super::FileCheck) for several threads).
///
/// Where rules are inferred, the file's own preset is tried first, so that
/// it takes the games every preset reads alike (most Russian games read as
/// Filipino Dama until a capture tells them apart): the preset under which
/// most of the file's first [`CALIBRATION_GAMES`] games (those whose rules
/// are inferred from moves) read
/// cleanly (ties go to [`Preset::INFERENCE_ORDER`]). The first games are held
/// until the preset is known, so results come out in file order but may
/// lag behind the games put in; [`FileChecker::finish`] hands out the rest.
#[derive(Debug)]
pub struct FileChecker<'a> {
    file: String,
    overrides: &'a Overrides,
    /// Games held while the file's preset is chosen, with whether the
    /// caller wants them checked.
    held: Vec<(Game, bool)>,
    calibration: Calibration,
    /// `None` while games are held.
    preset: Option<Option<Preset>>,
}

impl<'a> FileChecker<'a> {
    /// A checker for the games of `file`, with the command line's choices.
    pub fn new(file: impl Into<String>, overrides: &'a Overrides) -> FileChecker<'a> {
        FileChecker {
            file: file.into(),
            overrides,
            held: Vec::new(),
            calibration: Calibration::default(),
            preset: if overrides.rules.is_some() {
                Some(None)
            } else {
                None
            },
        }
    }

    /// The file's preset, once chosen: the one tried first where rules are
    /// inferred.
    pub fn preset(&self) -> Option<Preset> {
        self.preset.flatten()
    }

    /// Takes the next game of the file; hands every game whose check is
    /// complete to `out`, one at a time, in file order. A game not `wanted`
    /// (already stored, say) still counts towards the file's preset but is
    /// not checked or handed out. The records' tags are left empty unless
    /// `with_tags` (see [`record_tags`]).
    ///
    /// # Errors
    /// The first error `out` returns (the games still held are then
    /// dropped).
    pub fn push<E>(
        &mut self,
        game: Game,
        wanted: bool,
        with_tags: bool,
        out: &mut impl FnMut(Game, CheckedGame) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.preset.is_some() {
            return self.check(game, wanted, with_tags, out);
        }
        let evidence = calibration_evidence(&game, self.overrides);
        let enough = self.calibration.count(game.memory_size(), evidence);
        self.held.push((game, wanted));
        if enough {
            self.release(with_tags, out)?;
        }
        Ok(())
    }

    /// Hands out the games still held, at the end of the file.
    ///
    /// # Errors
    /// The first error `out` returns.
    pub fn finish<E>(
        &mut self,
        with_tags: bool,
        out: &mut impl FnMut(Game, CheckedGame) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.preset.is_none() {
            self.release(with_tags, out)?;
        }
        Ok(())
    }

    /// Checks a game with the file's preset and hands it to `out`, if
    /// wanted.
    fn check<E>(
        &mut self,
        game: Game,
        wanted: bool,
        with_tags: bool,
        out: &mut impl FnMut(Game, CheckedGame) -> Result<(), E>,
    ) -> Result<(), E> {
        if !wanted {
            return Ok(());
        }
        let checked = check_in(&game, &self.file, self.overrides, self.preset(), with_tags);
        out(game, checked)
    }

    /// Chooses the file's preset and checks the held games with it, one at
    /// a time (a game's check may take far more room than the game).
    fn release<E>(
        &mut self,
        with_tags: bool,
        out: &mut impl FnMut(Game, CheckedGame) -> Result<(), E>,
    ) -> Result<(), E> {
        self.preset = Some(self.calibration.choose());
        for (game, wanted) in std::mem::take(&mut self.held) {
            self.check(game, wanted, with_tags, out)?;
        }
        Ok(())
    }
}

/// What detection reads of a game: its telling tags and main line.
pub fn record_text(game: &Game) -> RecordText<'_> {
    RecordText {
        game_type: game.tag("GameType"),
        variant: game.hints.variant.as_deref(),
        notation: game.hints.notation.as_deref(),
        fen: game.hints.fen.as_ref().map(|f| f.fen.as_str()),
        moves: game.plies().iter().map(Ply::move_token).collect(),
        split_captures: Some(game.hints.split_captures),
    }
}

/// Why moves given as text do not lead to one position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    /// No moves in the text.
    #[error("no moves given")]
    None,
    /// The moves read, but not as one legal sequence: the record's status
    /// and message.
    #[error("{}", message.as_deref().unwrap_or(status.name()))]
    NotOk {
        /// The status of the moves read as a game.
        status: super::record::Status,
        /// The record's message, which says where.
        message: Option<String>,
        /// That message as a code and its parts.
        said: Option<Box<crate::message::RecordMessage>>,
    },
    /// The moves cannot be replayed.
    #[error("the moves cannot be read")]
    Unreadable,
    /// A token that is neither a move nor a move number.
    #[error("ply {index}: {token:?} is not a move ({why})")]
    NotAMove {
        /// Its place among the moves (1-based, move numbers not counted).
        index: usize,
        /// The token, shortened to 40 characters.
        token: String,
        /// Why it does not read.
        why: String,
    },
}

/// The moves of a line as people write them, in every front end: moves
/// separated by spaces or commas, move numbers (`1.`, `12...`, also glued
/// to the move: `1.11-15`) optional, a move's `!`/`?` marks ignored.
///
/// # Errors
/// [`MovesError::NotAMove`] for the first token that is not a move.
pub fn move_tokens(text: &str) -> Result<Vec<&str>, MovesError> {
    let mut moves = Vec::new();
    for token in text.split(|c: char| c == ',' || c.is_whitespace()) {
        let token = without_move_number(token).trim_end_matches(['!', '?']);
        if token.is_empty() {
            continue;
        }
        if let Err(e) = token.parse::<crate::notation::MoveToken>() {
            return Err(MovesError::NotAMove {
                index: moves.len() + 1,
                token: token.chars().take(40).collect(),
                why: e.to_string(),
            });
        }
        moves.push(token);
    }
    Ok(moves)
}

/// A token without the move number before it (`12.` or `12...`).
fn without_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 {
        &token[digits + dots..]
    } else {
        token
    }
}

/// The position after moves as [`move_tokens`] reads them (`1. 23-18 10-15`,
/// `23-18,10-15`, any notation) played from the start under `rules`, with the last of them.
///
/// # Errors
/// Moves that cannot be read, or that do not make exactly one legal
/// sequence (the message says where).
pub fn position_after_moves(
    moves: &str,
    rules: Rules,
) -> Result<(Position, Option<crate::rules::Move>), MovesError> {
    let text = move_tokens(moves)?.join(" ");
    let game = match crate::pdn::Reader::new(text.as_bytes()).next_game() {
        Ok(Some(game)) => game,
        _ => return Err(MovesError::None),
    };
    let overrides = Overrides {
        rules: Some(rules),
        skip_alternatives: true,
        ..Overrides::default()
    };
    let checked = check_game(&game, "", &overrides);
    if checked.record.outcome.status != super::record::Status::Ok {
        return Err(MovesError::NotOk {
            status: checked.record.outcome.status,
            message: checked.record.outcome.message,
            said: checked.record.outcome.message_key.map(Box::new),
        });
    }
    let Reading::Replayed { start, replay, .. } = checked.reading else {
        return Err(MovesError::Unreadable);
    };
    let last = replay.reading.last().map(|step| step.chosen);
    let position = replay
        .reading
        .iter()
        .fold(start, |p, step| p.play(&step.chosen));
    Ok((position, last))
}

/// The tags of a game as the record of `check` holds them: names as
/// written, the first of duplicates kept.
pub fn record_tags(game: &Game) -> serde_json::Map<String, serde_json::Value> {
    let mut tags = serde_json::Map::new();
    for tag in &game.tags {
        tags.entry(tag.name.clone())
            .or_insert_with(|| serde_json::Value::String(tag.value.to_string()));
    }
    tags
}

/// Checks one game, trying `majority` first where rules are inferred.
pub(super) fn check_in(
    game: &Game,
    file: &str,
    overrides: &Overrides,
    majority: Option<Preset>,
    with_tags: bool,
) -> CheckedGame {
    let plies = game.plies();
    let text = record_text(game);
    let tags = if with_tags {
        record_tags(game)
    } else {
        serde_json::Map::new()
    };
    let source = RecordSource {
        file: file.to_string(),
        index: game.index as usize,
        line: game.start.line,
        tags,
    };
    let mut warnings: Vec<GameWarning> = Vec::new();
    let reading = read_game(game, &text, overrides, majority, &mut warnings);
    let shape = as_read(&reading);
    let read_line = shape.line(game, &game.line);
    let line = read_line.as_ref().unwrap_or(&game.line);
    warnings.extend(shape_warnings(game, &text.moves, &shape));
    let mut record = CheckRecord::build(source, &line.plies, game, &reading);
    if game.hints.later_setup {
        super::setups::note_mid_game_setup(&line.plies, &reading, &mut record, &mut warnings);
    }
    let joiners = Joiners::of(&line.plies, &reading);
    let fault_at = record
        .outcome
        .ply
        .and_then(|p| line.plies.get(p - 1))
        .map(|p| game.position_of(p));
    let has_variations = plies.iter().any(|p| !p.variations().is_empty());
    if let Reading::Replayed {
        rules,
        notation: Some(notation),
        start,
        replay: r,
        ..
    } = &reading
        && has_variations
    {
        let mut positions = vec![*start];
        for step in &r.reading {
            let last = *positions.last().expect("the start");
            positions.push(last.play(&step.chosen));
        }
        let context = LineContext {
            game,
            rules,
            notation: *notation,
            game_start: start.side(),
            first_ply: 1,
        };
        check_variations(line, &context, &positions, &mut warnings);
    }
    let result_check = check_result(game, &reading, record.outcome.status);
    CheckedGame {
        joiners,
        result_check,
        record,
        reading,
        fault_at,
        warnings,
        as_read: read_line,
    }
}

/// Reads a game: unreadable when its text has an error, else as detection
/// reads its record; the reader's diagnostics go to `warnings`.
fn read_game(
    game: &Game,
    text: &RecordText<'_>,
    overrides: &Overrides,
    majority: Option<Preset>,
    warnings: &mut Vec<GameWarning>,
) -> Reading {
    let mut reader_error = None;
    for d in &game.diagnostics {
        if d.severity == Severity::Error && reader_error.is_none() {
            reader_error = Some(d.message.clone());
        }
        warnings.push(GameWarning {
            line: d.position.line,
            column: d.position.column,
            message: d.message.clone(),
        });
    }
    match reader_error {
        Some(message) => Reading::Unreadable {
            rules: overrides.rules,
            message: RecordMessage::TextUnreadable { why: message },
            from: if overrides.rules.is_some() {
                VariantFrom::Forced
            } else {
                VariantFrom::Default
            },
        },
        None => read_record_in(text, overrides, majority),
    }
}

/// The warnings on moves read otherwise than as written: squares named on
/// a turned board; captures written one jump per move, read joined (one
/// warning for all of them, where the first stands).
fn shape_warnings(
    game: &Game,
    tokens: &[Option<&crate::notation::MoveToken>],
    shape: &AsRead<'_>,
) -> Vec<GameWarning> {
    let mut warnings = Vec::new();
    let at = |k: usize| game.plies().get(k).map(|p| game.position_of(p));
    if shape.turned.is_some()
        && let Some(first) = at(0)
    {
        warnings.push(GameWarning {
            line: first.line,
            column: first.column,
            message: "algebraic squares named on the board turned 180° (Black on ranks 1–3, \
                      as PlayStrategy exports English draughts); read so"
                .to_string(),
        });
    }
    let (joined, first) = split_captures(tokens);
    if shape.join
        && let Some(first) = first.and_then(at)
    {
        let captures = if joined == 1 { "capture" } else { "captures" };
        warnings.push(GameWarning {
            line: first.line,
            column: first.column,
            message: format!(
                "captures written one jump per move (as PlayStrategy exports them): \
                 read joined, each capture as one ply ({joined} {captures})"
            ),
        });
    }
    warnings
}

/// Where a line stands in the game: its rules, notation, the side that
/// moved first in the game and the game ply its first move replaces.
struct LineContext<'a> {
    /// The game the line belongs to, which locates its plies.
    game: &'a Game,
    rules: &'a Rules,
    notation: Notation,
    game_start: crate::rules::Color,
    first_ply: usize,
}

/// Replays the variations of a line, each from the position before the ply
/// it replaces, and reports their faults as warnings (plies counted as in
/// the game).
fn check_variations(
    line: &Line,
    context: &LineContext<'_>,
    positions: &[Position],
    warnings: &mut Vec<GameWarning>,
) {
    let rules = context.rules;
    for (k, ply) in line.plies.iter().enumerate() {
        let Some(&before) = positions.get(k) else {
            return;
        };
        let at = context.first_ply + k;
        for variation in ply.variations() {
            let tokens: Vec<_> = variation.plies.iter().map(Ply::move_token).collect();
            let written = written_moves(&tokens, Some(context.notation), rules);
            let r = replay(rules, before, &written);
            if r.reached < r.plies {
                let bad = &variation.plies[r.reached];
                let position = context.game.position_of(bad);
                warnings.push(GameWarning {
                    line: position.line,
                    column: position.column,
                    message: format!(
                        "variation at ply {at}: ply {} {} is illegal",
                        ply_label(rules, context.game_start, at + r.reached),
                        context.game.ply_text(bad)
                    ),
                });
            } else if r.interpretations.is_some_and(|n| n > 1) {
                warnings.push(GameWarning {
                    line: variation.position.line,
                    column: variation.position.column,
                    message: format!(
                        "variation at ply {at} can be read {} ways",
                        r.interpretations.unwrap_or_default()
                    ),
                });
            }
            let mut inner = vec![before];
            for step in &r.reading {
                let last = *inner.last().expect("the branch position");
                inner.push(last.play(&step.chosen));
            }
            let nested = LineContext {
                first_ply: at,
                ..*context
            };
            check_variations(variation, &nested, &inner, warnings);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An English game of two kings going back and forth, `plies` long.
    fn long_game(plies: usize) -> Game {
        let mut text = String::from("[FEN \"W:WK32:BK1\"]\n");
        for (i, mv) in ["32-27", "1-6", "27-32", "6-1"]
            .iter()
            .cycle()
            .take(plies)
            .enumerate()
        {
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(mv);
            text.push(' ');
        }
        text.push_str("*\n");
        crate::pdn::Reader::new(text.as_bytes())
            .next_game()
            .unwrap()
            .unwrap()
    }

    fn english_game(moves: &str) -> Game {
        let text = format!("[Variant \"American/English\"]\n{moves} *\n");
        crate::pdn::Reader::new(text.as_bytes())
            .next_game()
            .unwrap()
            .unwrap()
    }

    #[test]
    fn playstrategys_english_is_read_turned_and_joined_with_a_warning_each() {
        // 9-14 23-19 6-9 26-23 2-6 19-16 12x19x26 30x23, as PlayStrategy
        // writes it.
        let game =
            english_game("1. g3-f4 d6-c5 2. f2-g3 e7-d6 3. e1-f2 c5-b4 4. a3xc5 c5xe7 5. f8xd6");
        let checked = check_game(&game, "ps.pdn", &Overrides::default());
        let r = &checked.record;
        assert_eq!(
            (r.outcome.status, r.outcome.plies, r.outcome.notation),
            (super::super::Status::Ok, Some(8), Some(Notation::Vismin))
        );
        let messages: Vec<&str> = checked
            .warnings
            .iter()
            .map(|w| w.message.as_str())
            .collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].contains("turned 180°"), "{messages:?}");
        assert!(messages[1].contains("(1 capture)"), "{messages:?}");
        // The joined ply stands where its first jump is written.
        let plies = checked.plies(&game);
        assert_eq!(plies.len(), 8);
        assert_eq!(game.ply_text(&plies[6]), "a3xc5 c5xe7");
        assert_eq!(
            (checked.warnings[1].line, checked.warnings[1].column),
            (2, 49)
        );
    }

    #[test]
    fn a_fault_in_a_capture_written_one_jump_per_move_names_its_jumps() {
        let game =
            english_game("1. g3-f4 d6-c5 2. f2-g3 e7-d6 3. e1-f2 c5-b4 4. a3xc5 c5xa7 5. f8xd6");
        let checked = check_game(&game, "ps.pdn", &Overrides::default());
        let r = &checked.record;
        assert_eq!(
            (r.outcome.status, r.outcome.ply),
            (super::super::Status::Illegal, Some(7))
        );
        assert_eq!(r.outcome.token.as_deref(), Some("a3xc5 c5xa7"));
        assert_eq!(
            r.outcome.message.as_deref(),
            Some("ply 7 (4.) a3xc5 c5xa7 is illegal")
        );
        let at = checked.fault_at.unwrap();
        assert_eq!((at.line, at.column), (2, 49));
    }

    #[test]
    fn long_games_are_held_by_their_memory_not_their_number() {
        let game = long_game(4_000);
        assert!(game.memory_size() > 4_000 * std::mem::size_of::<Ply>());
        let overrides = Overrides::default();
        let mut checker = FileChecker::new("long.pdn", &overrides);
        let mut pushed = 0;
        let mut out = Vec::new();
        while out.is_empty() {
            pushed += 1;
            let Ok(()) = checker.push(game.clone(), true, false, &mut |_, checked| {
                out.push(checked.record.outcome.status);
                Ok::<_, std::convert::Infallible>(())
            });
        }
        assert!(pushed < CALIBRATION_GAMES, "{pushed} games held");
        assert!(pushed * game.memory_size() >= CALIBRATION_BYTES);
        assert_eq!(out, vec![super::super::Status::Ok; pushed]);
        assert!(checker.preset().is_some());
    }

    #[test]
    fn an_error_of_the_receiver_stops_the_release() {
        let overrides = Overrides::default();
        let mut checker = FileChecker::new("short.pdn", &overrides);
        let game = long_game(10);
        let mut ignore = |_, _| Ok::<_, ()>(());
        for _ in 0..3 {
            checker
                .push(game.clone(), true, false, &mut ignore)
                .unwrap();
        }
        let mut taken = 0;
        let stopped = checker.finish(false, &mut |_, _| {
            taken += 1;
            Err("the reader has gone")
        });
        assert_eq!(stopped, Err("the reader has gone"));
        assert_eq!(taken, 1);
    }
}
