//! The short ways through the commonest text: plain moves (`23-18`,
//! `15x22`, two to four numbers joined without blanks) and plain tags
//! (`[Name "value"]` with no escape), each read in one pass. Each finds
//! exactly what the general productions would, or leaves the text to them.

use std::ops::Range;

use crate::notation::{INLINE_SQUARES, MoveToken, SquareToken, Squares};
use crate::pdn::lex::is_name_byte;

/// The commonest moves, two to four numbers joined by `-`, `x`, `X` or `:`
/// without blanks (`23-18`, `15x22`, `26x17x10x1`), read without the
/// general parser: they are most of the tokens of most files. Returns exactly what
/// [`MoveToken::parse_prefix`] would, or `None` to leave the token to it.
#[inline]
pub(super) fn plain_move(text: &[u8]) -> Option<(MoveToken, usize)> {
    let (first, end) = square_number(text, 0)?;
    plain_move_after(text, first, end).map(|plain| (plain.token, plain.used))
}

/// [`JOINERS`] value of the joiner of a plain move.
pub(super) const PLAIN_JOINER: u8 = 1;

/// [`JOINERS`] value of the joiners of a capture.
pub(super) const CAPTURE_JOINER: u8 = 2;

/// For each byte, whether it joins the squares of a plain move
/// ([`plain_move`]): `-`, or a capture's `x`, `X` or `:`; 0 for the others.
pub(super) const JOINERS: [u8; 256] = {
    let mut table = [0; 256];
    table[b'-' as usize] = PLAIN_JOINER;
    table[b'x' as usize] = CAPTURE_JOINER;
    table[b'X' as usize] = CAPTURE_JOINER;
    table[b':' as usize] = CAPTURE_JOINER;
    table
};

/// A number of one to three digits at `from`, and where it ends.
#[inline(always)]
pub(super) fn square_number(text: &[u8], from: usize) -> Option<(u16, usize)> {
    let digit = |k: usize| match text.get(k) {
        Some(&d) if d.is_ascii_digit() => Some(u16::from(d - b'0')),
        _ => None,
    };
    let mut value = digit(from)?;
    let Some(d) = digit(from + 1) else {
        return Some((value, from + 1));
    };
    value = value * 10 + d;
    let Some(d) = digit(from + 2) else {
        return Some((value, from + 2));
    };
    if digit(from + 3).is_some() {
        return None;
    }
    Some((value * 10 + d, from + 3))
}

/// A move read by [`plain_move_after`].
pub(super) struct PlainMove {
    pub(super) token: MoveToken,
    /// Bytes of the token.
    pub(super) used: usize,
    /// Where the next byte that is not a space or a tab stands.
    pub(super) next: usize,
    /// The highest of its squares.
    pub(super) max_square: u16,
}

/// [`plain_move`], its first number (`first`, ending at `end`) read.
#[inline(always)]
pub(super) fn plain_move_after(text: &[u8], first: u16, end: usize) -> Option<PlainMove> {
    // Held in place up to the squares a token keeps inline; longer chains
    // go to the general parser.
    let mut numbers = [0; INLINE_SQUARES];
    numbers[0] = first;
    let mut max_square = first;
    let mut end = end;
    let mut count = 1;
    let mut capture = false;
    while let Some(&joiner) = text.get(end) {
        // One branch, whichever the joiner: `-` and captures mix unpredictably.
        let kind = JOINERS[joiner as usize];
        if kind == 0 {
            break;
        }
        capture |= kind == CAPTURE_JOINER;
        let (square, next) = square_number(text, end + 1)?;
        *numbers.get_mut(count)? = square;
        max_square = max_square.max(square);
        count += 1;
        end = next;
    }
    if count < 2 {
        return None;
    }
    // Anything that could continue the move goes to the general parser.
    let mut next = end;
    match text.get(end) {
        None => {}
        Some(b' ' | b'\t') => {
            next += text[end..]
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t'))
                .unwrap_or(text.len() - end);
            if matches!(text.get(next), Some(b'-' | b'x' | b'X' | b':' | 0xC3)) {
                return None;
            }
        }
        Some(b) if b.is_ascii_alphanumeric() || matches!(b, b'-' | b':' | 0xC3) => return None,
        Some(_) => {}
    }
    let squares = Squares::from_buf_and_len(numbers.map(SquareToken::Number), count);
    Some(PlainMove {
        token: MoveToken { squares, capture },
        used: end,
        next,
        max_square,
    })
}

/// Where the tag starting at `at` ends, as the framing sees it: after
/// its first `]` outside quotes (where `\` escapes the byte after it), or
/// at the end of its line.
#[inline]
pub(super) fn tag_end(bytes: &[u8], at: usize) -> usize {
    let mut k = at + 1;
    // Outside quotes, from `k`: only a newline, `]` and `"` matter.
    while let Some(found) = bytes
        .get(k..)
        .and_then(|b| memchr::memchr3(b'\n', b']', b'"', b))
    {
        k += found;
        match bytes[k] {
            b'\n' => return k,
            b']' => return k + 1,
            _ => {}
        }
        // Inside quotes: a newline, the closing `"`, or `\` escaping the
        // byte after it (but not a newline).
        k += 1;
        loop {
            let Some(found) = bytes
                .get(k..)
                .and_then(|b| memchr::memchr3(b'\n', b'"', b'\\', b))
            else {
                return bytes.len();
            };
            k += found;
            match bytes[k] {
                b'\n' => return k,
                b'"' => break,
                _ => match bytes.get(k + 1) {
                    Some(b'\n') => return k + 1,
                    Some(_) => k += 2,
                    None => return bytes.len(),
                },
            }
        }
        k += 1;
    }
    bytes.len()
}

/// Where the parts of a plain tag stand (see [`plain_tag`]).
#[derive(Debug, PartialEq)]
pub(super) struct PlainTag {
    pub(super) name: Range<usize>,
    pub(super) value: Range<usize>,
    /// Just after its `]`.
    pub(super) end: usize,
}

/// The tag at `at` when it is plain: `[`, a name, blanks, a quoted value
/// holding no backslash, and `]` just after the value, on one line. Such
/// a tag reads with no warning, its value as written: this finds what
/// [`tag_end`], [`tag_pair`](super::productions::tag_pair) and
/// [`unescape`](super::productions::unescape) would, in one pass.
#[inline]
pub(super) fn plain_tag(bytes: &[u8], at: usize) -> Option<PlainTag> {
    let name_at = at + 1;
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let rest = &bytes[name_at..];
    let name_len = rest.iter().take_while(|&&b| is_name_byte(b)).count();
    let quote = name_len
        + rest[name_len..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    if name_len == 0 || rest.get(quote) != Some(&b'"') {
        return None;
    }
    let value_len = rest[quote + 1..]
        .iter()
        .position(|&b| matches!(b, b'"' | b'\\' | b'\n'))?;
    let close = quote + 1 + value_len;
    if rest[close] != b'"' || rest.get(close + 1) != Some(&b']') {
        return None;
    }
    Some(PlainTag {
        name: name_at..name_at + name_len,
        value: name_at + quote + 1..name_at + close,
        end: name_at + close + 2,
    })
}
