//! One test per quirk of real PDN: each reads a small text and asserts the
//! stream of items read (tags, moves, annotations, comments, variations,
//! result) and the diagnostics.

use super::*;
use crate::notation::{Orientation, SquareToken};

/// Reads every game of `input`.
fn read(input: &[u8]) -> Vec<Game> {
    Reader::new(input)
        .map(|g| g.expect("reading from memory"))
        .collect()
}

/// Reads `input`, which must hold exactly one game.
fn one(input: &str) -> Game {
    let mut games = read(input.as_bytes());
    assert_eq!(games.len(), 1, "{input:?}");
    games.remove(0)
}

/// The items of a game in text order, one short string each.
fn items(game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    for tag in &game.tags {
        out.push(format!("[{}={}]", tag.name, tag.value));
    }
    line_items(&game.movetext, &game.line, &mut out);
    if let Some(result) = &game.result {
        out.push(format!("result {}", result.text));
    }
    out
}

fn line_items(movetext: &str, line: &Line, out: &mut Vec<String>) {
    for comment in &line.comments {
        out.push(comment_item(comment));
    }
    for setup in &line.setups {
        out.push(format!("/{}/", setup.text));
    }
    for ply in &line.plies {
        let number = match ply.number {
            Some(MoveNumber {
                number,
                ellipsis: false,
            }) => format!("{number}. "),
            Some(MoveNumber {
                number,
                ellipsis: true,
            }) => format!("{number}... "),
            None => String::new(),
        };
        let token = match &ply.token {
            PlyToken::Move(token) => token.to_string(),
            PlyToken::Unknown => "unknown".to_string(),
            PlyToken::Invalid(_) => format!("invalid `{}`", ply.text(movetext)),
        };
        out.push(format!("{number}{token}"));
        for nag in ply.nags() {
            out.push(match nag {
                Nag::Glyph(n) => format!("${n}"),
                Nag::Mark(mark) => format!("mark {mark}"),
            });
        }
        for comment in ply.comments() {
            out.push(comment_item(comment));
        }
        for setup in ply.setups() {
            out.push(format!("/{}/", setup.text));
        }
        for variation in ply.variations() {
            out.push("(".to_string());
            line_items(movetext, variation, out);
            out.push(")".to_string());
        }
    }
}

fn comment_item(comment: &Comment) -> String {
    match comment.kind {
        CommentKind::Brace => format!("{{{}}}", comment.text),
        CommentKind::Line => format!(";{}", comment.text),
        CommentKind::Bare => format!("bare `{}`", comment.text),
    }
}

/// The messages of a game's diagnostics.
fn messages(game: &Game) -> Vec<String> {
    game.diagnostics.iter().map(|d| d.message.clone()).collect()
}

fn position(byte: u64, line: u64, column: u64) -> Position {
    Position { byte, line, column }
}

#[test]
fn tags_in_any_case_duplicated_empty_and_escaped() {
    let game = one(
        "[event \"Open\"]\n[EVENT \"Again\"]\n[Date \"\"]\n[White \"Say \\\"hi\\\" \\\\o/\"]\n[Black-Elo \"1800\"]\n1. 11-15 *",
    );
    assert_eq!(
        items(&game),
        [
            "[event=Open]",
            "[EVENT=Again]",
            "[Date=]",
            "[White=Say \"hi\" \\o/]",
            "[Black-Elo=1800]",
            "1. 11-15",
            "result *"
        ]
    );
    assert_eq!(game.tag("Event"), Some("Open"));
    assert_eq!(game.tags_named("event").count(), 2);
    assert_eq!(game.tag("date"), Some(""));
    assert_eq!(game.tag("Site"), None);
    assert_eq!(
        messages(&game),
        ["tag `EVENT` repeated (first on line 1): both kept, the first one counts"]
    );
    assert_eq!(game.diagnostics[0].position, position(15, 2, 1));
    assert!(!game.has_errors());
}

#[test]
fn repeated_tags_are_kept_with_a_warning_each() {
    let game = one("[Event \"a\"]\n[Site \"s\"]\n[Event \"b\"]\n[event \"c\"]\n1. 11-15 *");
    let events: Vec<&str> = game.tags_named("Event").map(|t| t.value.as_str()).collect();
    assert_eq!(events, ["a", "b", "c"]);
    assert_eq!(game.tag("Event"), Some("a"));
    assert_eq!(
        messages(&game),
        [
            "tag `Event` repeated (first on line 1): both kept, the first one counts",
            "tag `event` repeated (first on line 1): both kept, the first one counts",
        ]
    );
    assert_eq!(game.diagnostics[0].position.line, 3);
    assert_eq!(game.diagnostics[1].position.line, 4);
    // Past the pairwise comparison: the same warnings, in text order.
    let mut text = String::new();
    for k in 0..40 {
        text.push_str(&format!("[T{k} \"x\"]\n"));
    }
    text.push_str("[T3 \"y\"]\n[t3 \"z\"]\n[T39 \"w\"]\n*");
    let game = one(&text);
    assert_eq!(game.tags.len(), 43);
    assert_eq!(
        messages(&game),
        [
            "tag `T3` repeated (first on line 4): both kept, the first one counts",
            "tag `t3` repeated (first on line 4): both kept, the first one counts",
            "tag `T39` repeated (first on line 40): both kept, the first one counts",
        ]
    );
}

/// Tags named in other languages are kept as written; the standard tags
/// are read through them when the game lacks the standard ones.
#[test]
fn tags_named_in_other_languages() {
    let game = one(
        "[Dati \"Campionato italiano\"]\n[Bianco \"Rossi\"]\n[Nero \"Verdi\"]\n[Risultato \"1-0\"]\n[Anno \"1998\"]\n1. 11-15 1-0",
    );
    assert_eq!(
        items(&game),
        [
            "[Dati=Campionato italiano]",
            "[Bianco=Rossi]",
            "[Nero=Verdi]",
            "[Risultato=1-0]",
            "[Anno=1998]",
            "1. 11-15",
            "result 1-0"
        ]
    );
    assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
    assert_eq!(game.tag("White"), None);
    let standard: Vec<Option<&str>> = ["Event", "Site", "Date", "White", "Black", "Result"]
        .iter()
        .map(|name| game.standard_tag(name))
        .collect();
    assert_eq!(
        standard,
        [
            Some("Campionato italiano"),
            None,
            Some("1998"),
            Some("Rossi"),
            Some("Verdi"),
            Some("1-0")
        ]
    );
    // Names outside ASCII are names; the standard tag, when there, wins.
    let game = one(
        "[Résultat \"0-1\"]\n[Белые \"Иванов\"]\n[Чёрные \"Петров\"]\n[White \"Ivanov\"]\n1. 11-15 0-1",
    );
    assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
    assert_eq!(game.tags[1].name, "Белые");
    assert_eq!(game.standard_tag("result"), Some("0-1"));
    assert_eq!(game.standard_tag("White"), Some("Ivanov"));
    assert_eq!(game.standard_tag("Black"), Some("Петров"));
}

