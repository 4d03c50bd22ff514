//! A game's [`Summary`] as stored in `game.summary`. pdndb writes the
//! compact shape of [`super::compact`] (since schema step 25, about 82
//! bytes a game on 8×8 where the previous shape took 115); the older
//! shapes below still read as they did, so a database keeps the rows it
//! has and gains compact ones as games are imported or checked again
//! (the compact shape ends in a byte of `0xC0` or more, none of these
//! does).
//!
//! The older shapes: the four square sets
//! (white men, white kings, black men, black kings), each in as many
//! bytes as the board's squares need (4 on 8×8, 7 on 10×10),
//! little-endian; then the least and the most of each of the six counts
//! (`wm, wk, bm, bk, w, b`), a byte each: 28 bytes a game on 8×8, 40 on
//! 10×10, as summaries were first stored. Then what the moves did
//! ([`Played`]): for White's men, White's kings, Black's men and Black's
//! kings in turn, the most pieces one move took (a byte) and the sets of
//! start and end squares; and a byte whose bit 0 tells that a white man
//! was crowned, bit 1 a black man. 65 bytes a game on 8×8, 101 on 10×10;
//! a summary of the first length reads with no `Played` part. Then the
//! [`Phases`]: per phase, the squares White's men and Black's men stood
//! on, and last a byte `0x80 | n`, `n` the bytes of one square set (the
//! last byte of the shorter forms is below `0x80`: a count or the
//! crowning byte); 65 + 8 bytes a phase + 1 on 8×8 (a phase is
//! [`PHASE_POSITIONS`](crate::pattern::PHASE_POSITIONS) positions). A
//! summary without this part reads with no phases.

use crate::pattern::{Moved, Phases, Played, Summary};
use crate::rules::{Bitboard, Geometry};

use super::compact::Compact;

/// The flag of the last byte of a summary with phases.
const WITH_PHASES: u8 = 0x80;

/// The bytes one square set takes on `geometry`'s board.
fn set_bytes(geometry: &Geometry) -> usize {
    geometry.len().div_ceil(8)
}

/// Codes a summary of a game on `geometry`'s board, with its phases
/// when given, in the compact shape (see [`super::compact`]); in an
/// older shape when the summary keeps no moves' part (the first shape) or
/// when a phase's men are not among the summary's (with phases).
pub fn encode(summary: &Summary, phases: Option<&Phases>, geometry: &Geometry) -> Vec<u8> {
    let n = set_bytes(geometry);
    let men = phases.map_or(&[][..], |p| &p.men[..]);
    super::compact::encode(summary, men, n)
        .unwrap_or_else(|| encode_older(summary, phases, geometry))
}

/// Codes a summary in the older shapes: the first (28 bytes on 8×8) when
/// it keeps no moves' part, else with the moves' part and the phases when
/// given.
pub fn encode_older(summary: &Summary, phases: Option<&Phases>, geometry: &Geometry) -> Vec<u8> {
    let n = set_bytes(geometry);
    let phase_bytes = phases.map_or(0, |p| 2 * n * p.men.len() + 1);
    let mut out = Vec::with_capacity(12 * n + 17 + phase_bytes);
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
        if let Some(phases) = phases {
            for men in &phases.men {
                out.extend_from_slice(&men[0].to_le_bytes()[..n]);
                out.extend_from_slice(&men[1].to_le_bytes()[..n]);
            }
            // At most 8 bytes a set.
            out.push(WITH_PHASES | n as u8);
        }
    }
    out
}

/// The bytes of one square set and where the phases start, in a summary
/// with phases; `None` for one without.
fn phases_part(bytes: &[u8]) -> Option<(usize, usize)> {
    let &last = bytes.last()?;
    if last & WITH_PHASES == 0 {
        return None;
    }
    let n = usize::from(last & !WITH_PHASES);
    let start = 12 * n + 17;
    let len = bytes.len().checked_sub(start + 1)?;
    (n > 0 && n <= 8 && len > 0 && len % (2 * n) == 0).then_some((n, start))
}

