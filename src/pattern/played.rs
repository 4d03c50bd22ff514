//! What a game's moves have in common, kept in its summary so that a
//! manoeuvre search can pass over games that never play a fitting move.
//!
//! # Never a match dropped
//!
//! [`Played`] is built from every move of the game's first reading (all
//! the moves a manoeuvre search looks at, or more): for each side and each
//! kind of piece that moves (man or king), the squares such moves started
//! from, the squares they ended on and the most pieces one of them took,
//! and for each side whether one of its men was crowned. A move `m` that
//! fits a [`Manoeuvre`] is among these: it is played by a side and a kind
//! the manoeuvre allows, so its start is among that side's and kind's
//! starts (the manoeuvre's start, when it names one, is `m`'s), likewise
//! its end; it takes at least one piece when the manoeuvre is a capture,
//! at least the least number of pieces, of men and of kings the
//! manoeuvre asks for (men and kings taken are among the pieces taken),
//! and every piece on the manoeuvre's `over` squares, so the most pieces
//! one move of that side and kind took is at least each of these; and
//! when the manoeuvre crowns, `m` is a man's move that crowns.
//! [`Played::may_play`] tests exactly these necessary conditions, so it
//! is true for every game that plays a fitting move; the scan's
//! brute-force test compares its answers with every game replayed.

use crate::rules::{Bitboard, Color, Move, Position};

use super::manoeuvre::Manoeuvre;

/// What the moves of one side played by one kind of piece did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moved {
    /// The most pieces one such move took.
    pub most_taken: u32,
    /// The squares such moves started from.
    pub from: Bitboard,
    /// The squares such moves ended on.
    pub to: Bitboard,
}

/// What a game's moves did, by side and kind of piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// White's, then Black's: moves by men, then by kings.
    pub moved: [[Moved; 2]; 2],
    /// White's, then Black's: whether one of its men was crowned.
    pub crowned: [bool; 2],
}

impl Played {
    /// Adds one move, played from `before`.
    pub fn add(&mut self, before: &Position, mv: &Move) {
        let side = before.side() as usize;
        let moved = &mut self.moved[side][usize::from(mv.by_king())];
        moved.most_taken = moved.most_taken.max(mv.captured().count_ones());
        moved.from |= mv.from().bit();
        moved.to |= mv.to().bit();
        self.crowned[side] |= mv.promotes();
    }

    /// Whether some move summed up here may be `m` (false: none is; see
    /// the [module](self)).
    pub fn may_play(&self, m: &Manoeuvre) -> bool {
        let mut least = m.taken.iter().map(|t| t.0).max().unwrap_or(0);
        least = least.max(m.over.count_ones());
        if m.capture == Some(true) {
            least = least.max(1);
        }
        let sides = match m.side {
            Some(side) => vec![side],
            None => vec![Color::White, Color::Black],
        };
        let kinds: &[bool] = match (m.king, m.promotes) {
            // Only a man is crowned.
            (Some(true), Some(true)) => &[],
            (_, Some(true)) => &[false],
            (Some(king), _) => std::slice::from_ref(if king { &true } else { &false }),
            (None, _) => &[false, true],
        };
        sides.into_iter().any(|side| {
            (m.promotes != Some(true) || self.crowned[side as usize])
                && kinds.iter().any(|&king| {
                    let moved = &self.moved[side as usize][usize::from(king)];
                    moved.from != 0
                        && m.from.is_none_or(|s| moved.from & s.bit() != 0)
                        && m.to.is_none_or(|s| moved.to & s.bit() != 0)
                        && least <= moved.most_taken
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen_on;
    use crate::rules::{Preset, Rules};

    #[test]
    fn only_manoeuvres_no_move_can_be_are_ruled_out() {
        let rules: Rules = Preset::English.rules();
        let before = Position::from_setup(
            &parse_fen_on("B:W18,27,K30:BK14,6", rules.geometry).unwrap(),
            &rules,
        )
        .unwrap();
        let mut played = Played::default();
        for mv in before.legal_moves(&rules) {
            played.add(&before, &mv);
        }
        let may = |t: &str| played.may_play(&Manoeuvre::parse(t, &rules).unwrap());
        // Black's king on 14 must take 18 and 27: 14x23x32.
        assert!(may("B K 14x*"));
        assert!(may("B K 14x32 taken=2"));
        assert!(may("? * */* over=18,27"));
        assert!(!may("? * */* over=18,27,30"));
        assert!(!may("B K 14x* taken=3+"));
        assert!(!may("B K 14x23"));
        assert!(!may("B M 6/*"));
        assert!(!may("W"));
        assert!(!may("B K 10/*"));
        assert!(!may("B promotes=yes"));
        assert!(!may("B K *x* promotes=yes"));
    }
}
