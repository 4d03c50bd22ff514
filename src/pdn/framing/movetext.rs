//! The scan over plain movetext, the loop that sees every byte of most
//! games: byte classes, runs of words passed eight bytes at a time, and
//! where a result, a tag or a comment stops it.

use super::source::RESULT_WINDOW;
use super::state::Scan;
use crate::pdn::lex::{
    BRACKETLESS_LOOKAHEAD, bracketless_tag, draw_ends_game, ends_game_only_at_its_end, is_boundary,
    lone_dash_len, result_len, unknown_move_len,
};

/// Bytes that, inside a word on a line that already holds movetext, change
/// nothing for [`scan_movetext`] but the last byte seen: neither blanks, nor
/// what starts a tag, comment or variation, nor a token boundary (after which
/// a result may start).
pub(super) const PLAIN: [bool; 256] = {
    let mut table = [true; 256];
    let special = b" \t\n\r\x0C[;{}()].!?/";
    let mut k = 0;
    while k < special.len() {
        table[special[k] as usize] = false;
        k += 1;
    }
    table
};

/// [`CLASS`] bit: a byte that changes more than the last byte seen, even
/// inside a line that holds movetext (a newline, what starts a tag, escape
/// line, comment or variation, the end of a variation).
pub(super) const STOP: u8 = 1;

/// [`CLASS`] bit: a byte that may start a result (after a token boundary).
pub(super) const RESULT_START: u8 = 2;

/// [`CLASS`] bit: a token boundary (see `lex::is_boundary`).
pub(super) const BOUNDARY: u8 = 4;

/// [`CLASS`] bit: a digit that may start a result (`0` to `2`).
pub(super) const DIGIT: u8 = 8;

/// [`CLASS`] bit: a byte after which such a digit starts a result (`-`,
/// `/`).
pub(super) const JOINER: u8 = 16;

const _: () =
    assert!(BOUNDARY >> 1 == RESULT_START && DIGIT >> 2 == RESULT_START && JOINER >> 1 == DIGIT);

/// What each byte may change for [`scan_movetext`], as bits.
pub(super) const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let stops = b"\n[%;{()";
    let mut k = 0;
    while k < stops.len() {
        table[stops[k] as usize] |= STOP;
        k += 1;
    }
    let starts = b"012*-\xC2\xBD";
    k = 0;
    while k < starts.len() {
        table[starts[k] as usize] |= RESULT_START;
        k += 1;
    }
    let digits = b"012";
    k = 0;
    while k < digits.len() {
        table[digits[k] as usize] |= DIGIT;
        k += 1;
    }
    let boundaries = b" \t\n\r\x0C.)(}]!?/";
    k = 0;
    while k < boundaries.len() {
        table[boundaries[k] as usize] |= BOUNDARY;
        k += 1;
    }
    table[b'-' as usize] |= JOINER;
    table[b'/' as usize] |= JOINER;
    table
};

/// Why [`scan_movetext`] stopped.
pub(super) enum Stop {
    /// The window ends (or lookahead is needed): refill and go on.
    Refill,
    /// A result was read: the game ends.
    Result,
    /// A tag, escape line, line comment or comment starts here.
    Special,
}

