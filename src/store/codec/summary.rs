//! A game's [`Summary`] as stored in `game.summary`: the four square sets
//! (white men, white kings, black men, black kings), each in as many
//! bytes as the board's squares need (4 on 8×8, 7 on 10×10),
//! little-endian; then the least and the most of each of the six counts
//! (`wm, wk, bm, bk, w, b`), a byte each. 28 bytes a game on 8×8, 40 on
//! 10×10.

use crate::pattern::Summary;
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
    out
}

/// Reads a coded summary; `None` when the bytes are not one.
pub fn decode(bytes: &[u8]) -> Option<Summary> {
    let sets = bytes.len().checked_sub(12)?;
    if sets % 4 != 0 || sets / 4 > 8 {
        return None;
    }
    let n = sets / 4;
    let set = |i: usize| {
        let mut word = [0u8; 8];
        word[..n].copy_from_slice(&bytes[i * n..(i + 1) * n]);
        u64::from_le_bytes(word)
    };
    let counts = &bytes[sets..];
    let mut summary = Summary::new();
    summary.men = [set(0), set(2)];
    summary.kings = [set(1), set(3)];
    for k in 0..6 {
        summary.least[k] = u32::from(counts[2 * k]);
        summary.most[k] = u32::from(counts[2 * k + 1]);
    }
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
            let summary = Summary::of([&start]);
            let bytes = encode(&summary, rules.geometry);
            assert_eq!(bytes.len(), 4 * rules.geometry.len().div_ceil(8) + 12);
            assert_eq!(decode(&bytes), Some(summary));
        }
        assert_eq!(decode(&[1, 2, 3]), None);
        assert_eq!(decode(&[0; 13]), None);
    }
}
