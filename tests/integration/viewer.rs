//! A commented game with variations through the real binary: `show`
//! prints its comments and variations as PDN does (or leaves them out),
//! `show --json` and `/api/game/ID` carry them, each variation move with
//! its position; lists and every text line naming a game's players name
//! the side that moves first first; and the
//! game viewer in a browser follows a variation with the arrows, goes
//! back to the main line, states a fault once and fits a phone.

use std::path::{Path, PathBuf};

use fantoccini::Client;
use fantoccini::Locator;
use fantoccini::key::Key;
use serde_json::{Value, json};

use super::browser::{browser, click, shot, until, value};
use super::serve::Server;
use super::{json_lines, run};

/// A 10×10 game: a comment before the first move, comments after moves,
/// NAGs, a variation that opens with a comment, and one whose first move
/// fits nothing.
const COMMENTED: &str = "[Event \"Club final\"]\n[Date \"2009.04.08\"]\n\
[White \"Derkx\"]\n[Black \"Meijer\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n\n\
{Both players had met three times before, every game drawn.} 1. 34-29 17-22\n\
2. 32-28 {The most popular answer is 2.39-34.} 11-17 3. 37-32 6-11 4. 41-37\n\
19-23 ({Usually first} 4... 1-6 {is played, after} 5. 46-41 19-23 6. 28x19\n\
14x34) 5. 28x19 14x34 6. 39x30 $1 (6. 40x29 {is more popular.}) (6. 40x35\n\
{fits nothing} 13-19) 6... 13-19 $2 7. 44-39 2-0\n";

/// An English game: Black moves first.
const ENGLISH: &str = "[Event \"Scottish match\"]\n[White \"Wyllie\"]\n\
[Black \"Anderson\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n\n\
1. 11-15 23-19 2. 8-11 22-17 1-0\n";

/// A game whose third move fits no legal move.
const ILLEGAL: &str = "[White \"Ana\"]\n[Black \"Ben\"]\n\n1. 23-18 10-15 2. 18-13 7-10 *\n";

/// A database of the three games (ids 1, 2, 3), the commented one under a
/// long path without spaces; and that path.
fn viewer_db(dir: &Path) -> (PathBuf, PathBuf) {
    let deep = dir.join(
        "the-club-archive-of-international-draughts-games-played-in-the-national-championship-2009",
    );
    std::fs::create_dir_all(&deep).unwrap();
    let commented = deep.join("round-01-with-comments-and-variations-by-the-tournament-editor.pdn");
    std::fs::write(&commented, COMMENTED).unwrap();
    let english = dir.join("english.pdn");
    std::fs::write(&english, ENGLISH).unwrap();
    let illegal = dir.join("illegal.pdn");
    std::fs::write(&illegal, ILLEGAL).unwrap();
    let db = dir.join("db.sqlite");
    for file in [&commented, &english, &illegal] {
        let (_, err, code) = run(&db, &["import", "--quiet", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
    }
    (db, commented)
}

#[test]
fn show_prints_comments_and_variations_as_pdn_does() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = viewer_db(dir.path());
    let (out, err, code) = run(&db, &["show", "1"]);
    assert_eq!(code, 0, "{err}");
    let moves: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with('{'))
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        moves,
        [
            "{Both players had met three times before, every game drawn.} 1. 34-29 17-22",
            "2. 32-28 {The most popular answer is 2.39-34.} 2... 11-17 3. 37-32 6-11",
            "4. 41-37 19-23",
            "  ({Usually first} 4... 1-6 {is played, after} 5. 46-41 19-23 6. 28x19 14x34)",
            "5. 28x19 14x34 6. 39x30!",
            "  (6. 40x29 {is more popular.})",
            "  (6. 40x35 {fits nothing} 6... 13-19)",
            "6... 13-19? 7. 44-39",
        ],
        "{out}"
    );
    assert!(moves.iter().all(|l| l.chars().count() < 80));
    // Without them: the moves alone, as before.
    let (out, _, code) = run(&db, &["show", "1", "--no-comments"]);
    assert_eq!(code, 0);
    let bare: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("1. "))
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        bare,
        [
            "1. 34-29 17-22 2. 32-28 11-17 3. 37-32 6-11 4. 41-37 19-23 5. 28x19 14x34",
            "6. 39x30 13-19 7. 44-39"
        ],
        "{out}"
    );
}

