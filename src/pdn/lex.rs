//! Lexical rules shared by the framing and the grammar, so that both agree
//! on where a result stands, what a tag line looks like and what may start a
//! game. They work on bytes: the framing sees raw input (UTF-8 or
//! Windows-1252), the grammar decoded text.

use super::limits::MAX_TOKEN_LEN;
use crate::notation::MoveToken;

/// Every result terminator, as bytes. `½-½` appears in its UTF-8 and its
/// Windows-1252 spelling.
const RESULTS: [&[u8]; 10] = [
    b"1/2-1/2",
    "½-½".as_bytes(),
    b"\xBD-\xBD",
    b"1-0",
    b"0-1",
    b"2-0",
    b"0-2",
    b"1-1",
    b"0-0",
    b"*",
];

/// Whether a token may start right after `prev` (`None` at the start of a
/// game): after whitespace, a move number's dot, a bracket, a mark
/// (`23-18!1-0` ends with a result) or a set-up command's closing slash.
#[inline]
pub(crate) fn is_boundary(prev: Option<u8>) -> bool {
    match prev {
        None => true,
        Some(b) => {
            b.is_ascii_whitespace()
                || matches!(b, b'.' | b')' | b'(' | b'}' | b']' | b'!' | b'?' | b'/')
        }
    }
}

/// Whether `next` (`None` at the end) may follow a result: the end,
/// whitespace, or any byte that ends a word (a bracket or `;`).
fn is_result_end(next: Option<u8>) -> bool {
    match next {
        None => true,
        Some(b) => b.is_ascii_whitespace() || matches!(b, b'[' | b'{' | b'}' | b';' | b'(' | b')'),
    }
}

/// The length of the result terminator at the start of `text`, if there is
/// one followed by a delimiter. The caller checks that a token may start
/// there ([`is_boundary`]).
///
/// This says what *may* be a result. Every form but [`DRAW_OR_MOVE`] always
/// is one; `1-1` is one only where it ends the game ([`draw_ends_game`]),
/// and a move elsewhere.
#[inline(always)]
pub(crate) fn result_len(text: &[u8]) -> Option<usize> {
    // Most tokens starting like a result are moves: reject them by their
    // first two bytes.
    match text {
        [b'0'..=b'2', b'-' | b'/', ..] | [b'*', ..] | [0xC2, 0xBD, ..] | [0xBD, b'-', ..] => {
            result_form(text)
        }
        _ => None,
    }
}

/// The result form `text` starts with, followed by a delimiter.
fn result_form(text: &[u8]) -> Option<usize> {
    RESULTS.iter().find_map(|r| {
        (text.starts_with(r) && is_result_end(text.get(r.len()).copied())).then_some(r.len())
    })
}

/// The length of the result at the start of `text` when text is glued to
/// it that no move or mark could continue (`1/2-1/2\r`, with a backslash,
/// as some files have it): the result form, not what follows. `1-1` (a
/// Dama move too) and `*` are never read so. The caller checks that a token
/// may start there.
pub(crate) fn glued_result_len(text: &[u8]) -> Option<usize> {
    // Most tokens are moves or words: reject them by their first bytes.
    if !matches!(
        text,
        [b'0'..=b'2', b'-' | b'/', ..] | [0xC2, 0xBD, ..] | [0xBD, b'-', ..]
    ) {
        return None;
    }
    RESULTS.iter().find_map(|r| {
        let next = *text.strip_prefix(*r)?.first()?;
        // Not a byte that may go on a move or follow one (a mark, a NAG, a
        // bracket, a comma of a list of squares).
        let stray = !is_result_end(Some(next))
            && !next.is_ascii_alphanumeric()
            && !b"-:/.,!?$".contains(&next);
        (stray && *r != DRAW_OR_MOVE && *r != b"*").then_some(r.len())
    })
}

/// `1-1`: a result (a draw, in some files) and also a Dama move (the king
/// move between squares 11 and 22, which the Dama notation names 1 and 1).
/// No other result form is a move: Dama numbers run from 1 to 16, so a
/// `0` or a `2-0` is never one, and the other forms are not moves at all.
pub(crate) const DRAW_OR_MOVE: &[u8] = b"1-1";

/// `-` alone where the result stands: an unknown result, as `*` (some
/// programs write it so). Like [`DRAW_OR_MOVE`], it ends the game only
/// where [`draw_ends_game`] says so; elsewhere it is text (`23 - 18`, a
/// move written with blanks). `- -`, an unknown move, is never one.
pub(crate) const LONE_DASH: &[u8] = b"-";

