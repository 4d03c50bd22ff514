//! The PDN reader on files: the project's `sample-pdn/`, the real archives
//! of `../shared/corpus` (skipped with a message when absent), pathological
//! inputs generated here, and the writer's round trip.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use pdndb::notation::SquareToken;
use pdndb::pdn::{
    self, CommentKind, Diagnostic, Game, GameTypeHint, Line, Nag, PlyToken, Reader, SquareStyle,
    TextEncoding,
};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Reads a file: its games and the diagnostics after the last game.
fn read_file(path: &Path) -> (Vec<Game>, Vec<Diagnostic>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read(file)
}

fn read(source: impl Read) -> (Vec<Game>, Vec<Diagnostic>) {
    let mut reader = Reader::new(source);
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().expect("no I/O error") {
        games.push(game);
    }
    (games, reader.trailing_diagnostics().to_vec())
}

fn sample(name: &str) -> (Vec<Game>, Vec<Diagnostic>) {
    read_file(&manifest().join("sample-pdn").join(name))
}

fn messages(game: &Game) -> Vec<&str> {
    game.diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect()
}

/// The texts of a line's plies; `game` the game the line is of.
fn texts<'a>(game: &'a Game, line: &'a Line) -> Vec<&'a str> {
    line.plies.iter().map(|p| game.ply_text(p)).collect()
}

// ---------------------------------------------------------------- samples

#[test]
fn seed_games_read_as_one_game_of_80_plies() {
    for notation in ["numeric", "vismin", "luzon", "dama"] {
        let (games, trailing) = sample(&format!("seed-{notation}.pdn"));
        assert_eq!(games.len(), 1, "{notation}");
        let game = &games[0];
        assert_eq!(game.plies().len(), 80, "{notation}");
        assert!(
            game.plies()
                .iter()
                .all(|p| matches!(p.token, PlyToken::Move(_)))
        );
        assert_eq!(game.result.as_ref().unwrap().text, "½-½");
        assert!(
            game.diagnostics.is_empty(),
            "{notation}: {:?}",
            game.diagnostics
        );
        assert!(trailing.is_empty());
        let style = if notation == "vismin" || notation == "luzon" {
            SquareStyle::Letters
        } else {
            SquareStyle::Numbers
        };
        assert_eq!(game.hints.squares, style, "{notation}");
    }
}

#[test]
fn sample_windows_1252_beside_utf8() {
    let (games, _) = sample("quirks-windows-1252.pdn");
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.tag("White"), Some("Müller, J."));
        assert_eq!(game.tag("Black"), Some("Peña, R."));
        assert_eq!(game.tag("Result"), Some("½-½"));
        assert_eq!(game.result.as_ref().unwrap().text, "½-½");
        assert_eq!(game.plies()[3].comments()[0].text, "café analysis");
        assert_eq!(game.hints.variant.as_deref(), Some("Filipino Dama"));
    }
    // The file is not UTF-8: its encoding is named once, on the first game
    // read in it.
    assert_eq!(
        messages(&games[0]),
        ["the file is not UTF-8: its text is read as windows-1252, the encoding detected for it"]
    );
    assert!(games[1].diagnostics.is_empty());
    assert_eq!(
        games[0].encoding,
        TextEncoding::Legacy(encoding_rs::WINDOWS_1252)
    );
    assert_eq!(games[1].encoding, TextEncoding::Utf8);
    assert_eq!(games[1].start.line, 10);
}

#[test]
fn sample_crlf_and_byte_order_mark() {
    let (games, trailing) = sample("quirks-crlf-bom.pdn");
    assert_eq!(games.len(), 2);
    assert!(trailing.is_empty());
    let first = &games[0];
    assert_eq!(first.start.byte, 3);
    assert_eq!((first.start.line, first.start.column), (1, 1));
    assert_eq!(first.tag("Event"), Some("Club match"));
    assert_eq!(
        texts(first, &first.line),
        ["11-15", "23-19", "8-11", "22-17", "9-13", "17x10"]
    );
    assert_eq!(
        first.plies()[1].comments()[0].text,
        "a comment\nover two lines"
    );
    assert_eq!(first.plies()[3].comments()[0].kind, CommentKind::Line);
    assert_eq!(
        first.plies()[3].comments()[0].text,
        " to the end of the line"
    );
    assert_eq!(games[1].start.line, 11);
    assert!(games.iter().all(|g| g.diagnostics.is_empty()));
}

