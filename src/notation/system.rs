//! The four notations by name, and how each writes a square.

use std::fmt;
use std::str::FromStr;

use super::algebraic::{Orientation, algebraic_name};
use super::dama::dama_number;
use crate::rules::{Geometry, Preset, Square};

/// A way of writing squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Notation {
    /// The board's own numbers (1..32 on 8×8, 1..50 on 10×10).
    Numeric,
    /// Algebraic, lettered from the left (the Vismin board: a1 is a
    /// playing square).
    Vismin,
    /// Algebraic, lettered from the right (the Luzon board: h1 is a playing
    /// square).
    Luzon,
    /// The local Dama numbers 1..16, each naming two squares.
    Dama,
}

impl Notation {
    /// Every notation.
    pub const ALL: [Notation; 4] = [
        Notation::Numeric,
        Notation::Vismin,
        Notation::Luzon,
        Notation::Dama,
    ];

    /// The name used on the command line and in JSON.
    #[inline]
    pub fn name(self) -> &'static str {
        match self {
            Notation::Numeric => "numeric",
            Notation::Vismin => "vismin",
            Notation::Luzon => "luzon",
            Notation::Dama => "dama",
        }
    }

    /// The board orientation of an algebraic notation.
    #[inline]
    pub fn orientation(self) -> Option<Orientation> {
        match self {
            Notation::Vismin => Some(Orientation::Vismin),
            Notation::Luzon => Some(Orientation::Luzon),
            _ => None,
        }
    }

    /// The notation a preset's records are usually written in: algebraic
    /// squares for Russian, Brazilian and Czech draughts (as their PDN
    /// GameType says), numbers for the others.
    pub fn usual_for(preset: Preset) -> Notation {
        match preset {
            Preset::Russian | Preset::Brazilian | Preset::Czech => Notation::Vismin,
            _ => Notation::Numeric,
        }
    }

    /// Whether this notation names the squares of a board: the Dama
    /// numbers belong to the 8×8 board of Dama only.
    #[inline]
    pub fn names_squares_of(self, geometry: &Geometry) -> bool {
        self != Notation::Dama || geometry == Geometry::standard()
    }

    /// How a square is written in this notation.
    pub fn square_name(self, geometry: &Geometry, square: Square) -> String {
        match self {
            Notation::Numeric => square.label().to_string(),
            Notation::Vismin => algebraic_name(geometry, square, Orientation::Vismin),
            Notation::Luzon => algebraic_name(geometry, square, Orientation::Luzon),
            Notation::Dama => dama_number(square)
                .filter(|_| self.names_squares_of(geometry))
                .map_or_else(|| square.label().to_string(), |n| n.to_string()),
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown notation name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation `{0}` (expected numeric, vismin, luzon or dama)")]
pub struct ParseNotationError(pub String);

impl FromStr for Notation {
    type Err = ParseNotationError;

    fn from_str(s: &str) -> Result<Notation, ParseNotationError> {
        let lower = s.trim().to_ascii_lowercase();
        Notation::ALL
            .into_iter()
            .find(|n| n.name() == lower)
            .ok_or_else(|| ParseNotationError(s.to_string()))
    }
}

/// Its name, as in JSON everywhere.
impl serde::Serialize for Notation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{Orientation, dama_squares, parse_algebraic};

    #[test]
    fn names_round_trip() {
        for n in Notation::ALL {
            assert_eq!(n.name().parse::<Notation>(), Ok(n));
        }
        assert!("chess".parse::<Notation>().is_err());
    }

    /// The full table of DESIGN §1: every square in every view.
    #[test]
    fn all_32_squares_in_every_view() {
        let g = Geometry::standard();
        #[rustfmt::skip]
        let table: [(u32, &str, &str, u32); 32] = [
            (1, "b8", "g8", 12), (2, "d8", "e8", 11), (3, "f8", "c8", 10), (4, "h8", "a8", 9),
            (5, "a7", "h7", 8), (6, "c7", "f7", 7), (7, "e7", "d7", 6), (8, "g7", "b7", 5),
            (9, "b6", "g6", 3), (10, "d6", "e6", 2), (11, "f6", "c6", 1), (12, "h6", "a6", 4),
            (13, "a5", "h5", 13), (14, "c5", "f5", 14), (15, "e5", "d5", 15), (16, "g5", "b5", 16),
            (17, "b4", "g4", 16), (18, "d4", "e4", 15), (19, "f4", "c4", 14), (20, "h4", "a4", 13),
            (21, "a3", "h3", 4), (22, "c3", "f3", 1), (23, "e3", "d3", 2), (24, "g3", "b3", 3),
            (25, "b2", "g2", 5), (26, "d2", "e2", 6), (27, "f2", "c2", 7), (28, "h2", "a2", 8),
            (29, "a1", "h1", 9), (30, "c1", "f1", 10), (31, "e1", "d1", 11), (32, "g1", "b1", 12),
        ];
        for (label, vismin, luzon, dama) in table {
            let sq = Square::new(label).unwrap();
            assert_eq!(Notation::Numeric.square_name(g, sq), label.to_string());
            assert_eq!(Notation::Vismin.square_name(g, sq), vismin);
            assert_eq!(Notation::Luzon.square_name(g, sq), luzon);
            assert_eq!(Notation::Dama.square_name(g, sq), dama.to_string());
            assert_eq!(parse_algebraic(g, vismin), Some((sq, Orientation::Vismin)));
            assert_eq!(parse_algebraic(g, luzon), Some((sq, Orientation::Luzon)));
            let pair = dama_squares(dama).unwrap();
            assert!(pair.contains(&sq));
            assert_eq!(pair[0].label() + pair[1].label(), 33);
        }
    }
}
