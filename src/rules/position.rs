//! Set-ups (any list of pieces) and validated positions.

use std::fmt;

use super::board::{Bitboard, Color, Geometry, Piece, Square, squares};
use super::variant::Rules;
use super::zobrist;

/// A not necessarily legal position: pieces on numbered squares, as read from
/// a FEN, and the side to move if known. Labels are kept as written, so a
/// square that is not on the board can still be reported.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The side to move; `None` when the FEN said `?`.
    pub side: Option<Color>,
    /// Each piece with the numeric label of its square, in the order read.
    pub pieces: Vec<(u32, Piece)>,
}

/// One thing wrong with a set-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// A label that is not a playing square of the board.
    SquareOffBoard(u32),
    /// Two pieces on one square.
    TwoPieces(u32),
    /// A man on the row where it would have been crowned.
    ManOnCrowningRow(u32, Color),
    /// More pieces of one side than the side starts with.
    TooManyPieces(Color, usize, usize),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::SquareOffBoard(s) => write!(f, "square {s} is not on the board"),
            SetupProblem::TwoPieces(s) => write!(f, "two pieces on square {s}"),
            SetupProblem::ManOnCrowningRow(s, c) => {
                write!(f, "a {} man on square {s}, its own crowning row", c.name())
            }
            SetupProblem::TooManyPieces(c, n, max) => {
                write!(f, "{n} {} pieces (at most {max})", c.name())
            }
        }
    }
}

/// Every problem found in a set-up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionError {
    /// The problems, in the order found.
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// Bytes of [`Position::packed`].
pub const PACKED_BYTES: usize = 25;

/// A legal arrangement of pieces with a side to move.
///
/// Two positions are equal when they have the same pieces and side to move;
/// the Zobrist key is kept up to date with every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: Bitboard,
    pub(crate) black: Bitboard,
    pub(crate) kings: Bitboard,
    pub(crate) side: Color,
    pub(crate) key: u64,
}

impl Position {
    /// The initial position of the rules' board: each side fills the rows
    /// on its side but the two middle rows, and the rules' first side moves.
    pub fn initial(rules: &Rules) -> Position {
        let g = rules.geometry;
        let rows = (g.height() - 2) / 2;
        let (white, black) = g.start_rows(rows);
        Position::from_parts(white, black, 0, rules.first)
    }

