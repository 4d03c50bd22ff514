//! Player aliases (`pdndb alias`, `players --similar`) and results checked
//! against the moves (`result_check`, `report --results`) through the real
//! binary.

use std::path::Path;

use serde_json::Value;

use super::{json_lines, run};

/// Four games of one player written three ways, and a different player.
const NAMES: &str = "\
[White \"Lowder, Bill\"]\n[Black \"Ross, R.\"]\n[Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n\
[White \"Ross, R.\"]\n[Black \"Lowder, B.\"]\n[Result \"0-1\"]\n1. 11-15 22-17 0-1\n\n\
[White \"LOWDER B\"]\n[Black \"Ross, B.\"]\n[Result \"1/2-1/2\"]\n1. 10-14 23-19 1/2-1/2\n\n\
[White \"Lowder, B.\"]\n[Black \"Lowder, E.\"]\n[Result \"1-0\"]\n1. 9-13 22-18 1-0\n";

/// A database holding `text` (as `g.pdn`), in `dir`.
fn imported(dir: &Path, text: &str) -> std::path::PathBuf {
    let pdn = dir.join("g.pdn");
    std::fs::write(&pdn, text).unwrap();
    let db = dir.join("db.sqlite");
    let (_, err, code) = run(&db, &["import", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    db
}

/// `players --json`: each name with its games.
fn players(db: &Path) -> Vec<(String, i64)> {
    let (out, err, code) = run(db, &["players", "--json"]);
    assert_eq!(code, 0, "{err}");
    json_lines(&out)
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["games"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The ids `games --player NAME` lists.
fn games_of(db: &Path, name: &str) -> Vec<i64> {
    let (out, err, code) = run(db, &["games", "--json", "--player", name]);
    assert_eq!(code, 0, "{err}");
    json_lines(&out)
        .iter()
        .map(|g| g["game"].as_i64().unwrap())
        .collect()
}

#[test]
fn aliases_join_a_players_names_in_players_and_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = imported(dir.path(), NAMES);
    assert_eq!(games_of(&db, "Lowder, Bill"), [1]);
    let (out, err, code) = run(&db, &["players", "--similar", "--json"]);
    assert_eq!(code, 0, "{err}");
    let groups = json_lines(&out);
    assert_eq!(groups.len(), 1, "{out}");
    let names: Vec<&str> = groups[0]["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Lowder, Bill", "Lowder, B.", "LOWDER B"]);

    let (out, err, code) = run(
        &db,
        &["alias", "--json", "Lowder, Bill", "Lowder, B.", "LOWDER B"],
    );
    assert_eq!(code, 0, "{err}");
    let group: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(group["canonical"], "Lowder, Bill");
    assert_eq!(
        group["aliases"],
        serde_json::json!(["LOWDER B", "Lowder, B."])
    );
    let listed = players(&db);
    assert!(
        listed.contains(&("Lowder, Bill".to_string(), 4)),
        "{listed:?}"
    );
    assert!(
        !listed
            .iter()
            .any(|(n, _)| n == "Lowder, B." || n == "LOWDER B")
    );
    assert!(
        listed.contains(&("Lowder, E.".to_string(), 1)),
        "{listed:?}"
    );
    // The canonical name and an alias both find every game of the player.
    assert_eq!(games_of(&db, "Lowder, Bill"), [1, 2, 3, 4]);
    assert_eq!(games_of(&db, "LOWDER B"), [1, 2, 3, 4]);
    assert_eq!(games_of(&db, "Ross, B."), [3]);
    // The explorer's player filter (the API's games and tree) finds them
    // as `games` and `tree` do.
    {
        let server = super::serve::Server::start(&db, &[]);
        let games = server.json("/api/games?player=LOWDER%20B");
        let ids: Vec<i64> = games
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["game"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, [1, 2, 3, 4]);
        let tree_games = |query: &str| -> i64 {
            let moves = server.json(&format!("/api/tree?{query}"));
            moves
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["games"].as_i64().unwrap())
                .sum()
        };
        assert_eq!(tree_games("player=LOWDER%20B"), 4);
        // Black only in game 2, as "Lowder, B.".
        assert_eq!(tree_games("player=lowder,%20bill&colour=black"), 1);
    }

    // Export writes canonical names only when asked; the tags stay.
    let (out, _, code) = run(&db, &["export", "--canonical-names", "--game", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("[White \"Lowder, Bill\"]"), "{out}");
    let (out, _, _) = run(&db, &["export", "--game", "3"]);
    assert!(out.contains("[White \"LOWDER B\"]"), "{out}");

    let (out, _, code) = run(&db, &["alias", "--list"]);
    assert_eq!(
        (out.as_str(), code),
        ("Lowder, Bill\n    LOWDER B\n    Lowder, B.\n", 0)
    );
    let (out, _, code) = run(&db, &["alias", "--list", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&out),
        [serde_json::json!({"canonical": "Lowder, Bill", "aliases": ["LOWDER B", "Lowder, B."]})]
    );
    let (out, err, code) = run(&db, &["alias", "--remove", "LOWDER B"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "LOWDER B is no longer an alias\n");
    assert_eq!(games_of(&db, "Lowder, Bill"), [1, 2, 4]);
    let (out, _, code) = run(&db, &["alias", "--remove", "Lowder, Bill", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&out),
        [serde_json::json!({"removed": ["Lowder, B."]})]
    );
    let (out, _, _) = run(&db, &["alias", "--list", "--json"]);
    assert_eq!(out, "");
}

#[test]
fn an_alias_survives_reimport_and_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let db = imported(dir.path(), NAMES);
    let (_, err, code) = run(&db, &["alias", "Lowder, Bill", "Lowder, B."]);
    assert_eq!(code, 0, "{err}");
    // The file changes (a game more) and is imported again; then rechecked.
    let more = format!(
        "{NAMES}\n[White \"Lowder, B.\"]\n[Black \"Ross, R.\"]\n[Result \"*\"]\n1. 11-16 *\n"
    );
    let db = imported(dir.path(), &more);
    let (_, err, code) = run(&db, &["recheck"]);
    assert_eq!(code, 0, "{err}");
    let listed = players(&db);
    assert!(
        listed.contains(&("Lowder, Bill".to_string(), 4)),
        "{listed:?}"
    );
    assert_eq!(games_of(&db, "Lowder, Bill").len(), 4);
}

#[test]
fn refused_aliases_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = imported(dir.path(), NAMES);
    let (_, err, code) = run(&db, &["alias", "Lowder, Bill", "Lowder, B."]);
    assert_eq!(code, 0, "{err}");
    for (args, message) in [
        (
            vec!["alias", "Ross, R.", "Ross, R."],
            "\"Ross, R.\" cannot be an alias of itself",
        ),
        (
            vec!["alias", "Lowder, B.", "Lowder, Bill"],
            "\"Lowder, B.\" is an alias of \"Lowder, Bill\"",
        ),
        (
            vec!["alias", "Ross, R.", "Lowder, Bill"],
            "\"Lowder, Bill\" is the canonical name of other names",
        ),
        (
            vec!["alias", "Ross, R.", "Nobody, N."],
            "\"Nobody, N.\": no game has this player",
        ),
        (
            vec!["alias", "--remove", "Ross, R."],
            "\"Ross, R.\" is not an alias nor a canonical name",
        ),
    ] {
        let (out, err, code) = run(&db, &args);
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(err.contains("nothing changed"), "{err}");
        let (list, _, _) = run(&db, &["alias", "--list"]);
        assert_eq!(list, "Lowder, Bill\n    Lowder, B.\n", "{args:?}");
    }
}

/// Games whose results agree with their moves or contradict them.
const RESULTS: &str = "\
[GameType \"20\"]\n[FEN \"W:W:B20\"]\n[Result \"0-2\"]\n0-2\n\n\
[GameType \"20\"]\n[FEN \"W:W:B20\"]\n[Result \"2-0\"]\n2-0\n\n\
[GameType \"21\"]\n[Result \"1-0\"]\n1. 11-15 23-19 *\n\n\
[GameType \"21\"]\n[Result \"1-0\"]\n1. 11-15 22-17 1-0\n\n\
[GameType \"21\"]\n1. 10-14 23-19 *\n";

#[test]
fn results_are_checked_against_the_board_and_the_move_text() {
    let dir = tempfile::tempdir().unwrap();
    let db = imported(dir.path(), RESULTS);
    let (out, err, code) = run(&db, &["games", "--json"]);
    assert_eq!(code, 0, "{err}");
    let checks: Vec<String> = json_lines(&out)
        .iter()
        .map(|g| g["result_check"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        checks,
        [
            "consistent",
            "contradicts_position",
            "contradicts_movetext",
            "consistent",
            "unknown"
        ]
    );
    // The check never changes a status.
    let statuses: Vec<Value> = json_lines(&out)
        .iter()
        .map(|g| g["status"].clone())
        .collect();
    assert!(statuses.iter().all(|s| s == "ok"), "{statuses:?}");

    let (out, err, code) = run(&db, &["report", "--results", "--json"]);
    assert_eq!(code, 1, "{err}");
    let records = json_lines(&out);
    let listed: Vec<(i64, &str)> = records
        .iter()
        .map(|r| {
            (
                r["game"].as_i64().unwrap(),
                r["result_check"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [(2, "contradicts_position"), (3, "contradicts_movetext")]
    );
    let (out, _, code) = run(&db, &["report", "--results"]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.contains("[id 3]: contradicts_movetext (Result tag 1-0) [ok]"),
        "{out}"
    );
    let (out, _, _) = run(&db, &["show", "2"]);
    assert!(out.contains("(checked: contradicts_position)"), "{out}");
    // The API answers as the command does; its player filter finds aliases.
    {
        let server = super::serve::Server::start(&db, &[]);
        assert_eq!(
            server.json("/api/report?results=1"),
            Value::Array(records.clone())
        );
        let game = server.json("/api/game/3");
        assert_eq!(game["result_check"], "contradicts_movetext");
    }
    // Recheck keeps the same answers.
    let (_, err, code) = run(&db, &["recheck"]);
    assert_eq!(code, 0, "{err}");
    let (again, _, _) = run(&db, &["report", "--results", "--json"]);
    assert_eq!(json_lines(&again), records);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_problems_page_lists_the_results_that_contradict_the_moves() {
    let test = "the_problems_page_lists_the_results_that_contradict_the_moves";
    let Some((_driver, client)) = super::browser::browser(test).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = imported(dir.path(), RESULTS);
    let server = super::serve::Server::start(&db, &[]);
    let base = format!("http://{}", server.address);
    let walker = client.clone();
    let walked = tokio::spawn(async move { problems(&walker, &base).await }).await;
    let _ = client.close().await;
    drop(server);
    if let Err(failed) = walked {
        std::panic::resume_unwind(failed.into_panic());
    }
}

/// The problems page by status (every game is `ok`: none), then with the
/// results filter chosen in its form, then opened at `results=1`.
async fn problems(client: &fantoccini::Client, base: &str) {
    use super::browser::{until, value};
    /// The rows: each game's id and what the last column says of it.
    const ROWS: &str = "return [...document.querySelectorAll('#problems tbody tr')]\
         .map((tr) => [tr.children[0].textContent, tr.children[7].textContent])";
    let expected = serde_json::json!([
        ["2", "the result contradicts the last position"],
        [
            "3",
            "the Result tag differs from the result after the moves"
        ]
    ]);
    client.goto(&format!("{base}/report")).await.unwrap();
    until(
        client,
        "no problem game by status",
        "return document.getElementById('count').textContent === '(0)'",
    )
    .await;
    client
        .execute(
            "const form = document.getElementById('filters'); \
             form.elements.results.value = '1'; form.requestSubmit();",
            vec![],
        )
        .await
        .unwrap();
    until(
        client,
        "the two games whose results contradict their moves",
        "return document.getElementById('count').textContent === '(2)' \
         && new URLSearchParams(location.search).get('results') === '1'",
    )
    .await;
    assert_eq!(value(client, ROWS).await, expected);
    client
        .goto(&format!("{base}/report?results=1"))
        .await
        .unwrap();
    until(
        client,
        "the results filter from the address",
        "return document.getElementById('count').textContent === '(2)'",
    )
    .await;
    assert_eq!(value(client, ROWS).await, expected);
}

/// The groups `players --similar --json` proposes, as lists of names.
fn similar(db: &Path) -> Vec<Vec<String>> {
    let (out, err, code) = run(db, &["players", "--similar", "--json"]);
    assert_eq!(code, 0, "{err}");
    json_lines(&out)
        .iter()
        .map(|g| {
            g["names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["name"].as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_oca_archive_s_names_group_as_one_player_each() {
    let Some(oca) = crate::skip::corpus(
        "the_oca_archive_s_names_group_as_one_player_each",
        "english/OCA_2.0.pdn",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", oca.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let groups = similar(&db);
    let group_of = |name: &str| groups.iter().find(|g| g.iter().any(|n| n == name));
    // True groups: spacing, a missing dot, a surname's spelling.
    for names in [
        &["Tinsley, M.F.", "Tinsley ,M.F."][..],
        &["Fuller, E.", "Fuller, E"],
        &["DeLong, V.", "Delong, V."],
        &["Fortman, R.L.", "Fortman R.L."],
        &["Morrall, H.", "Morall, H.", "Morral, H."],
    ] {
        let found: Option<Vec<&str>> =
            group_of(names[0]).map(|g| g.iter().map(String::as_str).collect());
        assert_eq!(found.as_deref(), Some(names), "{names:?}");
    }
    // Different initials are different people.
    for (a, b) in [
        ("Ross, R.", "Ross, B."),
        ("Ryan, W.F.", "Ryan, V."),
        ("Hanson, J.", "Hanson, K."),
    ] {
        assert!(
            group_of(a).is_none_or(|g| !g.iter().any(|n| n == b)),
            "{a} with {b}"
        );
    }
    // Once aliased, a group is one player and no longer proposed.
    let (_, err, code) = run(&db, &["alias", "Tinsley, M.F.", "Tinsley ,M.F."]);
    assert_eq!(code, 0, "{err}");
    let groups = similar(&db);
    assert!(!groups.iter().flatten().any(|n| n.starts_with("Tinsley")));
    let (out, _, _) = run(&db, &["players", "--json", "--min-games", "800"]);
    let tinsley = json_lines(&out)
        .into_iter()
        .find(|p| p["name"] == "Tinsley, M.F.")
        .unwrap();
    assert_eq!(tinsley["games"], 876);
    assert_eq!(tinsley["aliases"], serde_json::json!(["Tinsley ,M.F."]));
}
