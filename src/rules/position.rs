//! Set-ups (any list of pieces) and validated positions.

use crate::message::{FenMessage, MoreLikeIt, SetupMessage};
use std::fmt;

use super::board::{Bitboard, Color, Geometry, Piece, Square, squares};
use super::switch::KingLimit;
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
    /// White's and Black's plain moves in a row with one king, where the
    /// FEN tells them (lidraughts' Frisian FENs); used only by rules with
    /// a [`KingLimit`](super::KingLimit).
    pub king_runs: [KingRun; 2],
}

/// The plain moves one side has made in a row with one king, and that
/// king's square (Frisian art. 17: a fourth is not allowed while the side
/// has men).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingRun {
    /// How many, 0 to 3.
    pub moves: u8,
    /// The numeric label of the king's square (0 when `moves` is 0).
    pub square: u32,
}

/// The [`KingRun`]s of a position, White's then Black's, each in one byte:
/// 0 for none, else the count (1 to 3) in the top two bits and the king's
/// square index below; `tracked` when the rules limit king moves. Zero for
/// every other rules, so that it never tells their positions apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct KingRuns {
    runs: [u8; 2],
    tracked: bool,
}

impl KingRuns {
    /// No run yet, tracked or not.
    pub(crate) fn new(tracked: bool) -> KingRuns {
        KingRuns {
            runs: [0; 2],
            tracked,
        }
    }

    /// Whether the rules count king moves.
    #[inline]
    pub(crate) fn tracked(self) -> bool {
        self.tracked
    }

    /// The run of one side: count and square index.
    #[inline]
    fn get(self, color: Color) -> (u8, usize) {
        let run = self.runs[color as usize];
        (run >> 6, usize::from(run & 63))
    }

    fn set(&mut self, color: Color, moves: u8, index: usize) {
        self.runs[color as usize] = if moves == 0 {
            0
        } else {
            moves.min(3) << 6 | index as u8
        };
    }

    /// The square of the king of `color` that may not make a plain move
    /// (it made the last three in a row), as a bitboard; 0 when none.
    #[inline]
    pub(crate) fn barred(self, color: Color) -> Bitboard {
        match self.get(color) {
            (3, index) => 1u64 << index,
            _ => 0,
        }
    }

    /// The runs after a move of `us` from square `from` to `to` (indices),
    /// by a king or not, taking `captured`; `men` are the men of each side
    /// after the move (White's, Black's). A plain king move adds to its
    /// king's run (or starts one for another king); a man's move or a
    /// capture ends the mover's run; a side without men has none; the run
    /// of a king that was taken ends.
    #[inline]
    pub(crate) fn after(
        self,
        us: Color,
        (from, to): (usize, usize),
        king: bool,
        captured: Bitboard,
        men: [Bitboard; 2],
    ) -> KingRuns {
        let mut next = self;
        let them = us.opponent();
        let (moves, at) = self.get(us);
        if men[us as usize] == 0 || !king || captured != 0 {
            next.set(us, 0, 0);
        } else if moves > 0 && at == from {
            next.set(us, moves + 1, to);
        } else {
            next.set(us, 1, to);
        }
        let (moves, at) = self.get(them);
        if moves > 0 && (men[them as usize] == 0 || captured & (1u64 << at) != 0) {
            next.set(them, 0, 0);
        }
        next
    }
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
        write!(f, "{}", self.said(None))
    }
}

/// Every problem found in a set-up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionError {
    /// The problems, in the order found.
    pub problems: Vec<SetupProblem>,
}

impl SetupProblem {
    /// The square the problem is on, if it is on one.
    fn square(&self) -> Option<u32> {
        match self {
            SetupProblem::SquareOffBoard(s)
            | SetupProblem::TwoPieces(s)
            | SetupProblem::ManOnCrowningRow(s, _) => Some(*s),
            SetupProblem::TooManyPieces(..) => None,
        }
    }

