//! Random legal games written as PDN, for tests and benchmarks.
//!
//! Deterministic for a seed (SplitMix64, defined here so that the output
//! never changes with a dependency's version). Games have mixed lengths:
//! most run 20–120 plies, some are played out until a side cannot move,
//! which brings captures, multi-captures and kings.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::notation::{Notation, write_move_among};
use crate::pdn::GameType;
use crate::rules::{Move, Position, Preset, Rules};

/// A small deterministic random number generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 11) % n as u64) as usize
    }
}

const PLAYERS: [&str; 16] = [
    "Abad",
    "Bautista",
    "Cruz",
    "Dela Cruz",
    "Garcia",
    "Lim",
    "Mendoza",
    "Navarro",
    "Ocampo",
    "Pascual",
    "Quizon",
    "Reyes",
    "Santos",
    "Tan",
    "Villanueva",
    "Zamora",
];

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct GenerateOptions {
    /// Number of games.
    pub games: usize,
    /// Random seed.
    pub seed: u64,
    /// Rules to play by.
    pub rules: Rules,
    /// Notation of the moves.
    pub notation: Notation,
}

/// Writes `options.games` random games as PDN to `out`.
///
/// # Errors
/// A failed write.
pub fn generate(options: &GenerateOptions, out: &mut impl Write) -> io::Result<()> {
    let mut rng = SplitMix64::new(options.seed);
    let mut text = String::with_capacity(4096);
    for index in 1..=options.games {
        text.clear();
        write_game(&mut rng, index, options, &mut text);
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

fn write_game(rng: &mut SplitMix64, index: usize, options: &GenerateOptions, text: &mut String) {
    let rules = &options.rules;
    let play_out = rng.below(4) == 0;
    let length = if play_out { 400 } else { 20 + rng.below(101) };
    let mut position = Position::initial(rules);
    let mut legal: Vec<Move> = Vec::with_capacity(32);
    let mut moves = Vec::with_capacity(length);
    let mut stuck = false;
    for _ in 0..length {
        position.legal_moves_into(rules, &mut legal);
        if legal.is_empty() {
            stuck = true;
            break;
        }
        let mv = legal[rng.below(legal.len())];
        moves.push(write_move_among(
            &mv,
            &legal,
            options.notation,
            rules.geometry,
        ));
        position = position.play(&mv);
    }
    let result = if stuck {
        if position.side() == rules.first {
            "0-1"
        } else {
            "1-0"
        }
    } else {
        ["1-0", "0-1", "1/2-1/2", "1/2-1/2", "*"][rng.below(5)]
    };
    let white = PLAYERS[rng.below(PLAYERS.len())];
    let black = PLAYERS[rng.below(PLAYERS.len())];
    let _ = writeln!(text, "[Event \"Generated game {index}\"]");
    let _ = writeln!(text, "[Site \"pdndb generate\"]");
    let _ = writeln!(
        text,
        "[Date \"20{:02}.{:02}.{:02}\"]",
        rng.below(26),
        1 + rng.below(12),
        1 + rng.below(28)
    );
    let _ = writeln!(text, "[Round \"{index}\"]");
    let _ = writeln!(text, "[White \"{white}\"]");
    let _ = writeln!(text, "[Black \"{black}\"]");
    let _ = writeln!(text, "[Result \"{result}\"]");
    let _ = writeln!(
        text,
        "[GameType \"{}\"]",
        GameType::value_for(rules, options.notation)
    );
    if rules.preset == Preset::Filipino {
        let _ = writeln!(text, "[Variant \"Filipino Dama\"]");
    }
    if options.notation == Notation::Dama {
        let _ = writeln!(text, "[Notation \"Dama\"]");
    }
    text.push('\n');
    let mut line_len = 0;
    let mut side = rules.first;
    let mut number = 1;
    for (ply, mv) in moves.iter().enumerate() {
        let mut item = String::new();
        if side == rules.first {
            if ply > 0 {
                number += 1;
            }
            let _ = write!(item, "{number}. ");
        } else if ply == 0 {
            let _ = write!(item, "{number}... ");
        }
        item.push_str(mv);
        push_wrapped(text, &item, &mut line_len);
        side = side.opponent();
    }
    push_wrapped(text, result, &mut line_len);
    text.push_str("\n\n");
}

/// Appends a word, breaking lines before 80 columns.
fn push_wrapped(text: &mut String, word: &str, line_len: &mut usize) {
    if *line_len > 0 && *line_len + 1 + word.len() >= 80 {
        text.push('\n');
        *line_len = 0;
    } else if *line_len > 0 {
        text.push(' ');
        *line_len += 1;
    }
    text.push_str(word);
    *line_len += word.len();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make(seed: u64, games: usize, preset: Preset, notation: Notation) -> String {
        let mut out = Vec::new();
        let options = GenerateOptions {
            games,
            seed,
            rules: preset.rules(),
            notation,
        };
        generate(&options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn deterministic_per_seed() {
        assert_eq!(
            make(7, 5, Preset::Filipino, Notation::Numeric),
            make(7, 5, Preset::Filipino, Notation::Numeric)
        );
        assert_ne!(
            make(7, 5, Preset::Filipino, Notation::Numeric),
            make(8, 5, Preset::Filipino, Notation::Numeric)
        );
    }

    #[test]
    fn games_carry_tags_and_wrapped_lines() {
        let text = make(1, 20, Preset::English, Notation::Numeric);
        assert_eq!(text.matches("[Event ").count(), 20);
        assert_eq!(text.matches("[GameType \"21,B,8,8,N1,0\"]").count(), 20);
        assert!(
            text.lines().all(|l| l.chars().count() < 80),
            "lines under 80 columns"
        );
        let text = make(1, 3, Preset::Filipino, Notation::Luzon);
        assert!(
            text.contains("[GameType \"26,W,8,8,A0,1\"]")
                && text.contains("[Variant \"Filipino Dama\"]")
        );
    }
}
