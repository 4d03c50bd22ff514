//! `tree` with the games filters and a player's repertoire by colour,
//! through the binary and the web API: the counts equal the next moves of
//! the games `search` finds, read one by one from `show --json`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::serve::Server;
use super::{json_lines, pdndb, run};

/// Per move (start and end square only, as a game's text writes it):
/// games, White's wins, draws, Black's wins, unknown.
type Counts = BTreeMap<String, [i64; 5]>;

/// A database of 300 generated Filipino games; with `popular`, a key
/// under that many index rows is popular (the start and the positions
/// most games reach are), else the usual 1,000 (none is).
fn generated(dir: &Path, popular: Option<&str>) -> PathBuf {
    let pdn = dir.join("games.pdn");
    let db = dir.join(format!("db-{}.sqlite", popular.unwrap_or("usual")));
    let (_, err, code) = run(
        &db,
        &[
            "generate",
            "--games",
            "300",
            "--seed",
            "3",
            "-o",
            pdn.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let mut import = pdndb(&db);
    import.args(["import", "--quiet", pdn.to_str().unwrap()]);
    if let Some(rows) = popular {
        import.env("PDNDB_TEST_POPULAR_GAMES", rows);
    }
    let out = import.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    db
}

/// Each game's moves as written and outcome, read from `show --json` once.
#[derive(Default)]
struct Shown(BTreeMap<i64, (Vec<String>, String)>);

impl Shown {
    fn game(&mut self, db: &Path, game: i64) -> &(Vec<String>, String) {
        self.0.entry(game).or_insert_with(|| {
            let shown = &lines(db, &["show", &game.to_string(), "--json"])[0];
            let moves = shown["moves"].as_array().unwrap();
            (
                moves
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect(),
                shown["outcome"].as_str().unwrap().to_string(),
            )
        })
    }
}

/// Runs a command expected to succeed; its JSON lines.
fn lines(db: &Path, args: &[&str]) -> Vec<Value> {
    let (out, err, code) = run(db, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    json_lines(&out)
}

/// A move as its start and end squares: `10x19x28` → `10x28`.
fn ends(mv: &str) -> String {
    let squares: Vec<&str> = mv.split(['-', 'x']).collect();
    let sep = if mv.contains('x') { "x" } else { "-" };
    format!("{}{sep}{}", squares[0], squares[squares.len() - 1])
}

/// The column of an outcome in [`Counts`].
fn column(outcome: &str) -> usize {
    match outcome {
        "white" => 1,
        "draw" => 2,
        "black" => 3,
        _ => 4,
    }
}

/// The tree's records as [`Counts`].
fn tree_counts(records: &[Value]) -> Counts {
    let mut counts = Counts::new();
    for r in records {
        let n = |field: &str| r[field].as_i64().unwrap();
        let row = [
            n("games"),
            n("white_wins"),
            n("draws"),
            n("black_wins"),
            n("unknown"),
        ];
        assert_eq!(row[0], row[1..].iter().sum::<i64>(), "{r}");
        let before = counts.insert(ends(r["move"].as_str().unwrap()), row);
        assert!(before.is_none(), "two moves with the same ends: {r}");
    }
    counts
}

/// The next moves of the games `search` finds at the position with the
/// filters `filters`, counted by hand: each game's move after the ply
/// where it is at the position, read from `show --json`; of the games
/// `keep` keeps.
fn counted(
    db: &Path,
    shown: &mut Shown,
    at: &[&str],
    filters: &[&str],
    keep: &dyn Fn(i64) -> bool,
) -> Counts {
    let mut args = vec!["search", "--json", "--limit", "0"];
    args.extend_from_slice(at);
    args.extend_from_slice(filters);
    let mut counts = Counts::new();
    for hit in lines(db, &args) {
        let game = hit["game"].as_i64().unwrap();
        if !keep(game) {
            continue;
        }
        let ply = hit["ply"].as_u64().unwrap() as usize;
        let (moves, outcome) = shown.game(db, game);
        let Some(next) = moves.get(ply) else {
            continue;
        };
        let row = counts.entry(ends(next)).or_default();
        row[0] += 1;
        row[column(outcome)] += 1;
    }
    counts
}

/// The tree at a position (`at`: `--fen …` or nothing) with `filters`.
fn tree(db: &Path, at: &[&str], filters: &[&str]) -> Vec<Value> {
    let mut args = vec!["tree", "--json", "--notation", "numeric"];
    args.extend_from_slice(at);
    args.extend_from_slice(filters);
    lines(db, &args)
}

/// The ids `games` lists with `filters`.
fn ids(db: &Path, filters: &[&str]) -> BTreeSet<i64> {
    let mut args = vec!["games", "--json", "--limit", "0"];
    args.extend_from_slice(filters);
    lines(db, &args)
        .iter()
        .map(|g| g["game"].as_i64().unwrap())
        .collect()
}

/// The position after the most played first move (many games reach it),
/// as `--fen FEN`.
fn deeper(db: &Path) -> Vec<String> {
    let first = tree(db, &[], &[])[0]["move"].as_str().unwrap().to_string();
    let hit = &lines(db, &["search", "--json", "--limit", "1", "--moves", &first])[0];
    vec![
        "--fen".to_string(),
        hit["fen"].as_str().unwrap().to_string(),
    ]
}

#[test]
fn a_filtered_tree_counts_the_next_moves_of_the_games_that_pass() {
    let dir = tempfile::tempdir().unwrap();
    for popular in [None, Some("20")] {
        filtered_trees(&generated(dir.path(), popular));
    }
}

fn filtered_trees(db: &Path) {
    let mut shown = Shown::default();
    let db = db.to_path_buf();
    let player = lines(&db, &["games", "--json", "--limit", "1"])[0]["tags"]["White"]
        .as_str()
        .unwrap()
        .to_string();
    let fen = deeper(&db);
    let fen: Vec<&str> = fen.iter().map(String::as_str).collect();
    let everyone = |_| true;
    for at in [&[][..], &fen[..]] {
        for filters in [
            &["--player", &player][..],
            &["--date", "2005..2015", "--result", "white"][..],
            &["--player", &player, "--event", "game 1"][..],
        ] {
            let expected = counted(&db, &mut shown, at, filters, &everyone);
            assert!(!expected.is_empty(), "{at:?} {filters:?}");
            let found = tree(&db, at, filters);
            assert_eq!(tree_counts(&found), expected, "{at:?} {filters:?}");
            // Shares over the filtered games.
            let all: i64 = expected.values().map(|c| c[0]).sum();
            for r in &found {
                let share = r["share"].as_f64().unwrap();
                let games = r["games"].as_f64().unwrap();
                assert!((share - (1000.0 * games / all as f64).round() / 10.0).abs() < 1e-9);
            }
        }
        // A filter every game passes gives the tree of the kept counts.
        assert_eq!(
            tree(&db, at, &["--status", "ok"]),
            tree(&db, at, &[]),
            "{at:?}"
        );
        let unfiltered = tree_counts(&tree(&db, at, &[]));
        let by_hand = counted(&db, &mut shown, at, &[], &everyone);
        assert_eq!(unfiltered, by_hand, "{at:?}");
    }
    // No game passes: nothing, said on stderr.
    let (out, err, code) = run(&db, &["tree", "--json", "--player", "Nobody At All"]);
    assert_eq!((out.as_str(), code), ("", 0));
    assert!(err.contains("no game that passes the filters"), "{err}");
}

#[test]
fn a_players_repertoire_is_the_tree_of_their_games_with_one_colour() {
    let dir = tempfile::tempdir().unwrap();
    for popular in [None, Some("20")] {
        repertoires(&generated(dir.path(), popular));
    }
}

fn repertoires(db: &Path) {
    let mut shown = Shown::default();
    let db = db.to_path_buf();
    let names: BTreeSet<String> = lines(&db, &["games", "--json", "--limit", "0"])
        .iter()
        .flat_map(|g| [g["tags"]["White"].clone(), g["tags"]["Black"].clone()])
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    // A name no other name contains, and another one made its alias.
    let alone: Vec<&String> = names
        .iter()
        .filter(|n| names.iter().all(|m| m == *n || !m.contains(n.as_str())))
        .collect();
    let (player, other) = (alone[0].as_str(), alone[1].as_str());
    let (_, err, code) = run(&db, &["alias", player, other]);
    assert_eq!(code, 0, "{err}");
    let fen = deeper(&db);
    let fen: Vec<&str> = fen.iter().map(String::as_str).collect();
    for at in [&[][..], &fen[..]] {
        let mut sides = Vec::new();
        for (colour, side) in [("white", "--white"), ("black", "--black")] {
            // The games where the player or their alias had that colour.
            let theirs = ids(&db, &[side, player]);
            let as_other = ids(&db, &[side, other]);
            assert!(as_other.is_subset(&theirs) && !as_other.is_empty());
            let expected = counted(&db, &mut shown, at, &["--player", player], &|g| {
                theirs.contains(&g)
            });
            let found = tree(&db, at, &["--player", player, "--colour", colour]);
            assert_eq!(tree_counts(&found), expected, "{colour} {at:?}");
            // Any case.
            let upper = colour.to_uppercase();
            let again = tree(&db, at, &["--player", player, "--colour", &upper]);
            assert_eq!(again, found);
            sides.push(expected);
        }
        // Either colour: every game of the player, each once.
        let either = counted(&db, &mut shown, at, &["--player", player], &|_| true);
        assert_eq!(tree_counts(&tree(&db, at, &["--player", player])), either);
        let games = |counts: &Counts| counts.values().map(|c| c[0]).sum::<i64>();
        assert!(games(&sides[0]) + games(&sides[1]) >= games(&either));
        assert!(games(&sides[0]) > 0 && games(&sides[1]) > 0);
    }
}

#[test]
fn the_tree_at_the_start_follows_imports_removals_and_sides() {
    let dir = tempfile::tempdir().unwrap();
    let db = generated(dir.path(), Some("20"));
    let first = lines(&db, &["games", "--json", "--limit", "1"])[0]["tags"].clone();
    let (white, black) = (
        first["White"].as_str().unwrap().to_string(),
        first["Black"].as_str().unwrap().to_string(),
    );
    let more = dir.path().join("more.pdn");
    let (_, err, code) = run(
        &db,
        &[
            "generate",
            "--games",
            "120",
            "--seed",
            "4",
            "-o",
            more.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let check = |when: &str| {
        let mut shown = Shown::default();
        for filters in [
            &["--player", &white][..],
            &["--black", &black][..],
            &["--white", &white, "--black", &black][..],
            &["--black", &black, "--result", "draw"][..],
            &["--date", "2000..2012"][..],
        ] {
            let expected = counted(&db, &mut shown, &[], filters, &|_| true);
            let found = tree_counts(&tree(&db, &[], filters));
            assert_eq!(found, expected, "{when}: {filters:?}");
        }
    };
    check("imported");
    let mut import = pdndb(&db);
    import.args(["import", "--quiet", more.to_str().unwrap()]);
    import.env("PDNDB_TEST_POPULAR_GAMES", "20");
    assert!(import.output().unwrap().status.success());
    check("another file imported");
    let (_, err, code) = run(&db, &["remove", more.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    check("that file removed");
}

#[test]
fn bad_tree_filters_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = generated(dir.path(), None);
    for (args, says) in [
        (
            &["tree", "--colour", "white"][..],
            "--colour: give --player too",
        ),
        (
            &["tree", "--player", "Tan", "--colour", "red"][..],
            "--colour",
        ),
        (&["tree", "--date", "2019.13"][..], "--date"),
        (&["tree", "--player", " "][..], "--player"),
        (&["tree", "--result", "3-0"][..], "--result"),
        (&["tree", "--status", "fine"][..], "--status"),
        (
            &["tree", "--opening", "no such opening at all"][..],
            "--opening",
        ),
    ] {
        let (out, err, code) = run(&db, args);
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let server = Server::start(&db, &[]);
    for (query, says) in [
        ("colour=white", "colour: give player too"),
        (
            "player=Tan&colour=red",
            "colour: \"red\" is not white or black",
        ),
        ("date=2019.13", "date \"2019.13\""),
        ("result=3-0", "result: "),
        ("colours=both", "unknown parameter \"colours\""),
    ] {
        let response = server.get(&format!("/api/tree?{query}"));
        assert_eq!(response.status, 400, "{query}: {}", response.body);
        let error: Value = serde_json::from_str(&response.body).unwrap();
        let message = error["error"].as_str().unwrap();
        assert!(message.starts_with(says), "{query}: {message}");
    }
}

#[test]
fn the_api_tree_takes_the_filters_as_the_command_does() {
    let dir = tempfile::tempdir().unwrap();
    let db = generated(dir.path(), Some("20"));
    let player = lines(&db, &["games", "--json", "--limit", "1"])[0]["tags"]["Black"]
        .as_str()
        .unwrap()
        .to_string();
    let server = Server::start(&db, &[]);
    let encoded = player.replace(' ', "+");
    for (query, args) in [
        (String::new(), vec![]),
        (format!("player={encoded}"), vec!["--player", &player]),
        (
            format!("player={encoded}&colour=black&date=2000..2020"),
            vec![
                "--player",
                &player,
                "--colour",
                "black",
                "--date",
                "2000..2020",
            ],
        ),
        (
            "result=draw&status=ok".to_string(),
            vec!["--result", "draw", "--status", "ok"],
        ),
    ] {
        let answer = server.json(&format!("/api/tree?notation=numeric&{query}"));
        let records = answer.as_array().unwrap().clone();
        assert_eq!(records, tree(&db, &[], &args), "{query}");
    }
}
