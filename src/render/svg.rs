//! The board as SVG: a standalone document (`show --svg`) or an inline
//! picture that reuses definitions written once per page (the HTML report).
//!
//! The squares are one rectangle filled with a pattern, the pieces and the
//! coordinates are `<use>` references to shared definitions, so a board
//! costs a few hundred bytes beyond its pieces and arrows. Elements carry
//! classes a program can count: `piece wm`/`wk`/`bm`/`bk`, `arrow`,
//! `last-move`.

use std::fmt::Write as _;

use super::board::{Board, Mark, arrow_colour, captured_squares};
use super::markup::escape;
use crate::notation::Notation;
use crate::rules::{Color, Corner, Geometry, Numbering, Square};

/// Side of one square in SVG units.
pub const SQUARE: f64 = 50.0;
/// Margin around the board for coordinates.
const MARGIN: f64 = 24.0;
/// Height of one legend line.
const LEGEND_LINE: f64 = 22.0;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#a9744f";
const HIGHLIGHT: &str = "#f5d90a";

/// Where the shared definitions come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defs {
    /// Written inside this picture (a standalone SVG file).
    Inline,
    /// Written once elsewhere on the page by [`shared_defs`].
    Shared,
}

/// Id prefix of every shared definition.
const ID: &str = "pdndb";

/// A number for SVG: at most one decimal.
fn n(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded:.1}")
    }
}

/// The name of the definition that labels squares for this notation and
/// board (numbers on the squares, or files and ranks on the edges): its
/// size, and for boards other than the usual one, its playing corner and
/// numbering (`8x8-right-from-bottom` for the Spanish board).
fn labels_id(notation: Notation, geometry: &Geometry, flipped: bool) -> String {
    let corner = match geometry.corner() {
        Corner::Left => "",
        Corner::Right => "-right",
    };
    let numbering = match geometry.numbering() {
        Numbering::FromTop => "",
        Numbering::FromBottom => "-from-bottom",
    };
    let turned = if flipped { "-flipped" } else { "" };
    format!(
        "{ID}-labels-{}-{}x{}{corner}{numbering}{turned}",
        notation.name(),
        geometry.width(),
        geometry.height()
    )
}

