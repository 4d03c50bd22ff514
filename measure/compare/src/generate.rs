//! A seeded archive of random legal chess games in PGN: realistic tags,
//! 40 to 120 plies in SAN with move numbers, some comments, lines of at
//! most 80 characters.

use std::fmt::Write;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const NAMES: [&str; 12] = [
    "Carlsen, Magnus",
    "Nakamura, Hikaru",
    "Caruana, Fabiano",
    "Firouzja, Alireza",
    "Gukesh, D",
    "Nepomniachtchi, Ian",
    "Giri, Anish",
    "So, Wesley",
    "Aronian, Levon",
    "Praggnanandhaa, R",
    "Abdusattorov, Nodirbek",
    "Rapport, Richard",
];

const EVENTS: [&str; 5] = [
    "Tata Steel Masters",
    "Norway Chess",
    "Sinquefield Cup",
    "Grand Chess Tour",
    "Online Blitz Arena",
];

const COMMENTS: [&str; 6] = [
    "A sharp try.",
    "Better was to keep the tension.",
    "The only move.",
    "White's pieces are more active.",
    "[%clk 0:03:12]",
    "Black has equalised comfortably; the endgame is level.",
];

/// Games appended until the archive holds at least `bytes` bytes.
pub fn archive(seed: u64, bytes: usize) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = String::with_capacity(bytes + 4096);
    let mut index = 0;
    while out.len() < bytes {
        index += 1;
        game(&mut rng, index, &mut out);
    }
    out.into_bytes()
}

/// Appends one game.
fn game(rng: &mut Rng, index: usize, out: &mut String) {
    let plies = 40 + rng.below(81);
    let mut pos = Chess::default();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(SanPlus::from_move_and_play_unchecked(&mut pos, m));
    }
    let result = match pos.outcome().known() {
        Some(outcome) => outcome.as_str(),
        None => ["1-0", "0-1", "1/2-1/2", "*"][rng.below(4)],
    };
    let white = rng.pick(&NAMES);
    let black = rng.pick(&NAMES);
    let _ = write!(
        out,
        "[Event \"{}\"]\n[Site \"Wijk aan Zee NED\"]\n[Date \"20{:02}.{:02}.{:02}\"]\n\
         [Round \"{}.{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
         [WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n[ECO \"{}{:02}\"]\n[PlyCount \"{}\"]\n\n",
        rng.pick(&EVENTS),
        rng.below(25),
        1 + rng.below(12),
        1 + rng.below(28),
        1 + index % 13,
        1 + rng.below(8),
        2500 + rng.below(350),
        2500 + rng.below(350),
        ["A", "B", "C", "D", "E"][rng.below(5)],
        rng.below(100),
        moves.len(),
    );
    let mut line = String::new();
    let word = |text: &str, line: &mut String, out: &mut String| {
        if !line.is_empty() && line.len() + 1 + text.len() > 80 {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(text);
    };
    for (i, san) in moves.iter().enumerate() {
        if i % 2 == 0 {
            word(&format!("{}.", i / 2 + 1), &mut line, out);
        }
        word(&san.to_string(), &mut line, out);
        if rng.below(25) == 0 {
            word(&format!("{{{}}}", rng.pick(&COMMENTS)), &mut line, out);
            if i % 2 == 0 {
                word(&format!("{}...", i / 2 + 1), &mut line, out);
            }
        }
    }
    word(result, &mut line, out);
    out.push_str(&line);
    out.push_str("\n\n");
}
