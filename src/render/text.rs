//! The Unicode board for terminals.
//!
//! White at the bottom; `○` `●` men, `◎` `◉` kings (white, black). Empty
//! playing squares show their number in numeric and Dama notation, `·` in
//! algebraic notation, where files and ranks run along the edges (the
//! Luzon board drawn mirrored). The move that led to the position is
//! bracketed: `[ ]` on its start and end squares, `( )` on landing squares
//! in between, `×` where it captured. With colour (a terminal), the marks
//! are also coloured; without, the text has no escape codes.

use std::fmt::Write as _;

use super::board::{Board, Mark, arrow_colour};
use crate::rules::{Color, Piece, Square};

/// The glyph of a piece.
pub fn glyph(piece: Piece) -> char {
    match (piece.color, piece.king) {
        (Color::White, false) => '○',
        (Color::White, true) => '◎',
        (Color::Black, false) => '●',
        (Color::Black, true) => '◉',
    }
}

/// The legend of the glyphs, one line.
pub const LEGEND: &str = "○ white man  ◎ white king  ● black man  ◉ black king";

const MARKED: &str = "\x1b[1;33m";
const CAPTURED: &str = "\x1b[1;31m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// Width of one cell in characters.
const CELL: usize = 3;

/// The board as lines of text, ending with a newline; `colour` adds ANSI
/// colours to the marks (only for a terminal).
pub fn render(board: &Board, colour: bool) -> String {
    let algebraic = board.algebraic();
    let rule = "─".repeat(CELL * board.geometry.width() as usize);
    let mut out = String::new();
    if algebraic {
        let _ = writeln!(out, "{}", files_line(board));
    }
    let _ = writeln!(out, "    ┌{rule}┐");
    for row in 0..board.geometry.height() {
        write_row(&mut out, board, row, colour);
    }
    let _ = writeln!(out, "    └{rule}┘");
    if algebraic {
        let _ = writeln!(out, "{}", files_line(board));
    }
    write_footer(&mut out, board);
    out
}

/// The file letters along the top or bottom edge of an algebraic board.
fn files_line(board: &Board) -> String {
    let mut line = String::from("    ");
    for file in board.files() {
        let _ = write!(line, " {file} ");
    }
    line.trim_end().to_string()
}

/// One row of the board between its edges, then its rank (algebraic) or
/// the names of its playing squares (numeric), and a newline.
fn write_row(out: &mut String, board: &Board, row: u32, colour: bool) {
    let algebraic = board.algebraic();
    let rank = board.geometry.height() - row;
    if algebraic {
        let _ = write!(out, " {rank:>2} │");
    } else {
        out.push_str("    │");
    }
    let mut names = Vec::new();
    for col in 0..board.geometry.width() {
        let Some(square) = board.square_at(row, col) else {
            out.push_str(&" ".repeat(CELL));
            continue;
        };
        let name = board.square_name(square);
        out.push_str(&cell(board, square, &name, colour));
        names.push(name);
    }
    out.push('│');
    if algebraic {
        let _ = write!(out, " {rank}");
    } else {
        let names: Vec<String> = names.iter().map(|n| format!("{n:>2}")).collect();
        let _ = write!(out, " {}", names.join(" "));
    }
    out.push('\n');
}

