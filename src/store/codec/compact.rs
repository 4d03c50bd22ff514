//! The compact shape of a stored [`Summary`] with its [`Phases`], as
//! pdndb writes it since schema step 25 (the older shapes: see
//! [`super::summary`]). `n` is the bytes of one square set (4 on 8×8, 7
//! on 10×10); sets are little-endian. In order:
//!
//! - a flags byte: bit 0 tells that White's kings' part is kept, bit 1
//!   Black's, bit 2 that a white man was crowned, bit 3 a black man;
//! - the squares White's men stood on, then Black's (`n` bytes each);
//! - White's kings' squares when its kings' part is kept, then Black's;
//! - per side, White then Black, the least and the most of its men (a
//!   byte each), and when its kings' part is kept the least and the most
//!   of its kings and of its pieces: a side whose part is not kept never
//!   had a king (so its pieces are its men) and its kings never moved;
//! - per side, what its men's moves did ([`Moved`]: the most pieces one
//!   took, a byte, then the sets of start and end squares), then when its
//!   kings' part is kept what its kings' moves did;
//! - the number of phases (LEB128, mostly a byte);
//! - per phase, the men of White as a bit mask over White's men above
//!   (bit `i` for the `i`-th of its squares in order), then Black's over
//!   Black's men: as many bits as each side's men set has squares, the
//!   phases one after the other from bit 0 of the first byte on (bit 0 the
//!   least significant), the last byte padded with zeros;
//! - last a byte `0xC0 | n` (the last byte of the older shapes is below
//!   `0xC0`).
//!
//! A search tests a phase without expanding it: [`Compact::mask`] turns
//! the men a phase must include into the same bit positions once a game,
//! and [`Compact::last_with`] tests each phase's bits with one word load
//! and an AND.

use crate::pattern::{MenNeeded, Moved, Played, Summary};
use crate::rules::Bitboard;

/// The flag of the last byte of a compact summary.
pub const COMPACT: u8 = 0xC0;

/// The flags byte's bit telling that White's kings' part is kept (Black's:
/// the next bit).
const KINGS_KEPT: u8 = 1;

/// The flags byte's bit telling that a white man was crowned (a black
/// man: the next bit).
const CROWNED: u8 = 4;

/// Codes `summary` and the men of its `phases` in the compact shape on a
/// board whose square sets take `n` bytes; `None` when a phase's men are
/// not among the summary's (they always are in a game's summary and
/// phases), the summary keeps no moves' part, or `n` is not 1 to 8.
pub fn encode(summary: &Summary, phases: &[[Bitboard; 2]], n: usize) -> Option<Vec<u8>> {
    let played = summary.played.as_ref()?;
    let inside = phases
        .iter()
        .all(|m| m[0] & !summary.men[0] == 0 && m[1] & !summary.men[1] == 0);
    if !inside || !(1..=8).contains(&n) {
        return None;
    }
    let kept = [0, 1].map(|side| kings_kept(summary, played, side));
    let mut flags = 0;
    for (side, &kept) in kept.iter().enumerate() {
        flags |= u8::from(kept) * (KINGS_KEPT << side);
        flags |= u8::from(played.crowned[side]) * (CROWNED << side);
    }
    let mut out = vec![flags];
    let set = |out: &mut Vec<u8>, squares: Bitboard| {
        out.extend_from_slice(&squares.to_le_bytes()[..n]);
    };
    set(&mut out, summary.men[0]);
    set(&mut out, summary.men[1]);
    for side in (0..2).filter(|&side| kept[side]) {
        set(&mut out, summary.kings[side]);
    }
    // Counts are at most 64; a summary of no position keeps 255..0.
    let count = |v: u32| v.min(255) as u8;
    for (side, &kept) in kept.iter().enumerate() {
        let parts: &[usize] = if kept {
            &[2 * side, 2 * side + 1, 4 + side]
        } else {
            &[2 * side]
        };
        for &k in parts {
            out.extend([count(summary.least[k]), count(summary.most[k])]);
        }
    }
    for (side, &kept) in kept.iter().enumerate() {
        let kinds: &[usize] = if kept { &[0, 1] } else { &[0] };
        for &kind in kinds {
            let moved = &played.moved[side][kind];
            out.push(count(moved.most_taken));
            set(&mut out, moved.from);
            set(&mut out, moved.to);
        }
    }
    let mut left = phases.len();
    while left >= 0x80 {
        out.push(0x80 | (left & 0x7F) as u8);
        left >>= 7;
    }
    out.push(left as u8);
    let mut bits = BitPacker::new(out);
    for men in phases {
        for (&phase, &within) in men.iter().zip(&summary.men) {
            bits.put(compress(phase, within), within.count_ones());
        }
    }
    let mut out = bits.finish();
    out.push(COMPACT | n as u8);
    Some(out)
}

