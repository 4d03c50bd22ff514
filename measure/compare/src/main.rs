//! Paired speed comparison of pdndb with the chess state of the art,
//! pgn-reader and shakmaty, in one process.
//!
//! Every file is read into memory first. The two sides run alternately
//! (A B A B …) for a number of rounds, so that the noise of a shared
//! machine falls on both; for each measure the median of each side and
//! their ratio are printed.
//!
//! Usage: `cargo run --release -- [--rounds N] [--chess-mb MB] FILE…`.
//! Files ending in `.pgn` are chess input; the others are draughts (PDN).
//! Without a `.pgn` file, a chess archive of `--chess-mb` megabytes
//! (default 11.5, the size of the Open Checkers Archive) is generated
//! from a fixed seed.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use pgn_reader::{RawComment, RawTag, SanPlus, Visitor};
use shakmaty::{Chess, Position};

mod generate;

/// Rounds of each side per measure.
const ROUNDS: usize = 7;

/// What one pass over an input counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    games: u64,
    plies: u64,
    /// Chess: SAN moves that did not play; draughts: games not `ok`.
    errors: u64,
}

/// One input, held in memory.
struct Input {
    name: String,
    bytes: Vec<u8>,
}

fn main() -> ExitCode {
    let mut rounds = ROUNDS;
    let mut chess_mb = 11.5f64;
    let mut draughts = Vec::new();
    let mut chess = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => rounds = n,
                _ => return usage("--rounds needs a positive number"),
            },
            "--chess-mb" => match args.next().and_then(|n| n.parse().ok()) {
                Some(mb) if mb > 0.0 => chess_mb = mb,
                _ => return usage("--chess-mb needs a positive number"),
            },
            _ => {
                let path = PathBuf::from(&arg);
                let bytes = match std::fs::read(&path) {
                    Ok(bytes) => bytes,
                    Err(err) => {
                        eprintln!("{arg}: {err}");
                        return ExitCode::from(2);
                    }
                };
                let input = Input { name: arg, bytes };
                let is_pgn = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
                if is_pgn {
                    chess.push(input);
                } else {
                    draughts.push(input);
                }
            }
        }
    }
    if draughts.is_empty() {
        return usage("give at least one draughts (PDN) file");
    }
    if chess.is_empty() {
        let bytes = generate::archive(1, (chess_mb * 1e6) as usize);
        chess.push(Input {
            name: format!(
                "generated chess (seed 1, {:.1} MB)",
                bytes.len() as f64 / 1e6
            ),
            bytes,
        });
    }
    println!("{rounds} rounds per side, sides alternating; medians.");
    for input in chess.iter() {
        let counts = chess_read(&input.bytes);
        let replayed = chess_replay(&input.bytes);
        println!(
            "chess   {}: {:.1} MB, {} games, {} plies, {} SAN errors",
            input.name,
            input.bytes.len() as f64 / 1e6,
            counts.games,
            replayed.plies,
            replayed.errors
        );
    }
    for input in draughts.iter() {
        let counts = draughts_read(&input.bytes);
        let checked = draughts_check(&input.name, &input.bytes);
        println!(
            "draughts {}: {:.1} MB, {} games, {} plies, {} games not ok",
            input.name,
            input.bytes.len() as f64 / 1e6,
            counts.games,
            checked.plies,
            checked.errors
        );
    }
    for d in &draughts {
        for c in &chess {
            println!();
            println!("pdndb {}  vs  chess {}", d.name, c.name);
            let (pd, ch) = paired(rounds, || draughts_read(&d.bytes), || chess_read(&c.bytes));
            report("(a) reading", &pd, &ch, d.bytes.len(), c.bytes.len(), false);
            let (pd, ch) = paired(
                rounds,
                || draughts_check(&d.name, &d.bytes),
                || chess_replay(&c.bytes),
            );
            report(
                "(b) read + replay",
                &pd,
                &ch,
                d.bytes.len(),
                c.bytes.len(),
                true,
            );
        }
    }
    ExitCode::SUCCESS
}

fn usage(message: &str) -> ExitCode {
    eprintln!("{message}");
    eprintln!("usage: pdndb-compare [--rounds N] [--chess-mb MB] FILE.pdn… [FILE.pgn…]");
    ExitCode::from(2)
}

/// Medians of one side: seconds and what a pass counted.
struct Side {
    seconds: f64,
    counts: Counts,
}

