//! Zobrist keys: pinned values (keys are stored on disk) and incremental
//! updates checked against recomputation.

use pdndb::notation::parse_fen;
use pdndb::rules::{Position, Preset, Rules};

use crate::crate_path;

#[test]
fn keys_match_the_pinned_values() {
    let text = std::fs::read_to_string(crate_path("tests/data/zobrist.csv")).expect("zobrist.csv");
    let rules = Rules::default();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (fen, key) = line.rsplit_once(',').expect("fen,key");
        let position = Position::from_setup(&parse_fen(fen).unwrap(), &rules).unwrap();
        let key = u64::from_str_radix(key.trim_start_matches("0x"), 16).unwrap();
        assert_eq!(position.zobrist(), key, "{fen}");
        checked += 1;
    }
    assert!(checked >= 5);
}

#[test]
fn incremental_keys_equal_recomputed_keys_in_random_games() {
    for preset in Preset::ALL {
        let rules = preset.rules();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ preset.game_type() as u64;
        for _game in 0..40 {
            let mut p = Position::initial(&rules);
            for _ply in 0..300 {
                let moves = p.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                p = p.play(&mv);
                assert_eq!(p.zobrist(), p.compute_key(), "{preset}: after {mv}");
            }
        }
    }
}

#[test]
fn key_depends_on_side_and_kings() {
    let rules = Rules::default();
    let key = |fen: &str| {
        Position::from_setup(&parse_fen(fen).unwrap(), &rules)
            .unwrap()
            .zobrist()
    };
    assert_ne!(key("W:W18:B11"), key("B:W18:B11"));
    assert_ne!(key("W:W18:B11"), key("W:WK18:B11"));
    assert_ne!(key("W:W18:B11"), key("W:W11:B18"));
    assert_eq!(key("W:W18,22:B11"), key("W:W22,18:B11"));
}