/// The length of a lone `-` at the start of `text` followed by a
/// delimiter, as [`result_len`] gives for the other results; `None` for
/// the `- -` (or `--`) of an unknown move. The caller checks that a token
/// may start there and that the game ends there ([`draw_ends_game`]).
pub(crate) fn lone_dash_len(text: &[u8]) -> Option<usize> {
    (text.first() == Some(&b'-')
        && is_result_end(text.get(1).copied())
        && unknown_move_len(text).is_none())
    .then_some(1)
}

/// The length of the unknown move `- -` (blanks between, or none) at the
/// start of `text`, as the grammar reads it.
pub(crate) fn unknown_move_len(text: &[u8]) -> Option<usize> {
    let rest = text.strip_prefix(b"-")?;
    let blanks = text.len() - 1 - skip_blanks(rest).len();
    (rest.get(blanks) == Some(&b'-')).then_some(blanks + 2)
}

/// Whether the result form `result` (as [`result_len`] or
/// [`lone_dash_len`] found it) ends the game only where
/// [`draw_ends_game`] says so: `1-1` and a lone `-`.
pub(crate) fn ends_game_only_at_its_end(result: &[u8]) -> bool {
    result == DRAW_OR_MOVE || result == LONE_DASH
}

/// How many bytes after a `1-1` [`draw_ends_game`] looks at, at most.
pub(crate) const DRAW_LOOKAHEAD: usize = 256;

/// Whether a `1-1` (or a lone `-`) followed by `after` ends the game (is
/// a result) rather than being a move; `input_ends` says whether `after`
/// runs to the end of the input.
///
/// The rule: `1-1` ends the game when what follows it, passing blanks,
/// comments `{…}`, `;` line comments and `%` escape lines (at the start of
/// a line), is
///
/// * the end of the input (an unterminated comment that runs to the end
///   counts as reaching it),
/// * a `[` (a tag, also on the same line; or a line that looks like a tag
///   inside an unterminated comment, where the framing ends that comment),
/// * an empty line (only blanks on it), which is how games are set apart,
/// * or a line of junk, as found between games: a new line whose first word
///   neither starts movetext (a move number, a move, a result, `- -`, a
///   set-up command) nor follows a move (`(`, `)`, `}`, `$`, `!`, `?`, `.`);
///   that line is seen whole within the look ahead or not taken for junk.
///
/// Anything else after it makes it a move: the game goes on, and a result
/// after it ends the game as usual. That is a move number, a move, a
/// variation or an annotation, any word on the same line (kept in the game
/// as text), and another result (a game has one). Only the first
/// [`DRAW_LOOKAHEAD`] bytes of `after` are looked at: when no decision is
/// reached within them, `1-1` is a move (the game goes on, so no text is
/// lost; at worst the game lacks its terminator, which is reported). The
/// look is bounded, and the bytes it passes lie between the `1-1` and the
/// next token (or the line after), so reading stays linear.
pub(crate) fn draw_ends_game(after: &[u8], input_ends: bool) -> bool {
    let (text, ends) = if after.len() > DRAW_LOOKAHEAD {
        (&after[..DRAW_LOOKAHEAD], false)
    } else {
        (after, input_ends)
    };
    // The `1-1` stands on the current line: it is neither blank nor new.
    let mut line_blank = false;
    let mut column_one = false;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'\n' => {
                if line_blank {
                    return true;
                }
                line_blank = true;
                column_one = true;
                i += 1;
                continue;
            }
            // The framing's blanks.
            b' ' | b'\t' | b'\r' | b'\x0C' => {
                column_one = false;
                i += 1;
                continue;
            }
            b'[' => return true,
            b';' => i += line_len(&text[i..]),
            b'%' if column_one => i += line_len(&text[i..]),
            b'{' => match comment_end(&text[i..]) {
                CommentEnd::Closed(n) => i += n,
                CommentEnd::TagLine => return true,
                CommentEnd::RunsOff => return ends,
            },
            // The first word of a new line: junk, as between games, ends
            // the game; so does a line not seen whole.
            _ if line_blank => {
                let rest = &text[i..];
                return (ends || memchr::memchr(b'\n', rest).is_some()) && is_junk_line(rest);
            }
            _ => return false,
        }
        line_blank = false;
        column_one = false;
    }
    ends
}

