//! A line of play from a position, as the web explorer walks it: each
//! move with the position after it, and the legal moves of the last
//! position (with their squares, so a page can let people click them).

use serde::Serialize;

use crate::notation::{Notation, write_fen, write_move_among};
use crate::rules::{Color, Move, Position, Rules, squares};
use crate::store::read::query::{QueryError, position_from_fen};
use crate::store::stored::Store;

/// Moves in one line, at most (a long game has a few hundred plies).
pub const MAX_LINE: usize = 1000;

/// One move of the line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineMove {
    /// 1-based ply.
    pub ply: usize,
    /// Canonical numeric full path.
    #[serde(rename = "move")]
    pub mv: String,
    /// As the chosen notation writes it among the legal moves.
    pub name: String,
    /// Canonical FEN after it.
    pub fen: String,
}

/// A legal move of the last position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalMove {
    /// Canonical numeric full path.
    #[serde(rename = "move")]
    pub mv: String,
    /// As the chosen notation writes it among the legal moves.
    pub name: String,
    /// The square it starts on (number).
    pub from: u32,
    /// The square it ends on.
    pub to: u32,
    /// The squares it lands on, in order, the last one included.
    pub path: Vec<u32>,
    /// The squares of the pieces it takes.
    pub captured: Vec<u32>,
    /// Canonical FEN after it.
    pub fen: String,
}

/// A line from a start position and where it leads.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// The rules the line is played under (preset plus switches).
    pub variant: String,
    /// Canonical FEN of the start position.
    pub start_fen: String,
    /// Who moves first by these rules (Black in English checkers and
    /// pool): the side whose moves are numbered.
    pub first_side: Color,
    /// The notation `name`s are written in.
    pub notation: &'static str,
    /// The moves, in order.
    pub moves: Vec<LineMove>,
    /// Canonical FEN of the last position.
    pub fen: String,
    /// Who moves there: `white` or `black`.
    pub side: &'static str,
    /// The legal moves there, sorted by canonical path.
    pub legal: Vec<LegalMove>,
    /// The named opening of the variant's table (see [`crate::openings`])
    /// whose position the line reaches last, its start included; `None`
    /// when it reaches none.
    pub opening: Option<&'static str>,
}

/// The line played from a start by moves named by canonical numeric full
/// path (or, where it is one legal move, by its start and end square:
/// `18x11` for `18x25x11`), separated by spaces or commas.
///
/// # Errors
/// A move that is not legal where it is played, naming its ply and the
/// moves that are.
pub fn play_line(
    rules: &Rules,
    start: Position,
    moves: &str,
    notation: Notation,
) -> Result<Line, QueryError> {
    let mut position = start;
    let mut played = Vec::new();
    let book = crate::openings::book(rules.preset);
    let named = |p: &Position| book.and_then(|b| b.named(p.zobrist())).map(|o| o.name);
    let mut opening = named(&start);
    let tokens = crate::replay::move_tokens(moves).map_err(|e| QueryError::Moves(e.to_string()))?;
    if tokens.len() > MAX_LINE {
        return Err(QueryError::Moves(format!(
            "{} moves; a line holds at most {MAX_LINE}",
            tokens.len()
        )));
    }
    for (i, token) in tokens.iter().enumerate() {
        let legal = position.legal_moves(rules);
        let mv = find_move(&legal, token).ok_or_else(|| QueryError::NotLegalHere {
            ply: i + 1,
            token: token.chars().take(40).collect(),
            legal: legal.iter().map(Move::full_numeric).collect(),
        })?;
        let name = write_move_among(&mv, &legal, notation, rules.geometry);
        position = position.play(&mv);
        opening = named(&position).or(opening);
        played.push(LineMove {
            ply: i + 1,
            mv: mv.full_numeric(),
            name,
            fen: write_fen(&position),
        });
    }
    let legal_here = position.legal_moves(rules);
    let mut legal: Vec<LegalMove> = legal_here
        .iter()
        .map(|mv| LegalMove {
            mv: mv.full_numeric(),
            name: write_move_among(mv, &legal_here, notation, rules.geometry),
            from: mv.from().label(),
            to: mv.to().label(),
            path: mv.path().map(|s| s.label()).collect(),
            captured: squares(mv.captured()).map(|s| s.label()).collect(),
            fen: write_fen(&position.play(mv)),
        })
        .collect();
    legal.sort_by(|a, b| a.mv.cmp(&b.mv));
    Ok(Line {
        variant: rules.name(),
        start_fen: write_fen(&start),
        first_side: rules.first,
        notation: notation.name(),
        moves: played,
        fen: write_fen(&position),
        side: match position.side() {
            Color::White => "white",
            Color::Black => "black",
        },
        opening,
        legal,
    })
}

