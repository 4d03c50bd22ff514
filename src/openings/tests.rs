use super::*;

/// The positions of a line as a game gives them: `(key, ply)`.
fn positions(preset: Preset, moves: &str) -> Vec<(u64, u32)> {
    let keys = line_keys(preset.rules(), moves).expect("a legal line");
    keys.into_iter().zip(0..).collect()
}

#[test]
fn every_row_of_every_table_replays_legally_to_a_position_of_its_own() {
    for preset in named_presets() {
        let book = book(preset).expect("a table");
        assert_eq!(book.faults, Vec::new(), "{}", preset.name());
        assert!(!book.openings.is_empty(), "{}", preset.name());
        for opening in book.openings.iter().chain(&book.ballots) {
            assert!(opening.plies() > 0, "{}", opening.name);
            assert!(opening.source.contains("http"), "{}", opening.name);
        }
    }
}

#[test]
fn the_english_deck_holds_its_156_ballots_of_three_plies() {
    let book = book(Preset::English).unwrap();
    assert_eq!(book.ballots.len(), 156);
    assert!(book.ballots.iter().all(|b| b.plies() == BALLOT_PLIES));
    assert!(book.ballot(book.ballots[0].key()).is_some());
}

#[test]
fn a_table_row_that_is_wrong_is_noted_not_added() {
    let book = Book::read(
        Preset::English,
        "name\tmoves\tsource\nA\t11-15 22-18\tx\nB\t11-15 22-18\ty\nC\t11-16 11-15\tz\nD\t9-13\n",
        "",
    );
    assert_eq!(book.openings.len(), 1);
    let faults: Vec<&str> = book.faults.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(faults, ["B\t11-15 22-18", "C\t11-16 11-15", "D\t9-13"]);
    assert!(book.faults[0].1.contains("\"A\""));
}

#[test]
fn two_orders_of_moves_reaching_one_named_position_get_one_name() {
    let book = book(Preset::English).unwrap();
    let one = book.name_game(positions(Preset::English, "11-15 23-19 8-11 22-17 9-13"));
    let other = book.name_game(positions(Preset::English, "11-15 22-17 8-11 23-19 9-13"));
    assert_eq!(one.opening, Some("Laird and Lady"));
    assert_eq!((one.opening, one.ply), (other.opening, other.ply));
    assert_eq!(one.ballot, Some("11-15 23-19 8-11"));
    assert_eq!(other.ballot, Some("11-15 22-17 8-11"));

    let book = super::book(Preset::Russian).unwrap();
    let one = book.name_game(positions(Preset::Russian, "c3-d4 d6-c5 b2-c3 f6-g5"));
    let other = book.name_game(positions(Preset::Russian, "c3-d4 f6-g5 b2-c3 d6-c5"));
    assert_eq!(one.opening, Some("Городская партия"));
    assert_eq!(one, other);
}

#[test]
fn a_game_is_named_by_the_named_position_it_reaches_last() {
    let named = name_game(
        Preset::English,
        positions(Preset::English, "11-15 23-19 8-11 22-17 4-8 17-13"),
    );
    assert_eq!(named.opening, Some("Old Fourteenth"));
    assert_eq!(named.ply, Some(5));
    let named = name_game(Preset::English, positions(Preset::English, "11-15 23-19"));
    assert_eq!((named.opening, named.ply), (Some("Old Faithful"), Some(1)));
    assert_eq!(named.ballot, None);
}

#[test]
fn positions_past_the_window_and_barred_ballots_name_nothing() {
    let far = book(Preset::English).unwrap().openings[0].key();
    let named = name_game(Preset::English, [(far, PLIES + 1)]);
    assert_eq!(named, Named::default());
    // 9-13 21-17 10-14 is barred: not in the deck.
    let named = name_game(
        Preset::English,
        positions(Preset::English, "9-13 21-17 10-14"),
    );
    assert_eq!((named.opening, named.ballot), (Some("Edinburgh"), None));
    assert_eq!(
        name_game(Preset::Filipino, positions(Preset::Filipino, "22-18")),
        Named::default()
    );
}

