//! Tests of the framing: where games end, junk, limits, and the same
//! games however the input arrives.

use super::movetext::{
    BOUNDARY, CLASS, DIGIT, JOINER, RESULT_START, pass_words, pass_words_bytewise,
};
use super::source::{CHUNK, LOOKAHEAD, RESULT_WINDOW, SAMPLE_CHARS, position_after, sample};
use super::state::Framer;
use std::io::{self, Read};

use crate::pdn::MAX_TEXT_LEN;
use crate::pdn::error::Position;
use crate::pdn::lex::{BRACKETLESS_LOOKAHEAD, is_boundary};

/// Frames `input` and returns each game's text.
fn frame(input: &[u8]) -> Vec<String> {
    let mut framer = Framer::new(input);
    let mut out = Vec::new();
    while let Some(game) = framer.next_game().unwrap() {
        out.push(String::from_utf8_lossy(&game.bytes).into_owned());
    }
    out
}

/// A reader that hands out one byte at a time.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((b, rest)), Some(slot)) => {
                *slot = *b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn games_end_at_results() {
    let games = frame(b"[Event \"a\"]\n1. 11-15 24-20 1-0\n\n[Event \"b\"]\n1. 9-13 *\n");
    assert_eq!(
        games,
        vec![
            "[Event \"a\"]\n1. 11-15 24-20 1-0",
            "[Event \"b\"]\n1. 9-13 *"
        ]
    );
}

#[test]
fn a_header_on_the_line_of_the_previous_result() {
    let games = frame(b"1. 11-15 0-1 [Event \"b\"] 1. 9-13 1/2-1/2");
    assert_eq!(games, vec!["1. 11-15 0-1", "[Event \"b\"] 1. 9-13 1/2-1/2"]);
}

#[test]
fn a_tag_line_ends_a_game_without_result() {
    let games = frame(b"[Event \"a\"]\n1. 11-15 24-20\n[Event \"b\"]\n1. 9-13 *");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], "[Event \"a\"]\n1. 11-15 24-20\n");
}

#[test]
fn tag_blocks_split_on_a_repeated_name_after_a_blank_line() {
    let games = frame(b"[Event \"a\"]\n\n[Event \"b\"]\n*");
    assert_eq!(games.len(), 2);
    let games = frame(b"[Event \"a\"]\n\n[Site \"b\"]\n*");
    assert_eq!(games.len(), 1);
    let games = frame(b"[Event \"a\"]\n[Event \"b\"]\n*");
    assert_eq!(games.len(), 1, "duplicate tags without a blank line stay");
}

#[test]
fn text_after_a_tag_on_its_line_is_skipped_once_per_game() {
    let text = b"[Event \"a\"]\\r\n[Site \"b\"] \\r\n1. 11-15 *\n[Event \"c\"]\\r\n*";
    let mut framer = Framer::new(&text[..]);
    let game = framer.next_game().unwrap().unwrap();
    assert_eq!(game.bytes, b"[Event \"a\"]\n[Site \"b\"]\n1. 11-15 *");
    assert_eq!(game.segments.len(), 3);
    // The next segment starts at the end of the line.
    let resume = game.segments[2].start;
    assert_eq!((resume.line, resume.column), (2, 14));
    assert_eq!(game.notes.len(), 1);
    assert_eq!(
        game.notes[0].message,
        "text after a tag skipped: `\\r` (and after 1 more tags)"
    );
    assert_eq!(
        game.notes[0].position,
        Position {
            byte: 11,
            line: 1,
            column: 12
        }
    );
    let game = framer.next_game().unwrap().unwrap();
    assert_eq!(game.bytes, b"[Event \"c\"]\n*");
    assert_eq!(game.notes.len(), 1);
    assert!(framer.next_game().unwrap().is_none());
}

#[test]
fn results_inside_comments_variations_and_tags_do_not_end_games() {
    let text = b"[Result \"1-0\"]\n1. 11-15 {1-0 here} (24-20 1-0) 24-19 ; 0-1\n 2. 8-11 *";
    let games = frame(text);
    assert_eq!(games.len(), 1);
    assert!(games[0].ends_with('*'));
}

#[test]
fn junk_between_games_is_reported_once_per_run() {
    let mut framer = Framer::new(
        &b"1. 11-15 *\nDownloaded from somewhere\n=====\n\n[Event \"b\"]\n*\nbye\n"[..],
    );
    let first = framer.next_game().unwrap().unwrap();
    assert!(first.notes.is_empty());
    let second = framer.next_game().unwrap().unwrap();
    assert_eq!(second.notes.len(), 1);
    assert_eq!(
        second.notes[0].message,
        "junk between games skipped: `Downloaded from somewhere` (1 more lines)"
    );
    assert_eq!(second.notes[0].position.line, 2);
    assert!(framer.next_game().unwrap().is_none());
    assert_eq!(framer.trailing.len(), 1);
    assert_eq!(framer.trailing[0].position.line, 7);
}