/// Runs `a` and `b` alternately `rounds` times each; the median time of
/// each.
fn paired(
    rounds: usize,
    mut a: impl FnMut() -> Counts,
    mut b: impl FnMut() -> Counts,
) -> (Side, Side) {
    let mut times = (Vec::new(), Vec::new());
    let mut counts = (Counts::default(), Counts::default());
    for _ in 0..rounds {
        let start = Instant::now();
        counts.0 = std::hint::black_box(a());
        times.0.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        counts.1 = std::hint::black_box(b());
        times.1.push(start.elapsed().as_secs_f64());
    }
    (
        Side {
            seconds: median(&mut times.0),
            counts: counts.0,
        },
        Side {
            seconds: median(&mut times.1),
            counts: counts.1,
        },
    )
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Prints one measure: each side's rates and pdndb's over chess.
fn report(title: &str, pd: &Side, ch: &Side, pd_bytes: usize, ch_bytes: usize, plies: bool) {
    let rate = |n: u64, s: &Side| n as f64 / s.seconds;
    let mb = |bytes: usize, s: &Side| bytes as f64 / 1e6 / s.seconds;
    println!("  {title}");
    let line = |who: &str, s: &Side, bytes: usize| {
        let mut text = format!(
            "    {who:<7} {:>8.1} ms  {:>9.0} games/s  {:>6.1} MB/s",
            s.seconds * 1e3,
            rate(s.counts.games, s),
            mb(bytes, s)
        );
        if plies {
            text += &format!("  {:>5.2} M plies/s", rate(s.counts.plies, s) / 1e6);
        }
        println!("{text}");
    };
    line("pdndb", pd, pd_bytes);
    line("chess", ch, ch_bytes);
    let mut ratio = format!(
        "    pdndb/chess: {:.2}x games/s, {:.2}x MB/s",
        rate(pd.counts.games, pd) / rate(ch.counts.games, ch),
        mb(pd_bytes, pd) / mb(ch_bytes, ch)
    );
    if plies {
        ratio += &format!(
            ", {:.2}x plies/s",
            rate(pd.counts.plies, pd) / rate(ch.counts.plies, ch)
        );
    }
    println!("{ratio}");
}

/// pdndb's reader over the bytes: every game parsed (tags, moves,
/// comments, diagnostics).
fn draughts_read(bytes: &[u8]) -> Counts {
    let mut counts = Counts::default();
    let mut reader = pdndb::pdn::Reader::new(bytes);
    while let Ok(Some(game)) = reader.next_game() {
        counts.games += 1;
        counts.plies += game.plies().len() as u64;
        counts.errors += game.diagnostics.len() as u64;
    }
    counts
}

/// `pdndb check` of the bytes: read, rules inferred per file and game,
/// every game replayed over all its interpretations and its record built.
fn draughts_check(name: &str, bytes: &[u8]) -> Counts {
    let mut counts = Counts::default();
    // As `pdndb check` asks: of the positions, only the one a report shows.
    let overrides = pdndb::replay::Overrides {
        positions: pdndb::replay::KeptPositions::Last,
        ..Default::default()
    };
    let mut checker = pdndb::replay::FileChecker::new(name, &overrides);
    let mut reader = pdndb::pdn::Reader::new(bytes);
    let mut tally = |game: pdndb::pdn::Game, checked: pdndb::replay::CheckedGame| {
        counts.games += 1;
        counts.plies += game.plies().len() as u64;
        if checked.record.status != pdndb::replay::Status::Ok {
            counts.errors += 1;
        }
        Ok::<(), ()>(())
    };
    while let Ok(Some(game)) = reader.next_game() {
        let _ = checker.push(game, true, false, &mut tally);
    }
    let _ = checker.finish(false, &mut tally);
    counts
}

/// Collects a chess game as read: tags (names and decoded values), SAN
/// moves and comments; no replay.
#[derive(Default)]
struct Collect {
    counts: Counts,
}

/// A chess game's text as collected.
#[derive(Default)]
struct ChessGame {
    tags: Vec<(Vec<u8>, Vec<u8>)>,
    moves: Vec<SanPlus>,
    comments: Vec<Vec<u8>>,
}

impl Visitor for Collect {
    type Tags = ChessGame;
    type Movetext = ChessGame;
    type Output = ChessGame;

    fn begin_tags(&mut self) -> ControlFlow<ChessGame, ChessGame> {
        ControlFlow::Continue(ChessGame::default())
    }

    fn tag(
        &mut self,
        game: &mut ChessGame,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<ChessGame> {
        game.tags.push((name.to_vec(), value.decode().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, game: ChessGame) -> ControlFlow<ChessGame, ChessGame> {
        ControlFlow::Continue(game)
    }

    fn san(&mut self, game: &mut ChessGame, san: SanPlus) -> ControlFlow<ChessGame> {
        game.moves.push(san);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut ChessGame, comment: RawComment<'_>) -> ControlFlow<ChessGame> {
        game.comments.push(comment.as_bytes().to_vec());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: ChessGame) -> ChessGame {
        self.counts.games += 1;
        self.counts.plies += game.moves.len() as u64;
        game
    }
}

/// pgn-reader over the bytes with [`Collect`].
fn chess_read(bytes: &[u8]) -> Counts {
    let mut visitor = Collect::default();
    let mut reader = pgn_reader::Reader::new(bytes);
    while let Ok(Some(game)) = reader.read_game(&mut visitor) {
        std::hint::black_box(&game);
    }
    visitor.counts
}

/// Plays every SAN move of the main line with shakmaty; a move that does
/// not play is counted and ends its game's replay.
#[derive(Default)]
struct Replay {
    counts: Counts,
}

impl Visitor for Replay {
    type Tags = ();
    type Movetext = Option<Chess>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        self.counts.games += 1;
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(Some(Chess::default()))
    }

    fn san(&mut self, position: &mut Option<Chess>, san: SanPlus) -> ControlFlow<()> {
        if let Some(pos) = position {
            match san.san.to_move(pos) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    self.counts.plies += 1;
                }
                Err(_) => {
                    self.counts.errors += 1;
                    *position = None;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _position: Option<Chess>) {}
}

/// pgn-reader + shakmaty over the bytes with [`Replay`].
fn chess_replay(bytes: &[u8]) -> Counts {
    let mut visitor = Replay::default();
    let mut reader = pgn_reader::Reader::new(bytes);
    while let Ok(Some(())) = reader.read_game(&mut visitor) {}
    visitor.counts
}