/// One playing square's cell (`name`: the square as the board names it):
/// its piece or mark, bracketed and painted as its mark says.
fn cell(board: &Board, square: Square, name: &str, colour: bool) -> String {
    let algebraic = board.algebraic();
    let mark = board.mark(square);
    let piece = board.position.piece_at(square);
    let inner = match (piece, mark) {
        (Some(p), _) => glyph(p).to_string(),
        (None, Mark::Captured) => "×".to_string(),
        (None, Mark::None) if !algebraic => String::new(),
        (None, _) => "·".to_string(),
    };
    let cell = match mark {
        Mark::From | Mark::To => format!("[{inner}]"),
        Mark::Path => format!("({inner})"),
        _ if inner.is_empty() => format!("{name:>2} "),
        _ => format!(" {inner} "),
    };
    let paint = |code: &str, text: &str| {
        if colour {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    };
    match mark {
        Mark::From | Mark::To | Mark::Path => paint(MARKED, &cell),
        Mark::Captured => paint(CAPTURED, &cell),
        Mark::None if piece.is_none() && !algebraic => paint(DIM, &cell),
        Mark::None => cell,
    }
}

/// The lines under the board: the side to move with the legend, the last
/// move, and one line per arrow.
fn write_footer(out: &mut String, board: &Board) {
    let side = match board.position.side() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let _ = writeln!(out, "    {side} to move    {LEGEND}");
    if let Some(mv) = &board.last_move {
        let legal = [*mv];
        let written = crate::notation::write_move_among(mv, &legal, board.notation, board.geometry);
        let _ = writeln!(out, "    last move [{written}]");
    }
    for (i, arrow) in board.arrows.iter().enumerate() {
        let _ = writeln!(
            out,
            "    arrow {} ({}): {}",
            i + 1,
            arrow_colour(i).1,
            arrow.label
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{Notation, parse_fen};
    use crate::rules::{Position, Rules};

    fn dama_69() -> (Rules, Position) {
        let rules = Rules::default();
        let setup = parse_fen("B:WK6,30:B3,K18,21,K31").unwrap();
        (rules, Position::from_setup(&setup, &rules).unwrap())
    }

    #[test]
    fn numeric_board_shows_numbers_and_pieces() {
        let (rules, p) = dama_69();
        let text = render(&Board::new(p, rules.geometry, Notation::Numeric), false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("    ┌{}┐", "─".repeat(24)));
        // Row 1: 1 2 ● 4 (black man on 3).
        assert!(
            lines[1].starts_with("    │    1     2     ●     4 │"),
            "{text}"
        );
        assert!(lines[1].ends_with("│  1  2  3  4"), "{text}");
        // Black kings on 18 and 31, white king on 6, white man on 30.
        assert_eq!(text.matches('◉').count(), 2 + 1, "two kings and the legend");
        assert_eq!(text.matches('◎').count(), 1 + 1);
        assert_eq!(text.matches('○').count(), 1 + 1);
        assert_eq!(text.matches('●').count(), 2 + 1);
        assert!(text.contains("Black to move"));
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn last_move_is_bracketed_and_coloured_on_request() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let mv = *start
            .legal_moves(&rules)
            .iter()
            .find(|m| m.full_numeric() == "22-18")
            .unwrap();
        let mut board = Board::new(start.play(&mv), rules.geometry, Notation::Vismin);
        board.last_move = Some(mv);
        let text = render(&board, false);
        assert!(text.contains("[·]") && text.contains("[○]"), "{text}");
        assert!(text.contains("last move [c3-d4]"), "{text}");
        assert!(
            text.lines()
                .next()
                .unwrap()
                .trim_start()
                .starts_with("a  b  c")
        );
        let coloured = render(&board, true);
        assert!(coloured.contains("\x1b[1;33m[○]\x1b[0m"));
    }

    #[test]
    fn luzon_board_is_mirrored() {
        let rules = Rules::default();
        let p = Position::initial(&rules);
        let text = render(&Board::new(p, rules.geometry, Notation::Luzon), false);
        let rank1 = text.lines().find(|l| l.starts_with("  1 ")).unwrap();
        assert!(rank1.starts_with("  1 │    ○     ○  "), "{text}");
        let vismin = render(&Board::new(p, rules.geometry, Notation::Vismin), false);
        let rank1 = vismin.lines().find(|l| l.starts_with("  1 ")).unwrap();
        assert!(rank1.starts_with("  1 │ ○     ○    "), "{vismin}");
    }

    #[test]
    fn captures_show_where_pieces_were_taken() {
        let rules = Rules::default();
        let setup = parse_fen("W:W22:B18").unwrap();
        let p = Position::from_setup(&setup, &rules).unwrap();
        let mv = p.legal_moves(&rules)[0];
        let mut board = Board::new(p.play(&mv), rules.geometry, Notation::Dama);
        board.last_move = Some(mv);
        let text = render(&board, false);
        assert!(text.contains(" × "), "{text}");
        assert_eq!(text.matches("[").count(), 2 + 1, "from, to, last move line");
    }
}
