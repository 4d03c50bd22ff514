//! Algebraic squares (a1..h8) on the Vismin and Luzon boards.

use std::fmt;

use crate::rules::{Geometry, Square};

/// Which way an algebraic board is lettered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// Files a..h left to right as White sees the board; a1 is a playing square.
    Vismin,
    /// The mirror image: files h..a left to right; h1 is a playing square.
    Luzon,
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Orientation::Vismin => "vismin",
            Orientation::Luzon => "luzon",
        })
    }
}

/// The algebraic name of a square on a board of the given orientation.
pub fn algebraic_name(geometry: &Geometry, square: Square, orientation: Orientation) -> String {
    let col = geometry.col(square);
    let file = match orientation {
        Orientation::Vismin => col,
        Orientation::Luzon => geometry.width() - 1 - col,
    };
    let rank = geometry.height() - geometry.row(square);
    format!("{}{}", (b'a' + file as u8) as char, rank)
}

/// The square an algebraic name denotes and the orientation it belongs to:
/// each dark square is a playing square on exactly one of the two boards.
/// `None` when the text is not a square of this board.
pub fn parse_algebraic(geometry: &Geometry, name: &str) -> Option<(Square, Orientation)> {
    let bytes = name.as_bytes();
    let (&letter, digits) = bytes.split_first()?;
    let letter = letter.to_ascii_lowercase();
    if !letter.is_ascii_lowercase()
        || digits.is_empty()
        || digits.len() > 2
        || !digits.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let file = (letter - b'a') as i32;
    let rank: i32 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    locate(geometry, file, rank)
}

/// The square at 0-based `file` and 1-based `rank`, with its orientation.
pub(crate) fn locate(geometry: &Geometry, file: i32, rank: i32) -> Option<(Square, Orientation)> {
    let row = geometry.height() as i32 - rank;
    if let Some(square) = geometry.at(row, file) {
        return Some((square, Orientation::Vismin));
    }
    let mirrored = geometry.width() as i32 - 1 - file;
    geometry
        .at(row, mirrored)
        .map(|square| (square, Orientation::Luzon))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luzon_is_the_mirror_of_vismin() {
        let g = Geometry::standard();
        // Luzon d3-e4 is Vismin e3-d4, numeric 23-18.
        assert_eq!(parse_algebraic(g, "d3").unwrap().0.label(), 23);
        assert_eq!(parse_algebraic(g, "e3").unwrap().0.label(), 23);
        assert_eq!(parse_algebraic(g, "e4").unwrap().0.label(), 18);
        assert_eq!(parse_algebraic(g, "d4").unwrap().0.label(), 18);
        assert_eq!(parse_algebraic(g, "a1").unwrap().1, Orientation::Vismin);
        assert_eq!(
            parse_algebraic(g, "h1").unwrap(),
            (Square::new(29).unwrap(), Orientation::Luzon)
        );
        assert_eq!(parse_algebraic(g, "A1").unwrap().0.label(), 29);
    }

    #[test]
    fn off_board_names_are_refused() {
        let g = Geometry::standard();
        for bad in ["i1", "a9", "a0", "a", "1a", "a123", "", "é1"] {
            assert_eq!(parse_algebraic(g, bad), None, "{bad}");
        }
    }
}