#[test]
fn malformed_tags_are_warnings_and_the_game_goes_on() {
    let game = one(
        "[Event \"open\n[\"no name\"]\n[Site \"x\" junk]\n[Round \"1\"\n[Empty]\n[Event]\n[ \"x\"]\n1. 11-15 *",
    );
    assert_eq!(
        items(&game),
        [
            "[Event=open]",
            "[Site=x]",
            "[Round=1]",
            "1. 11-15",
            "result *"
        ]
    );
    assert_eq!(
        messages(&game),
        [
            "tag `Event`: its value is not closed by `\"`",
            "malformed tag skipped: `[\"no name\"]`",
            "tag `Site`: text after the value ignored: `junk`",
            "tag `Round` is not closed by `]`",
            "malformed tag skipped: `[Empty]`",
            "malformed tag skipped: `[Event]`",
            "malformed tag skipped: `[ \"x\"]`",
        ]
    );
    // Only the tag is lost: nothing here keeps the moves from being read.
    assert!(!game.has_errors());
    assert_eq!(game.diagnostics[1].position.line, 2);
    assert_eq!(game.diagnostics[4].position, position(52, 5, 1));
}

#[test]
fn move_numbers_in_every_form() {
    let game = one(
        "1.11-15 1...24-20 2. 8-11 2... 28-24 3. ... 9-13 4 .. 22-18 5.. 5-9 22-17 06. 13x22 *",
    );
    assert_eq!(
        items(&game),
        [
            "1. 11-15",
            "1... 24-20",
            "2. 8-11",
            "2... 28-24",
            "3... 9-13",
            "invalid `4`",
            "bare `..`",
            "22-18",
            "5... 5-9",
            "22-17",
            "6. 13x22",
            "result *"
        ]
    );
}

#[test]
fn moves_without_numbers() {
    let game = one("32-28 19-23 28x19 14x23");
    assert_eq!(items(&game), ["32-28", "19-23", "28x19", "14x23"]);
    assert_eq!(
        messages(&game),
        ["no result terminator: the game ends here"]
    );
}

#[test]
fn moves_in_the_four_notations_and_every_joiner() {
    let game = one(
        "1. 11-15 23x18 2. 26:17 9×18 3. a3-b4 h6xf4 4. d3:e4 c1xe3xc5xa3 5. 15x22x31 a3b4 1-0",
    );
    let tokens: Vec<&str> = game.plies().iter().map(|p| game.ply_text(p)).collect();
    assert_eq!(
        tokens,
        [
            "11-15",
            "23x18",
            "26:17",
            "9×18",
            "a3-b4",
            "h6xf4",
            "d3:e4",
            "c1xe3xc5xa3",
            "15x22x31",
            "a3b4"
        ]
    );
    let captures: Vec<bool> = game
        .plies()
        .iter()
        .map(|p| p.move_token().unwrap().capture)
        .collect();
    assert_eq!(
        captures,
        [
            false, true, true, true, false, true, true, true, true, false
        ]
    );
    assert_eq!(game.plies()[7].move_token().unwrap().squares.len(), 4);
}

#[test]
fn four_digits_are_two_squares_without_a_joiner() {
    let game = one("1. 3228 0914 2. 2824! {x} 3251 5-9 1999 *");
    assert_eq!(
        items(&game),
        [
            "1. 32-28",
            "9-14",
            "2. 28-24",
            "mark !",
            "{x}",
            "invalid `3251`",
            "5-9",
            "invalid `1999`",
            "result *",
        ]
    );
    assert_eq!(game.ply_text(&game.plies()[0]), "3228");
    assert!(!game.plies()[0].move_token().unwrap().capture);
    // A line of four digits between games is still junk, not a game.
    let games = read(b"1. 11-15 *\n2010 Open\n[Event \"b\"]\n*\n");
    assert_eq!(games.len(), 2);
    assert!(
        games[1].diagnostics[0]
            .message
            .starts_with("junk between games")
    );
}

