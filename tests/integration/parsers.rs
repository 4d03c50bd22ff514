//! FEN and move-token parsers on arbitrary input: typed errors, no panics.

use pdndb::notation::{MoveToken, Notation, parse_fen};
use pdndb::rules::{Position, Preset, Rules, fitting_moves};
use proptest::prelude::*;

proptest! {
    #[test]
    fn fen_parser_never_panics(text in "\\PC{0,80}") {
        if let Ok(setup) = parse_fen(&text) {
            for preset in Preset::ALL {
                let _ = Position::from_setup(&setup, &preset.rules());
            }
        }
    }

    #[test]
    fn fen_like_strings_never_panic(text in "[WBR?K:,0-9a-jx .-]{0,60}") {
        if let Ok(setup) = parse_fen(&text) {
            let _ = Position::from_setup(&setup, &Rules::default());
        }
    }

    #[test]
    fn token_parser_never_panics(text in "\\PC{0,40}") {
        let _ = text.parse::<MoveToken>();
        let _ = MoveToken::parse_prefix(&text);
    }

    #[test]
    fn token_like_strings_resolve_without_panic(text in "[0-9a-kx×: -]{0,24}") {
        if let Ok(token) = text.parse::<MoveToken>() {
            let rules = Rules::default();
            let start = Position::initial(&rules);
            for notation in Notation::ALL {
                if let Ok(sets) = token.square_sets(notation, rules.geometry) {
                    let _ = fitting_moves(&rules, &start, &sets);
                }
            }
        }
    }

    #[test]
    fn written_fen_reads_back(seed in any::<u64>(), plies in 0usize..120) {
        let rules = Rules::default();
        let mut p = Position::initial(&rules);
        let mut s = seed | 1;
        for _ in 0..plies {
            let moves = p.legal_moves(&rules);
            if moves.is_empty() { break; }
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            p = p.play(&moves[(s % moves.len() as u64) as usize]);
        }
        let fen = pdndb::notation::write_fen(&p);
        let back = Position::from_setup(&parse_fen(&fen).unwrap(), &rules).unwrap();
        prop_assert_eq!(back, p);
    }
}
