//! A legal move found from its canonical rank, the inverse of
//! [`Position::canonical_rank`], without listing and sorting every legal
//! move: stored games are move ranks, and replaying them is what a
//! pattern search spends its time on.
//!
//! Where no piece can capture, the moves in canonical order are those of
//! the pieces by square, and a man's moves (at most two steps, to squares
//! known from two shifts of the empty squares) are counted rather than
//! made; only the moves of kings met before the rank is reached, and
//! those of the one piece that plays, are made. Where a capture must be
//! played, the captures are made and the one of that rank selected.

use super::board::{Direction, squares};
use super::movegen::Move;
use super::position::Position;
use super::variant::Rules;

impl Position {
    /// The legal move of canonical rank `rank` ([`Move::canonical_cmp`],
    /// the one [`Position::canonical_rank`] gives), or `None` when there
    /// are not that many legal moves; `scratch` holds moves meanwhile.
    pub fn canonical_nth(
        &self,
        rules: &Rules,
        rank: usize,
        scratch: &mut Vec<Move>,
    ) -> Option<Move> {
        let starts = self.capture_starts(rules);
        if starts != 0 {
            self.captures_of_into(rules, starts, scratch);
            if !scratch.is_empty() {
                if rank >= scratch.len() {
                    return None;
                }
                scratch.select_nth_unstable_by(rank, Move::canonical_cmp);
                return Some(scratch[rank]);
            }
        }
        self.quiet_nth(rules, rank, scratch)
    }

    /// The plain move of canonical rank `rank` in a position where no
    /// piece can capture.
    fn quiet_nth(&self, rules: &Rules, rank: usize, scratch: &mut Vec<Move>) -> Option<Move> {
        let g = rules.geometry;
        let us = self.pieces(self.side);
        let empty = g.all() & !self.occupied();
        // A king that made the last three plain moves may not make another
        // (as in the move generator).
        let barred = if self.runs.tracked() {
            self.runs.barred(self.side)
        } else {
            0
        };
        let men = us & !self.kings & !barred;
        let kings = us & self.kings & !barred;
        let [one, other] = Direction::forward(self.side);
        // The men that can step each way.
        let first = men & g.step_sources(one, empty);
        let second = men & g.step_sources(other, empty);
        let mut left = rank;
        for from in squares(first | second | kings) {
            let bit = from.bit();
            if kings & bit != 0 {
                scratch.clear();
                self.quiet_moves_between(rules, bit, u64::MAX, scratch);
                if left < scratch.len() {
                    scratch.select_nth_unstable_by_key(left, Move::to);
                    return Some(scratch[left]);
                }
                left -= scratch.len();
                continue;
            }
            let steps = usize::from(first & bit != 0) + usize::from(second & bit != 0);
            if left < steps {
                let mut targets = (g.step_targets(one, bit) | g.step_targets(other, bit)) & empty;
                if left == 1 {
                    // The higher of the two.
                    targets &= targets - 1;
                }
                let to = targets.trailing_zeros() as usize;
                let promotes = g.crowning_row(self.side) & (1u64 << to) != 0;
                return Some(Move::simple(from.index(), to, false, promotes));
            }
            left -= steps;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{Move, Position, Preset};

    #[test]
    fn the_move_of_each_rank_is_the_one_at_that_place_in_canonical_order() {
        let mut scratch = Vec::new();
        let mut seen = [0usize; 2];
        for preset in Preset::ALL {
            let rules = preset.rules();
            for mut seed in [3u64, 29, 71, 113, 257] {
                let mut p = Position::initial(&rules);
                for _ in 0..250 {
                    let mut sorted = p.legal_moves(&rules);
                    sorted.sort_by(Move::canonical_cmp);
                    for (rank, mv) in sorted.iter().enumerate() {
                        let found = p.canonical_nth(&rules, rank, &mut scratch);
                        assert_eq!(found, Some(*mv), "{preset} {rank}");
                        let found = found.unwrap();
                        assert_eq!(found.full_numeric(), mv.full_numeric());
                        assert_eq!(
                            (found.by_king(), found.promotes()),
                            (mv.by_king(), mv.promotes())
                        );
                        assert_eq!(p.play(&found), p.play(mv));
                        seen[usize::from(mv.by_king())] += 1;
                    }
                    assert_eq!(p.canonical_nth(&rules, sorted.len(), &mut scratch), None);
                    assert_eq!(p.canonical_nth(&rules, usize::MAX, &mut scratch), None);
                    if sorted.is_empty() {
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    p = p.play(&sorted[(seed >> 33) as usize % sorted.len()]);
                }
            }
        }
        // Kings' moves were met as well as men's.
        assert!(seen[0] > 10_000 && seen[1] > 1_000, "{seen:?}");
    }
}