/// The definitions boards refer to: square patterns, pieces, and the
/// square labels of each given notation for the given board shapes.
pub fn defs(layouts: &[(Notation, &'static Geometry)]) -> String {
    let layouts: Vec<_> = layouts.iter().map(|&(n, g)| (n, g, false)).collect();
    defs_turned(&layouts)
}

/// [`defs`] for boards that may be drawn flipped.
fn defs_turned(layouts: &[(Notation, &'static Geometry, bool)]) -> String {
    let s = n(SQUARE);
    let d = n(2.0 * SQUARE);
    let mut out = String::from("<defs>");
    for (suffix, dark) in [
        ("v", format!("M{s} 0h{s}v{s}h-{s}zM0 {s}h{s}v{s}h-{s}z")),
        ("l", format!("M0 0h{s}v{s}h-{s}zM{s} {s}h{s}v{s}h-{s}z")),
    ] {
        let _ = write!(
            out,
            r#"<pattern id="{ID}-squares-{suffix}" width="{d}" height="{d}" patternUnits="userSpaceOnUse"><rect width="{d}" height="{d}" fill="{LIGHT}"/><path d="{dark}" fill="{DARK}"/></pattern>"#
        );
    }
    let r = n(SQUARE * 0.38);
    let inner = n(SQUARE * 0.27);
    let _ = write!(
        out,
        concat!(
            r##"<g id="{id}-wm"><circle r="{r}" fill="#fbf8f0" stroke="#2b2118" stroke-width="2"/><circle r="{inner}" fill="none" stroke="#b9ad96" stroke-width="1.5"/></g>"##,
            r##"<g id="{id}-bm"><circle r="{r}" fill="#262626" stroke="#000" stroke-width="2"/><circle r="{inner}" fill="none" stroke="#5a5a5a" stroke-width="1.5"/></g>"##,
            r##"<path id="{id}-crown" d="M-10 6L-12-6L-5 0L0-9L5 0L12-6L10 6Z" stroke-width="1.2" stroke-linejoin="round"/>"##,
            r##"<g id="{id}-wk"><use href="#{id}-wm"/><use href="#{id}-crown" fill="#d4a017" stroke="#6b5410"/></g>"##,
            r##"<g id="{id}-bk"><use href="#{id}-bm"/><use href="#{id}-crown" fill="#f2c94c" stroke="#fff6d5"/></g>"##,
        ),
        id = ID,
        r = r,
        inner = inner
    );
    let mut seen = Vec::new();
    for &(notation, geometry, flipped) in layouts {
        let id = labels_id(notation, geometry, flipped);
        if seen.contains(&id) {
            continue;
        }
        let _ = write!(
            out,
            r#"<g id="{id}">{}</g>"#,
            labels(notation, geometry, flipped)
        );
        seen.push(id);
    }
    out.push_str("</defs>");
    out
}

/// The definitions for every notation on the 8×8 board of Dama.
pub fn shared_defs() -> String {
    let g = Geometry::standard();
    let layouts: Vec<(Notation, &'static Geometry)> = Notation::ALL
        .iter()
        .map(|&notation| (notation, g))
        .collect();
    defs(&layouts)
}

/// The coordinates of a board, in its own user space (board origin at
/// the top left corner of the squares).
fn labels(notation: Notation, geometry: &'static Geometry, flipped: bool) -> String {
    let mut board = Board::new(
        crate::rules::Position::initial(&crate::rules::Rules::default()),
        geometry,
        notation,
    );
    board.flipped = flipped;
    let (w, h) = (geometry.width(), geometry.height());
    let mut out = String::new();
    if board.algebraic() {
        out.push_str(
            r##"<g font-family="sans-serif" font-size="13" fill="#4a3b2c" text-anchor="middle">"##,
        );
        for (col, file) in board.files().into_iter().enumerate() {
            let x = n((col as f64 + 0.5) * SQUARE);
            let _ = write!(
                out,
                r#"<text x="{x}" y="{}">{file}</text><text x="{x}" y="-8">{file}</text>"#,
                n(h as f64 * SQUARE + 17.0)
            );
        }
        for row in 0..h {
            let y = n((row as f64 + 0.5) * SQUARE + 4.5);
            let rank = board.rank(row);
            let _ = write!(
                out,
                r#"<text x="-12" y="{y}">{rank}</text><text x="{}" y="{y}">{rank}</text>"#,
                n(w as f64 * SQUARE + 12.0)
            );
        }
    } else {
        out.push_str(
            r##"<g font-family="sans-serif" font-size="11" fill="#fff4dc" stroke="#6b4528" stroke-width="2.5" stroke-linejoin="round" paint-order="stroke">"##,
        );
        for row in 0..h {
            for col in 0..w {
                if let Some(square) = board.square_at(row, col) {
                    let _ = write!(
                        out,
                        r#"<text x="{}" y="{}">{}</text>"#,
                        n(col as f64 * SQUARE + 3.0),
                        n(row as f64 * SQUARE + 11.0),
                        escape(&board.square_name(square))
                    );
                }
            }
        }
    }
    out.push_str("</g>");
    out
}

/// The centre of a square in board coordinates.
fn centre(board: &Board, square: Square) -> (f64, f64) {
    let (row, col) = board.cell(square);
    ((col as f64 + 0.5) * SQUARE, (row as f64 + 0.5) * SQUARE)
}

/// The board as an `<svg>` element (no XML declaration); `title` names it
/// for screen readers and tooltips.
pub fn render(board: &Board, defs_from: Defs, title: &str) -> String {
    let geometry = board.geometry;
    let (bw, bh) = (
        geometry.width() as f64 * SQUARE,
        geometry.height() as f64 * SQUARE,
    );
    let mut out = String::new();
    write_open(&mut out, board, defs_from, title, (bw, bh));
    if let Some(mv) = &board.last_move {
        write_last_move(&mut out, board, mv);
    }
    write_pieces(&mut out, board);
    // Square names over the pieces (outlined, so they read on either colour).
    let _ = write!(
        out,
        r##"<use href="#{}"/>"##,
        labels_id(board.notation, geometry, board.flipped)
    );
    write_arrows(&mut out, board);
    if board.clickable {
        out.push_str(&click_targets(board));
    }
    out.push_str("</g>");
    write_legend(&mut out, board, bh);
    out.push_str("</svg>");
    out
}

/// The `<svg>` start tag with its title, the definitions when inline, the
/// board group and the squares (`size`: the board's width and height).
fn write_open(out: &mut String, board: &Board, defs_from: Defs, title: &str, size: (f64, f64)) {
    let (bw, bh) = size;
    let legend_lines = board.arrows.len() + usize::from(board.last_move.is_some());
    let width = bw + 2.0 * MARGIN;
    let height = bh + 2.0 * MARGIN + legend_lines as f64 * LEGEND_LINE;
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img"><title>{title}</title>"#,
        w = n(width),
        h = n(height),
        title = escape(title)
    );
    if defs_from == Defs::Inline {
        out.push_str(&defs_turned(&[(
            board.notation,
            board.geometry,
            board.flipped,
        )]));
    }
    let _ = write!(out, r#"<g transform="translate({m} {m})">"#, m = n(MARGIN));
    // "l": the top-left square of the drawing is a playing square.
    let pattern = if board.square_at(0, 0).is_some() {
        "l"
    } else {
        "v"
    };
    let _ = write!(
        out,
        r##"<rect width="{w}" height="{h}" fill="url(#{ID}-squares-{pattern})" stroke="#5b3a21" stroke-width="2"/>"##,
        w = n(bw),
        h = n(bh)
    );
}

/// The last move: start and end squares highlighted, landing squares
/// lightly, captured squares crossed.
fn write_last_move(out: &mut String, board: &Board, mv: &crate::rules::Move) {
    out.push_str(r#"<g class="last-move">"#);
    let mut squares: Vec<Square> = vec![mv.from()];
    squares.extend(mv.path());
    squares.extend(captured_squares(mv));
    for square in squares {
        let (row, col) = board.cell(square);
        let (x, y) = (col as f64 * SQUARE, row as f64 * SQUARE);
        match board.mark(square) {
            Mark::From | Mark::To => write_highlight(out, x, y, "0.55"),
            Mark::Path => write_highlight(out, x, y, "0.3"),
            Mark::Captured => {
                let (a, b) = (SQUARE * 0.3, SQUARE * 0.7);
                let _ = write!(
                    out,
                    r##"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="#b3261e" stroke-width="3" stroke-linecap="round"/>"##,
                    n(x + a),
                    n(y + a),
                    n(x + b),
                    n(y + b),
                    n(x + b),
                    n(y + a),
                    n(x + a),
                    n(y + b)
                );
            }
            Mark::None => {}
        }
    }
    out.push_str("</g>");
}

/// One highlighted square with its top left corner at `x`, `y`.
fn write_highlight(out: &mut String, x: f64, y: f64, opacity: &str) {
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{s}" height="{s}" fill="{HIGHLIGHT}" fill-opacity="{opacity}"/>"#,
        n(x),
        n(y),
        s = n(SQUARE)
    );
}

/// A `<use>` of the right piece definition on every occupied square.
fn write_pieces(out: &mut String, board: &Board) {
    for square in crate::rules::squares(board.position.occupied()) {
        let Some(piece) = board.position.piece_at(square) else {
            continue;
        };
        let kind = match (piece.color, piece.king) {
            (Color::White, false) => "wm",
            (Color::White, true) => "wk",
            (Color::Black, false) => "bm",
            (Color::Black, true) => "bk",
        };
        let (x, y) = centre(board, square);
        let _ = write!(
            out,
            r##"<use class="piece {kind}" href="#{ID}-{kind}" x="{}" y="{}"/>"##,
            n(x),
            n(y)
        );
    }
}

/// One arrow group per candidate move, named by its full numeric move.
fn write_arrows(out: &mut String, board: &Board) {
    let count = board.arrows.len();
    for (i, arrow) in board.arrows.iter().enumerate() {
        let (colour, _) = arrow_colour(i);
        // Side by side when there are several, so shared squares stay readable.
        let shift = if count > 1 {
            (i as f64 - (count as f64 - 1.0) / 2.0) * 7.0
        } else {
            0.0
        };
        let mut points: Vec<(f64, f64)> = vec![centre(board, arrow.mv.from())];
        points.extend(arrow.mv.path().map(|s| centre(board, s)));
        for p in &mut points {
            p.0 += shift;
        }
        let _ = write!(
            out,
            r#"<g class="arrow" data-move="{}" fill="{colour}" stroke="{colour}"><title>{}</title>"#,
            escape(&arrow.mv.full_numeric()),
            escape(&arrow.label)
        );
        out.push_str(&arrow_shapes(&points));
        out.push_str("</g>");
    }
}

/// The legend under the board (`bh`: the board's height): the last move,
/// then one line per arrow in its colour.
fn write_legend(out: &mut String, board: &Board, bh: f64) {
    let mut y = bh + 2.0 * MARGIN + LEGEND_LINE * 0.5;
    if let Some(mv) = &board.last_move {
        let _ = write!(
            out,
            r##"<rect class="legend" x="{}" y="{}" width="24" height="14" fill="{HIGHLIGHT}" fill-opacity="0.7" stroke="#8a7a00"/>"##,
            n(MARGIN),
            n(y - 7.0)
        );
        let written = crate::notation::write_move_among(mv, &[*mv], board.notation, board.geometry);
        write_legend_text(out, y, &format!("last move {written}"));
        y += LEGEND_LINE;
    }
    for (i, arrow) in board.arrows.iter().enumerate() {
        let (colour, _) = arrow_colour(i);
        let _ = write!(
            out,
            r#"<path class="legend" d="M{} {}h24" stroke="{colour}" stroke-width="6" stroke-linecap="round"/>"#,
            n(MARGIN + 2.0),
            n(y)
        );
        write_legend_text(out, y, &arrow.label);
        y += LEGEND_LINE;
    }
}

/// One legend line's text, beside its key at height `y`.
fn write_legend_text(out: &mut String, y: f64, text: &str) {
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-family="sans-serif" font-size="14" fill="#222">{}</text>"##,
        n(MARGIN + 34.0),
        n(y + 5.0),
        escape(text)
    );
}

/// A standalone SVG file: XML declaration, the picture with its own
/// definitions, a final newline.
pub fn document(board: &Board, title: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}\n",
        render(board, Defs::Inline, title)
    )
}

/// A transparent target over every playing square, naming it by number
/// (`data-square`) and as the board's notation writes it (`data-name`).
fn click_targets(board: &Board) -> String {
    let mut out = String::from(r#"<g class="squares">"#);
    for row in 0..board.geometry.height() {
        for col in 0..board.geometry.width() {
            if let Some(square) = board.square_at(row, col) {
                let _ = write!(
                    out,
                    r#"<rect class="sq" data-square="{}" data-name="{}" x="{}" y="{}" width="{s}" height="{s}" fill="transparent"/>"#,
                    square.label(),
                    escape(&board.square_name(square)),
                    n(col as f64 * SQUARE),
                    n(row as f64 * SQUARE),
                    s = n(SQUARE)
                );
            }
        }
    }
    out.push_str("</g>");
    out
}

/// The line and head of an arrow through `points` (at least one).
fn arrow_shapes(points: &[(f64, f64)]) -> String {
    const HEAD: f64 = 16.0;
    const HALF: f64 = 9.0;
    let (Some(&tip), Some(&before)) = (points.last(), points.iter().rev().nth(1)) else {
        return String::new();
    };
    let (dx, dy) = (tip.0 - before.0, tip.1 - before.1);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 1.0 {
        return String::new();
    }
    let (ux, uy) = (dx / length, dy / length);
    let base = (tip.0 - ux * HEAD, tip.1 - uy * HEAD);
    // The line leaves the moving piece at its rim, so the piece stays visible.
    let mut points = points.to_vec();
    let (sx, sy) = (points[1].0 - points[0].0, points[1].1 - points[0].1);
    let first = (sx * sx + sy * sy).sqrt();
    if first > SQUARE {
        points[0].0 += sx / first * SQUARE * 0.3;
        points[0].1 += sy / first * SQUARE * 0.3;
    }
    let mut line: Vec<String> = points[..points.len() - 1]
        .iter()
        .map(|(x, y)| format!("{},{}", n(*x), n(*y)))
        .collect();
    let end = (tip.0 - ux * HEAD * 0.7, tip.1 - uy * HEAD * 0.7);
    line.push(format!("{},{}", n(end.0), n(end.1)));
    format!(
        r#"<polyline points="{}" fill="none" stroke-width="6" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.9"/><polygon points="{},{} {},{} {},{}" stroke="none"/>"#,
        line.join(" "),
        n(tip.0),
        n(tip.1),
        n(base.0 - uy * HALF),
        n(base.1 + ux * HALF),
        n(base.0 + uy * HALF),
        n(base.1 - ux * HALF)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;
    use crate::rules::{Position, Rules};

    fn dama_69_board() -> Board {
        let rules = Rules::default();
        let setup = parse_fen("B:WK6,30:B3,K18,21,K31").unwrap();
        let p = Position::from_setup(&setup, &rules).unwrap();
        let picks: Vec<_> = p
            .legal_moves(&rules)
            .into_iter()
            .filter(|m| m.from().label() == 18 && [8, 25].contains(&m.to().label()))
            .collect();
        Board::new(p, rules.geometry, Notation::Dama).with_arrows(&rules, &picks)
    }

    #[test]
    fn standalone_svg_is_xml_with_pieces_and_arrows() {
        let svg = document(&dama_69_board(), "position 69 <Dama>");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let class = |c: &str| {
            doc.descendants()
                .filter(|e| {
                    e.attribute("class")
                        .is_some_and(|k| k.split(' ').any(|w| w == c))
                })
                .count()
        };
        assert_eq!(class("piece"), 6);
        assert_eq!(class("bk"), 2);
        assert_eq!(class("wk"), 1);
        assert_eq!(class("bm"), 2);
        assert_eq!(class("wm"), 1);
        assert_eq!(class("arrow"), 2);
        // Every reference resolves inside the document.
        for e in doc.descendants().filter(|e| e.has_tag_name("use")) {
            let target = e.attribute("href").unwrap().trim_start_matches('#');
            assert!(
                doc.descendants().any(|d| d.attribute("id") == Some(target)),
                "{target}"
            );
        }
        assert!(svg.contains("position 69 &lt;Dama&gt;"));
    }

    #[test]
    fn shared_boards_leave_the_definitions_out() {
        let board = dama_69_board();
        let inline = render(&board, Defs::Inline, "x");
        let shared = render(&board, Defs::Shared, "x");
        assert!(inline.contains("<defs>") && !shared.contains("<defs>"));
        assert!(shared.len() < 3000, "{}", shared.len());
        let all = shared_defs();
        for notation in Notation::ALL {
            assert!(all.contains(&labels_id(notation, Geometry::standard(), false)));
        }
    }

    #[test]
    fn numbers_keep_one_decimal() {
        assert_eq!(n(25.0), "25");
        assert_eq!(n(3.25), "3.3");
        assert_eq!(n(-7.5), "-7.5");
    }
}