/// Whether a line (from its first non-blank byte, not a tag, comment or
/// escape) is junk rather than more of a game: it does not start movetext
/// ([`starts_movetext`]) and does not start with what follows a move (a
/// variation, an annotation, a mark, an ellipsis, a closing bracket).
fn is_junk_line(text: &[u8]) -> bool {
    !matches!(
        text.first(),
        Some(b'(' | b')' | b'}' | b'$' | b'!' | b'?' | b'.')
    ) && !starts_movetext(text)
}

/// The length of `text` up to (not including) its first `\n`.
fn line_len(text: &[u8]) -> usize {
    memchr::memchr(b'\n', text).unwrap_or(text.len())
}

/// Where a comment seen by [`draw_ends_game`] ends.
enum CommentEnd {
    /// At its matching `}`, this many bytes from its `{`.
    Closed(usize),
    /// Not closed before a line that looks like a tag, where the framing
    /// ends it.
    TagLine,
    /// Not closed within the text looked at.
    RunsOff,
}

/// How the comment at the start of `text` (a `{`) ends: nested braces are
/// counted, and a line that looks like a tag ends it, as in the framing.
fn comment_end(text: &[u8]) -> CommentEnd {
    let mut depth = 0u32;
    for (k, &b) in text.iter().enumerate() {
        match b {
            b'{' => depth = depth.saturating_add(1),
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return CommentEnd::Closed(k + 1);
                }
            }
            b'\n' if looks_like_tag(skip_blanks(&text[k + 1..])) => return CommentEnd::TagLine,
            _ => {}
        }
    }
    CommentEnd::RunsOff
}

/// Whether `text` (from a line's first non-blank byte) looks like a tag:
/// `[`, a name, blanks and an opening quote. Used to resynchronise: such a
/// line ends an unterminated comment and starts a new game.
pub(crate) fn looks_like_tag(text: &[u8]) -> bool {
    let Some(rest) = text.strip_prefix(b"[") else {
        return false;
    };
    let rest = skip_blanks(rest);
    let name = rest.iter().take_while(|b| is_name_byte(**b)).count();
    if name == 0 {
        return false;
    }
    skip_blanks(&rest[name..]).first() == Some(&b'"')
}

/// How many bytes [`bracketless_tag`] looks at, at most.
pub(crate) const BRACKETLESS_LOOKAHEAD: usize = 256;

/// Whether `text` (from a line's first non-blank byte, in a game's header)
/// is a tag line that lost its opening `[`: a name that starts with a
/// letter, blanks, a quoted value, blanks and `]`, and nothing after it on
/// the line but blanks. The line must end within the first
/// [`BRACKETLESS_LOOKAHEAD`] bytes of `text` (or at its end, when
/// `input_ends` says that `text` runs to the end of the input), so that
/// the framing decides with a bounded look ahead and the grammar decides
/// the same.
pub(crate) fn bracketless_tag(text: &[u8], input_ends: bool) -> bool {
    let (text, ends) = if text.len() > BRACKETLESS_LOOKAHEAD {
        (&text[..BRACKETLESS_LOOKAHEAD], false)
    } else {
        (text, input_ends)
    };
    if !text.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let name = text.iter().take_while(|b| is_name_byte(**b)).count();
    let Some(value) = skip_blanks(&text[name..]).strip_prefix(b"\"") else {
        return false;
    };
    // The value, up to a quote that no backslash escapes, on this line.
    let mut k = 0;
    let mut escaped = false;
    loop {
        match value.get(k) {
            None | Some(b'\n') => return false,
            Some(b'"') if !escaped => break,
            Some(b'\\') if !escaped => escaped = true,
            Some(_) => escaped = false,
        }
        k += 1;
    }
    let Some(rest) = skip_blanks(&value[k + 1..]).strip_prefix(b"]") else {
        return false;
    };
    let blanks = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\x0C'))
        .count();
    match rest.get(blanks) {
        Some(b'\n') => true,
        None => ends,
        Some(_) => false,
    }
}

/// Whether `b` may be part of a tag name (PDN asks for letters, digits and
/// `_`; real files also use `-`, and letters outside ASCII: `Résultat`,
/// `Белые`). Every byte outside ASCII counts, in any encoding, so that a
/// name is never cut inside a character.
pub(crate) fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || !b.is_ascii()
}

/// `text` without its leading spaces and tabs.
#[inline]
pub(crate) fn skip_blanks(text: &[u8]) -> &[u8] {
    let n = text
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    &text[n..]
}