/// Scans plain movetext in `w` (blanks, moves, numbers, parentheses) up to
/// something that needs its own reader, a result, or the end of the window.
/// Returns how many bytes were passed (all kept) and why it stopped.
pub(super) fn scan_movetext(
    w: &[u8],
    eof: bool,
    column_one: bool,
    s: &mut Scan,
    movetext: &mut bool,
) -> (usize, Stop) {
    // Locals, written back once: this loop sees every byte of the movetext.
    let mut column_one = column_one;
    let mut line_blank = s.line_blank;
    let mut blank_line = s.blank_line;
    let mut depth = s.depth;
    let mut prev = s.prev;
    let mut seen = *movetext;
    let mut i = 0;
    let stop = loop {
        if !line_blank && !column_one && seen {
            // Inside a line that holds movetext, blanks and the bytes of
            // words change nothing but the last byte seen: pass them up to
            // a byte that may (see `CLASS`).
            i = pass_words_noting(w, i, &mut prev);
        }
        let Some(&b) = w.get(i) else {
            break Stop::Refill;
        };
        match b {
            b'\n' => {
                blank_line |= line_blank;
                line_blank = true;
                column_one = true;
                prev = Some(b);
                i += 1;
                continue;
            }
            // The blanks of `u8::is_ascii_whitespace`, as the grammar sees them
            // (a vertical tab is not one).
            b' ' | b'\t' | b'\r' | b'\x0C' => {
                column_one = false;
                prev = Some(b' ');
                i += 1;
                continue;
            }
            b'[' if line_blank || !seen => break Stop::Special,
            b'%' if column_one => break Stop::Special,
            b';' | b'{' => break Stop::Special,
            _ => {}
        }
        if !seen
            && line_blank
            && b.is_ascii_alphabetic()
            && let Some(stop) = bracketless_stop(w, i, eof)
        {
            break stop;
        }
        column_one = false;
        line_blank = false;
        seen = true;
        if depth == 0 && matches!(b, b'0'..=b'2' | b'*' | b'-' | 0xC2 | 0xBD) && is_boundary(prev) {
            match at_result(w, i, b, eof) {
                AtResult::Refill => break Stop::Refill,
                AtResult::UnknownMove(n) => {
                    // `- -`, an unknown move: its second `-` is no result.
                    i += n;
                    prev = Some(b'-');
                    continue;
                }
                AtResult::Result(n) => {
                    i += n;
                    break Stop::Result;
                }
                AtResult::Neither => {}
            }
        }
        match b {
            b'(' => depth = depth.saturating_add(1),
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        prev = Some(b);
        i += 1;
        // The rest of a word (`1-15` of `11-15`) changes nothing but `prev`:
        // pass it at once. After a byte that is no token boundary, no byte
        // of the run may start a result or anything else.
        if !is_boundary(prev) {
            i = pass_plain(w, i, &mut prev);
        }
    };
    s.line_blank = line_blank;
    s.blank_line = blank_line;
    s.depth = depth;
    s.prev = prev;
    *movetext = seen;
    (i, stop)
}

/// [`pass_words`] from `i`, with `prev` the last byte seen (updated);
/// returns where it stopped.
#[inline]
pub(super) fn pass_words_noting(w: &[u8], i: usize, prev: &mut Option<u8>) -> usize {
    let last = if is_boundary(*prev) { BOUNDARY } else { 0 };
    let end = pass_words(w, i, last);
    if end > i {
        *prev = Some(w[end - 1]);
    }
    end
}

/// Passes the [`PLAIN`] bytes from `i`, with `prev` the last byte seen
/// (updated); returns where the run ends.
#[inline]
pub(super) fn pass_plain(w: &[u8], i: usize, prev: &mut Option<u8>) -> usize {
    let run = w[i..].iter().take_while(|&&c| PLAIN[c as usize]).count();
    if run > 0 {
        *prev = Some(w[i + run - 1]);
    }
    i + run
}

/// Whether [`scan_movetext`] stops at `w[i]`, a letter that starts a line
/// among the header's lines, for a tag line that lost its `[`: the whole
/// line must be seen.
#[inline]
pub(super) fn bracketless_stop(w: &[u8], i: usize, eof: bool) -> Option<Stop> {
    if i + BRACKETLESS_LOOKAHEAD > w.len() && !eof && i > 0 {
        return Some(Stop::Refill);
    }
    bracketless_tag(&w[i..], eof).then_some(Stop::Special)
}

/// What stands at a byte that may start a result, for [`scan_movetext`].
pub(super) enum AtResult {
    /// The window ends too soon to tell: refill and look again.
    Refill,
    /// `- -`, an unknown move, this many bytes long.
    UnknownMove(usize),
    /// A result that ends the game, this many bytes long.
    Result(usize),
    /// Neither: the byte is read as any other.
    Neither,
}

/// What stands at `w[i]` (`b`), a byte that may start a result after a
/// token boundary at variation depth 0 (`eof`: `w` runs to the end of the
/// input).
#[inline]
pub(super) fn at_result(w: &[u8], i: usize, b: u8, eof: bool) -> AtResult {
    // Enough of the window for any result and, after a `1-1` or a lone
    // `-`, for the whole look ahead (so that it sees the same bytes however
    // the input arrives).
    if i + RESULT_WINDOW > w.len() && !eof && i > 0 {
        return AtResult::Refill;
    }
    if b == b'-'
        && let Some(n) = unknown_move_len(&w[i..])
    {
        return AtResult::UnknownMove(n);
    }
    let found = if b == b'-' {
        lone_dash_len(&w[i..])
    } else {
        result_len(&w[i..])
    };
    match found {
        Some(n) if !ends_game_only_at_its_end(&w[i..i + n]) || draw_ends_game(&w[i + n..], eof) => {
            AtResult::Result(n)
        }
        _ => AtResult::Neither,
    }
}

/// Where [`scan_movetext`]'s pass over a line holding movetext stops,
/// from `i`: at the first byte that may change more than the last byte
/// seen (a [`STOP`] byte, or a byte that may start a result after a token
/// boundary; a digit does so only before `-` or `/`, see
/// `lex::result_len`, the end of `w` counting as one). `last` is the class
/// of the byte before `i` (only its [`BOUNDARY`] bit counts).
///
/// Eight bytes are classed at a time, as lanes of a `u64`, without a
/// branch per byte; the last few bytes of `w` one at a time
/// ([`pass_words_bytewise`], the same rule).
pub(super) fn pass_words(w: &[u8], mut i: usize, mut last: u8) -> usize {
    const LANES: u64 = u64::from_le_bytes([1; 8]);
    // Each chunk needs the byte after its eighth.
    while let Some(chunk) = w.get(i..i + 9) {
        let mut class = 0u64;
        for (lane, &b) in chunk[..8].iter().enumerate() {
            class |= u64::from(CLASS[b as usize]) << (8 * lane);
        }
        let before = (class << 8) | u64::from(last);
        let after = (class >> 8) | (u64::from(CLASS[chunk[8] as usize]) << 56);
        // Bits moved by one or two stay within their lane (see the
        // assertion on the bits).
        let starts = class & ((before & (BOUNDARY as u64 * LANES)) >> 1);
        let joined = (after & (JOINER as u64 * LANES)) >> 1;
        let digit_alone = (class & (DIGIT as u64 * LANES) & !joined) >> 2;
        let stops = (class & (STOP as u64 * LANES)) | (starts & !digit_alone);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        last = (class >> 56) as u8;
        i += 8;
    }
    pass_words_bytewise(w, i, last)
}

/// [`pass_words`] one byte at a time.
pub(super) fn pass_words_bytewise(w: &[u8], mut i: usize, mut last: u8) -> usize {
    while let Some(&b) = w.get(i) {
        let class = CLASS[b as usize];
        let next = w.get(i + 1).map_or(JOINER, |&n| CLASS[n as usize]);
        let starts = class & ((last & BOUNDARY) >> 1);
        let digit_alone = (class & DIGIT & !((next & JOINER) >> 1)) >> 2;
        if (class & STOP) | (starts & !digit_alone) != 0 {
            break;
        }
        last = class;
        i += 1;
    }
    i
}
