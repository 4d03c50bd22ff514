//! The 80-ply seed game of the notation source, written in four notations
//! (`sample-pdn/seed-*.pdn`), played through the engine.

use pdndb::notation::{MoveToken, Notation};
use pdndb::rules::{Move, Position, Rules, fitting_moves};

use crate::crate_path;

/// The move tokens of a one-game file: everything after the tags that is
/// neither a move number nor a result.
fn tokens(file: &str) -> Vec<MoveToken> {
    let text =
        std::fs::read_to_string(crate_path(&format!("sample-pdn/{file}"))).expect("sample file");
    text.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|w| !w.ends_with('.') && !["½-½", "1/2-1/2", "1-0", "0-1", "*"].contains(w))
        .map(|w| w.parse().unwrap_or_else(|e| panic!("{file}: {w}: {e}")))
        .collect()
}

/// Plays a game whose every token fits exactly one legal move.
fn play_unique(file: &str, notation: Notation) -> (Vec<Move>, Position) {
    let rules = Rules::default();
    let mut position = Position::initial(&rules);
    let mut moves = Vec::new();
    for (ply, token) in tokens(file).iter().enumerate() {
        let sets = token
            .square_sets(notation, rules.geometry)
            .expect("squares of the notation");
        let fit = fitting_moves(&rules, &position, &sets);
        assert_eq!(
            fit.len(),
            1,
            "{file}: ply {} {token} fits {} moves",
            ply + 1,
            fit.len()
        );
        moves.push(fit[0]);
        position = position.play(&fit[0]);
    }
    (moves, position)
}

#[test]
fn numeric_vismin_and_luzon_copies_reach_the_same_final_position() {
    let (numeric_moves, numeric) = play_unique("seed-numeric.pdn", Notation::Numeric);
    assert_eq!(numeric_moves.len(), 80);
    let (vismin_moves, vismin) = play_unique("seed-vismin.pdn", Notation::Vismin);
    let (luzon_moves, luzon) = play_unique("seed-luzon.pdn", Notation::Luzon);
    assert_eq!(numeric_moves, vismin_moves);
    assert_eq!(numeric_moves, luzon_moves);
    assert_eq!(numeric, vismin);
    assert_eq!(numeric, luzon);
    assert_eq!(
        pdndb::notation::write_fen(&numeric),
        "W:WK10,30:B3,K8,K17,21"
    );
}

#[test]
fn every_dama_token_names_the_squares_of_the_numeric_move() {
    let rules = Rules::default();
    let (numeric_moves, _) = play_unique("seed-numeric.pdn", Notation::Numeric);
    let dama = tokens("seed-dama.pdn");
    assert_eq!(dama.len(), 80);
    for (ply, (token, mv)) in dama.iter().zip(&numeric_moves).enumerate() {
        let sets = token
            .square_sets(Notation::Dama, rules.geometry)
            .expect("Dama numbers");
        assert_eq!(sets.len(), 2, "ply {}", ply + 1);
        assert_ne!(
            sets[0] & mv.from().bit(),
            0,
            "ply {}: {token} vs {mv}",
            ply + 1
        );
        assert_ne!(
            sets[1] & mv.to().bit(),
            0,
            "ply {}: {token} vs {mv}",
            ply + 1
        );
        assert_eq!(sets[0].count_ones(), 2);
    }
}

#[test]
fn first_moves_in_all_four_notations() {
    // 1. 23-18 10-15 2. 21-17 6-10 as the source's table writes them.
    let rules = Rules::default();
    let g = rules.geometry;
    let expect = [(23, 18), (10, 15), (21, 17), (6, 10)];
    let rows = [
        (Notation::Numeric, ["23-18", "10-15", "21-17", "6-10"]),
        (Notation::Vismin, ["e3-d4", "d6-e5", "a3-b4", "c7-d6"]),
        (Notation::Luzon, ["d3-e4", "e6-d5", "h3-g4", "f7-e6"]),
        (Notation::Dama, ["2-15", "2-15", "4-16", "7-2"]),
    ];
    for (notation, written) in rows {
        for (text, (from, to)) in written.iter().zip(expect) {
            let token: MoveToken = text.parse().unwrap();
            assert!(token.views().has(notation), "{text} in {notation}");
            let sets = token.square_sets(notation, g).unwrap();
            assert_ne!(sets[0] & (1 << (from - 1)), 0, "{text} in {notation}");
            assert_ne!(sets[1] & (1 << (to - 1)), 0, "{text} in {notation}");
            if notation != Notation::Dama {
                assert_eq!(sets[0].count_ones(), 1);
            }
            let square = pdndb::rules::Square::new(from).unwrap();
            let name = notation.square_name(g, square);
            assert!(
                text.starts_with(&format!("{name}-")),
                "{text} starts with {name}"
            );
        }
    }
}

#[test]
fn dama_copy_has_the_readings_of_the_worked_example() {
    let rules = Rules::default();
    let sets: Vec<_> = tokens("seed-dama.pdn")
        .iter()
        .map(|t| t.square_sets(Notation::Dama, rules.geometry).ok())
        .collect();
    let written: pdndb::replay::Written = sets.iter().map(|s| s.as_deref()).collect();
    let r = pdndb::replay::replay(&rules, Position::initial(&rules), &written);
    assert_eq!((r.plies, r.reached, r.interpretations), (80, 80, Some(16)));
    let (ply, candidates) = r.divergence.clone().expect("readings part");
    assert_eq!(ply, 70);
    let names: Vec<String> = candidates.iter().map(|m| m.full_numeric()).collect();
    assert_eq!(names, ["18-25", "18-8"]);
    assert_eq!(r.resolved.len(), 1);
    assert_eq!(r.resolved[0].ply, 62);
    let names: Vec<String> = r.resolved[0]
        .candidates
        .iter()
        .map(|m| m.full_numeric())
        .collect();
    assert_eq!(names, ["28-32", "5-1", "5-32"]);
    let plies: Vec<usize> = r.certain.iter().map(|c| c.ply).collect();
    assert_eq!(plies, (0..=69).collect::<Vec<_>>());
    let before = r.certain_at(69).expect("position 69 is certain");
    assert_eq!(
        pdndb::notation::write_fen(&before.position),
        "B:WK6,30:B3,K18,21,K31"
    );
    assert_eq!(before.next, None);
    assert!(r.certain_at(68).unwrap().next.is_some());
}
