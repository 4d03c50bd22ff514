//! The worked examples of the rules: multi-captures, landing rules,
//! promotion switches.

use pdndb::notation::{Notation, parse_fen, write_fen, write_move};
use pdndb::rules::{Position, Preset, Rules};

fn position(fen: &str, rules: &Rules) -> Position {
    let setup = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    Position::from_setup(&setup, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn full_paths(fen: &str, rules: &Rules, notation: Notation) -> Vec<String> {
    let p = position(fen, rules);
    let mut moves: Vec<String> = p
        .legal_moves(rules)
        .iter()
        .map(|m| write_move(m, notation, rules.geometry, true))
        .collect();
    moves.sort();
    moves
}

#[test]
fn king_takes_six_in_five_different_moves() {
    let rules = Rules::default();
    let fen = "W:WKa1:Bb2,b4,c5,e5,g5,c7,e7";
    let p = position(fen, &rules);
    let moves = p.legal_moves(&rules);
    assert_eq!(moves.len(), 5);
    assert!(moves.iter().all(|m| m.captured().count_ones() == 6));
    // The source's full paths: routes taking the same pieces are one move.
    assert_eq!(
        full_paths(fen, &rules, Notation::Vismin),
        [
            "a1xc3xa5xd8xf6xd4xa7",
            "a1xc3xa5xd8xf6xd4xb6",
            "a1xc3xf6xd8xa5xd2xh6",
            "a1xc3xf6xd8xb6xe3xh6",
            "a1xd4xb6xd8xf6xc3xa5",
        ]
    );
}

#[test]
fn four_different_c1xa3_captures_need_full_paths() {
    let rules = Rules::default();
    let fen = "W:WKc1:Bd2,b4,d4,e5,f6,g7";
    let p = position(fen, &rules);
    let g = rules.geometry;
    let mut to_a3: Vec<String> = p
        .legal_moves(&rules)
        .iter()
        .filter(|m| write_move(m, Notation::Vismin, g, false) == "c1xa3")
        .map(|m| write_move(m, Notation::Vismin, g, true))
        .collect();
    to_a3.sort();
    assert_eq!(
        to_a3,
        ["c1xe3xc5xa3", "c1xf4xd6xa3", "c1xg5xe7xa3", "c1xh6xf8xa3"]
    );
}

#[test]
fn flying_king_lands_only_where_it_can_go_on() {
    // White king 29 takes 25; of the squares beyond, only 18 lets it take 14 next.
    let rules = Rules::default();
    assert_eq!(
        full_paths("W:WK29:B25,14", &rules, Notation::Numeric),
        ["29x18x5", "29x18x9"]
    );
    // Without a second victim every square beyond is allowed.
    assert_eq!(
        full_paths("W:WK29:B25", &rules, Notation::Numeric),
        ["29x11", "29x15", "29x18", "29x22", "29x4", "29x8"]
    );
}

#[test]
fn captured_pieces_block_until_the_move_ends_and_are_not_jumped_twice() {
    // The king circles four men and comes back to c1; d2, taken first, is
    // still on the board then and may not be jumped again. Both ways round
    // take the same pieces from c1 to c1: one move.
    let rules = Rules::default();
    let fen = "W:WKc1:Bd2,d4,b4,b2";
    assert_eq!(
        full_paths(fen, &rules, Notation::Vismin),
        ["c1xa3xc5xe3xc1"]
    );
    let p = position(fen, &rules);
    let after = p.play(&p.legal_moves(&rules)[0]);
    assert_eq!(write_fen(&after), "B:WK30:B");
}

#[test]
fn mid_capture_promotion_follows_the_switch() {
    // The white man on 9 takes 6 and reaches the crowning row on 2; from
    // there it can take 7 backwards (to 11) as a man, or as a flying king.
    let fen = "W:W9:B6,7,K28";
    let mut rules = Rules::default();
    let names = |rules: &Rules| full_paths(fen, rules, Notation::Numeric);
    assert_eq!(names(&rules), ["9x2x11"], "continue-man: goes on as a man");
    let p = position(fen, &rules);
    let m = p.legal_moves(&rules)[0];
    assert!(
        !m.promotes(),
        "continue-man: not crowned when the move ends off the last row"
    );
    rules.set("promotion", "stop").unwrap();
    assert_eq!(
        names(&rules),
        ["9x2"],
        "stop: the move ends on the crowning row"
    );
    assert!(position(fen, &rules).legal_moves(&rules)[0].promotes());
    rules.set("promotion", "continue-king").unwrap();
    let king_moves = names(&rules);
    assert!(
        king_moves.iter().all(|m| m.starts_with("9x2x")),
        "{king_moves:?}"
    );
    assert!(king_moves.contains(&"9x2x16".to_string()), "{king_moves:?}");
    let p = position(fen, &rules);
    assert!(p.legal_moves(&rules).iter().all(|m| m.promotes()));
}

#[test]
fn king_first_switch_prefers_king_captures_on_equal_counts() {
    // The white man on 22 can take 26 (backwards); the king on 4 can take 8,
    // landing on 11, 15 or 18. One piece each.
    let fen = "W:W22,K4:B26,8,1";
    let mut rules = Rules::default();
    assert_eq!(
        full_paths(fen, &rules, Notation::Numeric),
        ["22x31", "4x11", "4x15", "4x18"]
    );
    rules.set("king-first", "on").unwrap();
    let moves = full_paths(fen, &rules, Notation::Numeric);
    assert_eq!(moves, ["4x11", "4x15", "4x18"]);
}

#[test]
fn english_kings_move_one_square_and_men_are_crowned_ending_the_move() {
    let rules = Preset::English.rules();
    assert_eq!(
        full_paths("B:WK18:B1", &rules, Notation::Numeric),
        ["1-5", "1-6"]
    );
    assert_eq!(
        full_paths("W:WK18:B1", &rules, Notation::Numeric),
        ["18-14", "18-15", "18-22", "18-23"]
    );
    // White man on 10 takes 6 landing on the king row at 1 and stops there.
    let p = position("W:W10:B6,5,28", &rules);
    let moves = p.legal_moves(&rules);
    assert_eq!(moves.len(), 1);
    assert!(moves[0].promotes());
    let after = p.play(&moves[0]);
    assert_eq!(write_fen(&after), "B:WK1:B5,28");
}

/// The capture rules of the presets beyond Dama's, position by position,
/// from `tests/data/rules.tsv`.
#[test]
fn capture_rules_of_every_preset_from_data_file() {
    let text = std::fs::read_to_string(crate::crate_path("tests/data/rules.tsv")).unwrap();
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [preset, fen, moves, rule] = fields[..] else {
            panic!("four fields: {line}");
        };
        let rules = preset.parse::<Preset>().unwrap().rules();
        let setup = pdndb::notation::parse_fen_on(fen, rules.geometry).unwrap();
        let p = Position::from_setup(&setup, &rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut got: Vec<String> = p
            .legal_moves(&rules)
            .iter()
            .map(|m| m.short_numeric())
            .collect();
        got.sort();
        let mut expected: Vec<&str> = moves.split_whitespace().collect();
        expected.sort();
        assert_eq!(got, expected, "{preset} {fen}: {rule}");
        checked += 1;
    }
    assert!(checked >= 40, "{checked} positions");
}
