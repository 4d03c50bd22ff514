//! The nom productions of the grammar, one small parser per production,
//! each headed by its production as a comment, and the byte and text
//! helpers they share (what ends a move or a word, text cut to the limit,
//! short quotes for messages). Nothing here knows the reading state.

use compact_str::CompactString;
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till, take_while1};
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{map_res, recognize};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use crate::pdn::game::MoveNumber;
use crate::pdn::lex::is_name_byte;
use crate::pdn::limits::MAX_TEXT_LEN;

pub(super) type Res<'a, T> = IResult<&'a str, T>;

// blank := " " | "\t"
#[inline]
pub(super) fn blanks(i: &str) -> Res<'_, &str> {
    space0(i)
}

// name := [A-Za-z0-9_-]+
#[inline]
pub(super) fn tag_name(i: &str) -> Res<'_, &str> {
    // Name bytes are ASCII: the cut is a character boundary.
    let n = i.bytes().take_while(|&b| is_name_byte(b)).count();
    if n == 0 {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::TakeWhile1,
        )));
    }
    Ok((&i[n..], &i[..n]))
}

// value := '"' (escape | [^"\\\n])* '"'     (an unclosed value ends with the line)
#[inline]
pub(super) fn tag_value(i: &str) -> Res<'_, (&str, bool)> {
    let (rest, _) = char('"')(i)?;
    let bytes = rest.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' if k + 1 < bytes.len() && bytes[k + 1] != b'\n' => k += 2,
            b'"' => return Ok((&rest[k + 1..], (&rest[..k], true))),
            b'\n' => break,
            _ => k += 1,
        }
    }
    let value = rest[..k].trim_end_matches('\r');
    Ok((&rest[k..], (value, false)))
}

/// A tag as written, before unescaping.
pub(super) struct RawTag<'a> {
    /// Whether it lacks its opening `[`.
    pub(super) bracketless: bool,
    pub(super) name: &'a str,
    pub(super) value: &'a str,
    pub(super) closed_value: bool,
    /// Text between the value and `]` (should be none).
    pub(super) extra: &'a str,
    pub(super) closed: bool,
}

// tag := "[" blank* name blank* value blank* "]"      (committed after "[")
//        | name blank* value blank* "]"             (a tag line that lost its "[";
//                                                   the caller checks the line)
#[inline]
pub(super) fn tag_pair(i: &str) -> Res<'_, RawTag<'_>> {
    let error = nom::error::Error::new(i, nom::error::ErrorKind::Char);
    let bytes = i.as_bytes();
    let bracketless = match bytes.first() {
        Some(b'[') => false,
        Some(b) if b.is_ascii_alphabetic() => true,
        _ => return Err(nom::Err::Error(error)),
    };
    // Committed after the `[`.
    let fail = || nom::Err::Failure(error.clone());
    let blanks = |from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    };
    let name_at = if bracketless { 0 } else { blanks(1) };
    let Ok((_, name)) = tag_name(&i[name_at..]) else {
        return Err(fail());
    };
    let name_len = name.len();
    let value_at = blanks(name_at + name_len);
    let Ok((rest, (value, closed_value))) = tag_value(&i[value_at..]) else {
        return Err(fail());
    };
    let extra_len = rest
        .bytes()
        .position(|b| b == b']' || b == b'\n')
        .unwrap_or(rest.len());
    let closed = rest.as_bytes().get(extra_len) == Some(&b']');
    Ok((
        &rest[extra_len + usize::from(closed)..],
        RawTag {
            bracketless,
            name,
            value,
            closed_value,
            extra: rest[..extra_len].trim(),
            closed,
        },
    ))
}

/// A tag value with `\"` and `\\` unescaped; other backslashes kept.
#[inline]
pub(super) fn unescape(raw: &str) -> CompactString {
    if !raw.contains('\\') {
        return raw.into();
    }
    let mut out = CompactString::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.clone().next() {
                Some(next @ ('"' | '\\')) => {
                    out.push(next);
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

// number := digit+ "." "."*       (two or more dots: the second side's move)
//
// Read by hand: it is tried at every token that starts with a digit.
#[inline]
pub(super) fn move_number(i: &str) -> Res<'_, MoveNumber> {
    let bytes = i.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let fail = || {
        Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Digit,
        )))
    };
    if digits == 0 || bytes.get(digits) != Some(&b'.') {
        return fail();
    }
    let dots = bytes[digits..].iter().take_while(|&&b| b == b'.').count();
    let Some(number) = bytes[..digits].iter().try_fold(0u32, |n, d| {
        n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    }) else {
        return fail();
    };
    Ok((
        &i[digits + dots..],
        MoveNumber {
            number,
            ellipsis: dots > 1,
        },
    ))
}

