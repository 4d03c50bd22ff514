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