    /// Whether `other` is the same kind of problem (for a man on its
    /// crowning row or too many pieces: of the same colour).
    fn is_like(&self, other: &SetupProblem) -> bool {
        match (self, other) {
            (SetupProblem::ManOnCrowningRow(_, a), SetupProblem::ManOnCrowningRow(_, b))
            | (SetupProblem::TooManyPieces(a, ..), SetupProblem::TooManyPieces(b, ..)) => a == b,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

/// Squares a message names of the further problems of one kind.
const SQUARES_NAMED: usize = 5;

impl PositionError {
    /// The problems as a code and its parts: in the order found, each
    /// kind once (its first problem), with how many more there are and
    /// their first squares.
    pub fn said(&self) -> FenMessage {
        let mut firsts: Vec<&SetupProblem> = Vec::new();
        for p in &self.problems {
            if !firsts.iter().any(|first| first.is_like(p)) {
                firsts.push(p);
            }
        }
        let problems = firsts
            .into_iter()
            .map(|first| first.said(self.more_like(first)))
            .collect();
        FenMessage::InvalidPosition { problems }
    }

    /// The problems of the kind of `first` after it, if any.
    fn more_like(&self, first: &SetupProblem) -> Option<MoreLikeIt> {
        let more: Vec<&SetupProblem> = self
            .problems
            .iter()
            .filter(|p| first.is_like(p))
            .skip(1)
            .collect();
        if more.is_empty() {
            return None;
        }
        let mut squares: Vec<u32> = Vec::new();
        let mut more_squares = false;
        for square in more.iter().filter_map(|p| p.square()) {
            if squares.contains(&square) {
                continue;
            }
            if squares.len() == SQUARES_NAMED {
                more_squares = true;
                break;
            }
            squares.push(square);
        }
        Some(MoreLikeIt {
            more: more.len(),
            squares,
            more_squares,
        })
    }
}

impl SetupProblem {
    /// The problem as a code and its parts, with `more` like it.
    fn said(&self, more: Option<MoreLikeIt>) -> SetupMessage {
        match *self {
            SetupProblem::SquareOffBoard(square) => SetupMessage::SquareOffBoard { square, more },
            SetupProblem::TwoPieces(square) => SetupMessage::TwoPieces { square, more },
            SetupProblem::ManOnCrowningRow(square, colour) => SetupMessage::ManOnCrowningRow {
                square,
                colour: colour.name().to_string(),
                more,
            },
            SetupProblem::TooManyPieces(colour, pieces, most) => SetupMessage::TooManyPieces {
                colour: colour.name().to_string(),
                pieces,
                most,
                more,
            },
        }
    }
}

impl fmt::Display for PositionError {
    /// The problems in the order found, each kind once: its first problem,
    /// then how many more there are and their first squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.said())
    }
}

/// Bytes of [`Position::packed`].
pub const PACKED_BYTES: usize = 25;

/// A legal arrangement of pieces with a side to move.
///
/// Two positions are equal when they have the same pieces and side to
/// move, and, under rules with a [`KingLimit`](super::KingLimit), the same
/// [`KingRun`]s (which decide whether a king may move): replay keeps such
/// positions apart. The Zobrist key covers the pieces and the side only,
/// and is kept up to date with every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: Bitboard,
    pub(crate) black: Bitboard,
    pub(crate) kings: Bitboard,
    pub(crate) side: Color,
    pub(crate) runs: KingRuns,
    pub(crate) key: u64,
}

impl Position {
    /// The initial position of the rules: each side's men fill its
    /// [`Rules::start_rows`], and the rules' first side moves.
    pub fn initial(rules: &Rules) -> Position {
        let (white, black) = rules.geometry.start_rows(rules.start_rows);
        Position::from_parts(white, black, 0, rules.first).tracking(rules)
    }

    /// This position with king runs tracked when the rules limit king moves.
    fn tracking(mut self, rules: &Rules) -> Position {
        self.runs = KingRuns::new(rules.king_limit == KingLimit::On);
        self
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
            runs: KingRuns::default(),
            key: 0,
        };
        position.key = position.compute_key();
        position
    }

    /// Validates a set-up for the rules' board. A set-up without a side to
    /// move gets White; callers that know better set `setup.side` first.
    ///
    /// The set-up's [`KingRun`]s count where the rules limit king moves,
    /// each only when it names a king of its side and the side has men.
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
        let max = (g.start_rows(rules.start_rows).0).count_ones() as usize;
        for (color, set) in [(Color::White, white), (Color::Black, black)] {
            let n = set.count_ones() as usize;
            if n > max {
                problems.push(SetupProblem::TooManyPieces(color, n, max));
            }
        }
        if !problems.is_empty() {
            return Err(PositionError { problems });
        }
        let side = setup.side.unwrap_or(Color::White);
        let mut position = Position::from_parts(white, black, kings, side).tracking(rules);
        if position.runs.tracked() {
            for color in [Color::White, Color::Black] {
                let KingRun { moves, square } = setup.king_runs[color as usize];
                let ours = position.pieces(color);
                let king = Square::new(square).filter(|s| ours & kings & s.bit() != 0);
                if let Some(king) = king.filter(|_| moves > 0 && ours & !kings != 0) {
                    position.runs.set(color, moves, king.index());
                }
            }
        }
        Ok(position)
    }

    /// The plain moves `color` has made in a row with one king, where the
    /// rules limit them (none otherwise).
    pub fn king_run(&self, color: Color) -> KingRun {
        match self.runs.get(color) {
            (0, _) => KingRun::default(),
            (moves, index) => KingRun {
                moves,
                square: Square::from_index(index).label(),
            },
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
            king_runs: [self.king_run(Color::White), self.king_run(Color::Black)],
        }
    }

    /// The position as the index knows it, in [`PACKED_BYTES`] bytes:
    /// White's, Black's and the kings' squares (bitboards, little-endian),
    /// then the side to move (0 White, 1 Black). Positions with the same
    /// pieces and side to move, and only they, have equal bytes (the key
    /// follows from these); [`KingRun`]s are not part of it.
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

    /// The same pieces with `side` to move (and the same king runs).
    pub fn with_side(&self, side: Color) -> Position {
        Position {
            runs: self.runs,
            ..Position::from_parts(self.white, self.black, self.kings, side)
        }
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
    fn problems_of_one_kind_are_said_once_with_a_count() {
        let mut problems: Vec<SetupProblem> = (0..9000)
            .map(|i| SetupProblem::TwoPieces(21 + i % 7))
            .collect();
        problems.push(SetupProblem::TooManyPieces(Color::White, 40, 12));
        problems.push(SetupProblem::TooManyPieces(Color::Black, 13, 12));
        let message = PositionError { problems }.to_string();
        assert_eq!(
            message,
            "invalid position: two pieces on square 21 (and 8,999 more like it: \
             squares 22, 23, 24, 25, 26, …); 40 white pieces (at most 12); \
             13 black pieces (at most 12)"
        );
        let one = PositionError {
            problems: vec![SetupProblem::TwoPieces(5), SetupProblem::TwoPieces(5)],
        };
        assert_eq!(
            one.to_string(),
            "invalid position: two pieces on square 5 (and 1 more like it: square 5)"
        );
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
            ..Setup::default()
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
        let setup = Setup {
            pieces,
            ..Setup::default()
        };
        let err = Position::from_setup(&setup, &Rules::default()).unwrap_err();
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