#[test]
fn russian_and_international_lines_are_named_through_their_transpositions() {
    let russian = book(Preset::Russian).unwrap();
    let poke = "c3-b4 f6-e5 b4-c5 d6:b4 a3:c5 b6:d4 e3:c5 e5-f4 g3:e5 c7-b6";
    let other = "c3-b4 f6-g5 b4-c5 b6:d4 e3:c5 d6:b4 a3:c5 g5-f4 g3:e5 c7-b6";
    let one = russian.name_game(positions(Preset::Russian, poke));
    assert_eq!((one.opening, one.ply), (Some("Жертва Кукуева"), Some(10)));
    assert_eq!(one, russian.name_game(positions(Preset::Russian, other)));
    let short = russian.name_game(positions(
        Preset::Russian,
        "c3-b4 f6-e5 b4-c5 d6:b4 a3:c5 b6:d4 e3:c5",
    ));
    assert_eq!((short.opening, short.ply), (Some("Тычок"), Some(7)));

    let fox = "32-28 18-23 33-29 23x32 37x28 20-25 31-27";
    let named = name_game(Preset::International, positions(Preset::International, fox));
    assert_eq!(
        (named.opening, named.ply),
        (Some("Chefneux opening, The Fox"), Some(6))
    );
    let named = name_game(
        Preset::International,
        positions(Preset::International, "33-28 18-23"),
    );
    assert_eq!(named.opening, Some("Partie classique"));
}

#[test]
fn systems_deeper_in_a_named_line_take_the_name_from_their_own_ply() {
    let russian = book(Preset::Russian).unwrap();
    // Игра Когана and the Защита Святого – Коршунова differ by the last
    // capture only.
    let kogan = "c3-d4 f6-g5 b2-c3 g5-h4 c3-b4 d6-e5 d4:f6 g7:e5";
    let svyatoy = "c3-d4 f6-g5 b2-c3 g5-h4 c3-b4 d6-e5 d4:f6 e7:g5";
    let one = russian.name_game(positions(Preset::Russian, kogan));
    let other = russian.name_game(positions(Preset::Russian, svyatoy));
    assert_eq!((one.opening, one.ply), (Some("Игра Когана"), Some(8)));
    assert_eq!(other.opening, Some("Защита Святого – Коршунова"));
    // The Городская партия (ply 4), then its Moscow system (ply 8).
    let city = "c3-d4 d6-c5 b2-c3 f6-g5 c3-b4 g7-f6 b4:d6 e7:c5 g3-f4";
    let named = russian.name_game(positions(Preset::Russian, city));
    assert_eq!(
        (named.opening, named.ply),
        (
            Some("Городская партия, московская система (3…gf6)"),
            Some(8)
        )
    );
    let short = russian.name_game(positions(Preset::Russian, "c3-d4 d6-c5 b2-c3 f6-g5 c3-b4"));
    assert_eq!(short.opening, Some("Городская партия"));
    // The classical Перекрёсток (ply 13) and the Игра Мосолова (ply 17),
    // reached here by 7…ab6 and 8…ba7 where the table has 7…cb6, 8…bc7.
    let crossing = "c3-d4 d6-e5 b2-c3 e7-d6 e3-f4 b6-a5 f2-e3 c7-b6 c1-b2 b6-c5 d4:b6 a5:c7 \
                    e3-d4 a7-b6 g1-f2 b8-a7 f2-e3";
    let keys = positions(Preset::Russian, crossing);
    let named = russian.name_game(keys.iter().copied().take(14));
    assert_eq!(named.opening, Some("Классический перекрёсток"));
    let named = russian.name_game(keys);
    assert_eq!(
        (named.opening, named.ply),
        (Some("Игра Мосолова"), Some(17))
    );

    let modern = "32-28 18-23 33-29 23x32 37x28 17-22 28x17 11x22 31-27";
    let named = name_game(
        Preset::International,
        positions(Preset::International, modern),
    );
    assert_eq!(
        (named.opening, named.ply),
        (Some("Chefneux opening, Modern variation"), Some(8))
    );
}