/// Whether text met between games (from a line's first non-blank byte, or
/// just after a result) starts a game without tags: a move number, a move,
/// a result, an unknown move `- -`, a set-up command or a comment. Anything
/// else is junk.
pub(crate) fn starts_movetext(text: &[u8]) -> bool {
    let Some(&first) = text.first() else {
        return false;
    };
    if result_len(text).is_some() {
        return true;
    }
    match first {
        b'{' => true,
        b'-' => {
            // `- -` or `--`, standing alone.
            let rest = skip_blanks(&text[1..]);
            rest.first() == Some(&b'-') && rest.get(1).is_none_or(|b| b.is_ascii_whitespace())
        }
        // A set-up command: `/`, a command name, its text, `/` on the line.
        b'/' => {
            text.get(1).is_some_and(u8::is_ascii_alphabetic)
                && text[1..].iter().find(|b| {
                    matches!(
                        b,
                        b'/' | b'\n' | b'(' | b')' | b'{' | b'}' | b'[' | b']' | b';'
                    )
                }) == Some(&b'/')
        }
        b'0'..=b'9' => {
            let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
            text.get(digits) == Some(&b'.') || is_move(text)
        }
        b'a'..=b'z' | b'A'..=b'Z' => is_move(text),
        _ => false,
    }
}

