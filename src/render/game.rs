//! Boards of stored games: the position of a game's first reading, the
//! move that led there marked, the moves where its readings part as
//! arrows; and the problem games of the HTML report.

use super::board::Board;
use super::html::{MoveItem, Problem, TokenMark};
use crate::notation::{Notation, parse_fen_on};
use crate::pdn::Reader;
use crate::replay::RecordBody;
use crate::replay::{AsRead, Status, ply_label};
use crate::rules::{Color, Geometry, Move, Position, Rules};
use crate::store::GameId;
use crate::store::query::{PlayedMoves, StoredGame};
use crate::store::record::ReportRecord;
use crate::store::view::GameView;
use crate::store::{Store, StoreError};

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

/// The moves a record's `candidates` name, found among the legal moves
/// of `position`.
pub fn candidate_moves(record: &RecordBody, rules: &Rules, position: &Position) -> Vec<Move> {
    let legal = position.legal_moves(rules);
    record
        .candidates
        .iter()
        .filter_map(|name| legal.iter().find(|m| m.full_numeric() == *name).copied())
        .collect()
}

/// Adds the record's candidate moves as arrows when the board shows the
/// position where the readings part (position `ply`).
pub fn with_candidates(board: Board, record: &RecordBody, rules: &Rules, ply: usize) -> Board {
    if record.status != Status::Ambiguous || record.ply != Some(ply + 1) {
        return board;
    }
    let moves = candidate_moves(record, rules, &board.position);
    board.with_arrows(rules, &moves)
}

/// The board a view shows (what `show` draws): its position, the move
/// that led there marked, the moves where readings part as arrows; `None`
/// for a game without a board.
pub fn view_board(view: &GameView) -> Option<Board> {
    let reading = view.reading.as_ref()?;
    let ply = view.ply?;
    let board = reading_board(
        &reading.start,
        &reading.moves,
        ply,
        reading.rules.geometry,
        reading.notation,
    )?;
    Some(with_candidates(board, &view.record, &reading.rules, ply))
}

/// One problem game of the HTML report: its board at the fault (or where
/// readings part) in the game's own notation, candidate moves as arrows,
/// the move text with the faulty token highlighted.
///
/// # Errors
/// A database failure.
pub fn problem(store: &Store, id: GameId, record: ReportRecord) -> Result<Problem, StoreError> {
    let game = store.game(id)?;
    let r = &record.record;
    let notation = r.notation.unwrap_or(Notation::Numeric);
    let status = r.status;
    let fault = r.ply;
    let mut board = None;
    let mut caption = match status {
        Status::Unreadable | Status::Unsupported => {
            format!("No board: the game is {}.", status.name())
        }
        _ => "No board: the position cannot be rebuilt.".to_string(),
    };
    let mut command = None;
    let reading = game.as_ref().and_then(StoredGame::reading);
    if let Some((rules, start, moves)) = &reading {
        // Where to look: before the faulty ply; past the replay limit, the
        // last position reached; for ok games, where a token was resolved.
        let at = match (status, fault) {
            (_, Some(p)) => Some(p.saturating_sub(1)),
            (Status::Ambiguous, None) => r.reached,
            _ => None,
        };
        if let Some(at) = at {
            let certain_fen = r.fen.as_deref().and_then(|fen| {
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
                    Color::White => "White",
                    Color::Black => "Black",
                };
                caption = match (fault, r.token.as_deref()) {
                    (Some(p), Some(token)) if p >= 1 => {
                        let what = if status == Status::Ambiguous {
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
                if r.fen.is_none() {
                    caption.push_str(" (First reading: not certain.)");
                }
                command = Some(format!("pdndb show {id} --ply {at}"));
                board = Some(with_candidates(b, r, rules, at));
            }
        }
    }
    let movetext = store
        .original_text(id)?
        .map(|text| movetext_items(&text, fault, r))
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
fn movetext_items(text: &str, fault: Option<usize>, record: &RecordBody) -> Vec<MoveItem> {
    let Ok(Some(game)) = Reader::new(text.as_bytes()).next_game() else {
        return Vec::new();
    };
    // A capture written one jump per move is one ply.
    let notation = record.notation;
    AsRead::joining(notation)
        .main_line(&game)
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
            } else if let Some(r) = record.resolved.iter().find(|r| r.ply == i + 1) {
                TokenMark::Resolved(format!(
                    "fits {}; later moves settle it",
                    r.candidates.join(", ")
                ))
            } else {
                TokenMark::None
            };
            MoveItem {
                number,
                text: game.ply_text(ply).to_string(),
                mark,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::ResolvedRecord;

    fn record(status: Status) -> RecordBody {
        let mut record = RecordBody::ok("filipino".into(), Some(Notation::Numeric), Some(3));
        record.status = status;
        record
    }

    #[test]
    fn movetext_marks_the_fault_and_resolved_tokens() {
        let mut record = record(Status::Illegal);
        record.resolved = vec![ResolvedRecord {
            ply: 1,
            token: "22-18".into(),
            candidates: vec!["22-18".into()],
        }];
        let items = movetext_items("1. 22-18 11-15 2. 18x11 *", Some(3), &record);
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].number.as_deref(), Some("1."));
        assert_eq!(
            items[0].mark,
            TokenMark::Resolved("fits 22-18; later moves settle it".into())
        );
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
        let mut record = record(Status::Ambiguous);
        record.ply = Some(1);
        record.candidates = vec![mv.full_numeric()];
        let board = Board::new(start, rules.geometry, Notation::Numeric);
        let b = with_candidates(board.clone(), &record, &rules, 0);
        assert_eq!(b.arrows.len(), 1);
        // Elsewhere in the game, no arrows.
        assert!(with_candidates(board, &record, &rules, 1).arrows.is_empty());
    }
}