#[test]
fn zero_padded_and_space_split_squares() {
    let game = one("1. 01-05 2. 1- 7 3. 47x 9 4.  9- 3 22 - 18 *");
    let tokens: Vec<(String, String)> = game
        .plies()
        .iter()
        .map(|p| {
            (
                game.ply_text(p).to_string(),
                p.move_token().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        tokens,
        [
            ("01-05".to_string(), "1-5".to_string()),
            ("1- 7".to_string(), "1-7".to_string()),
            ("47x 9".to_string(), "47x9".to_string()),
            ("9- 3".to_string(), "9-3".to_string()),
            ("22 - 18".to_string(), "22-18".to_string()),
        ]
    );
}

#[test]
fn unknown_moves() {
    let game = one("1. 11-15 - - 2. -- 24-20 *");
    assert_eq!(
        items(&game),
        ["1. 11-15", "unknown", "2. unknown", "24-20", "result *"]
    );
    assert_eq!(game.ply_text(&game.plies()[1]), "- -");
    assert_eq!(game.plies()[1].token, PlyToken::Unknown);
}

#[test]
fn forfeits_have_a_result_and_no_moves() {
    let game = one("[Event \"x\"]\n1. 2-0\n");
    assert_eq!(items(&game), ["[Event=x]", "result 2-0"]);
    assert!(game.diagnostics.is_empty());
}

#[test]
fn comments_braced_nested_line_and_escape() {
    let game = one(
        "{before} 1. 11-15 {after {nested} ok} 24-20 ; to the end\n% escape line ignored\n2. 8-11 {two}{comments} *",
    );
    assert_eq!(
        items(&game),
        [
            "{before}",
            "1. 11-15",
            "{after {nested} ok}",
            "24-20",
            "; to the end",
            "2. 8-11",
            "{two}",
            "{comments}",
            "result *"
        ]
    );
    assert!(game.diagnostics.is_empty());
}

#[test]
fn unterminated_comment_is_reported_and_the_next_game_survives() {
    let games =
        read(b"[Event \"a\"]\n1. 11-15 {never closed\n24-20 1-0\n\n[Event \"b\"]\n1. 9-13 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        items(&games[0]),
        ["[Event=a]", "1. 11-15", "{never closed\n24-20 1-0\n\n}"]
    );
    let d = &games[0].diagnostics[0];
    assert_eq!(d.message, "unterminated comment started here");
    assert!(d.is_error());
    assert_eq!((d.position.line, d.position.column), (2, 10));
    assert_eq!(d.game, Some(1));
    assert_eq!(items(&games[1]), ["[Event=b]", "1. 9-13", "result *"]);
    assert!(games[1].diagnostics.is_empty());
}

#[test]
fn unbalanced_braces_in_a_comment_are_read_flat() {
    let game = one("1. 11-15 {oops :-{ } 24-20 *");
    assert_eq!(
        items(&game),
        ["1. 11-15", "{oops :-{ }", "24-20", "result *"]
    );
    assert_eq!(
        messages(&game),
        ["the braces of this comment do not balance: it is read up to its first `}`"]
    );
}

#[test]
fn nested_variations_attach_to_the_move_they_replace() {
    let game = one("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23");
    assert_eq!(
        items(&game),
        [
            "32-28",
            "19-23",
            "(",
            "18-23",
            "38-32",
            "(",
            "37-32",
            "mark ?",
            "23-29",
            "mark !",
            "{ Black wins }",
            ")",
            "12-18",
            ")",
            "28x19",
            "14x23"
        ]
    );
    let alternative = &game.plies()[1].variations()[0];
    assert_eq!(alternative.plies[1].variations()[0].plies.len(), 2);
}

#[test]
fn nags_and_marks_also_in_parentheses() {
    let game = one("1.32-28!? 19-23(!?!!!) 2.28x19 $14 ?? 14x23 (?) $1 *");
    assert_eq!(
        items(&game),
        [
            "1. 32-28",
            "mark !?",
            "19-23",
            "mark (!?!!!)",
            "2. 28x19",
            "$14",
            "mark ??",
            "14x23",
            "mark (?)",
            "$1",
            "result *"
        ]
    );
}

#[test]
fn setup_commands_in_the_movetext() {
    let game = one("/FEN \"W:W31-50:B1-20\"/ 1. 32-28 /FEN \"B:W28,31-50:B1-20\"/ 1... 20-25 *");
    assert_eq!(
        items(&game),
        [
            "/FEN \"W:W31-50:B1-20\"/",
            "1. 32-28",
            "/FEN \"B:W28,31-50:B1-20\"/",
            "1... 20-25",
            "result *"
        ]
    );
    assert_eq!(
        game.hints.fen,
        Some(FenHint {
            fen: "W:W31-50:B1-20".into(),
            source: FenSource::Command
        })
    );
    assert_eq!(
        game.plies()[0].setups()[0].fen.as_deref(),
        Some("B:W28,31-50:B1-20")
    );
}

#[test]
fn every_result_form() {
    for result in [
        "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "1/2-1/2", "½-½", "*",
    ] {
        let game = one(&format!("[Result \"{result}\"]\n1. 11-15 24-20 {result}\n"));
        assert_eq!(
            game.result.as_ref().map(|r| r.text.as_str()),
            Some(result),
            "{result}"
        );
        assert_eq!(game.plies().len(), 2, "{result}");
        assert!(game.diagnostics.is_empty(), "{result}");
    }
}

#[test]
fn a_header_on_the_line_of_the_previous_result() {
    let games = read(b"[Event \"a\"]\n1. 11-15 24-20 1-0 [Event \"b\"]\n1. 9-13 0-1");
    assert_eq!(games.len(), 2);
    assert_eq!(
        items(&games[0]),
        ["[Event=a]", "1. 11-15", "24-20", "result 1-0"]
    );
    assert_eq!(items(&games[1]), ["[Event=b]", "1. 9-13", "result 0-1"]);
    assert_eq!(games[1].start, position(31, 2, 20));
    assert_eq!(games[1].index, 2);
}

/// Some programs end every tag line with a literal `\r` (a backslash and
/// an `r`): the games keep all their tags, with one warning each.
#[test]
fn stray_text_after_a_tag_is_skipped_with_one_warning_per_game() {
    let mut text = String::new();
    for (k, result) in ["1-0", "0-1", "1/2-1/2"].iter().enumerate() {
        text.push_str(&format!(
            "[Event \"Open\"]\\r\n[Site \"Paris\"]\\r\n[Round \"{}\"] \\r\n[White \"A\"]\\r\n[Black \"B\"]\\r\n[Result \"{result}\"]\\r\n1. 11-15 24-20 {result}\n\n",
            k + 1
        ));
    }
    let games = read(text.as_bytes());
    assert_eq!(games.len(), 3);
    for (k, game) in games.iter().enumerate() {
        let round = (k + 1).to_string();
        let result = ["1-0", "0-1", "1/2-1/2"][k];
        let tags: Vec<(&str, &str)> = game
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str()))
            .collect();
        assert_eq!(
            tags,
            [
                ("Event", "Open"),
                ("Site", "Paris"),
                ("Round", round.as_str()),
                ("White", "A"),
                ("Black", "B"),
                ("Result", result)
            ]
        );
        assert_eq!(game.plies().len(), 2);
        assert_eq!(game.result.as_ref().unwrap().text, result);
        assert_eq!(
            messages(game),
            ["text after a tag skipped: `\\r` (and after 5 more tags)"]
        );
        let d = &game.diagnostics[0];
        assert_eq!((d.position.line, d.position.column), (8 * k as u64 + 1, 15));
    }
    // Positions after the skipped text are still those of the input.
    assert_eq!(
        games[1].position_of(&games[1].plies()[0]),
        position(211, 15, 4)
    );
}

/// What follows a tag on its line is read as before when it is more of
/// the game: another tag, moves, a comment; a header may also start on the
/// line of the previous result.
#[test]
fn moves_comments_and_tags_after_a_tag_on_its_line() {
    let games = read(
        b"[Event \"a\"] [Site \"b\"] 1. 11-15 24-20 1-0 [Event \"c\"] {note}\n[Round \"2\"] ; line\n1. 9-13 *",
    );
    assert_eq!(games.len(), 2);
    assert_eq!(
        items(&games[0]),
        ["[Event=a]", "[Site=b]", "1. 11-15", "24-20", "result 1-0"]
    );
    assert_eq!(
        items(&games[1]),
        [
            "[Event=c]",
            "[Round=2]",
            "{note}",
            "; line",
            "1. 9-13",
            "result *"
        ]
    );
    assert!(games.iter().all(|g| g.diagnostics.is_empty()));
    // Text, then a tag or moves, on one line: only the text is skipped.
    let game = one("[Event \"a\"] junk here [Site \"b\"]\\r 1. 11-15 *");
    assert_eq!(
        items(&game),
        ["[Event=a]", "[Site=b]", "1. 11-15", "result *"]
    );
    assert_eq!(
        messages(&game),
        ["text after a tag skipped: `junk here` (and after 1 more tags)"]
    );
}

/// A tag line that lost its `[` among a header's lines is read as that tag,
/// with a warning; it neither starts a game nor movetext.
#[test]
fn a_tag_line_without_its_bracket() {
    let games = read(
        b"[Event \"Open\"]\nSite \"Paris\"]\n  Round \"2\" ]\r\n[White \"A\"]\n1. 11-15 *\n\nEvent \"Next\"]\n[Site \"x\"]\n1. 9-13 *\n",
    );
    assert_eq!(games.len(), 2);
    assert_eq!(
        items(&games[0]),
        [
            "[Event=Open]",
            "[Site=Paris]",
            "[Round=2]",
            "[White=A]",
            "1. 11-15",
            "result *"
        ]
    );
    assert_eq!(
        messages(&games[0]),
        [
            "tag `Site` lacks its opening `[`: read as a tag",
            "tag `Round` lacks its opening `[`: read as a tag"
        ]
    );
    assert_eq!(games[0].tags[1].position, position(15, 2, 1));
    assert_eq!(games[0].tags[2].position, position(31, 3, 3));
    // The first line of a header, too.
    assert_eq!(
        items(&games[1]),
        ["[Event=Next]", "[Site=x]", "1. 9-13", "result *"]
    );
    assert_eq!(games[1].start, position(68, 7, 1));
    // Not after movetext: there it is text of the game.
    let game = one("[Event \"a\"]\n1. 11-15\nSite \"x\"]\n24-20 *");
    assert_eq!(game.tags.len(), 1);
    assert_eq!(game.plies().len(), 2);
}