#[test]
fn an_unterminated_comment_stops_before_a_tag_line() {
    let games = frame(b"[Event \"a\"]\n1. 11-15 {oops\n24-20 1-0\n\n[Event \"b\"]\n*");
    assert_eq!(games.len(), 2);
    assert!(games[1].starts_with("[Event \"b\"]"));
}

#[test]
fn nested_comments() {
    let games = frame(b"1. 11-15 {a {b} 1-0 c} 24-20 *");
    assert_eq!(games, vec!["1. 11-15 {a {b} 1-0 c} 24-20 *"]);
}

#[test]
fn escape_lines_and_bom() {
    let games = frame(b"\xEF\xBB\xBF% comment\n[Date \"x\"]\n% inside\n1. 32-28 *");
    assert_eq!(games, vec!["[Date \"x\"]\n% inside\n1. 32-28 *"]);
    let mut framer = Framer::new(&b"\xEF\xBB\xBF[A \"b\"]"[..]);
    let game = framer.next_game().unwrap().unwrap();
    assert_eq!(
        game.segments[0].start,
        Position {
            byte: 3,
            line: 1,
            column: 1
        }
    );
}

#[test]
fn windows_1252_draw() {
    let games = frame(b"1. 11-15 \xBD-\xBD\n[Event \"b\"] *");
    assert_eq!(games.len(), 2);
}

#[test]
fn escaped_quotes_and_brackets_in_tag_values() {
    let games = frame(b"[White \"a \\\"b\\\" ]c\"] 32-28 *");
    assert_eq!(games, vec!["[White \"a \\\"b\\\" ]c\"] 32-28 *"]);
}

#[test]
fn one_byte_reads_frame_the_same() {
    let text: &[u8] = b"\xEF\xBB\xBF[Event \"a\"]\r\n1. 11-15 {x\r\n} 24-20 1-0\r\njunk\r\n[Event \"b\"]\r\n1. 9-13 1/2-1/2\r\n";
    let mut a = Framer::new(text);
    let mut b = Framer::new(Trickle(text));
    loop {
        let (x, y) = (a.next_game().unwrap(), b.next_game().unwrap());
        match (x, y) {
            (Some(x), Some(y)) => {
                assert_eq!(x.bytes, y.bytes);
                assert_eq!(x.segments, y.segments);
                assert_eq!(x.notes, y.notes);
            }
            (None, None) => break,
            _ => panic!("different game counts"),
        }
    }
}

/// Whether `1-1` ends a game depends on the bytes after it, never on
/// where the input's chunks happen to end.
#[test]
fn one_one_frames_the_same_wherever_the_window_ends() {
    let tail: &[u8] = b" 1-1 {a comment} \n\n1-1 12-7 1-1\n[E \"b\"]\n1. 1-1 1-1\n";
    // The first window ends at `CHUNK + LOOKAHEAD`: put each `1-1` of
    // the tail a little before and after it.
    let end = CHUNK + LOOKAHEAD;
    for pad in (end - RESULT_WINDOW - 40..end + 10).step_by(3) {
        let mut text = b"[E \"a\"]\n1. 9-15".to_vec();
        text.resize(pad, b' ');
        text.extend_from_slice(tail);
        let whole = frame(&text);
        let mut framer = Framer::new(Trickle(&text));
        let mut trickled = Vec::new();
        while let Some(game) = framer.next_game().unwrap() {
            trickled.push(String::from_utf8_lossy(&game.bytes).into_owned());
        }
        assert_eq!(whole, trickled, "{pad}");
        assert_eq!(whole.len(), 3, "{pad}");
        assert!(whole[0].ends_with(" 1-1"), "{pad}");
        assert_eq!(whole[1], "{a comment} \n\n1-1 12-7 1-1");
        assert_eq!(whole[2], "[E \"b\"]\n1. 1-1 1-1");
    }
}

/// A tag line that lost its `[` is told from movetext the same way
/// wherever the input's chunks end.
#[test]
fn bracketless_tags_frame_the_same_wherever_the_window_ends() {
    let end = CHUNK + LOOKAHEAD;
    for pad in (end - BRACKETLESS_LOOKAHEAD - 40..end + 10).step_by(7) {
        let mut text = b"[Event \"a\"]\n{".to_vec();
        text.resize(pad, b'x');
        text.extend_from_slice(b"}\nSite \"b\"]\n[Round \"1\"]\n1. 9-13 *\n");
        let whole = frame(&text);
        let mut framer = Framer::new(Trickle(&text));
        let mut trickled = Vec::new();
        while let Some(game) = framer.next_game().unwrap() {
            trickled.push(String::from_utf8_lossy(&game.bytes).into_owned());
        }
        assert_eq!(whole, trickled, "{pad}");
        assert_eq!(whole.len(), 1, "{pad}");
    }
}

