//! What a game's positions have in common, kept per game so that a search
//! can pass over games that cannot fit without replaying them.
//!
//! # Never a match dropped
//!
//! A [`Summary`] is built from every position a search would look at in
//! the game (or more): the squares where each side's men ever stood, the
//! squares where each side's kings ever stood, and the least and the most
//! of each count [`Material::counts`] gives. If a position `P` of the game
//! fits a pattern, each square the pattern requires to hold a white man
//! holds one in `P`, so it is among the white men's squares of the
//! summary (likewise for kings, black pieces, either colour and any
//! piece), and each count of `P` lies between the summary's least and
//! most of it. [`Criteria::may_fit`](super::Criteria::may_fit) tests
//! exactly these necessary conditions (of a group, at least one condition
//! must pass them; conditions that must not hold, and empty squares, are
//! not tested), so it is true for every game that has a fitting position.
//! The search replays the games it passes; the scan's brute-force test
//! compares its answers with every game replayed. What the game's moves
//! did is kept beside, for manoeuvres (see [`Played`]).

use crate::rules::{Bitboard, Color, Move, Position};

use super::class::PieceClass;
use super::material::Material;
use super::played::Played;
use super::spec::{Cond, Pattern};

/// The squares and counts a game's positions go through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Squares each side's men stood on, White's then Black's.
    pub men: [Bitboard; 2],
    /// Squares each side's kings stood on, White's then Black's.
    pub kings: [Bitboard; 2],
    /// The least of each count of [`Material::counts`].
    pub least: [u32; 6],
    /// The most of each count of [`Material::counts`].
    pub most: [u32; 6],
    /// What the game's moves did (see [`Played`]); `None` when not kept
    /// (a summary stored by an older pdndb) or not read (a search without
    /// manoeuvres), and then no manoeuvre is ruled out.
    pub played: Option<Played>,
}

impl Default for Summary {
    fn default() -> Summary {
        Summary::new()
    }
}

impl Summary {
    /// The summary of no position (that nothing fits).
    pub fn new() -> Summary {
        Summary {
            men: [0; 2],
            kings: [0; 2],
            least: [u32::MAX; 6],
            most: [0; 6],
            played: Some(Played::default()),
        }
    }

    /// Adds one position.
    pub fn add(&mut self, position: &Position) {
        let kings = position.kings();
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let ours = position.pieces(color);
            self.men[i] |= ours & !kings;
            self.kings[i] |= ours & kings;
        }
        for (k, n) in Material::counts(position).into_iter().enumerate() {
            self.least[k] = self.least[k].min(n);
            self.most[k] = self.most[k].max(n);
        }
    }

    /// Adds one move, played from `before` (see [`Played`]).
    pub fn add_move(&mut self, before: &Position, mv: &Move) {
        if let Some(played) = &mut self.played {
            played.add(before, mv);
        }
    }

    /// The summary of some positions.
    pub fn of<'p>(positions: impl IntoIterator<Item = &'p Position>) -> Summary {
        let mut summary = Summary::new();
        for p in positions {
            summary.add(p);
        }
        summary
    }

    /// The squares where pieces of `class` stood (`None`: not kept, as
    /// for empty squares).
    fn stood(&self, class: PieceClass) -> Option<Bitboard> {
        let [wm, bm] = self.men;
        let [wk, bk] = self.kings;
        Some(match class {
            PieceClass::WhiteMan => wm,
            PieceClass::WhiteKing => wk,
            PieceClass::White => wm | wk,
            PieceClass::BlackMan => bm,
            PieceClass::BlackKing => bk,
            PieceClass::Black => bm | bk,
            PieceClass::Piece => wm | wk | bm | bk,
            PieceClass::Empty => return None,
        })
    }

    /// Whether `cond` may hold in some position summed up here.
    fn may_hold(&self, cond: &Cond) -> bool {
        cond.negated
            || self
                .stood(cond.class)
                .is_none_or(|stood| cond.squares & !stood == 0)
    }
}

impl Pattern {
    /// Whether a position summed up by `summary` may fit (false: none does;
    /// see the [`summary`](self) module).
    pub fn may_fit(&self, summary: &Summary) -> bool {
        PieceClass::ALL.into_iter().all(|class| {
            summary.may_hold(&Cond {
                class,
                squares: self.must[class.slot()],
                negated: false,
            })
        }) && self
            .any_of
            .iter()
            .all(|group| group.iter().any(|c| summary.may_hold(c)))
    }
}

impl Material {
    /// Whether a position summed up by `summary` may have this material.
    pub fn may_fit(&self, summary: &Summary) -> bool {
        (0..6).all(|k| {
            let (least, most) = self.bounds[k];
            summary.least[k] <= most && least <= summary.most[k]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::{Preset, Rules};

    fn at(fen: &str, rules: &Rules) -> Position {
        Position::from_setup(&parse_fen_on(fen, rules.geometry).unwrap(), rules).unwrap()
    }

    #[test]
    fn only_what_no_position_has_is_ruled_out() {
        let rules = Preset::English.rules();
        let positions = [at("W:W27,28:B19,K3", &rules), at("B:W23,28:B19", &rules)];
        let summary = Summary::of(&positions);
        let may = |p: &str| Pattern::parse(p, &rules).unwrap().may_fit(&summary);
        assert!(may("W23,27:BK3"));
        assert!(may("X27:E19:(W1|B19)"));
        assert!(!may("W24"));
        assert!(!may("WK27"));
        assert!(!may("(W1|B2)"));
        assert!(may("(W1|B!2)"));
        let m = |t: &str| Material::parse(t).unwrap().may_fit(&summary);
        assert!(m("bk=0") && m("bk=1") && m("b=1-2") && !m("w=3+") && !m("wk=1"));
    }
}
