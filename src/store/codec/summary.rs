//! A game's [`Summary`] as stored in `game.summary`: the four square sets
//! (white men, white kings, black men, black kings), each in as many
//! bytes as the board's squares need (4 on 8×8, 7 on 10×10),
//! little-endian; then the least and the most of each of the six counts
//! (`wm, wk, bm, bk, w, b`), a byte each: 28 bytes a game on 8×8, 40 on
//! 10×10, as summaries were first stored. Then what the moves did
//! ([`Played`]): for White's men, White's kings, Black's men and Black's
//! kings in turn, the most pieces one move took (a byte) and the sets of
//! start and end squares; and a byte whose bit 0 tells that a white man
//! was crowned, bit 1 a black man. 65 bytes a game on 8×8, 101 on 10×10;
//! a summary of the first length reads with no `Played` part.

use crate::pattern::{Moved, Played, Summary};
use crate::rules::Geometry;

/// The bytes one square set takes on `geometry`'s board.
fn set_bytes(geometry: &Geometry) -> usize {
    geometry.len().div_ceil(8)
}

/// Codes a summary of a game on `geometry`'s board.
pub fn encode(summary: &Summary, geometry: &Geometry) -> Vec<u8> {
    let n = set_bytes(geometry);
    let mut out = Vec::with_capacity(4 * n + 12);
    for set in [
        summary.men[0],
        summary.kings[0],
        summary.men[1],
        summary.kings[1],
    ] {
        out.extend_from_slice(&set.to_le_bytes()[..n]);
    }
    for k in 0..6 {
        // Counts are at most 64; a summary of no position keeps 255..0.
        out.push(summary.least[k].min(255) as u8);
        out.push(summary.most[k].min(255) as u8);
    }
    if let Some(played) = &summary.played {
        for moved in played.moved.iter().flatten() {
            out.push(moved.most_taken.min(255) as u8);
            out.extend_from_slice(&moved.from.to_le_bytes()[..n]);
            out.extend_from_slice(&moved.to.to_le_bytes()[..n]);
        }
        out.push(u8::from(played.crowned[0]) | u8::from(played.crowned[1]) << 1);
    }
    out
}

/// Reads a coded summary; `None` when the bytes are not one.
pub fn decode(bytes: &[u8]) -> Option<Summary> {
    decode_parts(bytes, true)
}

/// Reads a coded summary without what the moves did (`played` is `None`,
/// as in a summary stored by an older pdndb): what a search without
/// manoeuvres tests, read in less time; `None` when the bytes are not one.
pub fn decode_positions(bytes: &[u8]) -> Option<Summary> {
    decode_parts(bytes, false)
}

/// Reads a coded summary, the moves' part only when `moves` is true.
fn decode_parts(bytes: &[u8], moves: bool) -> Option<Summary> {
    // 4n + 12 bytes without the moves' part, 12n + 17 with it (never equal:
    // one is even, the other odd).
    let (n, with_played) = match bytes.len() {
        len if len >= 12 && (len - 12) % 4 == 0 => ((len - 12) / 4, false),
        len if len >= 17 && (len - 17) % 12 == 0 => ((len - 17) / 12, true),
        _ => return None,
    };
    if n > 8 {
        return None;
    }
    let set = |at: usize| {
        let mut word = [0u8; 8];
        word[..n].copy_from_slice(&bytes[at..at + n]);
        u64::from_le_bytes(word)
    };
    let counts = &bytes[4 * n..4 * n + 12];
    let mut summary = Summary::new();
    summary.men = [set(0), set(2 * n)];
    summary.kings = [set(n), set(3 * n)];
    for k in 0..6 {
        summary.least[k] = u32::from(counts[2 * k]);
        summary.most[k] = u32::from(counts[2 * k + 1]);
    }
    summary.played = (moves && with_played).then(|| {
        let mut played = Played::default();
        let mut at = 4 * n + 12;
        for moved in played.moved.iter_mut().flatten() {
            *moved = Moved {
                most_taken: u32::from(bytes[at]),
                from: set(at + 1),
                to: set(at + 1 + n),
            };
            at += 1 + 2 * n;
        }
        played.crowned = [bytes[at] & 1 != 0, bytes[at] & 2 != 0];
        played
    });
    Some(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Preset};

    #[test]
    fn summaries_read_back_on_every_board() {
        for preset in [Preset::English, Preset::International, Preset::Spanish] {
            let rules = preset.rules();
            let start = Position::initial(&rules);
            let mut summary = Summary::of([&start]);
            let moves = start.legal_moves(&rules);
            summary.add_move(&start, &moves[moves.len() / 2]);
            let n = rules.geometry.len().div_ceil(8);
            let bytes = encode(&summary, rules.geometry);
            assert_eq!(bytes.len(), 12 * n + 17);
            assert_eq!(decode(&bytes), Some(summary));
            let positions_only = Summary {
                played: None,
                ..summary
            };
            assert_eq!(decode_positions(&bytes), Some(positions_only));
            // As first stored: without the moves' part.
            let older = Summary {
                played: None,
                ..summary
            };
            let bytes = encode(&older, rules.geometry);
            assert_eq!(bytes.len(), 4 * n + 12);
            assert_eq!(decode(&bytes), Some(older));
        }
        assert_eq!(decode(&[1, 2, 3]), None);
        assert_eq!(decode(&[0; 13]), None);
    }
}