#[test]
fn long_comments_are_cut_and_positions_resume_after_them() {
    let mut text = b"1. 11-15 {".to_vec();
    text.extend(std::iter::repeat_n(b'a', MAX_TEXT_LEN + 10));
    text.extend_from_slice(b"} 24-20 *");
    let mut framer = Framer::new(&text[..]);
    let game = framer.next_game().unwrap().unwrap();
    assert!(game.complete);
    assert_eq!(game.bytes.len(), 10 + MAX_TEXT_LEN + 9);
    assert_eq!(game.segments.len(), 2);
    let resume = game.segments[1];
    assert_eq!(resume.at, 10 + MAX_TEXT_LEN);
    assert_eq!(resume.start.byte, 10 + MAX_TEXT_LEN as u64 + 10);
    assert_eq!(game.notes.len(), 1);
    assert_eq!(
        game.notes[0].message,
        "comment longer than 1 MiB: cut there"
    );
}

#[test]
fn byte_classes_agree_with_the_lexical_rules() {
    for b in 0..=255u8 {
        let class = CLASS[b as usize];
        assert_eq!(class & BOUNDARY != 0, is_boundary(Some(b)), "{b}");
        assert_eq!(
            class & RESULT_START != 0,
            matches!(b, b'0'..=b'2' | b'*' | b'-' | 0xC2 | 0xBD),
            "{b}"
        );
        assert_eq!(class & DIGIT != 0, matches!(b, b'0'..=b'2'), "{b}");
        assert_eq!(class & JOINER != 0, matches!(b, b'-' | b'/'), "{b}");
    }
}

#[test]
fn positions_after_text() {
    let p = position_after(Position::START, "ab\ncé".as_bytes(), false);
    assert_eq!(
        p,
        Position {
            byte: 6,
            line: 2,
            column: 3
        }
    );
}

#[test]
fn samples_are_readable() {
    assert_eq!(sample(b"abc\ndef", None), "abc");
    assert_eq!(sample(b"a\x00b", None), "a\u{FFFD}b");
    assert_eq!(
        sample(b"M\xFCller", Some(encoding_rs::WINDOWS_1252)),
        "Müller"
    );
    assert_eq!(sample(b"M\xFCller", None), "M\u{FFFD}ller");
    assert_eq!(sample("Müller é".as_bytes(), None), "Müller é");
    let long = vec![b'x'; 200];
    assert_eq!(sample(&long, None).chars().count(), SAMPLE_CHARS + 1);
}

/// Pieces of tag lines, good and broken, for the test below.
const TAG_PIECES: &[&str] = &[
    "[Event \"a\"]",
    "[Site \"b c\" ]",
    "[White \"x\\\"y\"]",
    "[Annotator \"a\\\"] 1. 9-13\"]",
    "[Black \"open",
    "[Round \"1\"] [Date \"2\"]",
    "[Result \"1-0\"]\r",
    "[Event]",
    "[Event \"a\" \"b\"]",
    "[Event \"]\"]",
    "[ Name   \"v\"]",
    "Event \"bracketless\"]",
    "1. 11-15 24-20",
    "{c [Event \"in a comment\"]}",
    "1-0",
    "*",
    "",
];

proptest::proptest! {
    #[test]
    fn words_pass_by_eights_as_byte_by_byte(
        picks in proptest::collection::vec(0usize..30, 0..80),
        from in 0usize..80,
        boundary in proptest::bool::ANY,
    ) {
        const BYTES: &[u8] = b"0123456789-/x. \n\t[%;{()*\xC2\xBD}!?a";
        let w: Vec<u8> = picks.iter().map(|&k| BYTES[k]).collect();
        let from = from.min(w.len());
        let last = if boundary { BOUNDARY } else { 0 };
        proptest::prop_assert_eq!(
            pass_words(&w, from, last),
            pass_words_bytewise(&w, from, last)
        );
    }

    #[test]
    fn plain_tags_are_kept_as_the_general_way_keeps_them(
        picks in proptest::collection::vec((0..TAG_PIECES.len(), 0usize..4), 0..30)
    ) {
        let mut text = String::new();
        for (piece, gap) in picks {
            text.push_str(TAG_PIECES[piece]);
            text.push_str(["\n", " ", "\n\n", ""][gap]);
        }
        let frames = |plain_tags: bool| {
            let mut framer = Framer::new(text.as_bytes());
            framer.plain_tags = plain_tags;
            let mut out = Vec::new();
            while let Some(game) = framer.next_game().unwrap() {
                out.push(format!("{game:?}"));
            }
            out.push(format!("{:?}", framer.trailing));
            out
        };
        proptest::prop_assert_eq!(frames(true), frames(false));
    }
}