/// Whether `text` starts with a move token that ends at a delimiter.
fn is_move(text: &[u8]) -> bool {
    let head = &text[..text.len().min(MAX_TOKEN_LEN + 8)];
    let head = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => match std::str::from_utf8(&head[..e.valid_up_to()]) {
            Ok(s) => s,
            Err(_) => return false,
        },
    };
    match MoveToken::parse_prefix(head) {
        Ok((_, used)) => match head.as_bytes().get(used) {
            None => true,
            Some(b) => b.is_ascii_whitespace() || b"!?{(;$*".contains(b),
        },
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_need_a_delimiter_after_them() {
        for r in [
            "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "1/2-1/2", "½-½", "*",
        ] {
            assert_eq!(result_len(r.as_bytes()), Some(r.len()), "{r}");
            assert_eq!(result_len(format!("{r} [Event").as_bytes()), Some(r.len()));
        }
        assert_eq!(result_len(b"\xBD-\xBD\r\n"), Some(3));
        assert_eq!(result_len(b"1-10"), None);
        assert_eq!(result_len(b"1-01"), None);
        assert_eq!(result_len(b"0-12 "), None);
        assert_eq!(result_len(b"*x"), None);
        assert_eq!(result_len(b"11-15"), None);
        assert_eq!(result_len(b"1-0{end}"), Some(3));
    }

    #[test]
    fn results_with_text_glued_to_them() {
        assert_eq!(glued_result_len(br"1/2-1/2\r"), Some(7));
        assert_eq!(glued_result_len(b"2-0\"1"), Some(3));
        assert_eq!(glued_result_len("½-½#".as_bytes()), Some("½-½".len()));
        // Moves, marks and results as they should be are not.
        for text in [
            "1-10", "1-05", "1-0", "1-0 ", "1-0{", "1-1\\", "*\\", "2-0x", "0-1.", "1-0a",
        ] {
            assert_eq!(glued_result_len(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn lone_dashes_and_unknown_moves() {
        assert_eq!(lone_dash_len(b"-"), Some(1));
        assert_eq!(lone_dash_len(b"-\n\n[Event"), Some(1));
        assert_eq!(lone_dash_len(b"- 18"), Some(1));
        assert_eq!(lone_dash_len(b"- -"), None);
        assert_eq!(lone_dash_len(b"-\t-"), None);
        assert_eq!(lone_dash_len(b"--"), None);
        assert_eq!(lone_dash_len(b"-18"), None);
        assert_eq!(unknown_move_len(b"- - 2."), Some(3));
        assert_eq!(unknown_move_len(b"--"), Some(2));
        assert_eq!(unknown_move_len(b"-  \t- "), Some(5));
        assert_eq!(unknown_move_len(b"- \n-"), None);
        assert!(ends_game_only_at_its_end(b"-"));
        assert!(ends_game_only_at_its_end(b"1-1"));
        assert!(!ends_game_only_at_its_end(b"1-0"));
    }

    #[test]
    fn when_one_one_ends_the_game() {
        for (after, input_ends) in [
            ("", true),
            ("\n", true),
            (" {draw} ; agreed\n% escape\n", true),
            ("\n[Event \"b\"]", false),
            (" [Event \"b\"]", false),
            ("\n\n1. 9-15 *", false),
            ("\r\n \t\r\n2. 9-15", false),
            (" {a {nested} comment}\n\n", false),
            (" {unclosed\n[Event \"b\"]", false),
            (" {unclosed to the end", true),
            ("\nThe end of the file, junk again.\n", false),
            ("\nThe end", true),
            ("\n % not an escape line: junk\n", false),
            (" ; drawn\n=====\n", false),
            ("\n  Downloaded from the archive\n1. 9-15 *", false),
        ] {
            assert!(draw_ends_game(after.as_bytes(), input_ends), "{after:?}");
        }
        for (after, input_ends) in [
            (" 2. 15-9", true),
            ("\n2. 15-9", true),
            (" *", true),
            (" 1-0", true),
            (" (9-15)", true),
            (" $1", true),
            (" {a\n\nb} 12-7", true),
            (" % not an escape line\n2. 15-9", true),
            (" ; [Event \"b\"]\n2. 15-9", true),
            ("", false),
            (" {unclosed", false),
            (" )", true),
            (" White resigns", true),
            ("\n(2. 15-9)", true),
            ("\n$1 2. 15-9", true),
            ("\n... 12-7", true),
            ("\n12-7 *", true),
            ("\nc3-d4 *", true),
            ("\nThe line goes on past the end", false),
        ] {
            assert!(!draw_ends_game(after.as_bytes(), input_ends), "{after:?}");
        }
        // Only the look ahead is looked at.
        let far = format!("{}\n\n", " ".repeat(DRAW_LOOKAHEAD));
        assert!(!draw_ends_game(far.as_bytes(), true));
        let near = format!("{}\n\n", " ".repeat(DRAW_LOOKAHEAD - 2));
        assert!(draw_ends_game(near.as_bytes(), false));
    }

    #[test]
    fn boundaries() {
        assert!(is_boundary(None));
        assert!(is_boundary(Some(b' ')));
        assert!(is_boundary(Some(b'.')));
        assert!(!is_boundary(Some(b'8')));
        assert!(is_boundary(Some(b'!')));
        assert!(!is_boundary(Some(b'-')));
    }

    #[test]
    fn tag_lines() {
        assert!(looks_like_tag(b"[Event \"x\"]"));
        assert!(looks_like_tag(b"[ White\t\"\"]"));
        assert!(looks_like_tag(b"[Black-Elo \"1\"]"));
        assert!(looks_like_tag("[Résultat \"1-0\"]".as_bytes()));
        assert!(looks_like_tag(b"[R\xE9sultat \"1-0\"]"));
        assert!(!looks_like_tag(b"[diagram]"));
        assert!(!looks_like_tag(b"[%clk 1:00]"));
        assert!(!looks_like_tag(b"Event \"x\""));
    }

    #[test]
    fn tag_lines_without_their_bracket() {
        for (yes, ends) in [
            ("Event \"Open\"]\n", false),
            ("Event \"Open\"] \r\n[Site", false),
            ("White\t\"a \\\"b\\\" c\" ]", true),
            ("Black-Elo \"\"]\n", false),
        ] {
            assert!(bracketless_tag(yes.as_bytes(), ends), "{yes:?}");
        }
        for (no, ends) in [
            ("Event \"Open\"]", false),
            ("Event \"Open\"] 1. 11-15\n", true),
            ("Event \"Open\"\n", true),
            ("Event \"Open]\n", true),
            ("Event Open\"]\n", true),
            ("1. 11-15 \"x\"]\n", true),
            ("[Event \"x\"]\n", true),
            ("\"x\"]\n", true),
        ] {
            assert!(!bracketless_tag(no.as_bytes(), ends), "{no:?}");
        }
        let long = format!("Event \"{}\"]\n", "x".repeat(BRACKETLESS_LOOKAHEAD));
        assert!(!bracketless_tag(long.as_bytes(), true));
    }

    #[test]
    fn what_starts_a_game_without_tags() {
        for yes in [
            "1.a3b4",
            "1. 11-15",
            "32-28 19-23",
            "a3b4",
            "c3-d4 f6-g5",
            "1-0",
            "*",
            "{intro} 1. 11-15",
            "- - 2. 11-15",
            "/FEN \"W:W18:B11\"/",
            "/Setup 1/",
            "01. 11-15",
        ] {
            assert!(starts_movetext(yes.as_bytes()), "{yes}");
        }
        for no in [
            "Downloaded from the archive",
            "1999 tournament",
            "12 games",
            "=======",
            "--------",
            "e4 is best",
            "(9-13)",
            "$1",
            "\u{0}\u{1}binary",
            "Game 2",
            "//",
            "/FEN without an end",
            "/F(/",
        ] {
            assert!(!starts_movetext(no.as_bytes()), "{no}");
        }
    }
}