/// The legal move a token names: its canonical path, else the one move
/// with that start, end and kind (`-` or `x`).
fn find_move(legal: &[Move], token: &str) -> Option<Move> {
    if let Some(mv) = legal.iter().find(|m| m.full_numeric() == token) {
        return Some(*mv);
    }
    let capture = token.contains('x');
    let mut ends = token.split(['x', '-']);
    let from: u32 = ends.next()?.parse().ok()?;
    let to: u32 = token.rsplit(['x', '-']).next()?.parse().ok()?;
    let mut fitting = legal
        .iter()
        .filter(|m| m.from().label() == from && m.to().label() == to && m.is_capture() == capture);
    match (fitting.next(), fitting.next()) {
        (Some(mv), None) => Some(*mv),
        _ => None,
    }
}

impl Store {
    /// The line `moves` plays from `fen` (default: the initial position of
    /// `variant`, itself by default the preset with most games), squares
    /// named in `notation` (default: the variant's usual one).
    ///
    /// # Errors
    /// A variant, FEN or move that cannot be read; a database failure.
    pub fn line(
        &self,
        variant: Option<&str>,
        fen: Option<&str>,
        moves: Option<&str>,
        notation: Option<Notation>,
    ) -> Result<Line, QueryError> {
        let asked = variant.map(Rules::parse).transpose()?;
        let (start, rules) = match fen {
            // Without a variant, the board of the preset with most games
            // when the FEN is one there.
            Some(fen) => match asked {
                Some(rules) => position_from_fen(fen, Some(&rules)),
                None => {
                    let main = self.main_preset().map_err(QueryError::Store)?.rules();
                    position_from_fen(fen, Some(&main)).or_else(|_| position_from_fen(fen, None))
                }
            }
            .map_err(QueryError::Fen)?,
            None => {
                let rules = match asked {
                    Some(rules) => rules,
                    None => self.main_preset().map_err(QueryError::Store)?.rules(),
                };
                (Position::initial(&rules), rules)
            }
        };
        let notation = notation.unwrap_or_else(|| Notation::usual_for(rules.preset));
        play_line(&rules, start, moves.unwrap_or(""), notation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_lists_its_moves_and_the_legal_moves_after_it() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let first = start.legal_moves(&rules)[0].full_numeric();
        let line = play_line(&rules, start, &first, Notation::Numeric).unwrap();
        assert_eq!(line.moves.len(), 1);
        assert_eq!(line.moves[0].mv, first);
        assert_eq!(line.side, "black");
        assert!(!line.legal.is_empty());
        let after = start.play(&start.legal_moves(&rules)[0]);
        assert_eq!(line.fen, write_fen(&after));
        assert_eq!(line.legal.len(), after.legal_moves(&rules).len());
        assert!(line.legal.windows(2).all(|w| w[0].mv < w[1].mv));
        assert_eq!(line.opening, None);
    }

    #[test]
    fn a_line_is_named_by_the_named_position_it_reaches_last() {
        let rules = crate::rules::Preset::English.rules();
        let start = Position::initial(&rules);
        let line = play_line(
            &rules,
            start,
            "11-15 23-19 8-11 22-17 4-8",
            Notation::Numeric,
        );
        assert_eq!(line.unwrap().opening, Some("Old Fourteenth"));
        let line = play_line(
            &rules,
            start,
            "11-15 23-19 8-11 22-17 4-8 17-13",
            Notation::Numeric,
        );
        assert_eq!(line.unwrap().opening, Some("Old Fourteenth"));
        let line = play_line(&rules, start, "", Notation::Numeric);
        assert_eq!(line.unwrap().opening, None);
    }

    #[test]
    fn an_illegal_move_names_its_ply_and_the_legal_ones() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let first = start.legal_moves(&rules)[0].full_numeric();
        let err = play_line(&rules, start, &format!("{first}, 1-5"), Notation::Numeric)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("ply 2: \"1-5\" is not a legal move here"),
            "{err}"
        );
    }

    #[test]
    fn a_capture_may_be_named_by_its_ends() {
        let rules = Rules::default();
        let setup = crate::notation::parse_fen("W:W22:B18,10").unwrap();
        let p = Position::from_setup(&setup, &rules).unwrap();
        let legal = p.legal_moves(&rules);
        let full = legal[0].full_numeric();
        let ends = format!("{}x{}", legal[0].from().label(), legal[0].to().label());
        assert_eq!(
            find_move(&legal, &ends).map(|m| m.full_numeric()),
            Some(full)
        );
        assert!(find_move(&legal, "22-17").is_none());
    }
}
