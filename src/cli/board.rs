//! Text diagrams of positions for terminal output.

use crate::notation::Notation;
use crate::rules::{Color, Geometry, Position, Square};

/// Piece letters: `w`/`W` white man/king, `b`/`B` black man/king.
fn piece_char(position: &Position, square: Square) -> char {
    match position.piece_at(square) {
        None => '.',
        Some(p) => match (p.color, p.king) {
            (Color::White, false) => 'w',
            (Color::White, true) => 'W',
            (Color::Black, false) => 'b',
            (Color::Black, true) => 'B',
        },
    }
}

/// A small board, White at the bottom: ranks on the left, the numbers of
/// each row's squares on the right, files underneath in the notation's
/// orientation (mirrored for the Luzon board).
pub fn diagram(position: &Position, geometry: &Geometry, notation: Notation) -> String {
    let (width, height) = (geometry.width() as i32, geometry.height() as i32);
    let mirrored = notation == Notation::Luzon;
    let mut out = String::new();
    for row in 0..height {
        out.push_str(&format!("  {:>2} ", height - row));
        let mut labels = Vec::new();
        for col in 0..width {
            let board_col = if mirrored { width - 1 - col } else { col };
            match geometry.at(row, board_col) {
                Some(square) => {
                    out.push(piece_char(position, square));
                    labels.push(notation.square_name(geometry, square));
                }
                None => out.push(' '),
            }
            out.push(' ');
        }
        out.push_str(&format!("  {}", labels.join(" ")));
        out.push('\n');
    }
    out.push_str("     ");
    for col in 0..width {
        out.push((b'a' + col as u8) as char);
        out.push(' ');
    }
    out.push_str(&format!(
        "  {} to move\n",
        match position.side() {
            Color::White => "White",
            Color::Black => "Black",
        }
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn initial_position_diagram() {
        let rules = Rules::default();
        let p = Position::initial(&rules);
        let text = diagram(&p, rules.geometry, Notation::Numeric);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[0], "   8   b   b   b   b   1 2 3 4");
        assert_eq!(lines[7], "   1 w   w   w   w     29 30 31 32");
        assert!(lines[8].contains("a b c d e f g h") && lines[8].ends_with("White to move"));
        let luzon = diagram(&p, rules.geometry, Notation::Luzon);
        assert!(
            luzon
                .lines()
                .nth(7)
                .unwrap()
                .starts_with("   1   w   w   w   w"),
            "{luzon}"
        );
    }
}