/// A lone `-` where the result stands is an unknown result, like `*`;
/// `- -` is still an unknown move, and a `-` inside the movetext is text.
#[test]
fn a_lone_dash_where_the_result_stands() {
    let games = read(
        b"[Event \"a\"]\n1. 11-15 24-20 2. 8-11 -\n\n[Event \"b\"]\n1. 9-13 - - 2. 11-15 - -\n\n[Event \"c\"]\n1. 9-13 -",
    );
    assert_eq!(games.len(), 3);
    assert_eq!(
        items(&games[0]),
        ["[Event=a]", "1. 11-15", "24-20", "2. 8-11", "result -"]
    );
    assert!(
        games[0].diagnostics.is_empty(),
        "{:?}",
        games[0].diagnostics
    );
    assert_eq!(
        games[0].result.as_ref().unwrap().position,
        position(35, 2, 24)
    );
    assert_eq!(
        items(&games[1]),
        ["[Event=b]", "1. 9-13", "unknown", "2. 11-15", "unknown"]
    );
    assert_eq!(
        messages(&games[1]),
        ["no result terminator: the game ends here"]
    );
    assert_eq!(items(&games[2]), ["[Event=c]", "1. 9-13", "result -"]);
    // Followed by more of the game, it is no result: here part of a move
    // written with blanks, as before.
    let game = one("1. 11-15 - 24-20 *");
    assert_eq!(items(&game), ["1. 11-15-24-20", "result *"]);
    let game = one("1. 11-15 {a} - {b} 24-20 *");
    assert_eq!(
        items(&game),
        ["1. 11-15", "{a}", "bare `-`", "{b}", "24-20", "result *"]
    );
    let game = one("1. 23 - 18 9-14 *");
    assert_eq!(items(&game), ["1. 23-18", "9-14", "result *"]);
}

#[test]
fn missing_terminators_end_at_the_next_tags() {
    let games = read(b"[Event \"a\"]\n1. 11-15 24-20\n[Event \"b\"]\n1. 9-13\n\n[Event \"c\"]\n*");
    assert_eq!(games.len(), 3);
    assert_eq!(items(&games[0]), ["[Event=a]", "1. 11-15", "24-20"]);
    assert_eq!(
        messages(&games[0]),
        ["no result terminator: the game ends here"]
    );
    assert_eq!(games[0].diagnostics[0].position.line, 2);
    assert_eq!(items(&games[1]), ["[Event=b]", "1. 9-13"]);
    assert_eq!(items(&games[2]), ["[Event=c]", "result *"]);
    assert!(games[2].diagnostics.is_empty());
}

#[test]
fn junk_between_games_is_skipped_with_a_warning() {
    let mut reader = Reader::new(
        &b"1. 11-15 *\n\nDownloaded from www.example.org\n--------\n[Event \"b\"]\n1. 9-13 *\nThe end.\n"[..],
    );
    let first = reader.next_game().unwrap().unwrap();
    assert!(first.diagnostics.is_empty());
    let second = reader.next_game().unwrap().unwrap();
    assert_eq!(items(&second), ["[Event=b]", "1. 9-13", "result *"]);
    assert_eq!(
        messages(&second),
        ["junk between games skipped: `Downloaded from www.example.org` (1 more lines)"]
    );
    let d = &second.diagnostics[0];
    assert_eq!(
        (d.position.line, d.position.column, d.game),
        (3, 1, Some(2))
    );
    assert!(reader.next_game().unwrap().is_none());
    let trailing = reader.trailing_diagnostics();
    assert_eq!(trailing.len(), 1);
    assert_eq!(
        trailing[0].to_string(),
        "7:1: warning: junk between games skipped: `The end.`"
    );
}

#[test]
fn byte_order_mark_and_crlf() {
    let games = read(b"\xEF\xBB\xBF[Event \"a\"]\r\n[Site \"b\"]\r\n\r\n1. 11-15 {x\r\ny} 24-20 ; c\r\n1-0\r\n\r\n[Event \"c\"]\r\n*\r\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        items(&games[0]),
        [
            "[Event=a]",
            "[Site=b]",
            "1. 11-15",
            "{x\ny}",
            "24-20",
            "; c",
            "result 1-0"
        ]
    );
    assert_eq!(games[0].start, position(3, 1, 1));
    assert_eq!(
        games[0].position_of(&games[0].plies()[0]),
        position(33, 4, 4)
    );
    assert_eq!(games[1].start, position(64, 8, 1));
    assert!(games.iter().all(|g| g.diagnostics.is_empty()));
}

/// Encodes `text` in Windows-1251.
fn cp1251(text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1251.encode(text);
    assert!(!unmappable);
    bytes.into_owned()
}

/// Russian games in Windows-1251: read in the encoding detected for the
/// file, named once; positions count one character per byte.
#[test]
fn windows_1251_names_are_read_right() {
    let text = "[Event \"Чемпионат СССР\"]\n[White \"Иванов Пётр\"]\n[Black \"Сидоров Алексей\"]\n1. c3-d4 {Ёлка} f6-g5 1-0 [Event \"Второй тур\"]\n[White \"Фёдоров\"]\n[Black \"Ёлкин\"]\n1. c3-b4 *\n";
    let games = read(&cp1251(text));
    assert_eq!(games.len(), 2);
    let names: Vec<(Option<&str>, Option<&str>, Option<&str>)> = games
        .iter()
        .map(|g| (g.tag("Event"), g.tag("White"), g.tag("Black")))
        .collect();
    assert_eq!(
        names,
        [
            (
                Some("Чемпионат СССР"),
                Some("Иванов Пётр"),
                Some("Сидоров Алексей")
            ),
            (Some("Второй тур"), Some("Фёдоров"), Some("Ёлкин"))
        ]
    );
    let legacy = TextEncoding::Legacy(encoding_rs::WINDOWS_1251);
    assert!(games.iter().all(|g| g.encoding == legacy));
    assert_eq!(games[0].encoding.name(), "windows-1251");
    assert_eq!(
        messages(&games[0]),
        ["the file is not UTF-8: its text is read as windows-1251, the encoding detected for it"]
    );
    assert_eq!(games[0].diagnostics[0].position, position(8, 1, 9));
    assert!(games[1].diagnostics.is_empty());
    // `Ё` (a byte that would continue a UTF-8 character) is one character.
    assert_eq!(
        games[0].position_of(&games[0].plies()[1]),
        position(89, 4, 17)
    );
    assert_eq!(games[1].start, position(99, 4, 27));
    // Given, the encoding is not named.
    let bytes = cp1251(text);
    let mut reader = Reader::with_encoding(&bytes[..], Some(encoding_rs::WINDOWS_1251));
    assert_eq!(reader.encoding(), Some(encoding_rs::WINDOWS_1251));
    let game = reader.next_game().unwrap().unwrap();
    assert_eq!(game.tag("White"), Some("Иванов Пётр"));
    assert!(game.diagnostics.is_empty());
}

