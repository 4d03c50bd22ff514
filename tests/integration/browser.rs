//! The web explorer in a real browser (Chromium over WebDriver): what a
//! player does — click a tree move, play a move on the board, step with
//! the keys, open a game and its last move, see the two candidate arrows
//! of the Dama seed game at ply 70, reload a link — checked on the page.
//! Screenshots of each step go to `target/browser-screenshots/`.
//!
//! Needs `chromium` and `chromedriver` (Debian: `chromium`,
//! `chromium-driver`). Without them the test says so and passes, unless
//! `CI` is set: there it must run.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use super::serve::{Server, sample_db};

/// A WebDriver server, stopped when dropped.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A program on the PATH (or at one of the usual places).
fn program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// Where the screenshots go.
fn shots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Saves a screenshot as `target/browser-screenshots/NAME.png`.
pub async fn shot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap();
}

/// Waits (up to 15 s) until a script returns true; panics naming `what`.
pub async fn until(client: &Client, what: &str, script: &str) {
    let started = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await.unwrap_or(Value::Null);
        if value == Value::Bool(true) {
            return;
        }
        if started.elapsed() > Duration::from_secs(15) {
            let url = client.current_url().await.map(|u| u.to_string());
            let message = client
                .execute(
                    "return (document.getElementById('message') || {}).textContent || ''",
                    vec![],
                )
                .await
                .unwrap_or(Value::Null);
            panic!("waited 15 s for {what} ({url:?}; page says {message})");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks the element a CSS selector finds.
pub async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
}

/// A value a script returns.
pub async fn value(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap()
}

/// Starts chromedriver on a free port and waits until it answers.
fn start_driver(chromedriver: &Path) -> (Driver, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let driver = Driver(child);
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (driver, port)
}

/// A headless Chromium session at 1280×1000 over a fresh chromedriver, or
/// `None` (after saying why) when they are not installed and `CI` is not
/// set.
pub async fn browser(test: &str) -> Option<(Driver, Client)> {
    browser_in(test, "en-US").await
}

/// As [`browser`], with `language` the browser's language (its
/// `navigator.languages` and `Accept-Language`).
pub async fn browser_in(test: &str, language: &str) -> Option<(Driver, Client)> {
    let chromedriver = program(&["chromedriver", "chromium-driver"]);
    let chromium = program(&["chromium", "chromium-browser", "google-chrome"]);
    let (Some(chromedriver), Some(chromium)) = (chromedriver, chromium) else {
        crate::skip::must_run(
            test,
            "no chromium/chromedriver on PATH \
             (install Debian's chromium and chromium-driver to run it)",
        );
        return None;
    };
    let (driver, port) = start_driver(&chromedriver);
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1280,1000",
                     format!("--lang={language}")],
            "prefs": { "intl.accept_languages": language },
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session");
    Some((driver, client))
}

