//! The grammar of one game, read from its decoded text.
//!
//! Small nom parsers, one per production, each headed by its production;
//! a driver loop dispatches on the first byte of each element and builds
//! the lines of play with an explicit stack, so that deeply nested input
//! costs no recursion. Everything the grammar meets becomes an item or a
//! diagnostic: nothing is dropped silently except blanks and `%` escape
//! lines (which PDN asks readers to ignore).
//!
//! ```text
//! game        := (blank | escape | comment | tag)* movetext
//! tag         := "[" name blank* value blank* "]"
//! movetext    := (blank | escape | comment | line-comment | number | ellipsis
//!                 | move | unknown | nag | mark | setup | variation)* result?
//! variation   := "(" movetext ")"
//! ```

use std::ops::Range;

use compact_str::CompactString;
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till, take_while1};
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{map_res, recognize};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use super::decode::{GameText, Locator, MovetextMap, decode};
use super::encoding::Choice;
use super::error::{Diagnostic, Note, Position};
use super::framing::RawGame;
use super::game::{
    Comment, CommentKind, Game, GameResult, Hints, Line, MoveNumber, Nag, Ply, PlyText, PlyToken,
    SetupCommand, SquareSummary, Tag, TextEncoding, hints,
};
use super::lex::{
    bracketless_tag, ends_game_only_at_its_end, glued_result_len, is_boundary, is_name_byte,
    lone_dash_len, result_len,
};
use super::{MAX_DIAGNOSTICS, MAX_ITEMS, MAX_TEXT_LEN, MAX_TOKEN_LEN, MAX_VARIATION_DEPTH};
use crate::notation::{INLINE_SQUARES, MoveToken, SquareToken, Squares, TokenError};

type Res<'a, T> = IResult<&'a str, T>;

// blank := " " | "\t"
fn blanks(i: &str) -> Res<'_, &str> {
    space0(i)
}

// name := [A-Za-z0-9_-]+
fn tag_name(i: &str) -> Res<'_, &str> {
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
fn tag_value(i: &str) -> Res<'_, (&str, bool)> {
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
struct RawTag<'a> {
    /// Whether it lacks its opening `[`.
    bracketless: bool,
    name: &'a str,
    value: &'a str,
    closed_value: bool,
    /// Text between the value and `]` (should be none).
    extra: &'a str,
    closed: bool,
}

// tag := "[" blank* name blank* value blank* "]"      (committed after "[")
//        | name blank* value blank* "]"             (a tag line that lost its "[";
//                                                   the caller checks the line)
fn tag_pair(i: &str) -> Res<'_, RawTag<'_>> {
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
fn unescape(raw: &str) -> CompactString {
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
fn move_number(i: &str) -> Res<'_, MoveNumber> {
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
fn ellipsis(i: &str) -> Res<'_, &str> {
    tag("...")(i)
}

// nag := "$" digit+
fn nag(i: &str) -> Res<'_, u32> {
    preceded(char('$'), map_res(digit1, str::parse::<u32>)).parse(i)
}

// mark := [!?]+
fn mark(i: &str) -> Res<'_, &str> {
    take_while1(|c| c == '!' || c == '?')(i)
}

// paren-mark := "(" blank* [!?]+ blank* ")"
fn paren_mark(i: &str) -> Res<'_, &str> {
    recognize((char('('), blanks, mark, blanks, char(')'))).parse(i)
}

// unknown := "-" blank* "-"
fn unknown_move(i: &str) -> Res<'_, &str> {
    recognize((char('-'), blanks, char('-'))).parse(i)
}

// setup := "/" letter [^/\n(){}[];]* "/"   (a command name first, as in `/FEN "…"/`;
//                                          no bracket, which the framing would count)
fn setup(i: &str) -> Res<'_, &str> {
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
fn fen_command(i: &str) -> Res<'_, &str> {
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
fn rest_of_line(i: &str) -> Res<'_, &str> {
    preceded(alt((char(';'), char('%'))), take_till(|c| c == '\n')).parse(i)
}

/// How a brace comment ended.
#[derive(Debug, PartialEq, Eq)]
enum CommentEnd {
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
fn brace_comment(i: &str) -> Res<'_, (&str, CommentEnd)> {
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
fn ends_move(b: u8) -> bool {
    b.is_ascii_whitespace()
        || matches!(
            b,
            b'{' | b'}' | b'(' | b')' | b'[' | b';' | b'!' | b'?' | b'$'
        )
}

/// Whether `b` ends a word of text outside braces. A result followed by
/// any of these is a result (see `lex`), so no word reads as one.
fn ends_word(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b';')
}

/// Whether a word that is not a move was probably meant as one (so it
/// stands as a ply, for replay to report): it starts with a letter or digit
/// and holds a digit.
fn meant_as_move(word: &str) -> bool {
    word.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric())
        && word.bytes().any(|b| b.is_ascii_digit())
}

/// The commonest moves, two to four numbers joined by `-`, `x`, `X` or `:`
/// without blanks (`23-18`, `15x22`, `26x17x10x1`), read without the
/// general parser: they are most of the tokens of most files. Returns exactly what
/// [`MoveToken::parse_prefix`] would, or `None` to leave the token to it.
fn plain_move(text: &[u8]) -> Option<(MoveToken, usize)> {
    let (first, end) = square_number(text, 0)?;
    plain_move_after(text, first, end).map(|plain| (plain.token, plain.used))
}

/// [`JOINERS`] value of the joiner of a plain move.
const PLAIN_JOINER: u8 = 1;
/// [`JOINERS`] value of the joiners of a capture.
const CAPTURE_JOINER: u8 = 2;

/// For each byte, whether it joins the squares of a plain move
/// ([`plain_move`]): `-`, or a capture's `x`, `X` or `:`; 0 for the others.
const JOINERS: [u8; 256] = {
    let mut table = [0; 256];
    table[b'-' as usize] = PLAIN_JOINER;
    table[b'x' as usize] = CAPTURE_JOINER;
    table[b'X' as usize] = CAPTURE_JOINER;
    table[b':' as usize] = CAPTURE_JOINER;
    table
};