/// One damaged byte in a UTF-8 file: the file stays UTF-8, the byte is
/// read as U+FFFD with a warning that says where, and the rest of its game
/// is intact.
#[test]
fn a_bad_byte_in_a_utf8_file() {
    let mut input = "[White \"Дмитриев\"]\n[Black \"Müller\"]\n1. 11-15 *\n\n"
        .as_bytes()
        .to_vec();
    input.extend_from_slice("[White \"Peña\"]\n[Black \"Jos".as_bytes());
    input.push(0xE9);
    input.extend_from_slice(" Łukasz\"]\n[Site \"Kraków\"]\n1. 11-15 *\n".as_bytes());
    let mut reader = Reader::new(&input[..]);
    let games: Vec<Game> = (&mut reader).map(|g| g.unwrap()).collect();
    assert_eq!(reader.encoding(), Some(encoding_rs::UTF_8));
    assert_eq!(games.len(), 2);
    assert!(games[0].diagnostics.is_empty());
    let game = &games[1];
    assert_eq!(game.encoding, TextEncoding::Utf8);
    assert_eq!(game.tag("White"), Some("Peña"));
    assert_eq!(game.tag("Black"), Some("Jos\u{FFFD} Łukasz"));
    assert_eq!(game.tag("Site"), Some("Kraków"));
    assert_eq!(
        messages(game),
        ["byte \\xE9 not valid UTF-8, the input's encoding: read as U+FFFD"]
    );
    let d = &game.diagnostics[0];
    assert_eq!(
        (d.position.line, d.position.column, d.game),
        (6, 12, Some(2))
    );
    assert_eq!(d.position.byte, 84);
    // Positions after it are those of the input.
    assert_eq!(game.tags[2].position, position(96, 7, 1));
    assert_eq!(game.position_of(&game.plies()[0]).byte, 116);
}

/// The encoding is decided from the bytes after the first one outside
/// ASCII, however far into the input it stands; an input of ASCII leaves
/// it open.
#[test]
fn the_encoding_is_decided_where_text_outside_ascii_starts() {
    let plain = "[Event \"x\"]\n1. 11-15 24-20 *\n\n".repeat(60_000);
    assert!(plain.len() > 1 << 20);
    let mut reader = Reader::new(plain.as_bytes());
    assert_eq!(reader.by_ref().count(), 60_000);
    assert_eq!(reader.encoding(), None);
    let mut input = plain.into_bytes();
    input.extend_from_slice(&cp1251(
        "[White \"Иванов\"]\n[Black \"Сидоров\"]\n1. 11-15 *\n",
    ));
    let games = read(&input);
    assert_eq!(games.len(), 60_001);
    let last = &games[60_000];
    assert_eq!(last.tag("White"), Some("Иванов"));
    assert_eq!(messages(last).len(), 1);
}

/// Past the sample that decided the encoding, bytes not valid in it are
/// replaced, with a warning on each game where they stand.
#[test]
fn invalid_utf8_past_the_sample_is_replaced_per_game() {
    let mut input = "[White \"Дмитриев\"]\n1. 11-15 *\n\n".as_bytes().to_vec();
    let filler = "[Event \"x\"]\n1. 11-15 24-20 *\n\n".repeat(40_000);
    input.extend_from_slice(filler.as_bytes());
    input.extend_from_slice(b"[White \"M\xFCller\"]\n1. 11-15 {caf\xE9} *\n");
    let games = read(&input);
    let last = games.last().unwrap();
    assert_eq!(last.encoding, TextEncoding::Utf8);
    assert_eq!(last.tag("White"), Some("M\u{FFFD}ller"));
    assert_eq!(
        messages(last),
        ["byte \\xFC not valid UTF-8, the input's encoding: read as U+FFFD (1 more in this game)"]
    );
    assert!(
        games[..games.len() - 1]
            .iter()
            .all(|g| g.diagnostics.is_empty())
    );
}

#[test]
fn windows_1252_beside_utf8() {
    let mut input =
        b"[White \"M\xFCller\"]\n[Result \"\xBD-\xBD\"]\n1. 11-15 {caf\xE9} \xBD-\xBD\n\n".to_vec();
    input.extend_from_slice("[White \"Müller\"]\n1. 11-15 ½-½\n".as_bytes());
    let games = read(&input);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.tag("White"), Some("Müller"));
        assert_eq!(game.result.as_ref().unwrap().text, "½-½");
    }
    // The file is not UTF-8: read as the legacy encoding detected, named
    // once; the game that is valid UTF-8 is still read as UTF-8.
    assert_eq!(
        games[0].encoding,
        TextEncoding::Legacy(encoding_rs::WINDOWS_1252)
    );
    assert_eq!(
        messages(&games[0]),
        ["the file is not UTF-8: its text is read as windows-1252, the encoding detected for it"]
    );
    assert_eq!(games[0].diagnostics[0].position, position(9, 1, 10));
    assert!(games[1].diagnostics.is_empty());
    assert_eq!(games[0].tag("Result"), Some("½-½"));
    assert_eq!(games[0].plies()[0].comments()[0].text, "café");
    assert_eq!(games[1].encoding, TextEncoding::Utf8);
    // Positions count input bytes: one byte per Windows-1252 character.
    assert_eq!(
        games[0].result.as_ref().unwrap().position,
        position(48, 3, 17)
    );
    assert_eq!(games[1].start.byte, 53);
}

#[test]
fn text_glued_to_a_move_is_kept_as_a_comment() {
    let game = one("1. 11-15good 24-20!?wow 2. 8-11, 22-18 *");
    assert_eq!(
        items(&game),
        [
            "1. 11-15",
            "bare `good`",
            "24-20",
            "mark !?",
            "bare `wow`",
            "2. 8-11",
            "bare `,`",
            "22-18",
            "result *"
        ]
    );
    assert_eq!(
        messages(&game)[0],
        "text glued to the move `11-15` kept as a comment: `good`"
    );
}

#[test]
fn words_between_moves_are_one_bare_comment_per_run() {
    let game = one("1. 11-15 White resigns here 24-20 Kc1-e3 *");
    assert_eq!(
        items(&game),
        [
            "1. 11-15",
            "bare `White resigns here`",
            "24-20",
            "invalid `Kc1-e3`",
            "result *"
        ]
    );
    assert_eq!(messages(&game).len(), 2);
}

/// A blank at the end of a line of words took the next line's first move
/// (or escape line) into the words.
#[test]
fn words_end_with_their_line() {
    let game = one("1. 11-15 White resigns \n23-19 2. 8-11 and then \r\n%escape\n22-18 *");
    assert_eq!(
        items(&game),
        [
            "1. 11-15",
            "bare `White resigns`",
            "23-19",
            "2. 8-11",
            "bare `and then`",
            "22-18",
            "result *"
        ]
    );
}

#[test]
fn unparseable_tokens_stand_as_plies() {
    let game = one("1. 11-15 24-q 2. 8-x 22-18 3. 15-19x 4. 19- 23 *");
    let texts: Vec<&str> = game.plies().iter().map(|p| game.ply_text(p)).collect();
    assert_eq!(texts, ["11-15", "24-q", "8-x", "22-18", "15-19x", "19- 23"]);
    for k in [1, 2, 4] {
        assert!(matches!(game.plies()[k].token, PlyToken::Invalid(_)), "{k}");
    }
    assert_eq!(game.plies()[5].number.unwrap().number, 4);
    assert_eq!(
        messages(&game)[0],
        "`24-q` is not a move: `q` at byte 3 is not a square"
    );
}

#[test]
fn tagless_games_follow_each_other() {
    let games = read(b"1.a3b4 *\n1. 11-15 1-0 1. 9-13 0-1\n");
    assert_eq!(games.len(), 3);
    assert_eq!(items(&games[0]), ["1. a3-b4", "result *"]);
    assert_eq!(items(&games[2]), ["1. 9-13", "result 0-1"]);
    assert_eq!(games[2].start, position(22, 2, 14));
}

