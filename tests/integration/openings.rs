//! Openings through the real binary: named at import, listed by
//! `openings`, chosen by `--opening`, shown by `show`, served by the API
//! and shown by the explorer and the game viewer (in a real browser, as
//! `browser.rs` runs it).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::browser::{browser, click, shot, until, value};
use super::serve::Server;
use super::{json_lines, run};

/// Two English games reaching the Laird and Lady by different orders
/// (Black wins one, White the other), an English game in the Edinburgh
/// Single, a Russian Городская партия, and a Filipino game (no table).
const GAMES: &str = "[GameType \"21\"]\n[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"1-0\"]\n\n\
    1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 1-0\n\n\
    [GameType \"21\"]\n[White \"Cy\"]\n[Black \"Di\"]\n[Result \"0-1\"]\n\n\
    1. 11-15 22-17 2. 8-11 23-19 3. 9-13 0-1\n\n\
    [GameType \"21\"]\n[White \"Ann\"]\n[Black \"Di\"]\n[Result \"1/2-1/2\"]\n\n\
    1. 9-13 22-18 2. 12-16 1/2-1/2\n\n\
    [GameType \"25\"]\n[White \"Ed\"]\n[Black \"Fay\"]\n[Result \"1-0\"]\n\n\
    1. c3-d4 f6-g5 2. b2-c3 d6-c5 1-0\n\n\
    [White \"Gus\"]\n[Black \"Hal\"]\n[Result \"1-0\"]\n\n1. 22-18 11-15 1-0\n";

