//! Colours reversed: the board turned half a circle, colours and the side
//! to move swapped.

use crate::rules::{Bitboard, Color, Geometry, KingRun, Position, Rules, Setup};

/// The squares of `board` turned half a circle: square `n` becomes square
/// `count + 1 − n` (see the [module](super) on why this holds on every
/// board).
#[inline]
pub fn mirror(board: Bitboard, geometry: &Geometry) -> Bitboard {
    let count = geometry.len() as u32;
    // `count` is 1..=64, so the shift is 0..=63.
    board.reverse_bits() >> (64 - count)
}

/// The label of the square opposite `label` through the board's centre.
pub fn mirror_label(label: u32, geometry: &Geometry) -> u32 {
    geometry.len() as u32 + 1 - label
}

/// `position` with colours reversed under `rules`: every piece on the
/// opposite square with the other colour, the other side to move, and
/// each side's king run (where the rules count them) given to the other
/// side on the opposite square.
pub fn reversed_position(position: &Position, rules: &Rules) -> Position {
    let g = rules.geometry;
    let setup = position.to_setup();
    let flip = |run: KingRun| KingRun {
        moves: run.moves,
        square: if run.moves == 0 {
            run.square
        } else {
            mirror_label(run.square, g)
        },
    };
    let reversed = Setup {
        side: setup.side.map(Color::opponent),
        pieces: setup
            .pieces
            .iter()
            .map(|&(label, mut piece)| {
                piece.color = piece.color.opponent();
                (mirror_label(label, g), piece)
            })
            .collect(),
        king_runs: [flip(setup.king_runs[1]), flip(setup.king_runs[0])],
    };
    // Turning a legal position gives a legal one: no square leaves the
    // board and each side's crowning row becomes the other's.
    Position::from_setup(&reversed, rules).unwrap_or_else(|_| {
        Position::from_parts(
            mirror(position.pieces(Color::Black), g),
            mirror(position.pieces(Color::White), g),
            mirror(position.kings(), g),
            position.side().opponent(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_fen_on, write_fen};
    use crate::rules::Preset;

    fn reversed_fen(fen: &str, preset: Preset) -> String {
        let rules = preset.rules();
        let setup = parse_fen_on(fen, rules.geometry).unwrap();
        let position = Position::from_setup(&setup, &rules).unwrap();
        let reversed = reversed_position(&position, &rules);
        assert_eq!(reversed_position(&reversed, &rules), position, "{fen}");
        assert_eq!(reversed.zobrist(), reversed.compute_key());
        write_fen(&reversed)
    }

    #[test]
    fn squares_pair_through_the_centre_on_every_board() {
        let g = Geometry::standard();
        assert_eq!(mirror(1, g), 1 << 31);
        assert_eq!(mirror(1 << 26, g), 1 << 5); // 27 <-> 6
        assert_eq!(mirror_label(27, Geometry::international()), 24);
        assert_eq!(mirror(1, Geometry::international()), 1 << 49);
        for g in [Geometry::italian(), Geometry::spanish()] {
            for label in 1..=32u32 {
                let s = crate::rules::Square::new(label).unwrap();
                let m = crate::rules::Square::new(mirror_label(label, g)).unwrap();
                assert_eq!(g.row(s) + g.row(m), 7);
                assert_eq!(g.col(s) + g.col(m), 7);
            }
        }
    }

    #[test]
    fn kings_colours_and_the_side_to_move_are_reversed() {
        assert_eq!(
            reversed_fen("W:W27,K28:B19", Preset::English),
            "B:W14:BK5,6"
        );
        assert_eq!(
            reversed_fen("B:W31,K50:B1", Preset::International),
            "W:W50:BK1,20"
        );
    }

    #[test]
    fn the_start_is_its_own_reversal_but_for_the_side_to_move() {
        for preset in [
            Preset::English,
            Preset::Italian,
            Preset::Spanish,
            Preset::International,
        ] {
            let rules = preset.rules();
            let start = Position::initial(&rules);
            let reversed = reversed_position(&start, &rules);
            assert_eq!(
                reversed,
                start.with_side(start.side().opponent()),
                "{preset:?}"
            );
        }
    }
}