/// A number of one to three digits at `from`, and where it ends.
#[inline(always)]
fn square_number(text: &[u8], from: usize) -> Option<(u16, usize)> {
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
struct PlainMove {
    token: MoveToken,
    /// Bytes of the token.
    used: usize,
    /// Where the next byte that is not a space or a tab stands.
    next: usize,
    /// The highest of its squares.
    max_square: u16,
}

/// [`plain_move`], its first number (`first`, ending at `end`) read.
#[inline(always)]
fn plain_move_after(text: &[u8], first: u16, end: usize) -> Option<PlainMove> {
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

/// `text` cut to the text limit on a character boundary.
fn limited(text: &str) -> &str {
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
fn normalise_newlines(text: &str) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n")
    } else {
        text.to_string()
    }
}

/// A short quote of `text` for a message.
fn quote(text: &str) -> String {
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

/// A variation being read.
struct Open {
    line: Line,
    /// Offset of its `(`.
    at: usize,
}

/// Where the tag starting at `at` ends, as the framing sees it: after
/// its first `]` outside quotes (where `\` escapes the byte after it), or
/// at the end of its line.
fn tag_end(bytes: &[u8], at: usize) -> usize {
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
struct PlainTag {
    name: Range<usize>,
    value: Range<usize>,
    /// Just after its `]`.
    end: usize,
}

/// The tag at `at` when it is plain: `[`, a name, blanks, a quoted value
/// holding no backslash, and `]` just after the value, on one line. Such
/// a tag reads with no warning, its value as written: this finds what
/// [`tag_end`], [`tag_pair`] and [`unescape`] would, in one pass.
fn plain_tag(bytes: &[u8], at: usize) -> Option<PlainTag> {
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

/// The state of reading one game.
struct Reading<'t> {
    text: &'t str,
    bytes: &'t [u8],
    i: usize,
    loc: Locator<'t>,
    first_column: u64,
    notes: Vec<Note>,
    items: usize,
    tags: Vec<Tag>,
    main: Line,
    open: Vec<Open>,
    number: Option<MoveNumber>,
    result: Option<GameResult>,
    first_fen_command: Option<SetupCommand>,
    /// Where the movetext starts: plies hold their offset from there.
    movetext_at: usize,
    /// The squares of the main line's moves so far.
    squares: SquareSummary,
    /// Whether a capture of some line starts where the capture before it
    /// ended (see [`Hints::split_captures`](super::Hints::split_captures)).
    split_captures: bool,
    /// Whether the main line has a set-up command after a move.
    later_setup: bool,
    /// The framing ended the game on a result, which ends its text.
    ends_on_result: bool,
    /// Whether runs of plain movetext ([`Reading::plain_run`]) and plain
    /// tags ([`plain_tag`]) take the short way; off only to test that both
    /// ways read the same.
    short_ways: bool,
}

impl<'t> Reading<'t> {
    /// The state at the start of a game's text (`start`: where it starts;
    /// `notes`: those found so far; `ends_on_result`: the framing ended it
    /// on a result).
    fn new(
        text: &'t GameText,
        start: Position,
        notes: Vec<Note>,
        ends_on_result: bool,
        short_ways: bool,
    ) -> Reading<'t> {
        Reading {
            text: &text.text,
            bytes: text.text.as_bytes(),
            i: 0,
            loc: Locator::new(text),
            first_column: start.column,
            notes,
            items: 0,
            tags: Vec::new(),
            main: Line::default(),
            open: Vec::new(),
            number: None,
            result: None,
            first_fen_command: None,
            movetext_at: 0,
            squares: SquareSummary::default(),
            split_captures: false,
            later_setup: false,
            ends_on_result,
            short_ways,
        }
    }

    /// Reads the whole game: its tags, then its movetext (`truncated`: the
    /// game was cut at the length limit, already reported). Returns where
    /// the movetext starts and ends.
    fn read(&mut self, truncated: bool) -> (usize, usize) {
        let movetext_at = self.header();
        self.movetext_at = movetext_at;
        for note in repeated_tags(&self.tags) {
            self.note(note);
        }
        // Rarely fewer than five bytes of movetext per move (`1. 9-13 22-18 `
        // takes 7.5): one allocation, usually.
        self.main
            .plies
            .reserve(((self.bytes.len() - movetext_at) / 5).min(1024));
        self.main.position = self.loc.at(movetext_at);
        self.movetext();
        self.close_all();
        let end = self.text.trim_end().len().max(movetext_at);
        // A game cut at the length limit has already been reported.
        if self.result.is_none() && !truncated {
            self.warn(end, "no result terminator: the game ends here");
        }
        (movetext_at, end)
    }

    /// The hints the game's tags and moves give, their warnings noted.
    fn hints(&mut self) -> Hints {
        let (mut hints, warnings) =
            hints(&self.tags, &self.squares, self.first_fen_command.as_ref());
        hints.split_captures = self.split_captures;
        hints.later_setup = self.later_setup;
        for (position, message) in warnings {
            self.note(Note::warning(position, message));
        }
        hints
    }

    fn note(&mut self, note: Note) {
        if self.notes.len() < MAX_DIAGNOSTICS {
            self.notes.push(note);
        } else if self.notes.len() == MAX_DIAGNOSTICS {
            let position = note.position;
            self.notes.push(Note::warning(
                position,
                format!(
                    "more than {MAX_DIAGNOSTICS} diagnostics in this game: the rest are not shown"
                ),
            ));
        }
    }

    fn warn(&mut self, at: usize, message: impl Into<String>) {
        let position = self.loc.at(at);
        self.note(Note::warning(position, message));
    }

    fn error(&mut self, at: usize, message: impl Into<String>) {
        let position = self.loc.at(at);
        self.note(Note::error(position, message));
    }

    /// Counts an item; false (and a warning, once) past the limit.
    fn room(&mut self, at: usize) -> bool {
        self.items += 1;
        if self.items == MAX_ITEMS + 1 {
            self.warn(
                at,
                format!("more than {MAX_ITEMS} moves, comments and annotations: the rest of the game is kept as text only"),
            );
        }
        self.items <= MAX_ITEMS
    }

    fn rest(&self) -> &'t str {
        &self.text[self.i..]
    }

    /// Moves to where `rest` (a suffix of the text) starts.
    fn seek(&mut self, rest: &str) {
        self.i = self.text.len() - rest.len();
    }

    fn line(&mut self) -> &mut Line {
        match self.open.last_mut() {
            Some(open) => &mut open.line,
            None => &mut self.main,
        }
    }

    fn at_column_one(&self, at: usize) -> bool {
        if at == 0 {
            self.first_column == 1
        } else {
            self.bytes[at - 1] == b'\n'
        }
    }

    /// Whether only blanks stand between the start of `at`'s line (or of
    /// the text) and `at`, as the framing counts them.
    fn at_line_start(&self, at: usize) -> bool {
        self.bytes[..at]
            .iter()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\x0C'))
            .is_none_or(|&b| b == b'\n')
    }

    fn skip_blanks(&mut self) {
        while self.i < self.bytes.len() && self.bytes[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    /// Adds a comment after the last move of the current line, or before its
    /// first move.
    fn add_comment(&mut self, at: usize, text: &str, kind: CommentKind) {
        self.add_comment_located(at, None, text, kind);
    }

    /// [`Reading::add_comment`], its position given when already known
    /// (asking the locator for an earlier offset costs a pass from the
    /// start of the text).
    fn add_comment_located(
        &mut self,
        at: usize,
        position: Option<Position>,
        text: &str,
        kind: CommentKind,
    ) {
        if !self.room(at) {
            return;
        }
        let comment = Comment {
            text: normalise_newlines(limited(text)),
            kind,
            position: position.unwrap_or_else(|| self.loc.at(at)),
        };
        let line = self.line();
        match line.plies.last_mut() {
            Some(ply) => ply.after_mut().comments.push(comment),
            None => line.comments.push(comment),
        }
    }

    /// Adds text that stands outside braces as a bare comment, with a warning.
    fn add_bare(&mut self, at: usize, text: &str, why: &str) {
        self.add_bare_located(at, None, text, why);
    }

    /// [`Reading::add_bare`], its position given when already known.
    fn add_bare_located(&mut self, at: usize, position: Option<Position>, text: &str, why: &str) {
        let position = position.unwrap_or_else(|| self.loc.at(at));
        let message = format!("{why} kept as a comment: `{}`", quote(text));
        self.note(Note::warning(position, message));
        self.add_comment_located(at, Some(position), text, CommentKind::Bare);
    }

    #[inline(always)]
    fn add_ply(&mut self, at: usize, text: &str, token: PlyToken) {
        if !self.room_for_ply(at) {
            return;
        }
        if self.open.is_empty()
            && let PlyToken::Move(token) = &token
        {
            let loc = &mut self.loc;
            self.squares.add(token, || loc.at(at));
        }
        self.push_ply(at, text.len(), token);
    }

    /// [`Reading::add_ply`] for a move of `used` bytes at `at` read by
    /// [`plain_move_after`]: squares all numbers, `max_square` the highest.
    #[inline(always)]
    fn add_plain_ply(&mut self, at: usize, used: usize, token: MoveToken, max_square: u16) {
        if !self.room_for_ply(at) {
            return;
        }
        if self.open.is_empty() {
            self.squares.add_numbers(max_square);
        }
        self.push_ply(at, used, PlyToken::Move(token));
    }

    /// Counts a ply as [`Reading::room`] does; past the limit its move
    /// number goes with it.
    #[inline(always)]
    fn room_for_ply(&mut self, at: usize) -> bool {
        let room = self.room(at);
        if !room {
            self.number = None;
        }
        room
    }

    /// Adds the ply of `len` bytes at `at` to the current line, counted
    /// already.
    #[inline(always)]
    fn push_ply(&mut self, at: usize, len: usize, token: PlyToken) {
        // Offsets fit: a game's text is far shorter than 4 GiB.
        let offset = at.saturating_sub(self.movetext_at) as u32;
        if let PlyToken::Move(next) = &token
            && next.capture
            && !self.split_captures
            && let Some(PlyToken::Move(last)) = self.line().plies.last().map(|p| &p.token)
        {
            self.split_captures = next.continues(last);
        }
        let ply = Ply {
            number: self.number.take(),
            text: PlyText::Written { len: len as u32 },
            token,
            offset,
            after: None,
        };
        self.line().plies.push(ply);
    }

    /// Adds an annotation to the last move; before any move it is kept as
    /// a comment.
    fn add_nag(&mut self, at: usize, text: &str, nag: Nag) {
        if self.line().plies.is_empty() {
            self.add_bare(at, text, "annotation before any move");
            return;
        }
        if !self.room(at) {
            return;
        }
        if let Some(ply) = self.line().plies.last_mut() {
            ply.after_mut().nags.push(nag);
        }
    }

    /// The tags and comments before the movetext. Returns the offset where
    /// the movetext starts.
    fn header(&mut self) -> usize {
        let mut movetext = 0;
        loop {
            self.skip_blanks();
            let at = self.i;
            match self.bytes.get(at) {
                Some(b'[') => {
                    self.tag();
                    movetext = self.i;
                }
                Some(b'%') if self.at_column_one(at) => {
                    if let Ok((rest, _)) = rest_of_line(self.rest()) {
                        self.seek(rest);
                    }
                }
                Some(b'{') => self.brace(),
                Some(b';') => self.line_comment(),
                // A tag line that lost its `[`, as the framing reads it.
                Some(b)
                    if b.is_ascii_alphabetic()
                        && self.at_line_start(at)
                        && bracketless_tag(&self.bytes[at..], true) =>
                {
                    self.tag();
                    movetext = self.i;
                }
                _ => break,
            }
        }
        while movetext < self.bytes.len() && self.bytes[movetext].is_ascii_whitespace() {
            movetext += 1;
        }
        movetext
    }

    fn tag(&mut self) {
        let at = self.i;
        if self.tags.is_empty() {
            // Room for the usual header at once (nine tags or so) rather
            // than in three steps.
            self.tags.reserve(12);
        }
        if self.short_ways
            && let Some(plain) = plain_tag(self.bytes, at)
        {
            self.i = plain.end;
            let position = self.loc.at(at);
            self.tags.push(Tag {
                name: self.text[plain.name].into(),
                value: self.text[plain.value].into(),
                position,
            });
            return;
        }
        let end = tag_end(self.bytes, at);
        self.i = end;
        match tag_pair(&self.text[at..end]) {
            Ok((_, raw)) => {
                if raw.bracketless {
                    self.warn(
                        at,
                        format!("tag `{}` lacks its opening `[`: read as a tag", raw.name),
                    );
                }
                if !raw.closed_value {
                    self.warn(
                        at,
                        format!("tag `{}`: its value is not closed by `\"`", raw.name),
                    );
                } else if !raw.extra.is_empty() {
                    self.warn(
                        at,
                        format!(
                            "tag `{}`: text after the value ignored: `{}`",
                            raw.name,
                            quote(raw.extra)
                        ),
                    );
                } else if !raw.closed {
                    self.warn(at, format!("tag `{}` is not closed by `]`", raw.name));
                }
                let position = self.loc.at(at);
                self.tags.push(Tag {
                    name: raw.name.into(),
                    value: unescape(raw.value),
                    position,
                });
            }
            Err(_) => {
                // Only the tag is lost: the game is read on.
                let text = self.text[at..end].trim_end().to_string();
                self.warn(at, format!("malformed tag skipped: `{}`", quote(&text)));
            }
        }
    }

    fn brace(&mut self) {
        let at = self.i;
        let Ok((rest, (body, end))) = brace_comment(self.rest()) else {
            self.i += 1;
            return;
        };
        self.seek(rest);
        match end {
            CommentEnd::Closed => {}
            CommentEnd::Unbalanced => self.warn(
                at,
                "the braces of this comment do not balance: it is read up to its first `}`",
            ),
            CommentEnd::Unterminated => self.error(at, "unterminated comment started here"),
        }
        self.add_comment(at, body, CommentKind::Brace);
    }

    fn line_comment(&mut self) {
        let at = self.i;
        if let Ok((rest, body)) = rest_of_line(self.rest()) {
            self.seek(rest);
            self.add_comment(at, body.trim_end_matches('\r'), CommentKind::Line);
        }
    }

    /// Reads the movetext up to the result (or the end of the text).
    fn movetext(&mut self) {
        while self.i < self.bytes.len() {
            let at = self.i;
            let b = self.bytes[at];
            match b {
                _ if b.is_ascii_whitespace() => self.skip_blanks(),
                b'{' => self.brace(),
                b';' => self.line_comment(),
                b'%' if self.at_column_one(at) => {
                    if let Ok((rest, _)) = rest_of_line(self.rest()) {
                        self.seek(rest);
                    }
                }
                b'(' => match paren_mark(self.rest()) {
                    Ok((rest, text)) => {
                        self.seek(rest);
                        self.add_nag(at, text, Nag::Mark(text.to_string()));
                    }
                    Err(_) => self.open_variation(),
                },
                b')' => self.close_variation(),
                b'}' => {
                    self.i += 1;
                    self.warn(at, "`}` without a matching `{` ignored");
                }
                b'!' | b'?' => {
                    if let Ok((rest, text)) = mark(self.rest()) {
                        self.seek(rest);
                        self.add_nag(at, text, Nag::Mark(text.to_string()));
                    }
                }
                b'$' => match nag(self.rest()) {
                    Ok((rest, n)) => {
                        self.seek(rest);
                        let text = &self.text[at..self.i];
                        self.add_nag(at, text, Nag::Glyph(n));
                    }
                    Err(_) => self.bare_words(at, "text outside braces"),
                },
                b'/' => match setup(self.rest()) {
                    Ok((rest, body))
                        if self
                            .result_within(at, self.text.len() - rest.len())
                            .is_none() =>
                    {
                        self.seek(rest);
                        self.add_setup(at, body);
                    }
                    _ => self.bare_words(at, "text outside braces"),
                },
                _ => {
                    if b.is_ascii_digit() && self.short_ways {
                        self.plain_run();
                        if self.i > at {
                            continue;
                        }
                    }
                    if self.result(at) {
                        if self.open.is_empty() {
                            self.after_result();
                            return;
                        }
                        continue;
                    }
                    if self.open.is_empty() && self.glued_result(at) {
                        self.after_result();
                        return;
                    }
                    self.token(at);
                }
            }
        }
    }

    /// Reads a run of the commonest movetext, move numbers and plain moves
    /// ([`plain_move`]) set apart by blanks, by a shorter way than the
    /// general loop that reads them exactly as it would. Stops before the
    /// first token that may be anything else (a result, a move followed by
    /// glued text, …), which is left to the general loop.
    fn plain_run(&mut self) {
        let bytes = self.bytes;
        let mut i = self.i;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let rest = &bytes[i..];
            if !b.is_ascii_digit() {
                break;
            }
            // Only `0`, `1` or `2` before `-` or `/` may start a result: tested
            // together without branching, as most moves start like that.
            let joined = rest.get(1).is_some_and(|&n| (n == b'-') | (n == b'/'));
            if (b <= b'2') & joined && result_len(rest).is_some() {
                break;
            }
            // Digits: a move number when dots follow (more than one for the
            // second side's move), as `move_number` reads it; else the
            // first square of a move.
            // At most nine digits (the value then fits a u32), the bound
            // taken once rather than tested at each digit.
            let digits_room = rest.len().min(9);
            let mut digits = 0;
            let mut value = 0u32;
            while digits < digits_room && rest[digits].is_ascii_digit() {
                value = value * 10 + u32::from(rest[digits] - b'0');
                digits += 1;
            }
            if rest.get(digits) == Some(&b'.') {
                let dots = rest[digits..].iter().take_while(|&&d| d == b'.').count();
                self.number = Some(MoveNumber {
                    number: value,
                    ellipsis: dots > 1,
                });
                i += digits + dots;
                continue;
            }
            // A plain move that nothing is glued to.
            if digits > 3 {
                break;
            }
            let Some(plain) = plain_move_after(rest, value as u16, digits) else {
                break;
            };
            let used = plain.used;
            if rest.get(used).is_some_and(|&b| !ends_move(b)) {
                break;
            }
            self.add_plain_ply(i, used, plain.token, plain.max_square);
            // The blanks after it are passed already.
            i += plain.next;
        }
        self.i = i;
    }

    /// Reads a result at `at`, if one stands there. Inside a variation it is
    /// kept as a comment.
    fn result(&mut self, at: usize) -> bool {
        let prev = at.checked_sub(1).map(|k| self.bytes[k]);
        if !is_boundary(prev) {
            return false;
        }
        let Some(n) = self.result_at(at) else {
            return false;
        };
        self.i = at + n;
        let text = &self.text[at..at + n];
        if self.open.is_empty() {
            self.number = None;
            self.result = Some(GameResult {
                text: text.to_string(),
                position: self.loc.at(at),
            });
        } else {
            self.add_bare(at, text, "result inside a variation");
        }
        true
    }

    /// Reads a result of the main line at `at` with text glued to it
    /// ([`glued_result_len`]): the result, and the glued text kept as a
    /// comment with a warning.
    fn glued_result(&mut self, at: usize) -> bool {
        let prev = at.checked_sub(1).map(|k| self.bytes[k]);
        if !is_boundary(prev) {
            return false;
        }
        let Some(n) = glued_result_len(&self.bytes[at..]) else {
            return false;
        };
        let text = &self.text[at..at + n];
        self.number = None;
        self.result = Some(GameResult {
            text: text.to_string(),
            position: self.loc.at(at),
        });
        let glued_end = at
            + n
            + self.bytes[at + n..]
                .iter()
                .position(u8::is_ascii_whitespace)
                .unwrap_or(self.bytes.len() - at - n);
        let glued = &self.text[at + n..glued_end];
        self.add_bare(at + n, glued, &format!("text glued to the result {text}"));
        self.i = glued_end;
        true
    }

    /// Anything after the result is kept as one bare comment.
    fn after_result(&mut self) {
        let rest = self.rest().trim();
        if !rest.is_empty() {
            let at = self.i + (self.rest().len() - self.rest().trim_start().len());
            self.add_bare(at, rest, "text after the result");
        }
        self.i = self.bytes.len();
    }

    /// A move number, a move, an unknown move, an ellipsis or a word.
    fn token(&mut self, at: usize) {
        let b = self.bytes[at];
        if b.is_ascii_digit()
            && let Ok((rest, number)) = move_number(self.rest())
        {
            self.seek(rest);
            self.number = Some(number);
            return;
        }
        if b == b'.'
            && let Ok((rest, _)) = ellipsis(self.rest())
        {
            self.seek(rest);
            match &mut self.number {
                Some(number) => number.ellipsis = true,
                None => self.add_bare(at, "...", "an ellipsis without a move number"),
            }
            return;
        }
        if b == b'-'
            && let Ok((rest, text)) = unknown_move(self.rest())
            && rest.as_bytes().first().is_none_or(|b| ends_move(*b))
        {
            self.seek(rest);
            self.add_ply(at, text, PlyToken::Unknown);
            return;
        }
        if b.is_ascii_alphanumeric() {
            self.move_or_word(at);
        } else {
            self.bare_words(at, "text outside braces");
        }
    }

    /// A move token (with any text glued to it), or a word that is not one.
    fn move_or_word(&mut self, at: usize) {
        let rest = self.rest();
        if let Some((token, used)) = plain_move(rest.as_bytes()) {
            // Digits and joiners: no result can start inside it, and it
            // holds no blank before a move number.
            self.add_move(at, rest, token, used);
            return;
        }
        let mut parsed = MoveToken::parse_prefix(rest);
        if parsed.is_err()
            && let Some(pair) = MoveToken::parse_joinerless(rest)
        {
            // `3228`: two squares written without a joiner.
            parsed = Ok(pair);
        }
        let cut = match parsed {
            Ok((_, used)) => self
                .result_within(at, at + used)
                .map(|k| k - at)
                .or_else(|| {
                    // `15-19x 4.`: the last "square" was the next move number.
                    (rest.as_bytes().get(used) == Some(&b'.'))
                        .then(|| rest[..used].rfind([' ', '\t']))
                        .flatten()
                }),
            Err(_) => None,
        };
        if let Some(cut) = cut {
            let shorter = rest[..cut].trim_end();
            match MoveToken::parse_prefix(shorter) {
                Ok((token, n)) if n == shorter.len() => parsed = Ok((token, n)),
                outcome => {
                    let error = match outcome {
                        Ok((_, n)) => TokenError::Trailing {
                            offset: n,
                            text: shorter[n..].to_string(),
                        },
                        Err(error) => error,
                    };
                    self.i = at + shorter.len();
                    self.warn(at, format!("`{}` is not a move: {error}", quote(shorter)));
                    self.add_ply(at, shorter, PlyToken::Invalid(Box::new(error)));
                    return;
                }
            }
        }
        match parsed {
            Ok((token, used)) => self.add_move(at, rest, token, used),
            Err(error) => {
                let mut end = self.word_end(at);
                // Marks after a broken move are still marks: `9-q!?`.
                let unmarked = self.text[at..end].trim_end_matches(['!', '?']).len();
                if unmarked > 0 && meant_as_move(&self.text[at..at + unmarked]) {
                    end = at + unmarked;
                }
                let word = &self.text[at..end];
                if word.len() > MAX_TOKEN_LEN {
                    self.i = end;
                    let why = format!(
                        "a token of {} bytes is too long to be a move; it is",
                        word.len()
                    );
                    self.add_bare(at, word, &why);
                } else if meant_as_move(word) {
                    self.i = end;
                    self.warn(at, format!("`{}` is not a move: {error}", quote(word)));
                    self.add_ply(at, word, PlyToken::Invalid(Box::new(error)));
                } else {
                    self.bare_words(at, "text outside braces");
                }
            }
        }
    }

    /// Adds the move of the first `used` bytes of `rest` (the text from
    /// `at`), and the text glued to it as a bare comment.
    fn add_move(&mut self, at: usize, rest: &str, token: MoveToken, used: usize) {
        self.i = at + used;
        self.add_ply(at, &rest[..used], PlyToken::Move(token));
        if self.i < self.bytes.len() && !ends_move(self.bytes[self.i]) {
            let glued = self.i;
            let end = self.word_end(glued);
            self.i = end;
            let text = &self.text[glued..end];
            self.add_bare(
                glued,
                text,
                &format!("text glued to the move `{}`", &rest[..used]),
            );
        }
    }

    /// The first offset in `from + 1..to` where a result stands at a token
    /// boundary: the framing may end the game there, so no word or move may
    /// run over it. `1-1` counts wherever it stands (as a result or as the
    /// move it then is), so that no word holds one, and the writer writes
    /// it only as a result (the move zero-padded); a lone `-` counts where
    /// it is the result.
    fn result_within(&self, from: usize, to: usize) -> Option<usize> {
        (from + 1..to.min(self.bytes.len())).find(|&k| {
            is_boundary(Some(self.bytes[k - 1]))
                && (result_len(&self.bytes[k..]).is_some()
                    || self.bytes[k] == b'-' && self.result_at(k).is_some())
        })
    }

    /// The length of the result at `k` (the caller checks the boundary
    /// before it). `1-1` and a lone `-` are results only where the framing
    /// ended the game on them: they then end the text, since the framing
    /// stops right after a result (see `lex::draw_ends_game` for its rule).
    /// Anywhere else `1-1` is a move and `-` text, so the framing and the
    /// grammar always agree.
    fn result_at(&self, k: usize) -> Option<usize> {
        let rest = &self.bytes[k..];
        let n = if rest.first() == Some(&b'-') {
            lone_dash_len(rest)?
        } else {
            result_len(rest)?
        };
        let ends_text = k + n == self.bytes.len() && self.ends_on_result;
        (!ends_game_only_at_its_end(&rest[..n]) || ends_text).then_some(n)
    }

    /// Where the word starting at `at` ends.
    fn word_end(&self, at: usize) -> usize {
        let n = self.bytes[at + 1..]
            .iter()
            .position(|b| ends_word(*b))
            .unwrap_or(self.bytes.len() - at - 1);
        // Never stop inside a character.
        let mut end = at + 1 + n;
        while end < self.bytes.len() && !self.text.is_char_boundary(end) {
            end += 1;
        }
        self.result_within(at, end).unwrap_or(end)
    }

    /// Whether the word at `at` is plain text (not a move, number, result or
    /// other element).
    fn is_bare_word(&self, at: usize) -> bool {
        let b = self.bytes[at];
        if b.is_ascii_digit()
            || b"{}()[];%$!?/*-.".contains(&b)
            || result_len(&self.bytes[at..]).is_some()
        {
            return false;
        }
        if b.is_ascii_alphabetic() {
            let word = &self.text[at..self.word_end(at)];
            return MoveToken::parse_prefix(word).is_err() && !meant_as_move(word);
        }
        true
    }

    /// Text outside braces: this word and the plain words after it on the
    /// same line, kept as one bare comment.
    fn bare_words(&mut self, at: usize, why: &str) {
        let mut end = self.word_end(at);
        loop {
            let mut next = end;
            while next < self.bytes.len() && matches!(self.bytes[next], b' ' | b'\t') {
                next += 1;
            }
            // Words on one line only: the next line may start with a move
            // or an escape line.
            if next == end
                || next >= self.bytes.len()
                || self.bytes[next].is_ascii_whitespace()
                || !self.is_bare_word(next)
            {
                break;
            }
            end = self.word_end(next);
        }
        self.i = end;
        let text = &self.text[at..end];
        self.add_bare(at, text, why);
    }

    fn add_setup(&mut self, at: usize, body: &str) {
        if !self.room(at) {
            return;
        }
        let fen = fen_command(body.trim())
            .ok()
            .map(|(_, fen)| fen.trim().to_string());
        let command = SetupCommand {
            text: body.to_string(),
            fen,
            position: self.loc.at(at),
        };
        // Only a set-up before the first move gives the game's start.
        if self.open.is_empty() && command.fen.is_some() {
            if !self.main.plies.is_empty() {
                self.later_setup = true;
            } else if self.first_fen_command.is_none() {
                self.first_fen_command = Some(command.clone());
            }
        }
        let line = self.line();
        match line.plies.last_mut() {
            Some(ply) => ply.after_mut().setups.push(command),
            None => line.setups.push(command),
        }
    }

    fn open_variation(&mut self) {
        let at = self.i;
        if self.open.len() >= MAX_VARIATION_DEPTH {
            self.skip_variation();
            self.warn(
                at,
                format!("variation nested deeper than {MAX_VARIATION_DEPTH} skipped"),
            );
            return;
        }
        self.i += 1;
        self.number = None;
        let position = self.loc.at(at);
        self.open.push(Open {
            line: Line {
                position,
                ..Line::default()
            },
            at,
        });
    }

    /// Passes a variation without reading it: to its matching `)` (comments
    /// respected) or the end of the text.
    fn skip_variation(&mut self) {
        let mut depth = 0usize;
        while self.i < self.bytes.len() {
            match self.bytes[self.i] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return;
                    }
                }
                b'{' => {
                    if let Ok((rest, _)) = brace_comment(self.rest()) {
                        self.seek(rest);
                        continue;
                    }
                }
                b';' => {
                    if let Ok((rest, _)) = rest_of_line(self.rest()) {
                        self.seek(rest);
                        continue;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }

    fn close_variation(&mut self) {
        let at = self.i;
        self.i += 1;
        match self.open.pop() {
            Some(open) => self.attach(open, at + 1),
            None => self.warn(at, "`)` without a matching `(` ignored"),
        }
    }

    /// Attaches a finished variation (its text ends before `end`) to the
    /// last move of the enclosing line.
    fn attach(&mut self, open: Open, end: usize) {
        self.number = None;
        let enclosing = self.line();
        match enclosing.plies.last_mut() {
            Some(ply) => ply.after_mut().variations.push(open.line),
            None => {
                // Kept short: the whole text stays in the movetext.
                let text = &self.text[open.at..end.min(self.bytes.len())];
                let mut cut = text.len().min(1024);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                // Where the variation opened was located then: asking
                // again, behind the text read since, would cost a pass
                // from the start for each such variation.
                let position = Some(open.line.position);
                self.add_bare_located(
                    open.at,
                    position,
                    &text[..cut],
                    "a variation before any move",
                );
            }
        }
    }

    /// Closes the variations still open at the end of the text.
    fn close_all(&mut self) {
        if let Some(outer) = self.open.first() {
            let (at, count) = (outer.at, self.open.len());
            let what = if count == 1 {
                "this variation is never closed".to_string()
            } else {
                format!(
                    "this variation and {} inside it are never closed",
                    count - 1
                )
            };
            self.warn(at, what);
        }
        let end = self.bytes.len();
        while let Some(open) = self.open.pop() {
            if self.line().plies.is_empty() {
                // Nothing to hang it on; its text stays in the movetext.
                continue;
            }
            self.attach(open, end);
        }
    }
}

/// A warning for each tag whose name (compared without case) an earlier tag
/// of the game already has. Both stay in the game's tags; the first is the
/// one [`Game::tag`] gives.
fn repeated_tags(tags: &[Tag]) -> Vec<Note> {
    let note = |first: &Tag, again: &Tag| {
        Note::warning(
            again.position,
            format!(
                "tag `{}` repeated (first on line {}): both kept, the first one counts",
                again.name, first.position.line
            ),
        )
    };
    let mut notes = Vec::new();
    if tags.len() <= 32 {
        // The usual handful: compared pairwise, but only where a bit for
        // the name's length and first letter was already set (the tags of
        // most games differ in these).
        let key = |t: &Tag| {
            let name = t.name.as_bytes();
            let first = name.first().map_or(0, u8::to_ascii_lowercase);
            1u64 << ((name.len() * 7 + usize::from(first)) % 64)
        };
        let mut seen = 0u64;
        for (k, again) in tags.iter().enumerate() {
            let bit = key(again);
            if seen & bit != 0
                && let Some(first) = tags[..k]
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(&again.name))
            {
                notes.push(note(first, again));
            }
            seen |= bit;
        }
    } else {
        // Many tags: sorted by name, so that time stays n log n.
        let mut order: Vec<(CompactString, usize)> = tags
            .iter()
            .enumerate()
            .map(|(k, t)| (t.name.to_ascii_lowercase(), k))
            .collect();
        order.sort();
        for pair in order.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.0 == b.0 {
                let first = order[order.partition_point(|o| o.0 < b.0)].1;
                notes.push(note(&tags[first], &tags[b.1]));
            }
        }
        notes.sort_by_key(|n| n.position.byte);
    }
    notes
}

/// The warnings about how a game's text was decoded: sequences that were
/// not valid UTF-8 (one warning, at the first), and, when `announce`, the
/// legacy encoding detected for the input, at the first character that
/// uses it.
fn encoding_notes(text: &GameText, choice: Option<Choice>, announce: bool) -> Vec<Note> {
    let mut notes = Vec::new();
    if let Some(first) = text.replaced.first() {
        let shown: String = first.bytes[..usize::from(first.len)]
            .iter()
            .map(|b| format!("\\x{b:02X}"))
            .collect();
        let what = if first.len == 1 { "byte" } else { "bytes" };
        let more = match text.replaced.len() - 1 {
            0 => String::new(),
            n => format!(" ({n} more in this game)"),
        };
        notes.push(Note::warning(
            Locator::new(text).at(first.at),
            format!("{what} {shown} not valid UTF-8, the input's encoding: read as U+FFFD{more}"),
        ));
    }
    if announce
        && matches!(text.encoding, TextEncoding::Legacy(_))
        && let Some(message) = choice.and_then(|c| c.note())
        && let Some(at) = text.text.bytes().position(|b| !b.is_ascii())
    {
        notes.push(Note::warning(Locator::new(text).at(at), message));
    }
    notes
}

/// Reads one framed game, its text in the input's encoding (`choice`);
/// `announce` asks for the warning that names a detected legacy encoding
/// (given once per input). Also returns the game's byte buffer for reuse.
pub(crate) fn parse_game(
    raw: RawGame,
    index: u64,
    choice: Option<Choice>,
    announce: bool,
) -> (Game, Vec<u8>) {
    parse_game_as(raw, index, choice, announce, true)
}

/// [`parse_game`], with plain runs and tags read the short way or not.
fn parse_game_as(
    raw: RawGame,
    index: u64,
    choice: Option<Choice>,
    announce: bool,
    short_ways: bool,
) -> (Game, Vec<u8>) {
    let RawGame {
        bytes,
        segments,
        notes: framing_notes,
        complete,
        truncated,
        ..
    } = raw;
    let (text, spare): (GameText, _) = decode(bytes, segments, choice);
    let mut notes = framing_notes;
    notes.extend(encoding_notes(&text, choice, announce));
    let start = text.segments.first().map_or(Position::START, |s| s.start);
    // A game cut at the length limit ends where it was cut.
    let mut r = Reading::new(&text, start, notes, complete && !truncated, short_ways);
    let (movetext_at, end) = r.read(truncated);
    let movetext_start = r.main.position;
    let hints = r.hints();
    let Reading {
        notes,
        tags,
        main,
        result,
        ..
    } = r;
    let encoding = text.encoding;
    let movetext = text.text[movetext_at..end].to_string();
    let movetext_map = MovetextMap::new(&text, movetext_at, end);
    let buffer = spare.unwrap_or_else(|| text.text.into_bytes());
    let mut notes = notes;
    notes.sort_by_key(|n| n.position.byte);
    let diagnostics: Vec<Diagnostic> = notes
        .into_iter()
        .map(|n| n.into_diagnostic(Some(index)))
        .collect();
    let game = Game {
        index,
        start,
        tags,
        line: main,
        result,
        movetext,
        movetext_start,
        movetext_map,
        encoding,
        hints,
        diagnostics,
    };
    (game, buffer)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`tag_end`] as a plain byte loop, to check the searching one by.
    fn tag_end_byte_by_byte(bytes: &[u8], at: usize) -> usize {
        let (mut quoted, mut escaped) = (false, false);
        for (k, &b) in bytes.iter().enumerate().skip(at + 1) {
            match b {
                b'\n' => return k,
                _ if escaped => escaped = false,
                b'\\' if quoted => escaped = true,
                b'"' => quoted = !quoted,
                b']' if !quoted => return k + 1,
                _ => {}
            }
        }
        bytes.len()
    }

    #[test]
    fn tag_ends() {
        let cases: &[(&str, usize)] = &[
            ("[Event \"Open\"]\n1. 11-15", 14),
            ("[Event \"a]b\"] x", 13),
            ("[Event \"a\\\"]b\"] x", 15),
            ("[Event \"a\\\\\"] x", 13),
            ("[Event \"open\n[Site \"x\"]", 12),
            ("[Event \"a\\\n\"]", 10),
            ("[Event \"a\\", 10),
            ("[Event \"a", 9),
            ("[Event x] y", 9),
            ("[Event \\\"a\"] y", 12),
            ("[Event \"a\"\"b]\"] y", 15),
            ("[", 1),
            ("", 0),
        ];
        for &(text, end) in cases {
            assert_eq!(tag_end(text.as_bytes(), 0), end, "{text:?}");
            assert_eq!(tag_end_byte_by_byte(text.as_bytes(), 0), end, "{text:?}");
        }
    }

    #[test]
    fn productions() {
        assert_eq!(tag_name("Event \"x\"").unwrap().1, "Event");
        assert_eq!(
            tag_value("\"a \\\"b\\\"\"]").unwrap(),
            ("]", ("a \\\"b\\\"", true))
        );
        assert_eq!(
            tag_value("\"open\r\n[x").unwrap(),
            ("\n[x", ("open", false))
        );
        assert_eq!(unescape("a \\\"b\\\" c\\\\d \\e"), "a \"b\" c\\d \\e");
        assert_eq!(
            move_number("12... 9-13").unwrap(),
            (
                " 9-13",
                MoveNumber {
                    number: 12,
                    ellipsis: true
                }
            )
        );
        assert_eq!(
            move_number("01.a3b4").unwrap().1,
            MoveNumber {
                number: 1,
                ellipsis: false
            }
        );
        assert!(move_number("12-16").is_err());
        assert_eq!(nag("$14 x").unwrap(), (" x", 14));
        assert!(nag("$x").is_err());
        assert_eq!(mark("!?!!! x").unwrap().1, "!?!!!");
        assert_eq!(paren_mark("(!?!!!) 2.").unwrap().1, "(!?!!!)");
        assert_eq!(paren_mark("( ? )").unwrap().1, "( ? )");
        assert!(paren_mark("(9-13)").is_err());
        assert_eq!(unknown_move("- - 2.").unwrap().1, "- -");
        assert_eq!(unknown_move("--").unwrap().1, "--");
        assert_eq!(
            setup("/FEN \"W:W18:B11\"/ 1.").unwrap().1,
            "FEN \"W:W18:B11\""
        );
        assert!(setup("/FEN \n/").is_err());
        assert!(setup("//").is_err());
        assert!(setup("/F(/").is_err());
        assert!(setup("/ FEN/").is_err());
        assert_eq!(fen_command("FEN \"W:W18:B11\"").unwrap().1, "W:W18:B11");
        assert_eq!(
            rest_of_line("; to the end\r\nnext").unwrap().1,
            " to the end\r"
        );
        assert_eq!(
            brace_comment("{a {b} c} d").unwrap(),
            (" d", ("a {b} c", CommentEnd::Closed))
        );
        assert_eq!(
            brace_comment("{a {b c} d").unwrap(),
            (" d", ("a {b c", CommentEnd::Unbalanced))
        );
        assert_eq!(
            brace_comment("{a b").unwrap(),
            ("", ("a b", CommentEnd::Unterminated))
        );
    }

    #[test]
    fn plain_moves_read_as_the_general_parser_reads_them() {
        let cases = [
            "23-18",
            "23x18 ",
            "23X18\n",
            "23:18}",
            "9-14!",
            "01-005",
            "0-0",
            "999-1",
            "23-18 x 9",
            "23-18 - 4",
            "23-18  24",
            "23-18x14",
            "23-18-14",
            "23-18a",
            "23-18×14",
            "23 -18",
            "1234-5",
            "23-",
            "23-1234",
            "23-18.",
            "23-18(",
            "23-18 - -",
            "5-9\t",
            "23-18\tx 4",
            "26x17x10x1",
            "26x17x10x1 0-1",
            "26x17-10:1\n",
            "26x17x10x",
            "26x17x1000",
            "26x17x10x1x5x9x14x18x23x27",
            "26x17x10.",
        ];
        for case in cases {
            if let Some(simple) = plain_move(case.as_bytes()) {
                assert_eq!(Ok(simple), MoveToken::parse_prefix(case), "{case:?}");
            }
        }
        assert!(plain_move(b"23-18 ").is_some());
        assert!(plain_move(b"23-18 x 9").is_none());
    }

    proptest::proptest! {
        #[test]
        fn plain_moves_agree_with_the_general_parser(text in "[0-9]{1,4}([-xX:][0-9]{1,4}){1,12}[-x: \t\r\n!?{}()a.0-9]{0,4}") {
            if let Some(simple) = plain_move(text.as_bytes()) {
                proptest::prop_assert_eq!(Ok(simple), MoveToken::parse_prefix(&text));
            }
        }
    }

    /// Pieces of movetext, plain and not, that a run may meet.
    const PIECES: &[&str] = &[
        "1.",
        "12.",
        "3...",
        "1. ...",
        "...",
        "11-15",
        "23-18",
        "26x17x10x1",
        "15x22",
        "9-14!",
        "1-1",
        "1-0",
        "0-1",
        "2-0",
        "0-2",
        "0-0",
        "1/2-1/2",
        "½-½",
        "*",
        "{c}",
        "{a {b} c}",
        "{open",
        "}",
        ";line\n",
        "\n%esc\n",
        "(",
        ")",
        "(!?)",
        "$14",
        "!",
        "?!",
        "/FEN \"W:W18\"/",
        "- -",
        "--",
        "3228",
        "a3-b4",
        "c3xe5",
        "23 - 18",
        "23-18 x 14",
        "23 -18",
        "01-1",
        "1-5",
        "2-6",
        "23-18x",
        "26x17x1000",
        "foo",
        "bar9",
        "\n",
        "\n\n",
        "\r\n",
        "\t",
        " ",
        "12.11-15",
        "32-28.",
        "999-1",
        "24-20:",
        "x",
        "-",
        ".",
        "1",
        "22",
        "1-",
        "[Event \"x\"]\n",
        "1234567890.",
        "26x17 x 10",
        "11-15-",
        "11-15/",
        "\x0b",
        "\x0c",
        "5x14×23",
    ];

    proptest::proptest! {
        #[test]
        fn plain_runs_read_as_the_general_loop_reads_them(
            picks in proptest::collection::vec((0..PIECES.len(), 0usize..4), 0..40)
        ) {
            let mut text = String::new();
            for (piece, gap) in picks {
                text.push_str(PIECES[piece]);
                text.push_str([" ", "", "\n", "  "][gap]);
            }
            let mut framer = super::super::framing::Framer::new(text.as_bytes());
            let mut index = 0;
            while let Some(raw) = framer.next_game().unwrap() {
                index += 1;
                let before = super::super::decode::tests::BACKWARD.with(|count| count.get());
                let (plain, _) = parse_game_as(raw.clone(), index, None, false, true);
                let backward = super::super::decode::tests::BACKWARD.with(|count| count.get()) - before;
                // Positions are asked for in text order, but for the start
                // of the movetext (after comments before it) and the one
                // warning on variations left open: never once an item.
                proptest::prop_assert!(backward <= 2, "{} passes from the start", backward);
                let (general, _) = parse_game_as(raw, index, None, false, false);
                proptest::prop_assert_eq!(plain, general);
            }
        }
    }

    /// Pieces of tag lines, plain and not.
    const TAG_PIECES: &[&str] = &[
        "[",
        "]",
        "\"",
        "\\",
        "\n",
        " ",
        "\t",
        "Event",
        "White_2",
        "Müller",
        "x",
        "é",
        "1-0",
        "[Date \"1999.01.01\"]",
        "[Event \"",
        "[Site\t\"",
        "\"]",
        "\\\"",
        "\\\\",
    ];

    proptest::proptest! {
        #[test]
        fn plain_tags_read_as_the_general_way_reads_them(
            picks in proptest::collection::vec(0..TAG_PIECES.len(), 0..12)
        ) {
            let text: String = picks.iter().map(|&k| TAG_PIECES[k]).collect();
            let bytes = text.as_bytes();
            for at in (0..bytes.len()).filter(|&k| bytes[k] == b'[') {
                let Some(plain) = plain_tag(bytes, at) else { continue };
                let end = tag_end(bytes, at);
                proptest::prop_assert_eq!(plain.end, end);
                let (rest, raw) = tag_pair(&text[at..end]).unwrap();
                proptest::prop_assert!(rest.is_empty());
                proptest::prop_assert!(!raw.bracketless && raw.closed_value && raw.closed);
                proptest::prop_assert_eq!(raw.extra, "");
                proptest::prop_assert_eq!(&text[plain.name], raw.name);
                let value = unescape(raw.value);
                proptest::prop_assert_eq!(&text[plain.value], value.as_str());
            }
        }
    }

    #[test]
    fn plain_tags_are_found() {
        let text = "[Event \"Open\"][Black\t\"Ö\"] [White \"a\\\"b\"] [Site\"\"]";
        let found: Vec<_> = (0..text.len())
            .filter_map(|at| plain_tag(text.as_bytes(), at))
            .map(|t| (&text[t.name], &text[t.value], t.end))
            .collect();
        assert_eq!(
            found,
            [
                ("Event", "Open", 14),
                ("Black", "Ö", 26),
                ("Site", "", text.len())
            ]
        );
    }

    #[test]
    fn variations_before_any_move_are_located_once() {
        // Each is kept as a comment where it opened; locating that again,
        // behind its moves, would cost a pass from the start each time.
        let text = format!("[Event \"v\"]\n{}1-0\n", "(1. 11-15 24-20) ".repeat(2000));
        let mut framer = super::super::framing::Framer::new(text.as_bytes());
        let raw = framer.next_game().unwrap().unwrap();
        let before = super::super::decode::tests::BACKWARD.with(|count| count.get());
        let (game, _) = parse_game(raw, 1, None, false);
        let after = super::super::decode::tests::BACKWARD.with(|count| count.get());
        assert_eq!(game.line.comments.len(), 2000);
        assert!(
            after - before <= 2,
            "{} passes from the start",
            after - before
        );
    }

    #[test]
    fn tag_pairs() {
        let (_, t) = tag_pair("[Event \"Open\"]").unwrap();
        assert_eq!(
            (t.name, t.value, t.closed_value, t.closed),
            ("Event", "Open", true, true)
        );
        let (_, t) = tag_pair("[ White  \"\" ]").unwrap();
        assert_eq!((t.name, t.value), ("White", ""));
        let (_, t) = tag_pair("[Event \"x\"").unwrap();
        assert!(!t.closed);
        assert!(matches!(
            tag_pair("[\"no name\"]"),
            Err(nom::Err::Failure(_))
        ));
        assert!(matches!(tag_pair("[Event x]"), Err(nom::Err::Failure(_))));
    }
}