#[test]
fn sample_framing_quirks() {
    let (games, trailing) = sample("quirks-framing.pdn");
    let events: Vec<Option<&str>> = games.iter().map(|g| g.tag("Event")).collect();
    assert_eq!(
        events,
        [
            Some("No terminator"),
            Some("Header on the result line"),
            Some("Forfeit"),
            Some("Duplicate and empty tags"),
            None,
            None,
            Some("lower-case tag names"),
        ]
    );
    // The escape line before the first game is skipped silently.
    assert_eq!(games[0].start.line, 2);
    assert_eq!(games[0].result, None);
    assert_eq!(
        messages(&games[0]),
        ["no result terminator: the game ends here"]
    );
    assert_eq!(games[1].result.as_ref().unwrap().text, "1/2-1/2");
    assert_eq!((games[2].start.line, games[2].start.column), (7, 23));
    assert!(games[2].plies().is_empty());
    assert_eq!(games[2].result.as_ref().unwrap().text, "2-0");
    assert_eq!(
        messages(&games[3]),
        [
            "junk between games skipped: `Downloaded from a club archive -- junk between games` (1 more lines)",
            "tag `Event` repeated (first on line 14): both kept, the first one counts",
        ]
    );
    assert_eq!(games[3].diagnostics[0].position.line, 11);
    assert_eq!(games[3].tags_named("event").count(), 2);
    assert_eq!(games[3].tag("Site"), Some(""));
    assert_eq!(texts(&games[4], &games[4].line), ["9-13", "22-18"]);
    assert_eq!(games[5].result.as_ref().unwrap().text, "0-0");
    assert_eq!(games[6].tag("Event"), Some("lower-case tag names"));
    assert_eq!(games[6].result.as_ref().unwrap().text, "1-1");
    assert_eq!(trailing.len(), 1);
    assert_eq!(trailing[0].position.line, 24);
    let indices: Vec<u64> = games.iter().map(|g| g.index).collect();
    assert_eq!(indices, [1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn sample_movetext_quirks() {
    let (games, _) = sample("quirks-movetext.pdn");
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.tag("Annotator"), Some("He said \"wow\" and C:\\games"));
    assert_eq!(game.tag("White"), Some("Sánchez"));
    assert_eq!(
        game.line.comments[0].text,
        "A comment before the first move"
    );
    assert_eq!(
        texts(game, &game.line),
        [
            "11-15", "23-19", "8-11", "22-17", "9-13", "17x10", "6x15", "21-17", "01-05", "25-22",
            "15- 19", "24x15", "10x19", "- -", "13x22x31", "26x17", "5-9", "17-14", "9x18", "1- 6",
            "6x13"
        ]
    );
    let plies = game.plies();
    assert_eq!(plies[2].comments()[0].text, "nested {braces} in a comment");
    let alternative = &plies[4].variations()[0];
    assert_eq!(texts(game, alternative), ["4-8", "17-13", "15-18"]);
    assert_eq!(alternative.plies[0].number.unwrap().number, 3);
    let inner = &alternative.plies[1].variations()[0];
    assert_eq!(texts(game, inner), ["27-24"]);
    assert_eq!(inner.plies[0].nags(), [Nag::Glyph(1)]);
    assert_eq!(plies[5].nags(), [Nag::Glyph(14)]);
    assert_eq!(plies[6].nags(), [Nag::Mark("!?".into())]);
    assert_eq!(plies[7].nags(), [Nag::Mark("(?)".into())]);
    assert_eq!(plies[13].token, PlyToken::Unknown);
    assert_eq!(
        plies[15].setups()[0].fen.as_deref(),
        Some("B:W17,18,K32:B5,13,K1")
    );
    assert_eq!(plies[16].number.unwrap().number, 8);
    assert!(plies[16].number.unwrap().ellipsis);
    assert_eq!(plies[18].comments()[0].kind, CommentKind::Bare);
    assert_eq!(plies[18].comments()[0].text, "good");
    assert_eq!(plies[19].nags(), [Nag::Glyph(3)]);
    assert_eq!(plies[19].comments()[0].text, " a line comment");
    assert_eq!(
        plies[8].move_token().unwrap().squares[..],
        [SquareToken::Number(1), SquareToken::Number(5)]
    );
    // A set-up after a move is not the game's start.
    assert_eq!(game.hints.fen, None);
    assert_eq!(game.hints.max_square, Some(31));
    assert_eq!(
        messages(game),
        ["text glued to the move `9x18` kept as a comment: `good`"]
    );
    assert_eq!(game.diagnostics[0].position.line, 12);
}

#[test]
fn sample_notations() {
    let (games, _) = sample("quirks-notations.pdn");
    assert_eq!(games.len(), 4);
    let luzon = &games[0];
    assert_eq!(
        luzon.hints.orientation,
        Some(pdndb::notation::Orientation::Luzon)
    );
    let GameTypeHint::Parsed(game_type) = luzon.hints.game_type.as_ref().unwrap() else {
        panic!("GameType is well formed");
    };
    assert_eq!(game_type.board.unwrap().invert, Some(true));
    assert_eq!(games[1].hints.notation.as_deref(), Some("Dama"));
    assert_eq!(texts(&games[1], &games[1].line)[6], "15×3");
    assert!(games[1].plies()[6].move_token().unwrap().capture);
    let russian = &games[2];
    assert_eq!(russian.ply_text(&russian.plies()[4]), "d4:f6");
    assert_eq!(
        russian.hints.orientation,
        Some(pdndb::notation::Orientation::Vismin)
    );
    assert!(russian.hints.fen.as_ref().unwrap().fen.ends_with("12."));
    let international = &games[3];
    assert_eq!(international.hints.max_square, Some(43));
    assert_eq!(international.plies().len(), 6);
    assert!(games.iter().all(|g| g.diagnostics.is_empty()));
}

#[test]
fn every_sample_file_reads_without_errors() {
    let dir = manifest().join("sample-pdn");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("sample-pdn") {
        let path = entry.expect("entry").path();
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
        {
            let size = std::fs::metadata(&path).expect("size").len();
            assert!(size < 10 * 1024, "{} should stay small", path.display());
            let (games, _) = read_file(&path);
            assert!(!games.is_empty(), "{}", path.display());
            for game in &games {
                assert!(
                    !game.has_errors(),
                    "{}: {:?}",
                    path.display(),
                    game.diagnostics
                );
            }
            count += 1;
        }
    }
    assert!(count >= 9);
}

// ----------------------------------------------------------------- corpus

/// The shared corpus, or `None` after saying that `test` is skipped.
fn corpus(test: &str) -> Option<PathBuf> {
    crate::skip::corpus(test, "")
}

#[test]
fn corpus_open_checkers_archive() {
    let Some(dir) = corpus("corpus_open_checkers_archive") else {
        return;
    };
    let (games, trailing) = read_file(&dir.join("english/OCA_2.0.pdn"));
    assert_eq!(games.len(), 22_621);
    assert!(trailing.is_empty());
    let mut plies = 0;
    for game in &games {
        for tag in ["Event", "Date", "Black", "White", "Result"] {
            assert!(game.tag(tag).is_some(), "game {} has no {tag}", game.index);
        }
        assert_eq!(
            game.result.as_ref().map(|r| r.text.as_str()),
            game.tag("Result"),
            "game {}",
            game.index
        );
        assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
        assert!(
            game.plies()
                .iter()
                .all(|p| matches!(p.token, PlyToken::Move(_)))
        );
        assert_eq!(game.hints.squares, SquareStyle::Numbers);
        plies += game.plies().len();
    }
    // Counted independently: move tokens outside comments and tags.
    assert_eq!(plies, 1_158_096);
    let results = |r: &str| games.iter().filter(|g| g.tag("Result") == Some(r)).count();
    assert_eq!(
        (results("1/2-1/2"), results("0-1"), results("1-0")),
        (14_192, 4_803, 3_626)
    );
}

#[test]
fn corpus_pdn3_suite_game_counts() {
    let Some(dir) = corpus("corpus_pdn3_suite_game_counts") else {
        return;
    };
    // Counted by hand: tag blocks (`[Event` or `[White` lines), or the
    // games of the one-game syntax cases.
    let expected = [
        ("DUTCH96H.pdn", 13),
        ("PROF2.pdn", 16),
        ("Principles of Strategy.pdn", 16),
        ("alphanumeric.pdn", 1),
        ("beginner.pdn", 58),
        ("borderclassics.pdn", 183),
        ("bridges.pdn", 267),
        ("candidate95.pdn", 8),
        ("fen.pdn", 3),
        ("gameterminator.pdn", 1),
        ("gem.pdn", 162),
        ("goulds.pdn", 262),
        ("linecomment.pdn", 1),
        ("lpc.pdn", 100),
        ("movestrength.pdn", 1),
        ("nk2003-amsterdam.pdn", 33),
        ("string.pdn", 1),
        ("unicode.pdn", 1),
        ("ussr1947.pdn", 153),
        ("variation.pdn", 1),
        ("wk2003.pdn", 23),
    ];
    let suite = dir.join("pdn3-suite");
    for (name, count) in expected {
        let (games, trailing) = read_file(&suite.join(name));
        assert_eq!(games.len(), count, "{name}");
        assert!(trailing.is_empty(), "{name}: {trailing:?}");
        for game in &games {
            assert!(!game.has_errors(), "{name}: {:?}", game.diagnostics);
        }
    }
    // Every file of the folder is listed.
    let files = std::fs::read_dir(&suite).expect("suite").count();
    assert_eq!(files, expected.len());
}

#[test]
fn corpus_syntax_cases_read_as_named() {
    let Some(dir) = corpus("corpus_syntax_cases_read_as_named") else {
        return;
    };
    let suite = dir.join("pdn3-suite");
    let one = |name: &str| {
        let (mut games, _) = read_file(&suite.join(name));
        assert_eq!(games.len(), 1, "{name}");
        games.remove(0)
    };

    let game = one("alphanumeric.pdn");
    assert_eq!(texts(&game, &game.line), ["a3b4"]);
    assert!(game.plies()[0].move_token().unwrap().is_algebraic());
    assert_eq!(
        game.hints.orientation,
        Some(pdndb::notation::Orientation::Vismin)
    );

    let (games, _) = read_file(&suite.join("fen.pdn"));
    let fens: Vec<&str> = games
        .iter()
        .map(|g| g.hints.fen.as_ref().unwrap().fen.as_str())
        .collect();
    assert_eq!(
        fens,
        [
            "?:W29,13,11:B22,4,2",
            "W:W31,29,K15:B14,13,12,9",
            "W:W31-50:B1-20"
        ]
    );
    assert!(
        games
            .iter()
            .all(|g| g.plies().is_empty() && g.result.as_ref().unwrap().text == "*")
    );

    let game = one("movestrength.pdn");
    let marks: Vec<Vec<Nag>> = game.plies().iter().map(|p| p.nags().to_vec()).collect();
    assert_eq!(
        marks,
        [
            vec![Nag::Mark("!?".into())],
            vec![Nag::Mark("(!?!!!)".into())],
            vec![]
        ]
    );
    assert_eq!(game.result.as_ref().unwrap().text, "*");

    let game = one("linecomment.pdn");
    assert_eq!(game.tag("Date"), Some("2012.02.01"));
    assert_eq!(game.start.line, 2);
    assert_eq!(texts(&game, &game.line), ["32-28", "19-23"]);
    assert!(game.line.comments.is_empty() && game.plies().iter().all(|p| p.comments().is_empty()));

    let game = one("string.pdn");
    assert_eq!(
        game.tag("White"),
        Some("This is a string with an escaped character \"")
    );
    assert_eq!(texts(&game, &game.line), ["32-28"]);

    let game = one("unicode.pdn");
    assert_eq!(game.tag("White"), Some("Сергей Фадеев"));
    assert_eq!(game.tag("Black"), Some("高文龙"));
    assert_eq!(texts(&game, &game.line), ["32-28", "19-23"]);

    let game = one("variation.pdn");
    assert_eq!(
        texts(&game, &game.line),
        ["32-28", "19-23", "28x19", "14x23"]
    );
    let outer = &game.plies()[1].variations()[0];
    assert_eq!(texts(&game, outer), ["18-23", "38-32", "12-18"]);
    let inner = &outer.plies[1].variations()[0];
    assert_eq!(texts(&game, inner), ["37-32", "23-29"]);
    assert_eq!(inner.plies[1].comments()[0].text, " Black wins ");

    let game = one("gameterminator.pdn");
    assert_eq!(texts(&game, &game.line), ["32-28"]);
    assert_eq!(game.result.as_ref().unwrap().text, "1/2-1/2");
}

#[test]
fn corpus_international_games_are_kept_whole() {
    let Some(dir) = corpus("corpus_international_games_are_kept_whole") else {
        return;
    };
    for name in [
        "DUTCH96H.pdn",
        "PROF2.pdn",
        "candidate95.pdn",
        "wk2003.pdn",
        "nk2003-amsterdam.pdn",
    ] {
        let (games, _) = read_file(&dir.join("pdn3-suite").join(name));
        for game in &games {
            assert_eq!(game.tag("GameType"), Some("20"), "{name}");
            assert!(matches!(
                game.hints.game_type,
                Some(GameTypeHint::Parsed(pdn::GameType { number: 20, .. }))
            ));
            // One game of nk2003-amsterdam.pdn has tags and no moves.
            assert!(
                game.plies().len() > 10 || game.plies().is_empty(),
                "{name} game {}",
                game.index
            );
            assert!(
                game.plies()
                    .iter()
                    .all(|p| matches!(p.token, PlyToken::Move(_))),
                "{name}"
            );
        }
        assert!(
            games.iter().any(|g| g.hints.max_square > Some(32)),
            "{name}"
        );
    }
    let (games, _) = read_file(&dir.join("pdn3-suite/nk2003-amsterdam.pdn"));
    assert_eq!(games.iter().filter(|g| g.plies().is_empty()).count(), 1);
}

#[test]
fn corpus_russian_and_english_collections() {
    let Some(dir) = corpus("corpus_russian_and_english_collections") else {
        return;
    };
    let (games, _) = read_file(&dir.join("pdn3-suite/ussr1947.pdn"));
    for game in &games {
        assert_eq!(game.hints.squares, SquareStyle::Letters);
        assert_eq!(
            game.hints.orientation,
            Some(pdndb::notation::Orientation::Vismin)
        );
        assert!(game.hints.fen.is_some());
    }
    assert_eq!(games[0].tag("White"), Some("Блиндер Б."));
    let (games, _) = read_file(&dir.join("pdn3-suite/bridges.pdn"));
    assert!(
        games
            .iter()
            .all(|g| g.tag("Setup") == Some("1") && g.hints.fen.is_some())
    );
    assert!(games.iter().all(|g| g.tag("Date") == Some("")));
}

// ---------------------------------------------------------- pathological

/// A source that yields `prefix`, then `count` copies of `unit`, then
/// `suffix`, without holding the middle in memory.
struct Generated {
    prefix: Vec<u8>,
    unit: Vec<u8>,
    count: usize,
    suffix: Vec<u8>,
    stage: usize,
    offset: usize,
}

impl Generated {
    fn new(prefix: &[u8], unit: &[u8], count: usize, suffix: &[u8]) -> Generated {
        Generated {
            prefix: prefix.to_vec(),
            unit: unit.to_vec(),
            count,
            suffix: suffix.to_vec(),
            stage: 0,
            offset: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let part: &[u8] = match self.stage {
                0 => &self.prefix,
                1 if self.count > 0 => &self.unit,
                1 => {
                    self.stage = 2;
                    continue;
                }
                2 => &self.suffix,
                _ => return Ok(0),
            };
            if self.offset == part.len() {
                self.offset = 0;
                if self.stage == 1 {
                    self.count -= 1;
                } else {
                    self.stage += 1;
                }
                continue;
            }
            let n = buf.len().min(part.len() - self.offset);
            buf[..n].copy_from_slice(&part[self.offset..self.offset + n]);
            self.offset += n;
            return Ok(n);
        }
    }
}

const BEFORE: &str = "[Event \"before\"]\n1. 11-15 24-20 1-0\n\n";
const AFTER: &str = "\n\n[Event \"after\"]\n1. 9-13 22-18 0-1\n";

/// The games before and after a pathological one are intact.
fn assert_neighbours_intact(games: &[Game]) {
    let first = games.first().expect("a game");
    assert_eq!(first.tag("Event"), Some("before"));
    assert_eq!(texts(first, &first.line), ["11-15", "24-20"]);
    assert!(first.diagnostics.is_empty(), "{:?}", first.diagnostics);
    let last = games.last().expect("a game");
    assert_eq!(last.tag("Event"), Some("after"));
    assert_eq!(texts(last, &last.line), ["9-13", "22-18"]);
    assert_eq!(last.result.as_ref().unwrap().text, "0-1");
}

#[test]
fn pathological_truncated_file() {
    let text = "[Event \"a\"]\n[White \"Müller\"]\n1. 11-15 {a comment} 24-20 (22-18 9-13) 2. 8-11 $1 1-0\n\n\
                [Event \"b\"]\n1. 9-13 22-18 /FEN \"W:W18:B11\"/ 2. 5-9 *\n";
    let second = text.find("[Event \"b\"]").unwrap();
    // Every prefix, cut anywhere (also inside a UTF-8 character).
    for cut in 0..=text.len() {
        let (games, _) = read(&text.as_bytes()[..cut]);
        if cut > second + 2 {
            assert_eq!(games.len(), 2, "cut at {cut}");
            assert_eq!(
                texts(&games[0], &games[0].line),
                ["11-15", "24-20", "8-11"],
                "cut at {cut}"
            );
            assert!(games[0].diagnostics.is_empty(), "cut at {cut}");
            assert!(games[1].result.is_none() || cut == text.len() || cut == text.len() - 1);
        }
        if let Some(last) = games.last()
            && last.result.is_none()
        {
            assert!(
                last.diagnostics
                    .iter()
                    .any(|d| d.message.starts_with("no result terminator")),
                "cut at {cut}: {:?}",
                last.diagnostics
            );
        }
    }
}

/// Bytes from a fixed xorshift sequence.
fn garbage(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn pathological_binary_garbage() {
    for seed in 1..=4 {
        let mut input = BEFORE.as_bytes().to_vec();
        input.extend(garbage(256 * 1024, seed));
        input.extend_from_slice(AFTER.as_bytes());
        let (games, _) = read(&input[..]);
        assert_neighbours_intact(&games);
        let said_something = games[1..].iter().any(|g| !g.diagnostics.is_empty());
        assert!(said_something, "seed {seed}: garbage without a word");
    }
    // Garbage alone, and garbage with no line breaks at all.
    let (games, trailing) = read(&garbage(100_000, 9)[..]);
    assert!(!games.is_empty() || !trailing.is_empty());
    let flat: Vec<u8> = garbage(100_000, 10)
        .into_iter()
        .map(|b| if b == b'\n' { b' ' } else { b })
        .collect();
    let _ = read(&flat[..]);
}

fn long_comment(size: usize) {
    let source = Generated::new(
        format!("{BEFORE}[Event \"comment\"]\n1. 11-15 {{").as_bytes(),
        b"a long comment, ",
        size / 16,
        format!("}} 24-20 *{AFTER}").as_bytes(),
    );
    let (games, _) = read(source);
    assert_eq!(games.len(), 3);
    assert_neighbours_intact(&games);
    let game = &games[1];
    assert_eq!(texts(game, &game.line), ["11-15", "24-20"]);
    assert_eq!(game.plies()[0].comments()[0].text.len(), pdn::MAX_TEXT_LEN);
    assert_eq!(messages(game), ["comment longer than 1 MiB: cut there"]);
    // The position of the move after the comment is still the input's.
    let expected = (BEFORE.len() + 28 + 16 * (size / 16) + 2) as u64;
    assert_eq!(game.position_of(&game.plies()[1]).byte, expected);
}

#[test]
fn pathological_long_comment() {
    long_comment(5 << 20);
}

#[test]
#[ignore = "full size, slow in debug builds: cargo test --release -- --ignored"]
fn pathological_50_mb_comment() {
    long_comment(50 << 20);
}

fn long_unterminated_comment(size: usize) {
    let source = Generated::new(
        format!("{BEFORE}[Event \"comment\"]\n1. 11-15 {{").as_bytes(),
        b"never closed\n",
        size / 13,
        AFTER.as_bytes(),
    );
    let (games, _) = read(source);
    assert_eq!(games.len(), 3);
    assert_neighbours_intact(&games);
    assert_eq!(
        messages(&games[1]),
        [
            "comment longer than 1 MiB: cut there",
            "unterminated comment started here",
            "no result terminator: the game ends here"
        ]
    );
}

#[test]
fn pathological_long_unterminated_comment() {
    long_unterminated_comment(5 << 20);
}

#[test]
#[ignore = "full size, slow in debug builds: cargo test --release -- --ignored"]
fn pathological_50_mb_unterminated_comment() {
    long_unterminated_comment(50 << 20);
}

#[test]
fn pathological_100000_nested_parentheses() {
    let depth = 100_000;
    let mut text = format!("{BEFORE}[Event \"deep\"]\n1. 11-15 ");
    text.push_str(&"(9-13 ".repeat(depth));
    text.push_str(&")".repeat(depth));
    text.push_str(" 24-20 *");
    text.push_str(AFTER);
    let (games, _) = read(text.as_bytes());
    assert_eq!(games.len(), 3);
    assert_neighbours_intact(&games);
    assert_eq!(texts(&games[1], &games[1].line), ["11-15", "24-20"]);
    assert_eq!(
        messages(&games[1]),
        ["variation nested deeper than 64 skipped"]
    );

    // Opened and never closed.
    let mut text = format!("{BEFORE}[Event \"open\"]\n1. 11-15 ");
    text.push_str(&"(".repeat(depth));
    text.push_str(AFTER);
    let (games, _) = read(text.as_bytes());
    assert_eq!(games.len(), 3);
    assert_neighbours_intact(&games);
    assert_eq!(
        messages(&games[1]),
        [
            "this variation and 63 inside it are never closed",
            "variation nested deeper than 64 skipped",
            "no result terminator: the game ends here"
        ]
    );
}

/// A line of `size` bytes of moves inside a game.
fn long_line_of_moves(size: usize) {
    let source = Generated::new(
        format!("{BEFORE}[Event \"line\"]\n").as_bytes(),
        b"11-15 24-20 ",
        size / 12,
        format!("*{AFTER}").as_bytes(),
    );
    let (games, _) = read(source);
    assert_eq!(games.len(), 3);
    assert_neighbours_intact(&games);
    let game = &games[1];
    assert!(game.movetext.len() <= pdn::MAX_GAME_LEN);
    assert_eq!(game.plies().len(), (size / 12 * 2).min(pdn::MAX_ITEMS));
    let mut expected = vec![
        "more than 100000 moves, comments and annotations: the rest of the game is kept as text only",
    ];
    if size > pdn::MAX_GAME_LEN {
        // The result is cut off with the rest of the game.
        expected.push("game text longer than 8 MiB: the rest of this game is skipped");
        assert_eq!(game.result, None);
    }
    assert_eq!(messages(game), expected);
}

#[test]
fn pathological_long_line_of_moves() {
    long_line_of_moves(1 << 20);
}

#[test]
#[ignore = "full size, slow in debug builds: cargo test --release -- --ignored"]
fn pathological_10_mb_line_of_moves() {
    long_line_of_moves(10 << 20);
}

#[test]
fn pathological_10_mb_line() {
    // A line of junk between games.
    let size = 10 << 20;
    let source = Generated::new(BEFORE.as_bytes(), b"junk ", size / 5, AFTER.as_bytes());
    let (games, _) = read(source);
    assert_eq!(games.len(), 2);
    assert_neighbours_intact(&games);
    assert_eq!(
        messages(&games[1]),
        [
            "junk between games skipped: `junk junk junk junk junk junk junk junk junk junk junk junk…`"
        ]
    );
    // One word of 10 MB inside a game: the game is cut at its limit.
    let source = Generated::new(
        format!("{BEFORE}[Event \"word\"]\n1. 11-15 ").as_bytes(),
        b"abcdefgh",
        size / 8,
        format!(" 24-20 *{AFTER}").as_bytes(),
    );
    let (games, _) = read(source);
    assert_eq!(games.len(), 3);
    assert_neighbours_intact(&games);
    let game = &games[1];
    assert_eq!(texts(game, &game.line), ["11-15"]);
    assert_eq!(game.plies()[0].comments()[0].text.len(), pdn::MAX_TEXT_LEN);
    let messages = messages(game);
    assert_eq!(messages.len(), 2);
    assert!(messages[0].starts_with(
        "a token of 8388584 bytes is too long to be a move; it is kept as a comment: `abcdefgh"
    ));
    assert_eq!(
        messages[1],
        "game text longer than 8 MiB: the rest of this game is skipped"
    );
    assert_eq!(game.result, None);
}

#[test]
fn pathological_invalid_utf8() {
    let mut input = BEFORE.as_bytes().to_vec();
    input.extend_from_slice(b"[Event \"bad \xFF\xFE bytes\"]\n[White \"Caf\xC3\"]\n1. 11-15 {\xC3\x28 \xE2\x82} 24-20 *");
    input.extend_from_slice(AFTER.as_bytes());
    input.extend_from_slice(b"[Event \"cut\"]\n1. 11-15 {\xE2\x82");
    let (games, _) = read(&input[..]);
    assert_eq!(games.len(), 4);
    // Garbage, not UTF-8: read in the single-byte encoding the detector
    // guesses for it, every byte a character.
    let bad = &games[1];
    let TextEncoding::Legacy(encoding) = bad.encoding else {
        panic!("{:?}", bad.encoding);
    };
    assert!(encoding.is_single_byte());
    let decoded = |bytes: &[u8]| encoding.decode_without_bom_handling(bytes).0.into_owned();
    assert_eq!(
        bad.tag("Event"),
        Some(decoded(b"bad \xFF\xFE bytes").as_str())
    );
    assert_eq!(bad.tag("White"), Some(decoded(b"Caf\xC3").as_str()));
    assert_eq!(texts(bad, &bad.line), ["11-15", "24-20"]);
    assert!(messages(bad)[0].starts_with("the file is not UTF-8: its text is read as "));
    assert_eq!(games[2].tag("Event"), Some("after"));
    assert_eq!(games[3].plies()[0].comments()[0].text, decoded(b"\xE2\x82"));
    assert!(games[3].has_errors());
}

// ------------------------------------------------------------ round trip

mod round_trip {
    use super::*;
    use proptest::prelude::*;

    /// A comparable summary of a game: tags, every line with its tokens,
    /// comments (words), annotations, set-ups and variations, and the
    /// result (`*` when there is none, as the writer writes it).
    fn summary(game: &Game) -> String {
        let mut out = String::new();
        for tag in &game.tags {
            out += &format!("[{}={}]", tag.name, tag.value);
        }
        line(&game.movetext, &game.line, &mut out);
        out += game.result.as_ref().map_or("*", |r| r.text.as_str());
        out
    }

    fn words(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn line(movetext: &str, line: &Line, out: &mut String) {
        for c in &line.comments {
            *out += &format!("{{{}}}", words(&c.text));
        }
        for s in &line.setups {
            *out += &format!("/{}/", s.text);
        }
        for ply in &line.plies {
            *out += &match &ply.token {
                PlyToken::Move(m) => format!("<{m}>"),
                PlyToken::Unknown => "<?>".to_string(),
                PlyToken::Invalid(_) => format!("<!{}>", ply.text(movetext)),
            };
            for nag in ply.nags() {
                *out += &format!("{nag:?}");
            }
            for c in ply.comments() {
                *out += &format!("{{{}}}", words(&c.text));
            }
            for s in ply.setups() {
                *out += &format!("/{}/", s.text);
            }
            for v in ply.variations() {
                *out += "(";
                self::line(movetext, v, out);
                *out += ")";
            }
        }
    }

    fn tag_value() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                Just("a".to_string()),
                Just(" ".to_string()),
                Just("\"".to_string()),
                Just("\\".to_string()),
                Just("]".to_string()),
                Just("½".to_string()),
                Just("Müller".to_string()),
                Just("{".to_string()),
            ],
            0..6,
        )
        .prop_map(|parts| parts.concat())
    }

    fn movetext_element() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => (1u32..33, 1u32..33).prop_map(|(a, b)| format!("{a}-{b}")),
            2 => (1u32..33, 1u32..33, 1u32..33).prop_map(|(a, b, c)| format!("{a}x{b}x{c}")),
            1 => Just("c3-d4".to_string()),
            1 => Just("a3b4".to_string()),
            1 => Just("d4:f6".to_string()),
            1 => Just("9×18".to_string()),
            1 => Just("1- 7".to_string()),
            1 => Just("05-09".to_string()),
            2 => (1u32..60).prop_map(|n| format!("{n}.")),
            1 => (1u32..60).prop_map(|n| format!("{n}...")),
            1 => Just("- -".to_string()),
            1 => Just("!?".to_string()),
            1 => Just("(!?)".to_string()),
            1 => (0u32..300).prop_map(|n| format!("${n}")),
            2 => "[a-z ]{0,30}".prop_map(|t| format!("{{{t}}}")),
            1 => "[a-z ]{0,20}".prop_map(|t| format!(";{t}\n")),
            1 => Just("{nested {braces} here}".to_string()),
            1 => Just("/FEN \"W:W18,K27:B11,15\"/".to_string()),
            1 => Just("wordy".to_string()),
            1 => Just("11-15junk".to_string()),
            1 => Just("9-q".to_string()),
            2 => Just("(".to_string()),
            2 => Just(")".to_string()),
        ]
    }

    fn game_text() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(("[A-Za-z][A-Za-z0-9_]{0,8}", tag_value()), 0..4),
            prop::collection::vec(movetext_element(), 0..40),
            prop_oneof![
                Just(""),
                Just("1-0"),
                Just("0-1"),
                Just("2-0"),
                Just("1/2-1/2"),
                Just("½-½"),
                Just("*"),
                Just("0-0")
            ],
        )
            .prop_map(|(tags, elements, result)| {
                let mut text = String::new();
                for (name, value) in tags {
                    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
                    text += &format!("[{name} \"{escaped}\"]\n");
                }
                text += &elements.join(" ");
                text += " ";
                text += result;
                text
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn parse_write_parse_gives_the_same_games(texts in prop::collection::vec(game_text(), 1..4)) {
            let input = texts.join("\n\n");
            let (first, _) = read(input.as_bytes());
            let mut written = Vec::new();
            pdn::write_games(&mut written, &first).expect("writing to memory");
            let (second, _) = read(&written[..]);
            let a: Vec<String> = first.iter().map(summary).collect();
            let b: Vec<String> = second.iter().map(summary).collect();
            prop_assert_eq!(a, b, "written:\n{}", String::from_utf8_lossy(&written));
            for line in String::from_utf8_lossy(&written).lines() {
                // Only a comment without spaces can be longer than a line.
                prop_assert!(line.chars().count() < 80 || !line.contains(' '), "{}", line);
            }
        }

        #[test]
        fn any_bytes_read_without_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
            let (games, _) = read(&bytes[..]);
            for game in &games {
                prop_assert!(game.index >= 1);
            }
        }
    }
}