#[test]
fn comments_between_games() {
    // A comment before a game's tags belongs to that game; one with no
    // game after it is junk.
    let mut reader = Reader::new(&b"1. 11-15 *\n{a note}\n[Event \"b\"]\n*\n{the end}\n"[..]);
    let _ = reader.next_game().unwrap().unwrap();
    let second = reader.next_game().unwrap().unwrap();
    assert_eq!(items(&second), ["[Event=b]", "{a note}", "result *"]);
    assert!(second.diagnostics.is_empty());
    assert!(reader.next_game().unwrap().is_none());
    assert_eq!(
        reader.trailing_diagnostics()[0].message,
        "junk between games skipped: `{the end}`"
    );
}

#[test]
fn positions_of_games_and_plies() {
    let games = read(b"[Event \"a\"]\n1. 11-15 24-20\n  2. 8-11 *\n\n[Event \"b\"]\n*");
    let game = &games[0];
    assert_eq!(game.start, position(0, 1, 1));
    assert_eq!(game.tags[0].position, position(0, 1, 1));
    assert_eq!(game.movetext_start, position(12, 2, 1));
    let plies: Vec<Position> = game.plies().iter().map(|p| game.position_of(p)).collect();
    assert_eq!(
        plies,
        [position(15, 2, 4), position(21, 2, 10), position(32, 3, 6)]
    );
    assert_eq!(game.result.as_ref().unwrap().position, position(37, 3, 11));
    assert_eq!(game.movetext, "1. 11-15 24-20\n  2. 8-11 *");
    assert_eq!(games[1].start, position(40, 5, 1));
}

/// Plies are located when asked, from their offset in the movetext: in
/// the input's bytes after a byte read as U+FFFD (three bytes in the text,
/// one in the input), on a later line, and inside a variation.
#[test]
fn plies_are_located_in_the_input() {
    // A first game of UTF-8 text makes the input UTF-8.
    let mut input = "[White \"Дмитриев\"]\n[Black \"Müller\"]\n1. 11-15 *\n\n"
        .as_bytes()
        .to_vec();
    input.extend_from_slice(b"[Event \"a\"]\n1. 11-15 {x");
    input.push(0xE9);
    input.extend_from_slice(b"} 24-20 (8-11\n 22-18) 2. 8-11 *\n");
    let games = read(&input);
    let game = &games[1];
    assert_eq!(game.encoding, TextEncoding::Utf8);
    let plies: Vec<Position> = game.plies().iter().map(|p| game.position_of(p)).collect();
    assert_eq!(
        plies,
        [
            position(72, 6, 4),
            position(83, 6, 15),
            position(106, 7, 12)
        ]
    );
    let variation = &game.plies()[1].variations()[0];
    let inner: Vec<Position> = variation
        .plies
        .iter()
        .map(|p| game.position_of(p))
        .collect();
    assert_eq!(inner, [position(90, 6, 22), position(96, 7, 2)]);
}

#[test]
fn hints_from_the_tags_and_the_moves() {
    let game = one(
        "[GameType \"26,W,8,8,A0,1\"]\n[Variant \"Filipino Dama\"]\n[FEN \"W:W18:B11\"]\n1. d3-e4 e6-f5 *",
    );
    let hints = &game.hints;
    let GameTypeHint::Parsed(game_type) = hints.game_type.as_ref().unwrap() else {
        panic!("parsed");
    };
    assert_eq!(game_type.number, 26);
    assert_eq!(game_type.board.unwrap().invert, Some(true));
    assert_eq!(hints.variant.as_deref(), Some("Filipino Dama"));
    assert_eq!(hints.fen.as_ref().unwrap().source, FenSource::Tag);
    assert_eq!(hints.squares, SquareStyle::Letters);
    assert_eq!(hints.orientation, Some(Orientation::Luzon));
    assert_eq!(hints.max_square, None);

    let game = one("[GameType \"21,B,8,8,N1,0\"]\n1. 11-15 23-18 *");
    assert_eq!(game.hints.squares, SquareStyle::Numbers);
    assert_eq!(game.hints.max_square, Some(23));
    assert_eq!(game.hints.orientation, None);

    let game = one("[GameType \"Dama\"]\n[Notation \"Dama\"]\n1. c3-d4 d3-e4 *");
    assert_eq!(
        game.hints.game_type,
        Some(GameTypeHint::Malformed("Dama".into()))
    );
    assert_eq!(game.hints.notation.as_deref(), Some("Dama"));
    assert!(game.hints.mixed_orientation);
    assert_eq!(game.hints.orientation, None);
    assert_eq!(messages(&game).len(), 2, "{:?}", messages(&game));
}

#[test]
fn an_international_game_is_kept_whole() {
    let game = one(
        "[GameType \"20\"]\n[White \"Sijbrands\"]\n1. 32-28 18-23 2. 38-32 12-18 3. 46-41 1- 7 1-0",
    );
    assert_eq!(game.plies().len(), 6);
    assert_eq!(game.hints.max_square, Some(46));
    assert_eq!(
        game.plies()[5].move_token().unwrap().squares[..],
        [SquareToken::Number(1), SquareToken::Number(7)]
    );
    assert!(game.diagnostics.is_empty());
}

#[test]
fn variations_nested_deeper_than_the_limit_are_skipped() {
    let deep = "(9-13 ".repeat(70) + &")".repeat(70);
    let game = one(&format!("1. 11-15 {deep} 24-20 *"));
    assert_eq!(game.plies().len(), 2);
    let mut depth = 0;
    let mut line = game.plies()[0].variations();
    while let Some(variation) = line.first() {
        depth += 1;
        line = variation.plies[0].variations();
    }
    assert_eq!(depth, MAX_VARIATION_DEPTH);
    assert_eq!(messages(&game), ["variation nested deeper than 64 skipped"]);
    assert_eq!(game.result.as_ref().unwrap().text, "*");
}

#[test]
fn unclosed_and_unmatched_parentheses() {
    let game = one("1. 11-15 (9-13 24-20 ) ) 2. 8-11 (22-18 *");
    assert_eq!(
        items(&game),
        [
            "1. 11-15", "(", "9-13", "24-20", ")", "2. 8-11", "(", "22-18", "bare `*`", ")"
        ]
    );
    assert_eq!(
        messages(&game),
        [
            "`)` without a matching `(` ignored",
            "this variation is never closed",
            "result inside a variation kept as a comment: `*`",
            "no result terminator: the game ends here"
        ]
    );
}

#[test]
fn long_tokens_are_not_moves() {
    let long = "1-".repeat(200) + "1";
    let game = one(&format!("1. 11-15 {long} *"));
    assert_eq!(game.plies().len(), 1);
    assert_eq!(game.plies()[0].comments()[0].kind, CommentKind::Bare);
    assert_eq!(
        messages(&game),
        [
            "a token of 401 bytes is too long to be a move; it is kept as a comment: `1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-…`"
        ]
    );
}

