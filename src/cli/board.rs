//! Boards for the commands: which position, which marks, and whether the
//! terminal gets colour.

use std::io::{IsTerminal, Write};

use serde_json::Value;

use super::CliError;
use crate::notation::{Notation, parse_fen_on};
use crate::pdn::Reader;
use crate::render::html::{MoveItem, Problem, Record, TokenMark};
use crate::render::{Board, text};
use crate::replay::ply_label;
use crate::rules::{Geometry, Move, Position, Rules};
use crate::store::Store;
use crate::store::query::{PlayedMoves, StoredGame};

/// Whether text for this stream may carry colour: a terminal, and no
/// `NO_COLOR` in the environment.
pub fn colour_for(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A plain board diagram, without marks or colour.
pub fn diagram(position: &Position, geometry: &'static Geometry, notation: Notation) -> String {
    text::render(&Board::new(*position, geometry, notation), false)
}

/// The board at position `ply` of a game's first reading, the move that
/// led there marked; `None` past the end of the reading.
pub fn reading_board(
    start: &Position,
    moves: &PlayedMoves,
    ply: usize,
    geometry: &'static Geometry,
    notation: Notation,
) -> Option<Board> {
    if ply == 0 {
        return Some(Board::new(*start, geometry, notation));
    }
    let (before, mv) = moves.get(ply - 1)?;
    let mut board = Board::new(before.play(mv), geometry, notation);
    board.last_move = Some(*mv);
    Some(board)
}

/// The ply a record names (where readings part, or the illegal ply).
fn record_ply(record: &Value) -> Option<usize> {
    record
        .get("ply")
        .and_then(Value::as_u64)
        .and_then(|p| usize::try_from(p).ok())
}

/// The moves a record's `candidates` name, found among the legal moves
/// of `position`.
pub fn candidate_moves(record: &Value, rules: &Rules, position: &Position) -> Vec<Move> {
    let legal = position.legal_moves(rules);
    record
        .get("candidates")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .filter_map(|name| legal.iter().find(|m| m.full_numeric() == name).copied())
                .collect()
        })
        .unwrap_or_default()
}

/// Adds the record's candidate moves as arrows when the board shows the
/// position where the readings part (position `ply`).
pub fn with_candidates(board: Board, record: &Value, rules: &Rules, ply: usize) -> Board {
    if record.get("status").and_then(Value::as_str) != Some("ambiguous")
        || record_ply(record) != Some(ply + 1)
    {
        return board;
    }
    let moves = candidate_moves(record, rules, &board.position);
    board.with_arrows(rules, &moves)
}

/// Prints the board of a query (`search`/`tree --board`): to `out` in
/// text mode, to stderr with `--json` so standard output stays JSON.
///
/// # Errors
/// A failed write.
pub fn print_query_board(board: &Board, json: bool, out: &mut impl Write) -> Result<(), CliError> {
    if json {
        let stderr = std::io::stderr();
        let colour = colour_for(&stderr);
        let mut err = stderr.lock();
        write!(err, "{}", text::render(board, colour))?;
        writeln!(err)?;
    } else {
        let colour = colour_for(&std::io::stdout());
        write!(out, "{}", text::render(board, colour))?;
        writeln!(out)?;
    }
    Ok(())
}

