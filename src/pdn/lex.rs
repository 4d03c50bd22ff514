//! Lexical rules shared by the framing and the grammar, so that both agree
//! on where a result stands, what a tag line looks like and what may start a
//! game. They work on bytes: the framing sees raw input (UTF-8 or
//! Windows-1252), the grammar decoded text.

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
/// there ([`is_boundary`]). `1-1` is read as a result, never as a move.
pub(crate) fn result_len(text: &[u8]) -> Option<usize> {
    // Most tokens starting like a result are moves: reject them by their
    // first two bytes.
    match text {
        [b'0'..=b'2', b'-' | b'/', ..] | [b'*', ..] | [0xC2, 0xBD, ..] | [0xBD, b'-', ..] => {}
        _ => return None,
    }
    RESULTS.iter().find_map(|r| {
        (text.starts_with(r) && is_result_end(text.get(r.len()).copied())).then_some(r.len())
    })
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

/// Whether `b` may be part of a tag name (PDN asks for letters, digits and
/// `_`; real files also use `-`).
pub(crate) fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// `text` without its leading spaces and tabs.
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
    let head = &text[..text.len().min(super::MAX_TOKEN_LEN + 8)];
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
        assert!(!looks_like_tag(b"[diagram]"));
        assert!(!looks_like_tag(b"[%clk 1:00]"));
        assert!(!looks_like_tag(b"Event \"x\""));
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