#[test]
fn show_json_and_the_api_carry_comments_nags_and_playable_variations() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = viewer_db(dir.path());
    let (out, err, code) = run(&db, &["show", "1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let shown = &json_lines(&out)[0];
    assert_eq!(
        shown["comments"],
        json!(["Both players had met three times before, every game drawn."])
    );
    assert_eq!(shown["result"], "2-0");
    assert_eq!(shown["first_side"], "white");
    let annotated = &shown["annotated"];
    assert_eq!(annotated[10]["nags"], json!(["$1"]));
    assert_eq!(annotated[10]["glyphs"], json!(["!"]));
    let usual = &annotated[7]["variations"][0];
    assert_eq!(usual[0]["comments_before"], json!(["Usually first"]));
    assert_eq!(
        (usual[0]["ply"].as_u64(), usual[0]["move"].as_str()),
        (Some(8), Some("1-6"))
    );
    assert!(
        usual
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["fen"].is_string())
    );
    // 40x35 fits nothing: marked, and the move after it not replayed.
    let wrong = &annotated[10]["variations"][1];
    assert_eq!(
        (wrong[0]["illegal"].as_bool(), wrong[0]["fen"].is_null()),
        (Some(true), true)
    );
    assert_eq!(
        (wrong[1]["illegal"].as_bool(), wrong[1]["fen"].is_null()),
        (Some(false), true)
    );
    // The variation's position is the one the engine reaches from where
    // it starts: 40x29 instead of 39x30.
    let server = Server::start(&db, &[]);
    let line = "34-29,17-22,32-28,11-17,37-32,6-11,41-37,19-23,28x19,14x34,40x29";
    let played = server.json(&format!("/api/position?variant=international&moves={line}"));
    assert_eq!(annotated[10]["variations"][0][0]["fen"], played["fen"]);
    let (out, _, code) = run(&db, &["show", "1", "--json", "--no-comments"]);
    assert_eq!(code, 0);
    let bare = &json_lines(&out)[0];
    assert_eq!(bare["comments"], json!([]));
    assert_eq!(bare["annotated"][7]["variations"], json!([]));
    // The API gives the same moves.
    let detail = server.json("/api/game/1");
    assert_eq!(detail["moves"], *annotated);
    assert_eq!(detail["comments"], shown["comments"]);
    assert_eq!(detail["result"], "2-0");
    assert_eq!(server.json("/api/game/2")["first_side"], "black");
}

#[test]
fn games_names_the_side_that_moves_first_first() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = viewer_db(dir.path());
    let (out, err, code) = run(&db, &["games"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Derkx (White) – Meijer (Black)  1-0 (White won)"),
        "{out}"
    );
    assert!(
        out.contains("Anderson (Black) – Wyllie (White)  1-0 (Black won)"),
        "{out}"
    );
    // JSON keeps the tags' colours.
    let (out, _, _) = run(&db, &["games", "--json", "--variant", "english"]);
    let tags = &json_lines(&out)[0]["tags"];
    assert_eq!(
        (tags["White"].as_str(), tags["Black"].as_str()),
        (Some("Wyllie"), Some("Anderson"))
    );
}

/// An English game (Black moves first) and an International one (White
/// does), each with a move that fits nothing.
const FAULTY: [(&str, &str); 2] = [
    (
        "english.pdn",
        "[Event \"Match\"]\n[White \"Wyllie\"]\n[Black \"Anderson\"]\n[GameType \"21\"]\n\n\
         1. 11-15 23-19 2. 8-11 22-13 *\n",
    ),
    (
        "international.pdn",
        "[Event \"Final\"]\n[White \"Derkx\"]\n[Black \"Meijer\"]\n[GameType \"20\"]\n\n\
         1. 32-28 19-23 2. 28x17 *\n",
    ),
];