#[test]
fn long_comments_and_tag_values_are_cut() {
    let big = "x".repeat(MAX_TEXT_LEN + 100);
    let game = one(&format!(
        "[Annotator \"{big}\"]\n1. 11-15 {{{big}}} 24-20 *"
    ));
    assert_eq!(game.tag("Annotator").unwrap().len(), MAX_TEXT_LEN);
    assert_eq!(game.plies()[0].comments()[0].text.len(), MAX_TEXT_LEN);
    assert_eq!(game.plies().len(), 2);
    assert_eq!(
        messages(&game),
        [
            "tag value longer than 1 MiB: cut there",
            "comment longer than 1 MiB: cut there"
        ]
    );
    // Positions after the cut are still those of the input.
    let expected = (2 * big.len() + 27) as u64;
    assert_eq!(
        game.position_of(&game.plies()[1]),
        position(expected, 2, 13 + big.len() as u64)
    );
}

#[test]
fn diagnostics_display_with_game_and_position() {
    let games = read(b"[Event \"a\"]\n1. 11-15 *\n[Event \"b\"]\n1. 9-13 {open\n");
    let d = &games[1].diagnostics[0];
    assert_eq!(
        d.to_string(),
        "4:9: game 2: error: unterminated comment started here"
    );
}

/// Found by fuzzing: a result glued to a mark (`32-26!?1/2-1/2`) was read
/// as a broken move, which the writer then wrote apart, where it read as a
/// result. It is a result.
#[test]
fn a_result_glued_to_a_mark_ends_the_game() {
    let games = read(b"1.32-26!?1/2-1/2\n1-1!)  *-1!)  \x08\x00*\n");
    assert_eq!(items(&games[0]), ["1. 32-26", "mark !?", "result 1/2-1/2"]);
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    assert_eq!(read(&written).len(), games.len());
}

/// Found by fuzzing: `ab]*` was one word for the grammar, while the framing
/// ended the game at its `*` (a result after a bracket). No word, move or
/// set-up command runs over a result the framing sees.
#[test]
fn a_result_inside_a_word_ends_the_game_for_the_grammar_too() {
    let games = read(b"1. 11-15 ab]* 24-20 *\n1. 9-13 23 - 1-0 /FEN x 0-1 / *");
    assert_eq!(games.len(), 4);
    assert_eq!(items(&games[0]), ["1. 11-15", "bare `ab]`", "result *"]);
    assert_eq!(items(&games[1]), ["24-20", "result *"]);
    assert_eq!(
        items(&games[2]),
        ["1. 9-13", "invalid `23 -`", "result 1-0"]
    );
    assert_eq!(items(&games[3]), ["bare `/FEN x`", "result 0-1"]);
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    assert_eq!(read(&written).len(), games.len());
}

/// Found by fuzzing: `}1/2-1/2}` was a broken move for both readers, which
/// the writer wrote apart, where it read as a result. A result may now be
/// followed by any byte that ends a word, and may follow a set-up command.
#[test]
fn a_result_between_braces_or_after_a_set_up_is_a_result() {
    let games = read(b"3-2\xFF2}1/2-1/2}\n/FEN \"W:W18:B11\"/1/2-1/2");
    assert_eq!(games.len(), 2);
    assert_eq!(
        items(&games[0]),
        ["3-2", "bare `\u{FF}2`", "result 1/2-1/2"]
    );
    assert_eq!(games[1].line.setups[0].fen.as_deref(), Some("W:W18:B11"));
    assert_eq!(games[1].result.as_ref().unwrap().text, "1/2-1/2");
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    assert_eq!(read(&written).len(), games.len());
}

/// Found by fuzzing: `//` was read as an empty set-up command, written
/// `// *` as a game without tags, which then read as junk. A set-up command
/// starts with a command name, for the grammar and the framing alike.
#[test]
fn an_empty_set_up_command_is_not_one() {
    let games = read(b"[\n//");
    assert_eq!(games.len(), 1);
    assert!(games[0].line.setups.is_empty());
    assert_eq!(items(&games[0]), ["bare `//`"]);
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    assert_eq!(read(&written).len(), 1);
    let games = read(b"/Setup x/ 1. 11-15 *");
    assert_eq!(items(&games[0]), ["/Setup x/", "1. 11-15", "result *"]);
}

/// Found by fuzzing: the framing took a vertical tab for a blank, so that
/// `3\x0B*` ended the game with `*` while the grammar read one word. Blanks
/// are the same for both now: a vertical tab is not one.
#[test]
fn a_vertical_tab_is_not_a_blank() {
    let games = read(b"[E \"\"]\n3\x0B*\r");
    assert_eq!(games.len(), 1);
    assert_eq!(items(&games[0]), ["[E=]", "invalid `3\u{b}*`"]);
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    assert_eq!(read(&written).len(), 1);
    // On the tag's line it starts no movetext: skipped.
    let games = read(b"[E \"\"]3\x0B*\r");
    assert_eq!(items(&games[0]), ["[E=]"]);
    assert_eq!(
        messages(&games[0]),
        [
            "text after a tag skipped: `3\u{FFFD}*`",
            "no result terminator: the game ends here"
        ]
    );
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    assert_eq!(read(&written).len(), 1);
}

/// Found by fuzzing: `/F(/ *` was a set-up command for the grammar, while
/// the framing counted its `(` as a variation and did not end the game at
/// `*`. A set-up command holds no bracket.
#[test]
fn a_set_up_command_holds_no_bracket() {
    let games = read(b"/F(/\n[");
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    assert_eq!(read(&written).len(), games.len());
    let game = &read(b"1. 11-15 /F(/ 9-13) *")[0];
    assert!(game.line.plies[0].setups().is_empty());
    assert_eq!(game.result.as_ref().unwrap().text, "*");
}

/// A malformed tag ends where the framing ends it (its `]`), so what follows
/// on its line is read: here the result.
#[test]
fn a_malformed_tag_ends_at_its_bracket() {
    let games = read(b"[Event x] 1-0\n[Site \"a]\" (] *");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result.as_ref().unwrap().text, "1-0");
    assert_eq!(messages(&games[0])[0], "malformed tag skipped: `[Event x]`");
    assert_eq!(games[1].tag("Site"), Some("a]"));
    assert_eq!(games[1].result.as_ref().unwrap().text, "*");
}

/// The result of a game, as written.
fn result(game: &Game) -> Option<&str> {
    game.result.as_ref().map(|r| r.text.as_str())
}

/// `1-1` is also a Dama king move (squares 11 and 22): where the movetext
/// goes on after it, it is that move.
#[test]
fn one_one_followed_by_moves_is_a_move() {
    let game = one("[Event \"a\"]\n1. 9-15 1-1 2. 15-9 11-16 *\n");
    assert_eq!(
        items(&game),
        [
            "[Event=a]",
            "1. 9-15",
            "1-1",
            "2. 15-9",
            "11-16",
            "result *"
        ]
    );
    assert_eq!(game.plies().len(), 4);
    assert_eq!(game.ply_text(&game.plies()[1]), "1-1");
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
}