/// One problem game of the HTML report: its board at the fault (or where
/// readings part) in the game's own notation, candidate moves as arrows,
/// the move text with the faulty token highlighted.
///
/// # Errors
/// A database failure.
pub fn problem(store: &Store, id: i64, record: Record) -> Result<Problem, CliError> {
    let game = store.game(id)?;
    let value = Value::Object(record.clone());
    let notation = record
        .get("notation")
        .and_then(Value::as_str)
        .and_then(|n| n.parse().ok())
        .unwrap_or(Notation::Numeric);
    let status = record
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let fault = record_ply(&value);
    let mut board = None;
    let mut caption = match status {
        "unreadable" | "unsupported" => format!("No board: the game is {status}."),
        _ => "No board: the position cannot be rebuilt.".to_string(),
    };
    let mut command = None;
    let reading = game.as_ref().and_then(StoredGame::reading);
    if let Some((rules, start, moves)) = &reading {
        // Where to look: before the faulty ply; past the replay limit, the
        // last position reached; for ok games, where a token was resolved.
        let at = match (status, fault) {
            (_, Some(p)) => Some(p.saturating_sub(1)),
            ("ambiguous", None) => record
                .get("reached")
                .and_then(Value::as_u64)
                .map(|r| r as usize),
            _ => None,
        };
        if let Some(at) = at {
            let certain_fen = record.get("fen").and_then(Value::as_str).and_then(|fen| {
                parse_fen_on(fen, rules.geometry)
                    .ok()
                    .and_then(|s| Position::from_setup(&s, rules).ok())
            });
            let from_reading = reading_board(start, moves, at, rules.geometry, notation);
            let picked = match (certain_fen, from_reading) {
                (Some(p), Some(b)) if b.position == p => Some(b),
                (Some(p), _) => Some(Board::new(p, rules.geometry, notation)),
                (None, b) => b,
            };
            if let Some(b) = picked {
                let side = match b.position.side() {
                    crate::rules::Color::White => "White",
                    crate::rules::Color::Black => "Black",
                };
                let certain = record.get("fen").and_then(Value::as_str).is_some();
                let token = record.get("token").and_then(Value::as_str);
                caption = match (fault, token) {
                    (Some(p), Some(token)) if p >= 1 => {
                        let what = if status == "ambiguous" {
                            "where the readings part"
                        } else {
                            "which fits no legal move"
                        };
                        format!(
                            "Position {at}, {side} to move: before ply {} {token}, {what}.",
                            ply_label(rules, start.side(), p)
                        )
                    }
                    _ => format!("Position {at}, {side} to move: the last one reached."),
                };
                if !certain {
                    caption.push_str(" (First reading: not certain.)");
                }
                command = Some(format!("pdndb show {id} --ply {at}"));
                board = Some(with_candidates(b, &value, rules, at));
            }
        }
    }
    let movetext = store
        .original_text(id)?
        .map(|text| movetext_items(&text, fault, &value))
        .unwrap_or_default();
    Ok(Problem {
        id,
        record,
        board,
        caption,
        movetext,
        command,
    })
}

/// The main line's tokens of a game's text, the faulty one (1-based ply
/// `fault`) and the resolved ones marked.
fn movetext_items(text: &str, fault: Option<usize>, record: &Value) -> Vec<MoveItem> {
    let Ok(Some(game)) = Reader::new(text.as_bytes()).next_game() else {
        return Vec::new();
    };
    let resolved: Vec<(usize, String)> = record
        .get("resolved")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|r| {
                    let ply = r.get("ply")?.as_u64()? as usize;
                    let fits: Vec<&str> = r
                        .get("candidates")?
                        .as_array()?
                        .iter()
                        .filter_map(Value::as_str)
                        .collect();
                    Some((
                        ply,
                        format!("fits {}; later moves settle it", fits.join(", ")),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    game.plies()
        .iter()
        .enumerate()
        .map(|(i, ply)| {
            let number = ply.number.map(|n| {
                if n.ellipsis {
                    format!("{}...", n.number)
                } else {
                    format!("{}.", n.number)
                }
            });
            let mark = if fault == Some(i + 1) {
                TokenMark::Fault
            } else if let Some((_, why)) = resolved.iter().find(|(p, _)| *p == i + 1) {
                TokenMark::Resolved(why.clone())
            } else {
                TokenMark::None
            };
            MoveItem {
                number,
                text: ply.text.to_string(),
                mark,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext_marks_the_fault_and_resolved_tokens() {
        let record = serde_json::json!({
            "resolved": [{"ply": 1, "token": "22-18", "candidates": ["22-18"]}]
        });
        let items = movetext_items("1. 22-18 11-15 2. 18x11 *", Some(3), &record);
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].number.as_deref(), Some("1."));
        assert!(matches!(items[0].mark, TokenMark::Resolved(_)));
        assert_eq!(items[1].mark, TokenMark::None);
        assert_eq!(items[2].mark, TokenMark::Fault);
        assert_eq!(items[2].text, "18x11");
        assert!(movetext_items("", None, &record).is_empty());
    }

    #[test]
    fn reading_board_marks_the_last_move() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let mv = start.legal_moves(&rules)[0];
        let moves = vec![(start, mv)];
        let b = reading_board(&start, &moves, 1, rules.geometry, Notation::Numeric).unwrap();
        assert_eq!(b.last_move, Some(mv));
        assert!(reading_board(&start, &moves, 2, rules.geometry, Notation::Numeric).is_none());
        let record =
            serde_json::json!({"status": "ambiguous", "ply": 1, "candidates": [mv.full_numeric()]});
        let b = with_candidates(
            Board::new(start, rules.geometry, Notation::Numeric),
            &record,
            &rules,
            0,
        );
        assert_eq!(b.arrows.len(), 1);
    }
}