/// Reads the phases of a coded summary into `men` (emptied first), as
/// [`Phases::men`]: none for a summary stored without them or for bytes
/// that are not a summary.
pub fn decode_phases(bytes: &[u8], men: &mut Vec<[Bitboard; 2]>) {
    men.clear();
    if let Some(compact) = Compact::read(bytes) {
        compact.phase_men(men);
        return;
    }
    let Some((n, start)) = phases_part(bytes) else {
        return;
    };
    let set = |at: &[u8]| {
        let mut word = [0u8; 8];
        word[..n].copy_from_slice(at);
        u64::from_le_bytes(word)
    };
    let sets = &bytes[start..bytes.len() - 1];
    men.extend(
        sets.chunks_exact(2 * n)
            .map(|phase| [set(&phase[..n]), set(&phase[n..])]),
    );
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
    if let Some(compact) = Compact::read(bytes) {
        return Some(compact.summary(moves));
    }
    // 4n + 12 bytes without the moves' part, 12n + 17 with it (never equal:
    // one is even, the other odd), more with phases.
    let (n, with_played) = match (phases_part(bytes), bytes.len()) {
        (Some((n, _)), _) => (n, true),
        (None, len) if len >= 12 && (len - 12) % 4 == 0 => ((len - 12) / 4, false),
        (None, len) if len >= 17 && (len - 17) % 12 == 0 => ((len - 17) / 12, true),
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
    use crate::pattern::PHASE_POSITIONS;
    use crate::rules::{Position, Preset};

    #[test]
    fn summaries_read_back_on_every_board() {
        for preset in [Preset::English, Preset::International, Preset::Spanish] {
            let rules = preset.rules();
            let mut position = Position::initial(&rules);
            let mut summary = Summary::of([&position]);
            let mut phases = Phases::default();
            phases.add(&position);
            // Past one phase, so that there are two.
            for _ in 0..PHASE_POSITIONS + 2 {
                let moves = position.legal_moves(&rules);
                summary.add_move(&position, &moves[moves.len() / 2]);
                position = position.play(&moves[moves.len() / 2]);
                summary.add(&position);
                phases.add(&position);
            }
            assert_eq!(phases.men.len(), 2);
            let n = rules.geometry.len().div_ceil(8);
            // As written now: the compact shape.
            let bytes = encode(&summary, Some(&phases), rules.geometry);
            assert!(bytes.len() < 12 * n + 17, "{preset:?} {}", bytes.len());
            assert_eq!(decode(&bytes), Some(summary));
            let mut men = vec![[1, 2]];
            decode_phases(&bytes, &mut men);
            assert_eq!(men, phases.men);
            // The shape with phases written before.
            let bytes = encode_older(&summary, Some(&phases), rules.geometry);
            assert_eq!(bytes.len(), 12 * n + 17 + 2 * 2 * n + 1);
            assert_eq!(decode(&bytes), Some(summary));
            let positions_only = Summary {
                played: None,
                ..summary
            };
            assert_eq!(decode_positions(&bytes), Some(positions_only));
            decode_phases(&bytes, &mut men);
            assert_eq!(men, phases.men);
            // As stored before phases were kept: read with none.
            let bytes = encode_older(&summary, None, rules.geometry);
            assert_eq!(bytes.len(), 12 * n + 17);
            assert_eq!(decode(&bytes), Some(summary));
            decode_phases(&bytes, &mut men);
            assert!(men.is_empty());
            // As first stored: without the moves' part.
            let older = Summary {
                played: None,
                ..summary
            };
            let bytes = encode(&older, Some(&phases), rules.geometry);
            assert_eq!(bytes.len(), 4 * n + 12);
            assert_eq!(decode(&bytes), Some(older));
            decode_phases(&bytes, &mut men);
            assert!(men.is_empty());
        }
        assert_eq!(decode(&[1, 2, 3]), None);
        assert_eq!(decode(&[0; 13]), None);
        // A flag byte with lengths that do not fit it.
        assert_eq!(decode(&[0x84; 66]), None);
        assert_eq!(decode(&[0x80; 66]), None);
        assert_eq!(decode(&[0xC4; 66]), None);
    }
}
