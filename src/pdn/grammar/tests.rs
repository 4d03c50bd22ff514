//! Tests of the productions and of the short ways against the general
//! ones.

use super::plain::{plain_move, plain_tag, tag_end};
use super::productions::{
    CommentEnd, brace_comment, fen_command, mark, move_number, nag, paren_mark, rest_of_line,
    setup, tag_name, tag_pair, tag_value, unescape, unknown_move,
};
use super::{parse_game, parse_game_as};

use crate::notation::MoveToken;
use crate::pdn::game::MoveNumber;

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
