//! The kinds of square contents a pattern names.

use crate::rules::{Bitboard, Color, Position};

/// What a square of a pattern holds (or must not hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceClass {
    /// A white man.
    WhiteMan,
    /// A white king.
    WhiteKing,
    /// A white man or king.
    White,
    /// A black man.
    BlackMan,
    /// A black king.
    BlackKing,
    /// A black man or king.
    Black,
    /// Any piece.
    Piece,
    /// No piece.
    Empty,
}

impl PieceClass {
    /// Every class, in the order of their [`PieceClass::slot`]s.
    pub const ALL: [PieceClass; 8] = [
        PieceClass::WhiteMan,
        PieceClass::WhiteKing,
        PieceClass::White,
        PieceClass::BlackMan,
        PieceClass::BlackKing,
        PieceClass::Black,
        PieceClass::Piece,
        PieceClass::Empty,
    ];

    /// The name of the JSON form: `white_man`, …, `piece`, `empty`.
    pub fn name(self) -> &'static str {
        match self {
            PieceClass::WhiteMan => "white_man",
            PieceClass::WhiteKing => "white_king",
            PieceClass::White => "white",
            PieceClass::BlackMan => "black_man",
            PieceClass::BlackKing => "black_king",
            PieceClass::Black => "black",
            PieceClass::Piece => "piece",
            PieceClass::Empty => "empty",
        }
    }

    /// The class of a JSON name.
    pub fn from_name(name: &str) -> Option<PieceClass> {
        PieceClass::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The class's place in [`PieceClass::ALL`].
    pub fn slot(self) -> usize {
        self as usize
    }

    /// The same class with colours swapped.
    pub fn reversed(self) -> PieceClass {
        match self {
            PieceClass::WhiteMan => PieceClass::BlackMan,
            PieceClass::WhiteKing => PieceClass::BlackKing,
            PieceClass::White => PieceClass::Black,
            PieceClass::BlackMan => PieceClass::WhiteMan,
            PieceClass::BlackKing => PieceClass::WhiteKing,
            PieceClass::Black => PieceClass::White,
            other => other,
        }
    }

    /// The squares of `position` that hold this class, among `all` (the
    /// board's playing squares).
    #[inline]
    pub fn squares(self, position: &Position, all: Bitboard) -> Bitboard {
        let kings = position.kings();
        let white = position.pieces(Color::White);
        let black = position.pieces(Color::Black);
        match self {
            PieceClass::WhiteMan => white & !kings,
            PieceClass::WhiteKing => white & kings,
            PieceClass::White => white,
            PieceClass::BlackMan => black & !kings,
            PieceClass::BlackKing => black & kings,
            PieceClass::Black => black,
            PieceClass::Piece => white | black,
            PieceClass::Empty => all & !(white | black),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_reversal_swaps_colours_only() {
        for class in PieceClass::ALL {
            assert_eq!(PieceClass::from_name(class.name()), Some(class));
            assert_eq!(class.reversed().reversed(), class);
            assert_eq!(PieceClass::ALL[class.slot()], class);
        }
        assert_eq!(PieceClass::WhiteKing.reversed(), PieceClass::BlackKing);
        assert_eq!(PieceClass::Empty.reversed(), PieceClass::Empty);
        assert_eq!(PieceClass::from_name("queen"), None);
    }
}
