//! Arbitrary text through the FEN reader and the move-token reader:
//! nothing may panic; a FEN that makes a valid position is written back
//! canonically and reads again as the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdndb::notation::{MoveToken, Notation, parse_fen, write_fen};
use pdndb::rules::{Position, Rules};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(setup) = parse_fen(text) {
        for preset in ["filipino", "english", "russian"] {
            let rules = Rules::from_args(Some(preset), None).expect("a known preset");
            if let Ok(position) = Position::from_setup(&setup, &rules) {
                let written = write_fen(&position);
                let again = parse_fen(&written).expect("a written FEN reads");
                let back = Position::from_setup(&again, &rules).expect("and is valid");
                assert_eq!(back, position, "{text:?} → {written}");
                assert_eq!(write_fen(&back), written);
            }
        }
    }
    let geometry = Rules::default().geometry;
    let _ = MoveToken::parse_prefix(text);
    if let Ok(token) = text.parse::<MoveToken>() {
        let _ = token.views();
        let _ = token.max_number();
        for notation in Notation::ALL {
            let _ = token.square_sets(notation, geometry);
        }
    }
});