/// A database of [`GAMES`].
fn games_db(dir: &Path) -> PathBuf {
    let pdn = dir.join("openings.pdn");
    std::fs::write(&pdn, GAMES).unwrap();
    let db = dir.join("db.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    db
}

/// A command's JSON lines, the command asserted to succeed.
fn lines(db: &Path, args: &[&str]) -> Vec<Value> {
    let (out, err, code) = run(db, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    json_lines(&out)
}

#[test]
fn games_are_named_at_import_and_chosen_by_a_part_of_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    let all = lines(&db, &["games", "--json"]);
    let named: Vec<(&Value, &Value)> = all.iter().map(|g| (&g["opening"], &g["ballot"])).collect();
    assert_eq!(
        named,
        [
            (
                &Value::from("Laird and Lady"),
                &Value::from("11-15 23-19 8-11")
            ),
            (
                &Value::from("Laird and Lady"),
                &Value::from("11-15 22-17 8-11")
            ),
            (
                &Value::from("Edinburgh Single"),
                &Value::from("9-13 22-18 12-16")
            ),
            (&Value::from("Городская партия"), &Value::Null),
            (&Value::Null, &Value::Null),
        ]
    );
    // Any case, accents ignored; the variant narrows it.
    let found = lines(&db, &["games", "--json", "--opening", "LAIRD"]);
    assert_eq!(found.len(), 2);
    let found = lines(
        &db,
        &[
            "games",
            "--json",
            "--opening",
            "городская",
            "--variant",
            "russian",
        ],
    );
    assert_eq!(found.len(), 1);
    let found = lines(
        &db,
        &[
            "games",
            "--json",
            "--opening",
            "edinburgh",
            "--player",
            "ann",
        ],
    );
    assert_eq!(found[0]["game"], all[2]["game"]);
    // Search shows them too.
    let hits = lines(
        &db,
        &[
            "search",
            "--json",
            "--variant",
            "english",
            "--moves",
            "11-15",
            "--opening",
            "laird",
        ],
    );
    assert_eq!(hits.len(), 2);
    assert!(hits.iter().all(|h| h["opening"] == "Laird and Lady"));
    let ballots: Vec<&Value> = hits.iter().map(|h| &h["ballot"]).collect();
    assert_eq!(ballots, ["11-15 23-19 8-11", "11-15 22-17 8-11"]);
}

#[test]
fn an_opening_no_name_has_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    let before = std::fs::read(&db).unwrap();
    let (out, err, code) = run(&db, &["games", "--opening", "xyz", "--variant", "english"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.contains("--opening: no opening named \"xyz\" under english; try pdndb openings"),
        "{err}"
    );
    let (_, err, code) = run(&db, &["search", "--moves", "11-15", "--opening", "xyz"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--opening: no opening named \"xyz\"; try"),
        "{err}"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn tree_and_export_take_the_opening_filter() {
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    // The English tree at the start: 11-15 and 9-13 in all, 11-15 alone
    // for the games in the Laird and Lady.
    let moves = |filters: &[&str]| -> Vec<(String, i64)> {
        let mut args = vec!["tree", "--json", "--variant", "english"];
        args.extend_from_slice(filters);
        lines(&db, &args)
            .iter()
            .map(|r| {
                (
                    r["move"].as_str().unwrap().to_string(),
                    r["games"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        moves(&[]),
        [("11-15".to_string(), 2), ("9-13".to_string(), 1)]
    );
    assert_eq!(moves(&["--opening", "LAIRD"]), [("11-15".to_string(), 2)]);
    // Export writes the games of the opening and no other.
    let (out, err, code) = run(&db, &["export", "--opening", "laird and lady"]);
    assert_eq!(code, 0, "{err}");
    let whites: Vec<&str> = out.lines().filter(|l| l.starts_with("[White ")).collect();
    assert_eq!(whites, ["[White \"Ann\"]", "[White \"Cy\"]"], "{out}");
    let (out, err, code) = run(&db, &["export", "--opening", "ГОРОДСКАЯ"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("[White \"Ed\"]") && !out.contains("Ann"),
        "{out}"
    );
    let (out, err, code) = run(&db, &["export", "--opening", "xyz"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("--opening: no opening named \"xyz\""), "{err}");
}

#[test]
fn openings_counts_games_share_and_score_per_opening() {
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    let rows = lines(&db, &["openings", "--json"]);
    let laird = &rows[0];
    assert_eq!(laird["variant"], "english");
    assert_eq!(laird["opening"], "Laird and Lady");
    assert_eq!(laird["games"], 2);
    assert_eq!(laird["share"], 66.7);
    // In English 1-0 is a Black win.
    assert_eq!(
        (&laird["white_wins"], &laird["black_wins"]),
        (&1.into(), &1.into())
    );
    assert_eq!(laird["score"], 50.0);
    assert_eq!(rows.len(), 3);
    let ann = lines(
        &db,
        &[
            "openings",
            "--json",
            "--player",
            "ann",
            "--variant",
            "english",
        ],
    );
    let names: Vec<&Value> = ann.iter().map(|r| &r["opening"]).collect();
    assert_eq!(names, ["Edinburgh Single", "Laird and Lady"]);
    let table = lines(
        &db,
        &["openings", "--table", "--json", "--variant", "english"],
    );
    let fourteenth = table
        .iter()
        .find(|r| r["opening"] == "Old Fourteenth")
        .unwrap();
    assert_eq!(fourteenth["plies"], 5);
    assert!(fourteenth["source"].as_str().unwrap().starts_with("http"));
}

#[test]
fn a_variant_without_a_table_is_said_to_have_none() {
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    for args in [
        &["openings", "--variant", "filipino"][..],
        &["openings", "--table", "--variant", "FILIPINO"][..],
    ] {
        let (out, err, code) = run(&db, args);
        assert_eq!((out.as_str(), code), ("", 0), "{args:?}: {err}");
        assert!(
            err.contains("filipino: no table of named openings") && err.contains("0 openings"),
            "{args:?}: {err}"
        );
    }
    // A variant with a table says nothing of the kind.
    let (_, err, code) = run(&db, &["openings", "--variant", "english"]);
    assert_eq!(code, 0);
    assert!(!err.contains("no table"), "{err}");
}

#[test]
fn show_and_the_api_name_the_opening_and_refuse_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    let id = lines(&db, &["games", "--json"])[0]["game"].to_string();
    let view = &lines(&db, &["show", &id, "--json"])[0];
    assert_eq!(view["opening"], "Laird and Lady");
    assert_eq!(view["opening_ply"], 5);
    assert_eq!(view["ballot"], "11-15 23-19 8-11");
    let (text, _, _) = run(&db, &["show", &id]);
    assert!(
        text.contains("opening Laird and Lady (reached at ply 5)\nballot 11-15 23-19 8-11\n"),
        "{text}"
    );
    let server = Server::start(&db, &[]);
    let games = server.json("/api/games?opening=laird");
    assert_eq!(games.as_array().map(Vec::len), Some(2));
    let bad = server.get("/api/games?opening=xyz&variant=english");
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("no opening named"), "{}", bad.body);
    let detail = server.json(&format!("/api/game/{id}"));
    assert_eq!(detail["opening_ply"], 5);
    let line = server.json("/api/position?variant=english&moves=11-15,23-19,8-11,22-17,9-13,17-14");
    assert_eq!(line["opening"], "Laird and Lady");
}

#[test]
fn recheck_names_the_games_a_migrated_database_left_unnamed() {
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("UPDATE game SET opening = NULL, opening_ply = NULL, ballot = NULL")
        .unwrap();
    drop(conn);
    assert!(lines(&db, &["openings", "--json"]).is_empty());
    let (_, err, code) = run(&db, &["recheck", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&db, &["openings", "--json"]).len(), 3);
}

#[test]
fn a_game_through_a_deeper_system_gets_the_system_and_the_table_lists_it() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("kogan.pdn");
    // The Игра Когана and a move past it, the Городская партия's Moscow
    // system, and the Chefneux Modern variation.
    std::fs::write(
        &pdn,
        "[GameType \"25\"]\n[White \"Ed\"]\n[Black \"Fay\"]\n[Result \"1-0\"]\n\n\
         1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 d6-e5 4. d4:f6 g7:e5 5. g3-f4 1-0\n\n\
         [GameType \"25\"]\n[White \"Ed\"]\n[Black \"Fay\"]\n[Result \"0-1\"]\n\n\
         1. c3-d4 d6-c5 2. b2-c3 f6-g5 3. c3-b4 g7-f6 4. b4:d6 e7:c5 0-1\n\n\
         [GameType \"20\"]\n[White \"Ed\"]\n[Black \"Fay\"]\n[Result \"1-0\"]\n\n\
         1. 32-28 18-23 2. 33-29 23x32 3. 37x28 17-22 4. 28x17 11x22 1-0\n",
    )
    .unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let games = lines(&db, &["games", "--json"]);
    let named: Vec<&Value> = games.iter().map(|g| &g["opening"]).collect();
    assert_eq!(
        named,
        [
            "Игра Когана",
            "Городская партия, московская система (3…gf6)",
            "Chefneux opening, Modern variation"
        ]
    );
    let id = games[0]["game"].to_string();
    assert_eq!(lines(&db, &["show", &id, "--json"])[0]["opening_ply"], 8);
    let table = lines(
        &db,
        &["openings", "--table", "--json", "--variant", "russian"],
    );
    assert_eq!(table.len(), 56);
    let mosolov = table
        .iter()
        .find(|r| r["opening"] == "Игра Мосолова")
        .unwrap();
    assert_eq!(mosolov["plies"], 17);
    assert!(mosolov["source"].as_str().unwrap().starts_with("https://"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_and_the_viewer_name_the_opening() {
    let test = "the_explorer_and_the_viewer_name_the_opening";
    let Some((_driver, client)) = browser(test).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = games_db(dir.path());
    let server = Server::start(&db, &[]);
    let base = format!("http://{}", server.address);
    let walker = client.clone();
    let walked = tokio::spawn(async move { walk(&walker, &base).await }).await;
    let _ = client.close().await;
    drop(server);
    if let Err(failed) = walked {
        std::panic::resume_unwind(failed.into_panic());
    }
}

/// The explorer at the Laird and Lady, then the viewer of a game that
/// leaves it and of one that ends in it.
async fn walk(client: &fantoccini::Client, base: &str) {
    let laird = "11-15,23-19,8-11,22-17,9-13";
    client
        .goto(&format!("{base}/?variant=english&moves={laird}"))
        .await
        .unwrap();
    // The name above the board; both games reach the position, by their
    // own orders of moves, and the games list names their opening.
    until(
        client,
        "the opening above the board and its two games",
        "return document.getElementById('opening').textContent === 'Opening: Laird and Lady' \
         && document.querySelectorAll('#games tbody tr').length === 2",
    )
    .await;
    let named = value(
        client,
        "return [...document.querySelectorAll('#games tbody tr')].map((tr) => tr.children[5].textContent)",
    )
    .await;
    assert_eq!(
        named,
        serde_json::json!(["Laird and Lady", "Laird and Lady"])
    );
    shot(client, "openings-explorer").await;
    // One move back the position has no name of its own: the line is
    // named after the last named position it reached, 11-15.
    client
        .goto(&format!(
            "{base}/?variant=english&moves=11-15,23-19,8-11,22-17"
        ))
        .await
        .unwrap();
    until(
        client,
        "the last named position of the line above the board",
        "return document.getElementById('opening').textContent === 'Opening: Old Faithful' \
         && document.querySelectorAll('#games tbody tr').length === 2",
    )
    .await;

    // The viewer: the opening, the ply that reaches it and the link to
    // the ply where the game leaves it; then a game that ends in it.
    client.goto(&format!("{base}/game/1")).await.unwrap();
    let text = "Opening: Laird and Lady (reached at ply 5; leaves the named line at ply 6) \
                · Ballot: 11-15 23-19 8-11";
    until(
        client,
        "the opening line of the viewer",
        &format!("return document.getElementById('opening').textContent === {text:?}"),
    )
    .await;
    click(client, "#opening a").await;
    until(
        client,
        "the viewer at the ply leaving the opening",
        "return new URLSearchParams(location.search).get('ply') === '6'",
    )
    .await;
    shot(client, "openings-viewer").await;
    client.goto(&format!("{base}/game/2")).await.unwrap();
    let text = "Opening: Laird and Lady (reached at ply 5; follows the named line to its end) \
                · Ballot: 11-15 22-17 8-11";
    until(
        client,
        "the opening line of a game ending in it",
        &format!("return document.getElementById('opening').textContent === {text:?}"),
    )
    .await;
}