/// Runs `walk` in a browser against a server of the sample archive
/// (skipped, saying so, where there is no browser). The walk runs as its
/// own task so that the browser is closed even when a check fails.
pub async fn walk_sample<F, Fut>(test: &str, walk: F)
where
    F: FnOnce(Client, String, Server) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let Some((_driver, client)) = browser(test).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let base = format!("http://{}", server.address);
    let walker = client.clone();
    let walked = tokio::spawn(async move { walk(walker, base, server).await }).await;
    let _ = client.close().await;
    if let Err(failed) = walked {
        std::panic::resume_unwind(failed.into_panic());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_uses_the_explorer_and_the_game_viewer() {
    walk_sample(
        "a_player_uses_the_explorer_and_the_game_viewer",
        |client, base, server| async move { walk(&client, &base, &server).await },
    )
    .await;
}

async fn walk(client: &Client, base: &str, server: &Server) {
    // 1. The explorer at the start: board, tree and games.
    client.goto(&format!("{base}/")).await.unwrap();
    until(
        client,
        "the tree",
        "return document.querySelectorAll('#tree tbody tr').length > 0",
    )
    .await;
    until(
        client,
        "the board",
        "return document.querySelectorAll('#board rect.sq').length === 32",
    )
    .await;
    until(
        client,
        "the games",
        "return document.querySelectorAll('#games tbody tr').length > 0",
    )
    .await;
    let pieces = value(
        client,
        "return document.querySelectorAll('#board .piece').length",
    )
    .await;
    assert_eq!(pieces, json!(24));
    let count_at_start = value(
        client,
        "return document.getElementById('games-count').textContent",
    )
    .await;
    let tree_at_start = value(
        client,
        "return document.querySelector('#tree tbody').textContent",
    )
    .await;
    shot(client, "01-explorer-start").await;

    // 2. A tree move: the board, the tree and the game count change.
    let first_move = value(
        client,
        "return document.querySelector('#tree tbody tr').dataset.move",
    )
    .await;
    click(client, "#tree tbody tr").await;
    until(
        client,
        "the line after a tree move",
        "return document.querySelectorAll('#line .mv').length === 1",
    )
    .await;
    until(
        client,
        "the last move on the board",
        "return document.querySelector('#board .last-move') !== null",
    )
    .await;
    until(
        client,
        "a new game count",
        &format!(
            "return document.getElementById('games-count').textContent !== {}",
            count_at_start
        ),
    )
    .await;
    until(
        client,
        "a new tree",
        &format!(
            "return document.querySelector('#tree tbody').textContent !== {tree_at_start} \
             && document.querySelectorAll('#tree tbody tr').length > 0"
        ),
    )
    .await;
    let url = client.current_url().await.unwrap().to_string();
    assert!(
        url.contains(&format!("moves={}", first_move.as_str().unwrap())),
        "{url}"
    );
    shot(client, "02-explorer-tree-move").await;

    // 3. A move played on the board: a piece, then a square.
    let line = server.json(&format!(
        "/api/position?moves={}",
        first_move.as_str().unwrap()
    ));
    let legal = &line["legal"][0];
    let (from, to) = (
        legal["from"].as_u64().unwrap(),
        legal["to"].as_u64().unwrap(),
    );
    click(client, &format!("#board rect.sq[data-square='{from}']")).await;
    until(client, "targets highlighted", &format!(
        "return document.querySelector(\"#board rect.sq[data-square='{to}']\").classList.contains('target')"
    ))
    .await;
    shot(client, "03-explorer-piece-picked").await;
    click(client, &format!("#board rect.sq[data-square='{to}']")).await;
    // Several captures with these ends: the page asks which.
    let choice = format!(
        "#choices button[data-move='{}']",
        legal["move"].as_str().unwrap()
    );
    if let Ok(button) = client.find(Locator::Css(&choice)).await {
        button.click().await.unwrap();
    }
    until(
        client,
        "the line after a board move",
        "return document.querySelectorAll('#line .mv').length === 2",
    )
    .await;
    let url = client.current_url().await.unwrap().to_string();
    assert!(url.contains(legal["move"].as_str().unwrap()), "{url}");
    shot(client, "04-explorer-board-move").await;

    // 4. Keys: back, forward, start, end.
    let body = client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&Key::Left.to_string()).await.unwrap();
    until(
        client,
        "one ply back",
        "return document.querySelector('#line .mv.current')?.dataset.ply === '1'",
    )
    .await;
    body.send_keys(&Key::Home.to_string()).await.unwrap();
    until(client, "the start", "return document.querySelector('#line .mv.current') === null && document.querySelectorAll('#board .piece').length === 24").await;
    body.send_keys(&Key::Right.to_string()).await.unwrap();
    until(
        client,
        "one ply forward",
        "return document.querySelector('#line .mv.current')?.dataset.ply === '1'",
    )
    .await;
    body.send_keys(&Key::End.to_string()).await.unwrap();
    until(
        client,
        "the end of the line",
        "return document.querySelector('#line .mv.current')?.dataset.ply === '2'",
    )
    .await;

    // 5. Reload a link: the same view.
    body.send_keys(&Key::Left.to_string()).await.unwrap();
    until(
        client,
        "ply 1 again",
        "return location.search.includes('ply=1') && document.querySelector('#line .mv.current')?.dataset.ply === '1' && document.getElementById('side').textContent.startsWith('Black')",
    )
    .await;
    let fen_before = value(client, "return document.getElementById('fen').value").await;
    client.refresh().await.unwrap();
    until(client, "the reloaded view", "return document.querySelector('#line .mv.current')?.dataset.ply === '1' && document.querySelectorAll('#line .mv').length === 2").await;
    assert_eq!(
        value(client, "return document.getElementById('fen').value").await,
        fen_before
    );
    shot(client, "05-explorer-reloaded").await;

    // 6. A game from the list (one that reads ok), stepped to its last move.
    let game = value(
        client,
        "return document.querySelector('#games tbody tr:has([data-status=ok])').dataset.game",
    )
    .await;
    let game = game.as_str().unwrap().to_string();
    let href = value(client, &format!("return document.querySelector(\"#games tbody tr[data-game='{game}'] a\").getAttribute('href')")).await;
    click(client, &format!("#games tbody tr[data-game='{game}'] a")).await;
    until(client, "the game viewer", "return location.pathname.startsWith('/game/') && document.querySelectorAll('#movelist .mv').length > 0").await;
    assert!(
        client
            .current_url()
            .await
            .unwrap()
            .to_string()
            .contains(href.as_str().unwrap())
    );
    let body = client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&Key::End.to_string()).await.unwrap();
    until(
        client,
        "the last move",
        "const all = document.querySelectorAll('#movelist .mv'); return all.length > 0 && all[all.length - 1].classList.contains('current')",
    )
    .await;
    shot(client, "06-game-last-move").await;

    // 7. The Dama copy of the seed game: two candidate arrows at ply 70.
    let ambiguous = server.json("/api/report?status=ambiguous");
    let seed = ambiguous
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["notation"] == "dama")
        .expect("the Dama seed game is ambiguous");
    assert_eq!(seed["ply"], 70);
    client
        .goto(&format!("{base}/game/{}?ply=69", seed["game"]))
        .await
        .unwrap();
    until(
        client,
        "the two candidate arrows",
        "return document.querySelectorAll('#board .arrow').length === 2",
    )
    .await;
    let moves = value(
        client,
        "return [...document.querySelectorAll('#board .arrow')].map(a => a.dataset.move).sort()",
    )
    .await;
    assert_eq!(moves, json!(["18-25", "18-8"]));
    until(
        client,
        "the readings",
        "return document.querySelectorAll('#readings button').length >= 3",
    )
    .await;
    shot(client, "07-seed-dama-ply-70").await;
    // Another reading is a branch: choosing it changes the line shown.
    click(client, "#readings button[data-reading='2']").await;
    until(
        client,
        "the second reading",
        "return location.search.includes('reading=2')",
    )
    .await;

    // 8. The problems page links to the viewer at the fault.
    client.goto(&format!("{base}/report")).await.unwrap();
    until(
        client,
        "the problems",
        "return document.querySelectorAll('#problems tbody tr').length === 6",
    )
    .await;
    shot(client, "08-problems").await;

    // 9. A phone-width window.
    client.set_window_size(390, 844).await.unwrap();
    client.goto(&format!("{base}/")).await.unwrap();
    until(client, "the narrow explorer", "return document.querySelectorAll('#tree tbody tr').length > 0 && document.querySelectorAll('#board rect.sq').length === 32").await;
    let fits = value(client, "return document.querySelector('#board svg').getBoundingClientRect().width <= window.innerWidth").await;
    assert_eq!(fits, json!(true));
    shot(client, "09-explorer-phone").await;
}
