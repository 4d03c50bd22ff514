//! Which legal moves fit a written move.
//!
//! A written move is a list of squares, each given as the set of squares it
//! may name (one square in numeric or algebraic notation, two in the Dama
//! notation). It fits a legal move when its first square is the move's start,
//! its last square the move's end, and every square written in between is,
//! in order, a landing square of one route of that move.

use super::board::Bitboard;
use super::movegen::Move;
use super::position::Position;
use super::variant::Rules;

/// The legal moves of `position` that fit `written`, in generation order.
/// Fewer than two written squares fit nothing.
pub fn fitting_moves(rules: &Rules, position: &Position, written: &[Bitboard]) -> Vec<Move> {
    let mut fitting = Vec::new();
    fitting_moves_into(rules, position, written, &mut fitting);
    fitting
}

/// [`fitting_moves`] into `fitting` (cleared first), so that a caller in a
/// loop allocates nothing.
pub fn fitting_moves_into(
    rules: &Rules,
    position: &Position,
    written: &[Bitboard],
    fitting: &mut Vec<Move>,
) {
    fitting.clear();
    let (Some(&first), Some(&last)) = (written.first(), written.last()) else {
        return;
    };
    if written.len() < 2 {
        return;
    }
    position.legal_moves_between_into(rules, first, last, fitting);
    let middle = &written[1..written.len() - 1];
    if middle.is_empty() {
        return;
    }
    fitting.retain(|m| {
        m.is_capture()
            && position.any_route_of(rules, m, |landings| passes_through(landings, middle))
    });
}

/// Whether the written middle squares are, in order, among `landings`
/// (a route's landing squares before its end).
fn passes_through(landings: &[Bitboard], middle: &[Bitboard]) -> bool {
    let mut wanted = middle.iter().peekable();
    for &landing in landings {
        match wanted.peek() {
            Some(&&set) if set & landing != 0 => {
                wanted.next();
            }
            Some(_) => {}
            None => break,
        }
    }
    wanted.peek().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Piece, Setup, Square};

    fn bits(labels: &[u32]) -> Bitboard {
        labels
            .iter()
            .fold(0, |b, &l| b | Square::new(l).unwrap().bit())
    }

    #[test]
    fn plain_moves_fit_by_start_and_end() {
        let rules = Rules::default();
        let p = Position::initial(&rules);
        let fit = fitting_moves(&rules, &p, &[bits(&[23]), bits(&[18])]);
        assert_eq!(fit.len(), 1);
        assert_eq!(fit[0].short_numeric(), "23-18");
        // A Dama number names two squares: "2-15" is 23-18 for White.
        let fit = fitting_moves(&rules, &p, &[bits(&[23, 10]), bits(&[18, 15])]);
        assert_eq!(fit.len(), 1);
        assert!(fitting_moves(&rules, &p, &[bits(&[23])]).is_empty());
        assert!(fitting_moves(&rules, &p, &[bits(&[23]), bits(&[19]), bits(&[15])]).is_empty());
    }

    #[test]
    fn middle_squares_choose_between_routes() {
        // W:WKc1:Bd2,b4,d4,e5,f6,g7 in numeric: king 30; black 26, 17, 18, 15, 11, 8.
        let rules = Rules::default();
        let mut pieces = vec![(
            30,
            Piece {
                color: Color::White,
                king: true,
            },
        )];
        for s in [26, 17, 18, 15, 11, 8] {
            pieces.push((
                s,
                Piece {
                    color: Color::Black,
                    king: false,
                },
            ));
        }
        let p = Position::from_setup(
            &Setup {
                side: Some(Color::White),
                pieces,
                ..Setup::default()
            },
            &rules,
        )
        .unwrap();
        // c1xa3 is 30x21: four different moves.
        assert_eq!(
            fitting_moves(&rules, &p, &[bits(&[30]), bits(&[21])]).len(),
            4
        );
        // c1xe3xc5xa3 is 30x23x14x21: the written squares pick one of them.
        let fit = fitting_moves(
            &rules,
            &p,
            &[bits(&[30]), bits(&[23]), bits(&[14]), bits(&[21])],
        );
        assert_eq!(fit.len(), 1);
        assert_eq!(fit[0].full_numeric(), "30x23x14x21");
        // A partial path: only the first landing written (f4 = 19).
        let fit = fitting_moves(&rules, &p, &[bits(&[30]), bits(&[19]), bits(&[21])]);
        assert_eq!(fit.len(), 1);
    }
}
