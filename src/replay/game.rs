//! Checking one game as read: detection, replay of the main line and of
//! its variations, and the record of `check`.

use crate::notation::Notation;
use crate::pdn::{Game, Line, Ply, Position as TextPosition, Severity};
use crate::rules::{Position, Rules};

use super::detect::{Overrides, Reading, RecordText, read_record, written_moves};
use super::interpret::replay;
use super::record::{CheckRecord, RecordSource, ply_label};

/// A warning about one game, with where it stands.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameWarning {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
    /// What is wrong.
    pub message: String,
}

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
}

/// Checks a game read from `file`.
pub fn check_game(game: &Game, file: &str, overrides: &Overrides) -> CheckedGame {
    check_game_with(game, file, overrides, true)
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

/// [`check_game`], leaving the record's tags empty unless `with_tags`
/// (see [`record_tags`] to fill them afterwards).
pub fn check_game_with(
    game: &Game,
    file: &str,
    overrides: &Overrides,
    with_tags: bool,
) -> CheckedGame {
    let plies = game.plies();
    let tokens: Vec<&str> = plies.iter().map(|p| p.text.as_str()).collect();
    let text = RecordText {
        game_type: game.tag("GameType"),
        variant: game.hints.variant.as_deref(),
        notation: game.hints.notation.as_deref(),
        fen: game.hints.fen.as_ref().map(|f| f.fen.as_str()),
        moves: plies.iter().map(Ply::move_token).collect(),
    };
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
    let reading = match reader_error {
        Some(message) => Reading::Unreadable {
            rules: overrides.rules,
            message: format!("the text cannot be read: {message}"),
        },
        None => read_record(&text, overrides),
    };
    let record = CheckRecord::build(source, &text, &tokens, &reading);
    let fault_at = record
        .ply
        .and_then(|p| plies.get(p - 1))
        .map(|p| p.position);
    let has_variations = plies.iter().any(|p| !p.variations.is_empty());
    if let Reading::Replayed {
        rules,
        notation: Some(notation),
        start,
        replay: r,
    } = &reading
        && has_variations
    {
        let mut positions = vec![*start];
        for step in &r.reading {
            let last = *positions.last().expect("the start");
            positions.push(last.play(&step.chosen));
        }
        let context = LineContext {
            rules,
            notation: *notation,
            game_start: start.side(),
            first_ply: 1,
        };
        check_variations(&game.line, &context, &positions, &mut warnings);
    }
    CheckedGame {
        record,
        reading,
        fault_at,
        warnings,
    }
}

/// Where a line stands in the game: its rules, notation, the side that
/// moved first in the game and the game ply its first move replaces.
struct LineContext<'a> {
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
        for variation in &ply.variations {
            let tokens: Vec<_> = variation.plies.iter().map(Ply::move_token).collect();
            let written = written_moves(&tokens, Some(context.notation), rules);
            let r = replay(rules, before, &written);
            if r.reached < r.plies {
                let bad = &variation.plies[r.reached];
                warnings.push(GameWarning {
                    line: bad.position.line,
                    column: bad.position.column,
                    message: format!(
                        "variation at ply {at}: ply {} {} is illegal",
                        ply_label(rules, context.game_start, at + r.reached),
                        bad.text
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