#[test]
fn one_one_before_a_blank_line_and_tags_is_a_result() {
    let games = read(b"[Event \"a\"]\n1. 9-15 12-7 1-1\n\n[Event \"b\"]\n1. 9-15 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].plies().len(), 2);
    assert_eq!(result(&games[0]), Some("1-1"));
    assert!(games[0].diagnostics.is_empty());
    assert_eq!(items(&games[1]), ["[Event=b]", "1. 9-15", "result *"]);
}

#[test]
fn one_one_at_the_end_of_the_input_is_a_result() {
    let game = one("1. 9-15 1-1\n");
    assert_eq!(items(&game), ["1. 9-15", "result 1-1"]);
    let game = one("1. 9-15 1-1");
    assert_eq!(result(&game), Some("1-1"));
    // Past comments, line comments and escape lines too.
    let game = one("1. 9-15 1-1 {drawn} ; agreed\n% escape\n  \n");
    assert_eq!(result(&game), Some("1-1"));
    assert_eq!(game.plies().len(), 1);
}

#[test]
fn one_one_before_a_comment_and_a_tag_is_a_result() {
    let games = read(b"1. 9-15 1-1 {a comment}\n[Event \"b\"] *");
    assert_eq!(games.len(), 2);
    assert_eq!(items(&games[0]), ["1. 9-15", "result 1-1"]);
    // As after any result, the comment between the games goes with the next.
    assert_eq!(items(&games[1]), ["[Event=b]", "{a comment}", "result *"]);
    // A tag on the same line, and a tag line that ends an unclosed comment.
    let games = read(b"1. 9-15 1-1 [Event \"b\"] *");
    assert_eq!(games.len(), 2);
    assert_eq!(result(&games[0]), Some("1-1"));
    let games = read(b"1. 9-15 1-1 {never closed\n[Event \"b\"] *");
    assert_eq!(games.len(), 2);
    assert_eq!(result(&games[0]), Some("1-1"));
}

#[test]
fn one_one_before_a_move_number_on_the_next_line_is_a_move() {
    let game = one("[Event \"a\"]\n1. 9-15 1-1\n2. 15-9 *");
    assert_eq!(
        items(&game),
        ["[Event=a]", "1. 9-15", "1-1", "2. 15-9", "result *"]
    );
    // Also past a comment, and as a game's first move.
    let game = one("1. 9-15 1-1 {king}\n; note\n2. 15-9 *");
    assert_eq!(game.plies().len(), 3);
    let game = one("1-1 9-15 *");
    assert_eq!(items(&game), ["1-1", "9-15", "result *"]);
}

/// A game has one result: `1-1` followed by another result is the move, and
/// the other result ends the game.
#[test]
fn one_one_before_another_result_is_a_move() {
    for end in [
        "*", "1-0", "0-1", "2-0", "0-2", "0-0", "1/2-1/2", "½-½", "1-1",
    ] {
        let game = one(&format!("1. 9-15 1-1 {end}\n"));
        assert_eq!(items(&game), ["1. 9-15", "1-1", &format!("result {end}")]);
    }
}

/// Other results end the game wherever they stand.
#[test]
fn other_results_always_end_the_game() {
    for end in ["1-0", "0-1", "2-0", "0-2", "0-0", "1/2-1/2", "½-½", "*"] {
        let games = read(format!("1. 9-15 {end} 2. 15-9 *").as_bytes());
        assert_eq!(games.len(), 2, "{end}");
        assert_eq!(result(&games[0]), Some(end));
        assert_eq!(items(&games[1]), ["2. 15-9", "result *"]);
    }
}

/// Tagless games set apart by empty lines, each ending with `1-1`.
#[test]
fn one_one_before_an_empty_line_ends_a_tagless_game() {
    let games = read(b"1. 9-15 1-1\n\n1. 9-15 12-7 1-1\n \t\n1. 9-15 1-1\n");
    assert_eq!(games.len(), 3);
    for game in &games {
        assert_eq!(result(game), Some("1-1"));
    }
    assert_eq!(games[1].plies().len(), 2);
    // An empty line inside a comment does not count.
    let game = one("1. 9-15 1-1 {a\n\nb} 2. 15-9 *");
    assert_eq!(game.plies().len(), 3);
}

/// Junk after a game, as between games: `1-1` before it is the result.
#[test]
fn one_one_before_a_junk_line_is_a_result() {
    let mut reader =
        Reader::new(&b"1. 9-15 1-1\nDownloaded from the archive\n1. 9-15 12-7 1-1\n=====\n"[..]);
    let games: Vec<Game> = reader.by_ref().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(items(&games[0]), ["1. 9-15", "result 1-1"]);
    assert_eq!(items(&games[1]), ["1. 9-15", "12-7", "result 1-1"]);
    assert_eq!(
        messages(&games[1]),
        ["junk between games skipped: `Downloaded from the archive`"]
    );
    assert_eq!(reader.trailing_diagnostics().len(), 1);
    // Words on its own line stay with the move; a variation or an
    // annotation on the next line follows the move.
    let game = one("1. 9-15 1-1 White plays on\n2. 15-9 *");
    assert_eq!(game.plies().len(), 3);
    let game = one("1. 9-15 1-1\n(1... 12-7) $1\n2. 15-9 *");
    assert_eq!(
        items(&game),
        [
            "1. 9-15",
            "1-1",
            "$1",
            "(",
            "1... 12-7",
            ")",
            "2. 15-9",
            "result *"
        ]
    );
}

#[test]
fn one_one_in_a_variation_is_a_move() {
    let game = one("1. 9-15 (1. 1-1) 12-7 (1-1\n\n) 1-1 *");
    assert_eq!(
        items(&game),
        [
            "1. 9-15", "(", "1. 1-1", ")", "12-7", "(", "1-1", ")", "1-1", "result *"
        ]
    );
}

/// The look past `1-1` is bounded: a comment longer than the look ahead
/// leaves it a move, and the game ends at the next tags, without a result.
#[test]
fn one_one_before_a_long_comment_is_a_move() {
    let long = "x".repeat(super::lex::DRAW_LOOKAHEAD);
    let games = read(format!("1. 9-15 1-1 {{{long}}}\n\n[Event \"b\"] *").as_bytes());
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].plies().len(), 2);
    assert_eq!(result(&games[0]), None);
    assert_eq!(
        messages(&games[0]),
        ["no result terminator: the game ends here"]
    );
    let short = "x".repeat(super::lex::DRAW_LOOKAHEAD - 20);
    let games = read(format!("1. 9-15 1-1 {{{short}}}\n\n[Event \"b\"] *").as_bytes());
    assert_eq!(result(&games[0]), Some("1-1"));
}

/// The move `1-1` is written zero-padded, the result as it is: both read
/// back as they were, also between tagless games.
#[test]
fn one_one_moves_and_results_are_written_to_read_back() {
    let text = "1. 9-15 1-1 2. 15-9 1-1\n\n1-1 12-7 1-1\n\n[Event \"c\"]\n1. 1-1 1-1 1-1";
    let games = read(text.as_bytes());
    assert_eq!(games.len(), 3);
    let mut written = Vec::new();
    write_games(&mut written, &games).unwrap();
    let again = read(&written);
    assert_eq!(again.len(), 3, "{}", String::from_utf8_lossy(&written));
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(result(a), Some("1-1"));
        assert_eq!(result(b), result(a));
        let tokens = |g: &Game| -> Vec<_> { g.plies().iter().map(|p| p.token.clone()).collect() };
        assert_eq!(tokens(b), tokens(a));
    }
    assert_eq!(games[2].plies().len(), 2);
}