/// Whether the kings' part of `side` is to be kept: unless it never had
/// a king (its kings' counts are 0 and its pieces' are its men's) and its
/// kings never moved.
fn kings_kept(summary: &Summary, played: &Played, side: usize) -> bool {
    let (men, kings, pieces) = (2 * side, 2 * side + 1, 4 + side);
    summary.kings[side] != 0
        || summary.least[kings] != 0
        || summary.most[kings] != 0
        || summary.least[pieces] != summary.least[men]
        || summary.most[pieces] != summary.most[men]
        || played.moved[side][1] != Moved::default()
}

/// The bits of `set` at the squares of `within`, packed: bit `i` for the
/// `i`-th square of `within`.
fn compress(set: Bitboard, within: Bitboard) -> u64 {
    let (mut out, mut rest, mut i) = (0, within, 0);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        out |= u64::from(set & low != 0) << i;
        rest &= rest - 1;
        i += 1;
    }
    out
}

/// The squares of `within` whose bits `packed` has (the reverse of
/// [`compress`]).
fn expand(packed: u64, within: Bitboard) -> Bitboard {
    let (mut out, mut rest, mut i) = (0, within, 0);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if packed >> i & 1 != 0 {
            out |= low;
        }
        rest &= rest - 1;
        i += 1;
    }
    out
}

/// Packs bits into bytes, least significant bit first.
struct BitPacker {
    out: Vec<u8>,
    pending: u128,
    pending_bits: u32,
}

impl BitPacker {
    fn new(out: Vec<u8>) -> BitPacker {
        BitPacker {
            out,
            pending: 0,
            pending_bits: 0,
        }
    }

    /// Appends the low `bits` bits of `v` (at most 64).
    fn put(&mut self, v: u64, bits: u32) {
        let v = if bits >= 64 { v } else { v & ((1 << bits) - 1) };
        self.pending |= u128::from(v) << self.pending_bits;
        self.pending_bits += bits;
        while self.pending_bits >= 8 {
            self.out.push(self.pending as u8);
            self.pending >>= 8;
            self.pending_bits -= 8;
        }
    }

    /// The bytes, the last padded with zeros.
    fn finish(mut self) -> Vec<u8> {
        if self.pending_bits > 0 {
            self.out.push(self.pending as u8);
        }
        self.out
    }
}

/// A stored summary of the compact shape, read in place: its square sets,
/// counts and moves' part on demand, its phases tested as bits.
#[derive(Clone, Copy, Debug)]
pub struct Compact<'a> {
    bytes: &'a [u8],
    /// Bytes of one square set.
    n: usize,
    flags: u8,
    /// The squares each side's men stood on.
    men: [Bitboard; 2],
    /// Where the counts start.
    counts_at: usize,
    /// Where the moves' part starts.
    played_at: usize,
    /// Where the phases' bits start.
    phases_at: usize,
    /// How many phases there are.
    phases: usize,
    /// The bits of one phase: as many as each side's men have squares.
    widths: [usize; 2],
}

/// What a phase's bits must include, per [`Compact::mask`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseMask {
    /// White's bits, then Black's shifted past White's.
    bits: u128,
}

