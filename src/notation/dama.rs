//! The local Dama numbers: each number 1..16 names two squares, `s` and
//! `33 - s`, 180° apart (8×8 board only).

use crate::rules::Square;

/// Dama number of each numeric square 1..32.
const DAMA: [u8; 32] = [
    12, 11, 10, 9, 8, 7, 6, 5, 3, 2, 1, 4, 13, 14, 15, 16, //
    16, 15, 14, 13, 4, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12,
];

/// The Dama number of a square of the 8×8 board; `None` off that board.
pub fn dama_number(square: Square) -> Option<u32> {
    DAMA.get(square.index()).map(|&n| n as u32)
}

/// The two squares a Dama number names, the lower label first; `None` unless
/// `1 <= number <= 16`.
pub fn dama_squares(number: u32) -> Option<[Square; 2]> {
    let index = DAMA[16..].iter().position(|&n| n as u32 == number)?;
    let high = Square::new(index as u32 + 17)?;
    let low = Square::new(33 - high.label())?;
    Some([low, high])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_number_names_two_opposite_squares() {
        for n in 1..=16 {
            let [a, b] = dama_squares(n).unwrap();
            assert_eq!(a.label() + b.label(), 33);
            assert_eq!(dama_number(a), Some(n));
            assert_eq!(dama_number(b), Some(n));
        }
        assert_eq!(dama_squares(0), None);
        assert_eq!(dama_squares(17), None);
        assert_eq!(dama_number(Square::new(33).unwrap()), None);
    }
}
