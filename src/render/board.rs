//! What one picture shows: the [`Board`] every picture is drawn from, the
//! marks of the last move and the arrows with their colours.

use crate::notation::{Notation, write_move_among};
use crate::rules::{Geometry, Move, Position, Rules, Square, squares};

/// A move drawn as an arrow, with the text that names it in the legend.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// The move.
    pub mv: Move,
    /// How it is named: the move in the board's notation, plus its numeric
    /// full path when the notation is not numeric.
    pub label: String,
}

/// What one picture shows.
#[derive(Clone, Debug)]
pub struct Board {
    /// The position drawn.
    pub position: Position,
    /// The board's shape.
    pub geometry: &'static Geometry,
    /// How squares are named, and so the orientation (Luzon is mirrored).
    pub notation: Notation,
    /// The move that led to the position, marked on its squares.
    pub last_move: Option<Move>,
    /// Moves drawn as arrows, in distinct colours, in this order.
    pub arrows: Vec<Arrow>,
    /// Drawn turned half a turn: Black at the bottom.
    pub flipped: bool,
    /// Every playing square carries a transparent target naming it
    /// (`rect.sq` with `data-square`, its number), for pages that let
    /// people click squares.
    pub clickable: bool,
}

impl Board {
    /// A board with no marks.
    pub fn new(position: Position, geometry: &'static Geometry, notation: Notation) -> Board {
        Board {
            position,
            geometry,
            notation,
            last_move: None,
            arrows: Vec::new(),
            flipped: false,
            clickable: false,
        }
    }

    /// Adds arrows for `moves`, named among the legal moves of the
    /// position by `rules`.
    pub fn with_arrows(mut self, rules: &Rules, moves: &[Move]) -> Board {
        let legal = self.position.legal_moves(rules);
        for mv in moves {
            let written = write_move_among(mv, &legal, self.notation, self.geometry);
            let numeric = mv.full_numeric();
            let label = if self.notation == Notation::Numeric || written == numeric {
                written
            } else {
                format!("{written} (numeric {numeric})")
            };
            self.arrows.push(Arrow { mv: *mv, label });
        }
        self
    }

    /// Whether the drawing is mirrored left to right (the Luzon board).
    pub fn mirrored(&self) -> bool {
        self.notation == Notation::Luzon
    }

    /// The drawing cell (row, column from the top left of the picture) of
    /// a square.
    pub fn cell(&self, square: Square) -> (u32, u32) {
        let (w, h) = (self.geometry.width(), self.geometry.height());
        let (row, col) = (self.geometry.row(square), self.geometry.col(square));
        let col = if self.mirrored() { w - 1 - col } else { col };
        if self.flipped {
            (h - 1 - row, w - 1 - col)
        } else {
            (row, col)
        }
    }

    /// The square drawn at a cell, if it is a playing square.
    pub fn square_at(&self, row: u32, col: u32) -> Option<Square> {
        let (w, h) = (self.geometry.width(), self.geometry.height());
        let (row, col) = if self.flipped {
            (h.checked_sub(row + 1)?, w.checked_sub(col + 1)?)
        } else {
            (row, col)
        };
        let col = if self.mirrored() {
            w.checked_sub(col + 1)?
        } else {
            col
        };
        self.geometry.at(row as i32, col as i32)
    }

    /// The name of a square in the board's notation.
    pub fn square_name(&self, square: Square) -> String {
        self.notation.square_name(self.geometry, square)
    }

    /// Whether squares are named by letters and numbers (files and ranks
    /// along the edges) rather than by numbers on the squares.
    pub fn algebraic(&self) -> bool {
        self.notation.orientation().is_some()
    }

    /// The file letters left to right, as drawn (`a`.. for algebraic
    /// boards; reversed on a flipped board).
    pub fn files(&self) -> Vec<char> {
        let w = self.geometry.width();
        (0..w)
            .map(|c| if self.flipped { w - 1 - c } else { c })
            .map(|c| char::from_u32('a' as u32 + c).unwrap_or('?'))
            .collect()
    }

    /// The rank number drawn on a row (counted from the top of the
    /// picture).
    pub fn rank(&self, row: u32) -> u32 {
        let h = self.geometry.height();
        if self.flipped { row + 1 } else { h - row }
    }

    /// The marks of the last move on a square.
    pub fn mark(&self, square: Square) -> Mark {
        let Some(mv) = &self.last_move else {
            return Mark::None;
        };
        if square == mv.from() {
            Mark::From
        } else if square == mv.to() {
            Mark::To
        } else if mv.captured() & square.bit() != 0 {
            Mark::Captured
        } else if mv.path().any(|s| s == square) {
            Mark::Path
        } else {
            Mark::None
        }
    }
}

/// How the last move touches a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Not at all.
    None,
    /// The square the piece left.
    From,
    /// The square it ended on.
    To,
    /// A landing square on the way.
    Path,
    /// A captured piece stood here.
    Captured,
}

/// The captured squares of a move, lowest first.
pub fn captured_squares(mv: &Move) -> Vec<Square> {
    squares(mv.captured()).collect()
}

/// Distinct arrow colours, in order of use (repeated past the eighth).
pub const ARROW_COLOURS: [(&str, &str); 8] = [
    ("#d62728", "red"),
    ("#1f6fd1", "blue"),
    ("#2ca02c", "green"),
    ("#9467bd", "purple"),
    ("#ff7f0e", "orange"),
    ("#17becf", "cyan"),
    ("#e377c2", "pink"),
    ("#8c564b", "brown"),
];

/// The colour (hex, name) of the arrow at `index`.
pub fn arrow_colour(index: usize) -> (&'static str, &'static str) {
    ARROW_COLOURS[index % ARROW_COLOURS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;

    #[test]
    fn cells_mirror_on_the_luzon_board() {
        let rules = Rules::default();
        let p = Position::initial(&rules);
        let sq29 = Square::new(29).unwrap();
        let vismin = Board::new(p, rules.geometry, Notation::Vismin);
        assert_eq!(vismin.cell(sq29), (7, 0));
        assert_eq!(vismin.square_at(7, 0), Some(sq29));
        let luzon = Board::new(p, rules.geometry, Notation::Luzon);
        assert_eq!(luzon.cell(sq29), (7, 7));
        assert_eq!(luzon.square_at(7, 7), Some(sq29));
        assert_eq!(luzon.square_at(7, 0), None);
        assert_eq!(luzon.square_at(7, 99), None);
    }

    #[test]
    fn arrows_are_named_in_the_notation_and_numerically() {
        let rules = Rules::default();
        let setup = parse_fen("B:WK6,30:B3,K18,21,K31").unwrap();
        let p = Position::from_setup(&setup, &rules).unwrap();
        let legal = p.legal_moves(&rules);
        let picks: Vec<Move> = legal
            .iter()
            .filter(|m| m.from().label() == 18 && [8, 25].contains(&m.to().label()))
            .copied()
            .collect();
        assert_eq!(picks.len(), 2);
        let board = Board::new(p, rules.geometry, Notation::Dama).with_arrows(&rules, &picks);
        assert!(board.arrows.iter().all(|a| a.label.starts_with("15-5")));
        assert!(
            board
                .arrows
                .iter()
                .any(|a| a.label.ends_with("(numeric 18-25)"))
        );
        assert_ne!(arrow_colour(0), arrow_colour(1));
    }
}