impl<'a> Compact<'a> {
    /// Reads the parts of a compact summary; `None` when `bytes` are not
    /// one.
    pub fn read(bytes: &'a [u8]) -> Option<Compact<'a>> {
        let (&last, body) = bytes.split_last()?;
        let n = usize::from(last ^ COMPACT);
        if last & COMPACT != COMPACT || !(1..=8).contains(&n) {
            return None;
        }
        let &flags = body.first()?;
        if flags & !0x0F != 0 {
            return None;
        }
        let kept = |side: u8| usize::from(flags & (KINGS_KEPT << side) != 0);
        let kings = kept(0) + kept(1);
        let men = [set_at(body, 1, n)?, set_at(body, 1 + n, n)?];
        let counts_at = 1 + (2 + kings) * n;
        let played_at = counts_at + 4 + 4 * kings;
        let mut at = played_at + (2 + kings) * (1 + 2 * n);
        let mut phases = 0usize;
        for shift in (0..35).step_by(7) {
            let &b = body.get(at)?;
            at += 1;
            phases |= usize::from(b & 0x7F) << shift;
            if b < 0x80 {
                break;
            }
            if shift == 28 {
                return None;
            }
        }
        let widths = men.map(|m| m.count_ones() as usize);
        let bits = phases.checked_mul(widths[0] + widths[1])?;
        (body.len().checked_sub(at)? == bits.div_ceil(8)).then_some(Compact {
            bytes: body,
            n,
            flags,
            men,
            counts_at,
            played_at,
            phases_at: at,
            phases,
            widths,
        })
    }

    /// The summary: square sets and counts, and what the moves did when
    /// `moves` is true (else `played` is `None`).
    pub fn summary(&self, moves: bool) -> Summary {
        let (b, n) = (self.bytes, self.n);
        let kept = |side: usize| self.flags & (KINGS_KEPT << side) != 0;
        let mut summary = Summary::new();
        summary.men = self.men;
        let mut at = 1 + 2 * n;
        for side in 0..2 {
            summary.kings[side] = 0;
            if kept(side) {
                summary.kings[side] = set_at(b, at, n).unwrap_or_default();
                at += n;
            }
        }
        let mut at = self.counts_at;
        let mut count = || {
            let v = b.get(at).map_or(0, |&v| u32::from(v));
            at += 1;
            v
        };
        for side in 0..2 {
            let (men, kings, pieces) = (2 * side, 2 * side + 1, 4 + side);
            summary.least[men] = count();
            summary.most[men] = count();
            if kept(side) {
                summary.least[kings] = count();
                summary.most[kings] = count();
                summary.least[pieces] = count();
                summary.most[pieces] = count();
            } else {
                (summary.least[kings], summary.most[kings]) = (0, 0);
                summary.least[pieces] = summary.least[men];
                summary.most[pieces] = summary.most[men];
            }
        }
        summary.played = moves.then(|| self.played());
        summary
    }

    /// What the moves did.
    fn played(&self) -> Played {
        let (b, n) = (self.bytes, self.n);
        let mut played = Played::default();
        let mut at = self.played_at;
        for side in 0..2 {
            let kinds = if self.flags & (KINGS_KEPT << side) != 0 {
                2
            } else {
                1
            };
            for moved in &mut played.moved[side][..kinds] {
                *moved = Moved {
                    most_taken: b.get(at).map_or(0, |&v| u32::from(v)),
                    from: set_at(b, at + 1, n).unwrap_or_default(),
                    to: set_at(b, at + 1 + n, n).unwrap_or_default(),
                };
                at += 1 + 2 * n;
            }
            played.crowned[side] = self.flags & (CROWNED << side) != 0;
        }
        played
    }

    /// How many phases there are.
    pub fn phases(&self) -> usize {
        self.phases
    }

    /// The men of each phase, as [`crate::pattern::Phases::men`], into
    /// `men` (emptied first).
    pub fn phase_men(&self, men: &mut Vec<[Bitboard; 2]>) {
        men.clear();
        let width = self.widths[0] + self.widths[1];
        men.extend((0..self.phases).map(|k| {
            let at = k * width;
            [
                expand(self.field(at, self.widths[0]), self.men[0]),
                expand(self.field(at + self.widths[0], self.widths[1]), self.men[1]),
            ]
        }));
    }

    /// The `width` bits (at most 64) from bit `at` of the phases.
    fn field(&self, at: usize, width: usize) -> u64 {
        let word = self.word(at) as u64;
        if width >= 64 {
            word
        } else {
            word & ((1 << width) - 1)
        }
    }

    /// The bits of the phases from bit `at` on, at least 121 of them (past
    /// the last phase: the last byte or zeros).
    #[inline]
    fn word(&self, at: usize) -> u128 {
        let from = self.phases_at + at / 8;
        let word = match self.bytes.get(from..).and_then(<[u8]>::first_chunk::<16>) {
            Some(chunk) => u128::from_le_bytes(*chunk),
            None => {
                let mut chunk = [0u8; 16];
                let rest = self.bytes.get(from..).unwrap_or_default();
                chunk[..rest.len()].copy_from_slice(rest);
                u128::from_le_bytes(chunk)
            }
        };
        word >> (at % 8)
    }

    /// What a phase's bits must include for its men to include `needed`;
    /// `None` when no phase's men do (a square the men never stood on).
    pub fn mask(&self, needed: MenNeeded) -> Option<PhaseMask> {
        let mut bits = 0u128;
        let mut shift = 0;
        for (&needed, &within) in needed.iter().zip(&self.men) {
            if needed & !within != 0 {
                return None;
            }
            let mut rest = needed;
            while rest != 0 {
                let low = rest & rest.wrapping_neg();
                let rank = (within & (low - 1)).count_ones();
                bits |= 1u128 << (shift + rank);
                rest &= rest - 1;
            }
            shift += self.widths[0] as u32;
        }
        Some(PhaseMask { bits })
    }

    /// The number of the last phase whose bits include one of `masks`
    /// (see [`Compact::mask`]); `None` when none does.
    pub fn last_with(&self, masks: &[PhaseMask]) -> Option<usize> {
        let width = self.widths[0] + self.widths[1];
        if width <= 121 {
            return (0..self.phases).rev().find(|&k| {
                let word = self.word(k * width);
                masks.iter().any(|m| word & m.bits == m.bits)
            });
        }
        // Sets of more than 60 squares each: a side at a time.
        let white = self.widths[0];
        (0..self.phases).rev().find(|&k| {
            let [w, b] = [self.word(k * width), self.word(k * width + white)];
            masks.iter().any(|m| {
                let [mw, mb] = [m.bits & ((1 << white) - 1), m.bits >> white];
                w & mw == mw && b & mb == mb
            })
        })
    }
}

/// The square set of `n` bytes at `at`.
fn set_at(bytes: &[u8], at: usize, n: usize) -> Option<Bitboard> {
    let mut word = [0u8; 8];
    word[..n].copy_from_slice(bytes.get(at..at + n)?);
    Some(u64::from_le_bytes(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::SplitMix64;
    use crate::notation::parse_fen_on;
    use crate::pattern::Phases;
    use crate::rules::{Position, Preset, Rules};

    /// A game played at random from `start` for up to `plies` plies: its
    /// summary and phases.
    fn played(
        rules: &Rules,
        start: Position,
        plies: usize,
        rng: &mut SplitMix64,
    ) -> (Summary, Phases) {
        let mut position = start;
        let mut summary = Summary::of([&position]);
        let mut phases = Phases::default();
        phases.add(&position);
        for _ in 0..plies {
            let moves = position.legal_moves(rules);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            summary.add_move(&position, &mv);
            position = position.play(&mv);
            summary.add(&position);
            phases.add(&position);
        }
        (summary, phases)
    }

    /// A summary of men on `men`, no king, every count 0.
    fn of_men(men: [Bitboard; 2]) -> Summary {
        Summary {
            men,
            least: [0; 6],
            ..Summary::default()
        }
    }

    /// Codes and reads back: the same summary, moves' part and phases.
    fn reads_back(summary: &Summary, phases: &[[Bitboard; 2]], n: usize) -> Vec<u8> {
        let bytes = encode(summary, phases, n).expect("a compact shape");
        assert_eq!(bytes.last(), Some(&(COMPACT | n as u8)));
        let compact = Compact::read(&bytes).expect("reads");
        assert_eq!(compact.summary(true), *summary);
        assert_eq!(compact.summary(false).played, None);
        assert_eq!(compact.phases(), phases.len());
        let mut men = vec![[1, 2]];
        compact.phase_men(&mut men);
        assert_eq!(men, phases);
        bytes
    }

    #[test]
    fn games_read_back_on_every_board_with_and_without_kings() {
        let mut rng = SplitMix64::new(25);
        // Which sides had kings: seen at least once each.
        let mut seen = [[false; 2]; 2];
        for preset in [
            Preset::English,
            Preset::International,
            Preset::Spanish,
            Preset::Russian,
        ] {
            let rules = preset.rules();
            let n = rules.geometry.len().div_ceil(8);
            for round in 0..30 {
                let plies = [0, 3, 20, 60, 400][round % 5];
                let (summary, phases) = played(&rules, Position::initial(&rules), plies, &mut rng);
                let bytes = reads_back(&summary, &phases.men, n);
                let kings = summary.kings.map(|k| k != 0);
                seen[usize::from(kings[0])][usize::from(kings[1])] = true;
                // The kings' part only for a side that had kings.
                let kept = kings.iter().filter(|&&k| k).count();
                let width: u32 = summary.men.iter().map(|m| m.count_ones()).sum();
                let phase_bytes = (phases.men.len() * width as usize).div_ceil(8);
                let count_bytes = 1 + usize::from(phases.men.len() >= 0x80);
                let fixed = 1 + 2 * n + 4 + 2 * (1 + 2 * n) + 1;
                let kings_bytes = kept * (n + 4 + 1 + 2 * n);
                assert_eq!(bytes.len(), fixed + kings_bytes + count_bytes + phase_bytes);
            }
        }
        assert_eq!(seen, [[true; 2]; 2]);
    }

    #[test]
    fn edges_read_back() {
        let rules = Preset::International.rules();
        let g = rules.geometry;
        let at = |fen: &str| Position::from_setup(&parse_fen_on(fen, g).unwrap(), &rules).unwrap();
        // A side without men: its masks take no bits.
        let mut rng = SplitMix64::new(3);
        let (summary, phases) = played(&rules, at("W:W31,32,K50:BK5,K6"), 30, &mut rng);
        assert_eq!(summary.men[1], 0);
        reads_back(&summary, &phases.men, 7);
        // Zero phases.
        reads_back(&summary, &[], 7);
        // No man at all, some phases.
        let (summary, phases) = played(&rules, at("W:WK31:BK5"), 20, &mut rng);
        assert_eq!(summary.men, [0, 0]);
        assert!(!phases.men.is_empty());
        reads_back(&summary, &phases.men, 7);
        // All 50 squares for both sides' men (100 bits a phase), and 64
        // squares a side on a board of 8 bytes a set (two words a phase).
        for (n, all) in [(7, g.all()), (8, !0u64), (1, 0xFF)] {
            let summary = of_men([all, all]);
            let phases: Vec<[Bitboard; 2]> = (0..200)
                .map(|_| [rng.next_u64() & all, rng.next_u64() & all])
                .collect();
            reads_back(&summary, &phases, n);
        }
        // More than 127 phases: a count of two bytes.
        let phases = vec![[0, 0]; 300];
        let bytes = reads_back(&of_men([0, 0]), &phases, 4);
        assert_eq!(bytes.len(), 1 + 8 + 4 + 18 + 2 + 1);
    }

    #[test]
    fn what_is_not_a_compact_summary_is_not_read_as_one() {
        let summary = of_men([0xF0F, 0xF0F0]);
        // A phase's men not among the summary's: not coded compactly.
        assert_eq!(encode(&summary, &[[0x1000, 0]], 4), None);
        let older = Summary {
            played: None,
            ..summary
        };
        assert_eq!(encode(&older, &[], 4), None);
        assert_eq!(encode(&summary, &[], 9), None);
        let bytes = encode(&summary, &[[0xF, 0xF0]; 3], 4).unwrap();
        assert!(Compact::read(&bytes).is_some());
        for cut in 0..bytes.len() - 1 {
            let mut cut_short = bytes[..cut].to_vec();
            cut_short.push(COMPACT | 4);
            assert!(Compact::read(&cut_short).is_none(), "{cut}");
        }
        let mut longer = bytes.clone();
        longer.insert(bytes.len() - 1, 0);
        assert!(Compact::read(&longer).is_none());
        for last in [0x80 | 4, COMPACT, COMPACT | 9, 0x7F] {
            let mut other = bytes.clone();
            *other.last_mut().unwrap() = last;
            assert!(Compact::read(&other).is_none(), "{last:#x}");
        }
        let mut flags = bytes.clone();
        flags[0] |= 0x10;
        assert!(Compact::read(&flags).is_none());
        assert!(Compact::read(&[]).is_none());
        assert!(Compact::read(&[COMPACT | 4]).is_none());
    }

    #[test]
    fn phases_whose_bits_include_a_mask_are_those_whose_men_include_its_squares() {
        let mut rng = SplitMix64::new(2026);
        let mut found = [0usize; 2];
        for (n, all) in [(4, 0xFFFF_FFFFu64), (7, (1u64 << 50) - 1), (8, !0u64)] {
            for _ in 0..200 {
                let mut men = [rng.next_u64() & all, rng.next_u64() & all];
                if rng.below(3) == 0 {
                    men[rng.below(2)] = all;
                }
                let summary = of_men(men);
                let phases: Vec<[Bitboard; 2]> = (0..rng.below(12))
                    .map(|_| {
                        let w = (rng.next_u64() | rng.next_u64()) & men[0];
                        [w, (rng.next_u64() | rng.next_u64()) & men[1]]
                    })
                    .collect();
                let bytes = encode(&summary, &phases, n).unwrap();
                let compact = Compact::read(&bytes).unwrap();
                // Needs of a few squares, some of them nowhere.
                let need = |rng: &mut SplitMix64| {
                    [0, 1].map(|side| {
                        let mut squares = 0;
                        for _ in 0..rng.below(3) {
                            squares |= 1u64 << rng.below(64) & all;
                        }
                        squares & if rng.below(8) == 0 { all } else { men[side] }
                    })
                };
                let needs = [need(&mut rng), need(&mut rng)];
                let includes = |m: &[Bitboard; 2], need: &MenNeeded| {
                    need[0] & !m[0] == 0 && need[1] & !m[1] == 0
                };
                let expected = phases
                    .iter()
                    .rposition(|m| needs.iter().any(|need| includes(m, need)));
                let masks: Vec<PhaseMask> = needs
                    .iter()
                    .filter_map(|&need| compact.mask(need))
                    .collect();
                for (&need, mask) in needs.iter().zip(needs.map(|need| compact.mask(need))) {
                    let outside = need[0] & !men[0] != 0 || need[1] & !men[1] != 0;
                    assert_eq!(mask.is_none(), outside);
                }
                assert_eq!(
                    compact.last_with(&masks),
                    expected,
                    "{n} {men:x?} {needs:x?}"
                );
                found[usize::from(expected.is_some())] += 1;
            }
        }
        // Phases were found and not found.
        assert!(found[0] > 50 && found[1] > 50, "{found:?}");
    }
}
