//! When a game can no longer fit a pattern because the men it needs have
//! gone past: under rules where men never move or capture backwards
//! (English, Italian, Czech, Spanish), a search stops replaying a game
//! there.
//!
//! # Never a match dropped
//!
//! Under such rules a man only ever goes forward: a plain move takes it
//! one row forward, a capture two rows forward per piece taken (a man may
//! not jump backwards nor, on the 8×8 boards, sideways), and a man is
//! never put on the board during a game (a crowned man becomes a king, a
//! captured one leaves). So the row of every man of a side, counted from
//! that side's own edge, never decreases, and a man of that side standing
//! in a later position stood, in every earlier position, on its own row
//! or on one nearer to its side's edge.
//!
//! Let a pattern require a man of colour `c` on square `t` (in its
//! conditions that must all hold, or in a condition of a group). Call
//! `behind(c, t)` the squares on `t`'s row and on the rows between it and
//! `c`'s own edge. If a position `P` has no man of `c` on `behind(c, t)`,
//! no later position has a man of `c` on `t`: that man would have stood
//! on `behind(c, t)` in `P` by the above. Of several required squares,
//! the one nearest `c`'s edge has the smallest `behind` set, and the
//! others' sets contain it (they are whole rows), so testing that one
//! set tests them all. A group of conditions can no longer hold when
//! each of its conditions requires such a man and cannot; a condition
//! of another kind (a king, a piece of either kind, an empty square, a
//! condition that must not hold) is never counted out. [`Passed::test`]
//! is true only when one of these holds, so no later position of the
//! game fits; the scan's brute-force tests compare its answers with every
//! game replayed to the end under these rules.

use crate::rules::{Bitboard, Color, Geometry, Position, Rules, squares};

use super::class::PieceClass;
use super::spec::{Cond, Pattern};

/// The men a pattern needs, for telling when they have gone past.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Passed {
    /// The pattern's board.
    geometry: &'static Geometry,
    /// White's, then Black's: the squares one man of that colour must
    /// stand on for the pattern's required men to be reachable (0: none
    /// required).
    must: [Bitboard; 2],
    /// Per group whose every condition requires men: each condition's
    /// colour and squares, as for `must`.
    groups: Vec<Vec<(usize, Bitboard)>>,
}

impl Passed {
    /// What `pattern` needs.
    pub(super) fn of(pattern: &Pattern) -> Passed {
        let g = pattern.geometry;
        let must = [
            behind(g, Color::White, pattern.must[PieceClass::WhiteMan.slot()]),
            behind(g, Color::Black, pattern.must[PieceClass::BlackMan.slot()]),
        ];
        let groups = pattern
            .any_of
            .iter()
            .filter_map(|group| group.iter().map(|c| men_needed(g, c)).collect())
            .collect();
        Passed {
            geometry: g,
            must,
            groups,
        }
    }

    /// Whether no position after `position` (included) of a game under
    /// `rules` can fit the pattern (see the [module](self)); false when
    /// the rules let men go backwards or are of another board.
    #[inline]
    pub(super) fn test(&self, position: &Position, rules: &Rules) -> bool {
        if rules.men_capture_backward
            || rules.orthogonal_captures
            || !std::ptr::eq(rules.geometry, self.geometry)
        {
            return false;
        }
        let men = [
            position.pieces(Color::White) & !position.kings(),
            position.pieces(Color::Black) & !position.kings(),
        ];
        let gone = |(colour, need): (usize, Bitboard)| need != 0 && men[colour] & need == 0;
        self.must.iter().copied().enumerate().any(gone)
            || self
                .groups
                .iter()
                .any(|group| group.iter().copied().all(gone))
    }
}

/// The colour and `behind` squares of a condition that requires men;
/// `None` for any other.
fn men_needed(g: &Geometry, cond: &Cond) -> Option<(usize, Bitboard)> {
    let colour = match cond.class {
        _ if cond.negated || cond.squares == 0 => return None,
        PieceClass::WhiteMan => Color::White,
        PieceClass::BlackMan => Color::Black,
        _ => return None,
    };
    Some((colour as usize, behind(g, colour, cond.squares)))
}

/// The squares on the row of the square of `targets` nearest `colour`'s
/// edge, and on the rows between it and that edge; 0 when `targets` is.
fn behind(g: &Geometry, colour: Color, targets: Bitboard) -> Bitboard {
    // White's edge is the bottom row (the highest row number), Black's the
    // top row (row 0).
    let rows = squares(targets).map(|s| g.row(s));
    let Some(row) = (match colour {
        Color::White => rows.max(),
        Color::Black => rows.min(),
    }) else {
        return 0;
    };
    squares(g.all())
        .filter(|&s| match colour {
            Color::White => g.row(s) >= row,
            Color::Black => g.row(s) <= row,
        })
        .fold(0, |set, s| set | s.bit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::Preset;

    #[test]
    fn men_past_the_squares_a_pattern_needs_end_the_game_for_it() {
        let rules = Preset::English.rules();
        let at = |fen: &str| {
            Position::from_setup(&parse_fen_on(fen, rules.geometry).unwrap(), &rules).unwrap()
        };
        let passed = |p: &str| Passed::of(&Pattern::parse(p, &rules).unwrap());
        // White men go up (towards square 1), Black men down.
        let white = passed("W22");
        assert!(!white.test(&at("W:W25,18:B3"), &rules));
        assert!(!white.test(&at("W:W24,18:B3"), &rules));
        assert!(white.test(&at("W:W18,K30:B3"), &rules));
        let black = passed("B11,14");
        assert!(!black.test(&at("W:W25:B12,20"), &rules));
        assert!(black.test(&at("W:W25:B15,K3"), &rules));
        // Kings and pieces of either kind are never ruled out.
        assert!(!passed("WK22").test(&at("W:W18:B3"), &rules));
        assert!(!passed("X22").test(&at("W:W18:B3"), &rules));
        // A group is out when each of its conditions is.
        assert!(passed("(W22|B11)").test(&at("W:W18:B15"), &rules));
        assert!(!passed("(W22|B11)").test(&at("W:W18:B7"), &rules));
        assert!(!passed("(W22|BK11)").test(&at("W:W18:B15"), &rules));
        // Not where men capture backwards.
        let filipino = Preset::Filipino.rules();
        assert!(!white.test(&at("W:W18,K30:B3"), &filipino));
    }
}