#[test]
fn every_text_line_names_the_side_that_moves_first_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite");
    let files: Vec<String> = FAULTY
        .iter()
        .map(|(name, text)| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect();
    let english = "Anderson (Black) – Wyllie (White)";
    let international = "Derkx (White) – Meijer (Black)";
    let lines = |args: &[&str]| {
        let (out, err, code) = run(&db, args);
        assert!(code == 0 || code == 1, "{args:?}: {err}");
        out
    };
    let check = lines(&["check", &files[0], &files[1]]);
    assert!(
        check.contains(&format!("game 1 ({english}, Match): ply 4")),
        "{check}"
    );
    assert!(
        check.contains(&format!("game 1 ({international}, Final): ply 3")),
        "{check}"
    );
    lines(&["import", "--quiet", &files[0], &files[1]]);
    let report = lines(&["report"]);
    assert!(
        report.contains(&format!("game 1 ({english}, Match ?) [id 1]")),
        "{report}"
    );
    assert!(
        report.contains(&format!("game 1 ({international}, Final ?) [id 2]")),
        "{report}"
    );
    let search = lines(&["search", "--moves", "11-15", "--variant", "english"]);
    assert!(
        search.contains(&format!("({english}, Match ?) [id 1]: at ply 1")),
        "{search}"
    );
    let search = lines(&["search", "--moves", "32-28", "--variant", "international"]);
    assert!(
        search.contains(&format!("({international}, Final ?) [id 2]: at ply 1")),
        "{search}"
    );
    let games = lines(&["games"]);
    assert!(
        games.contains(english) && games.contains(international),
        "{games}"
    );
    assert!(lines(&["show", "1"]).contains(&format!("\nplayers {english}\n")));
    assert!(lines(&["show", "2"]).contains(&format!("\nplayers {international}\n")));
    let html = dir.path().join("report.html");
    lines(&["report", "--html", html.to_str().unwrap()]);
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(
        html.contains(english) && html.contains(international),
        "{html}"
    );
    // JSON keeps the tags' colours.
    for args in [
        &["check", "--json", &files[0]][..],
        &[
            "search",
            "--json",
            "--moves",
            "11-15",
            "--variant",
            "english",
        ],
        &["report", "--json"],
    ] {
        let record = &json_lines(&lines(args))[0];
        let tags = &record["tags"];
        assert_eq!(
            (tags["White"].as_str(), tags["Black"].as_str()),
            (Some("Wyllie"), Some("Anderson")),
            "{args:?}: {record}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_viewer_follows_variations_and_fits_a_phone() {
    let test = "the_viewer_follows_variations_and_fits_a_phone";
    let Some((_driver, client)) = browser(test).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = viewer_db(dir.path());
    let server = Server::start(&db, &[]);
    let base = format!("http://{}", server.address);
    let walker = client.clone();
    let walked = tokio::spawn(async move { walk(&walker, &base).await }).await;
    let _ = client.close().await;
    if let Err(failed) = walked {
        std::panic::resume_unwind(failed.into_panic());
    }
}

/// The current move: its ply and the variation it belongs to.
async fn current(client: &Client) -> Value {
    value(
        client,
        "const c = document.querySelector('#movelist .mv.current'); \
         return c ? [c.dataset.ply, c.dataset.path] : null",
    )
    .await
}

async fn walk(client: &Client, base: &str) {
    // 1. Title, comments, NAGs and the result.
    client.goto(&format!("{base}/game/1?ply=0")).await.unwrap();
    until(
        client,
        "the moves",
        "return document.querySelectorAll('#movelist .mv').length > 20",
    )
    .await;
    let title = value(
        client,
        "return document.getElementById('title').textContent",
    )
    .await;
    assert_eq!(
        title,
        "Derkx (White) – Meijer (Black) · Club final · 2009.04.08 · 2-0"
    );
    let first = value(
        client,
        "return document.querySelector('#movelist').firstElementChild.textContent",
    )
    .await;
    assert_eq!(
        first,
        "{Both players had met three times before, every game drawn.}"
    );
    let last = value(
        client,
        "return document.querySelector('#movelist').lastElementChild.textContent",
    )
    .await;
    assert_eq!(last, "2-0");
    let nags = value(
        client,
        "return [...document.querySelectorAll('#movelist .nag')].map(n => n.textContent.trim())",
    )
    .await;
    assert_eq!(nags, json!(["!", "?"]));
    assert_eq!(
        value(client, "return document.getElementById('main-line').hidden").await,
        json!(true)
    );
    shot(client, "viewer-01-commented-game").await;

    // 2. A variation move clicked: the board there, the way back shown.
    click(client, "#movelist .variation[data-path='7.0'] .mv").await;
    until(
        client,
        "the variation's first move",
        "return location.search.includes('var=7.0') && location.search.includes('ply=8')",
    )
    .await;
    assert_eq!(current(client).await, json!(["8", "7.0"]));
    until(
        client,
        "the way back",
        "return !document.getElementById('main-line').hidden",
    )
    .await;
    until(client, "the board after 1-6", "return document.querySelector('#board .last-move') !== null && document.getElementById('where').textContent.startsWith('in a variation')").await;
    shot(client, "viewer-02-in-a-variation").await;

    // 3. The arrows step inside the variation; End goes to its end.
    let body = client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&Key::Right.to_string()).await.unwrap();
    until(client, "the variation's second move", "const c = document.querySelector('#movelist .mv.current'); return c && c.dataset.ply === '9' && c.dataset.path === '7.0'").await;
    body.send_keys(&Key::End.to_string()).await.unwrap();
    until(client, "the variation's end", "const c = document.querySelector('#movelist .mv.current'); return c && c.dataset.ply === '12' && c.dataset.path === '7.0'").await;
    body.send_keys(&Key::Left.to_string()).await.unwrap();
    until(client, "one back in the variation", "const c = document.querySelector('#movelist .mv.current'); return c && c.dataset.ply === '11' && c.dataset.path === '7.0'").await;
    // A reloaded link shows the same move.
    client.refresh().await.unwrap();
    until(client, "the reloaded variation", "const c = document.querySelector('#movelist .mv.current'); return c && c.dataset.ply === '11' && c.dataset.path === '7.0'").await;

    // 4. Back to the main line where the variation leaves it.
    click(client, "#main-line").await;
    until(client, "the main line", "const c = document.querySelector('#movelist .mv.current'); return c && c.dataset.ply === '7' && c.dataset.path === '' && !location.search.includes('var=')").await;
    let body = client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&Key::Right.to_string()).await.unwrap();
    until(client, "the main line's next move", "const c = document.querySelector('#movelist .mv.current'); return c && c.dataset.ply === '8' && c.dataset.path === ''").await;
    body.send_keys(&Key::Home.to_string()).await.unwrap();
    until(client, "the start", "return document.querySelector('#movelist .mv.current') === null && location.search.includes('ply=0')").await;

    // 5. A variation move that fits nothing is shown as such, not played.
    let illegal = value(client, "return [...document.querySelectorAll('#movelist .mv.illegal')].map(m => [m.textContent, m.title])").await;
    assert_eq!(illegal, json!([["40x35", "fits no legal move here"]]));
    click(client, "#movelist .variation[data-path='10.1'] .mv.illegal").await;
    until(client, "the position before it", "const c = document.querySelector('#movelist .mv.current'); return c && c.dataset.ply === '10' && c.dataset.path === ''").await;

    // 6. An illegal game states its fault once.
    client.goto(&format!("{base}/game/3")).await.unwrap();
    until(
        client,
        "the fault",
        "return document.getElementById('fault').textContent.length > 0",
    )
    .await;
    let fault = value(
        client,
        "return document.getElementById('fault').textContent",
    )
    .await;
    let fault = fault.as_str().unwrap();
    assert_eq!(fault.matches("18-13").count(), 1, "{fault}");
    assert_eq!(fault.matches("ply 3").count(), 1, "{fault}");
    shot(client, "viewer-03-illegal").await;

    // 7. Black moves first in English checkers: named first everywhere.
    client.goto(&format!("{base}/game/2")).await.unwrap();
    until(client, "the English title", "return document.getElementById('title').textContent.startsWith('Anderson (Black) – Wyllie (White)')").await;
    client
        .goto(&format!("{base}/?variant=english"))
        .await
        .unwrap();
    until(
        client,
        "the English games",
        "return document.querySelectorAll('#games tbody tr').length === 1",
    )
    .await;
    let row = value(client, "return [document.getElementById('games-first').textContent, document.querySelector('#games tbody tr').children[1].textContent]").await;
    assert_eq!(row, json!(["Black", "Anderson"]));

    // 8. A phone: the long path wraps, nothing scrolls sideways.
    client.set_window_size(390, 844).await.unwrap();
    client
        .goto(&format!("{base}/game/1?ply=8&var=7.0"))
        .await
        .unwrap();
    until(client, "the narrow viewer", "return document.querySelectorAll('#movelist .mv').length > 20 && document.querySelector('#board svg') !== null").await;
    let widths = value(
        client,
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]",
    )
    .await;
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "the page is wider than the window: {widths}"
    );
    shot(client, "viewer-04-phone").await;
}