// ellipsis := "..."
#[inline]
pub(super) fn ellipsis(i: &str) -> Res<'_, &str> {
    tag("...")(i)
}

// nag := "$" digit+
#[inline]
pub(super) fn nag(i: &str) -> Res<'_, u32> {
    preceded(char('$'), map_res(digit1, str::parse::<u32>)).parse(i)
}

// mark := [!?]+
#[inline]
pub(super) fn mark(i: &str) -> Res<'_, &str> {
    take_while1(|c| c == '!' || c == '?')(i)
}

// paren-mark := "(" blank* [!?]+ blank* ")"
#[inline]
pub(super) fn paren_mark(i: &str) -> Res<'_, &str> {
    recognize((char('('), blanks, mark, blanks, char(')'))).parse(i)
}

// unknown := "-" blank* "-"
#[inline]
pub(super) fn unknown_move(i: &str) -> Res<'_, &str> {
    recognize((char('-'), blanks, char('-'))).parse(i)
}

// setup := "/" letter [^/\n(){}[];]* "/"   (a command name first, as in `/FEN "…"/`;
//                                          no bracket, which the framing would count)
#[inline]
pub(super) fn setup(i: &str) -> Res<'_, &str> {
    delimited(
        char('/'),
        recognize((
            nom::character::complete::satisfy(|c| c.is_ascii_alphabetic()),
            take_till(|c: char| c == '/' || c == '\n' || "(){}[];".contains(c)),
        )),
        char('/'),
    )
    .parse(i)
}

// fen-command := "FEN" blank* '"' [^"]* '"'
#[inline]
pub(super) fn fen_command(i: &str) -> Res<'_, &str> {
    preceded(
        (tag_no_case("FEN"), blanks),
        alt((
            delimited(char('"'), take_till(|c| c == '"'), char('"')),
            // Unquoted, as some programs write it.
            take_while1(|c: char| !c.is_whitespace()),
        )),
    )
    .parse(i)
}

// line-comment := ";" [^\n]*      escape := "%" [^\n]*   (the caller checks column 1)
#[inline]
pub(super) fn rest_of_line(i: &str) -> Res<'_, &str> {
    preceded(alt((char(';'), char('%'))), take_till(|c| c == '\n')).parse(i)
}

/// How a brace comment ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum CommentEnd {
    /// At its matching `}`.
    Closed,
    /// Its braces do not balance: read up to its first `}`.
    Unbalanced,
    /// At the end of the game's text.
    Unterminated,
}

// comment := "{" (comment | [^{}])* "}"
//
// Nested braces are counted. When they never balance, the comment is read
// flat, up to its first `}`; when there is no `}` at all it runs to the end
// of the game's text. Returns the inner text and how the comment ended.
#[inline]
pub(super) fn brace_comment(i: &str) -> Res<'_, (&str, CommentEnd)> {
    let (body, _) = char('{')(i)?;
    let bytes = body.as_bytes();
    let mut depth = 1u32;
    let mut first_close = None;
    for (k, b) in bytes.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                first_close.get_or_insert(k);
                depth -= 1;
                if depth == 0 {
                    return Ok((&body[k + 1..], (&body[..k], CommentEnd::Closed)));
                }
            }
            _ => {}
        }
    }
    Ok(match first_close {
        Some(k) => (&body[k + 1..], (&body[..k], CommentEnd::Unbalanced)),
        None => (&body[body.len()..], (body, CommentEnd::Unterminated)),
    })
}

/// Whether `b` ends a move token without being glued text.
#[inline]
pub(super) fn ends_move(b: u8) -> bool {
    b.is_ascii_whitespace()
        || matches!(
            b,
            b'{' | b'}' | b'(' | b')' | b'[' | b';' | b'!' | b'?' | b'$'
        )
}

/// Whether `b` ends a word of text outside braces. A result followed by
/// any of these is a result (see `lex`), so no word reads as one.
#[inline]
pub(super) fn ends_word(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b';')
}

/// Whether a word that is not a move was probably meant as one (so it
/// stands as a ply, for replay to report): it starts with a letter or digit
/// and holds a digit.
#[inline]
pub(super) fn meant_as_move(word: &str) -> bool {
    word.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric())
        && word.bytes().any(|b| b.is_ascii_digit())
}

/// `text` cut to the text limit on a character boundary.
#[inline]
pub(super) fn limited(text: &str) -> &str {
    if text.len() <= MAX_TEXT_LEN {
        return text;
    }
    let mut cut = MAX_TEXT_LEN;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}

/// `text` with CRLF read as LF.
#[inline]
pub(super) fn normalise_newlines(text: &str) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n")
    } else {
        text.to_string()
    }
}

/// A short quote of `text` for a message.
#[inline]
pub(super) fn quote(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(40)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}