    /// Builds a position from piece sets; the key is computed here.
    pub(crate) fn from_parts(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Position {
        let mut position = Position {
            white,
            black,
            kings,
            side,
            key: 0,
        };
        position.key = position.compute_key();
        position
    }

    /// Validates a set-up for the rules' board. A set-up without a side to
    /// move gets White; callers that know better set `setup.side` first.
    ///
    /// # Errors
    /// Every problem at once: squares off the board, two pieces on a square,
    /// men on their own crowning row, more pieces than a side starts with.
    pub fn from_setup(setup: &Setup, rules: &Rules) -> Result<Position, PositionError> {
        let g: &Geometry = rules.geometry;
        let mut problems = Vec::new();
        let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
        for &(label, piece) in &setup.pieces {
            let Some(square) = Square::new(label).filter(|s| g.contains(*s)) else {
                problems.push(SetupProblem::SquareOffBoard(label));
                continue;
            };
            let bit = square.bit();
            if (white | black) & bit != 0 {
                problems.push(SetupProblem::TwoPieces(label));
                continue;
            }
            if !piece.king && g.crowning_row(piece.color) & bit != 0 {
                problems.push(SetupProblem::ManOnCrowningRow(label, piece.color));
            }
            match piece.color {
                Color::White => white |= bit,
                Color::Black => black |= bit,
            }
            if piece.king {
                kings |= bit;
            }
        }
        let max = (g.start_rows((g.height() - 2) / 2).0).count_ones() as usize;
        for (color, set) in [(Color::White, white), (Color::Black, black)] {
            let n = set.count_ones() as usize;
            if n > max {
                problems.push(SetupProblem::TooManyPieces(color, n, max));
            }
        }
        if problems.is_empty() {
            Ok(Position::from_parts(
                white,
                black,
                kings,
                setup.side.unwrap_or(Color::White),
            ))
        } else {
            Err(PositionError { problems })
        }
    }

    /// The set-up of this position (pieces ascending, White first).
    pub fn to_setup(&self) -> Setup {
        let mut pieces = Vec::new();
        for color in [Color::White, Color::Black] {
            for s in squares(self.pieces(color)) {
                pieces.push((
                    s.label(),
                    Piece {
                        color,
                        king: self.kings & s.bit() != 0,
                    },
                ));
            }
        }
        Setup {
            side: Some(self.side),
            pieces,
        }
    }

    /// The position written exactly, in [`PACKED_BYTES`] bytes: White's,
    /// Black's and the kings' squares (bitboards, little-endian), then the
    /// side to move (0 White, 1 Black). Equal positions, and only they, have
    /// equal bytes (the key follows from these).
    pub fn packed(&self) -> [u8; PACKED_BYTES] {
        let mut out = [0u8; PACKED_BYTES];
        out[..8].copy_from_slice(&self.white.to_le_bytes());
        out[8..16].copy_from_slice(&self.black.to_le_bytes());
        out[16..24].copy_from_slice(&self.kings.to_le_bytes());
        out[24] = match self.side {
            Color::White => 0,
            Color::Black => 1,
        };
        out
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The same pieces with `side` to move.
    pub fn with_side(&self, side: Color) -> Position {
        Position::from_parts(self.white, self.black, self.kings, side)
    }

    /// The squares of one side's pieces.
    pub fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The squares holding kings of either side.
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = square.bit();
        let king = self.kings & bit != 0;
        if self.white & bit != 0 {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else if self.black & bit != 0 {
            Some(Piece {
                color: Color::Black,
                king,
            })
        } else {
            None
        }
    }

    /// The Zobrist key (see [`zobrist`]).
    pub fn zobrist(&self) -> u64 {
        self.key
    }

    /// The Zobrist key computed from scratch, for checking the incremental one.
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::side_key(self.side);
        for color in [Color::White, Color::Black] {
            for s in squares(self.pieces(color)) {
                let king = self.kings & s.bit() != 0;
                key ^= zobrist::piece_key(Piece { color, king }, s);
            }
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn man(color: Color) -> Piece {
        Piece { color, king: false }
    }

    #[test]
    fn packed_positions_are_equal_when_the_positions_are() {
        let rules = Rules::default();
        let p = Position::initial(&rules);
        assert_eq!(p.packed(), Position::initial(&rules).packed());
        assert_ne!(p.packed(), p.with_side(p.side().opponent()).packed());
        let moved = p.play(&p.legal_moves(&rules)[0]);
        assert_ne!(p.packed(), moved.packed());
        assert_eq!(p.packed()[..8], p.pieces(Color::White).to_le_bytes());
    }

    #[test]
    fn initial_position_of_8x8() {
        let p = Position::initial(&Rules::default());
        assert_eq!(p.pieces(Color::Black), 0xFFF);
        assert_eq!(p.pieces(Color::White), 0xFFF << 20);
        assert_eq!(p.side(), Color::White);
        assert_eq!(
            Position::initial(&Preset::English.rules()).side(),
            Color::Black
        );
    }

    #[test]
    fn setup_problems_are_all_reported() {
        let setup = Setup {
            side: Some(Color::White),
            pieces: vec![
                (33, man(Color::White)),
                (18, man(Color::White)),
                (18, man(Color::Black)),
                (2, man(Color::White)),
                (30, man(Color::Black)),
            ],
        };
        let err = Position::from_setup(&setup, &Rules::default()).unwrap_err();
        assert_eq!(
            err.problems,
            vec![
                SetupProblem::SquareOffBoard(33),
                SetupProblem::TwoPieces(18),
                SetupProblem::ManOnCrowningRow(2, Color::White),
                SetupProblem::ManOnCrowningRow(30, Color::Black),
            ]
        );
        assert!(err.to_string().contains("square 33 is not on the board"));
    }

    #[test]
    fn too_many_pieces_is_a_problem() {
        let pieces = (1..=13)
            .map(|s| {
                (
                    s + 4,
                    Piece {
                        color: Color::Black,
                        king: true,
                    },
                )
            })
            .collect();
        let err =
            Position::from_setup(&Setup { side: None, pieces }, &Rules::default()).unwrap_err();
        assert_eq!(
            err.problems,
            vec![SetupProblem::TooManyPieces(Color::Black, 13, 12)]
        );
    }

    #[test]
    fn setup_round_trips() {
        let p = Position::initial(&Rules::default());
        assert_eq!(
            Position::from_setup(&p.to_setup(), &Rules::default()),
            Ok(p)
        );
    }
}
