//! Perft: counting the leaves of the legal move tree, to check the move
//! generator against published counts.

use super::movegen::Move;
use super::position::Position;
use super::variant::Rules;

/// The number of move sequences of length `depth` from `position`.
pub fn perft(rules: &Rules, position: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(32)).collect();
    count(rules, position, depth, &mut buffers)
}

fn count(rules: &Rules, position: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    position.legal_moves_into(rules, moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| count(rules, &position.play(mv), depth - 1, rest))
        .sum()
}

/// Perft split by first move: each legal move with its count at `depth - 1`.
pub fn divide(rules: &Rules, position: &Position, depth: u32) -> Vec<(Move, u64)> {
    position
        .legal_moves(rules)
        .into_iter()
        .map(|mv| {
            (
                mv,
                perft(rules, &position.play(&mv), depth.saturating_sub(1)),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn shallow_counts_from_the_start() {
        for preset in Preset::ALL {
            let rules = preset.rules();
            let start = Position::initial(&rules);
            let (one, four) = match preset {
                Preset::International | Preset::Antidraughts | Preset::Breakthrough => (9, 4265),
                Preset::Frisian => (9, 3874),
                Preset::Frysk => (9, 5329),
                _ => (7, 1469),
            };
            assert_eq!(perft(&rules, &start, 0), 1);
            assert_eq!(perft(&rules, &start, 1), one, "{preset}");
            assert_eq!(perft(&rules, &start, 4), four, "{preset}");
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let rules = Rules::default();
        let start = Position::initial(&rules);
        let total: u64 = divide(&rules, &start, 5).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 7473);
    }
}
