//! The explorer's position editor in a real browser (Chromium over
//! WebDriver): set up the start position and search it exactly, open a hit
//! in the viewer, come back by the link; then put pattern marks by clicking
//! (and one by the keyboard), give material and colours, search the
//! pattern (the hits those of the API), open a hit at its ply, reload the
//! link; the editor at phone width; and a manoeuvre searched with every
//! ply that fits. Screenshots go to
//! `target/browser-screenshots/editor-*.png`.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::browser::{click, shot, until, value, walk_sample};
use super::serve::Server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_sets_up_a_position_and_a_pattern_and_searches_them() {
    walk_sample(
        "a_player_sets_up_a_position_and_a_pattern_and_searches_them",
        |client, base, server| async move { walk(&client, &base, &server).await },
    )
    .await;
}

/// The number of `css` elements on the page.
async fn count(client: &Client, css: &str) -> Value {
    value(
        client,
        &format!("return document.querySelectorAll({css:?}).length"),
    )
    .await
}

/// A value as a query string writes it.
fn encoded(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// The hits of a search through the API (`query`: its parameters).
fn api_hits(server: &Server, query: &str) -> Vec<Value> {
    let found = server.json(&format!("/api/search?{query}&limit=1000"));
    found.as_array().unwrap().clone()
}

/// The pattern the walk puts on the board.
const PATTERN: &str = "?:W17:B!13:E21";

async fn walk(client: &Client, base: &str, server: &Server) {
    let start = server.json("/api/position");
    let variant = start["variant"].as_str().unwrap().to_string();
    let start_fen = start["start_fen"].as_str().unwrap().to_string();

    // 1. The editor switched on starts from the explorer's position.
    client.goto(&format!("{base}/")).await.unwrap();
    until(
        client,
        "the explorer's board",
        "return document.querySelectorAll('#board rect.sq').length === 32",
    )
    .await;
    click(client, "#edit-toggle").await;
    until(
        client,
        "the editor with the start position",
        "return document.querySelectorAll('#editor-board g.mark').length === 24",
    )
    .await;
    assert_eq!(count(client, "#board rect.sq").await, json!(0));
    let written = value(
        client,
        "return document.getElementById('editor-pattern').value",
    )
    .await;
    assert_eq!(written, json!(start_fen));
    assert!(
        client
            .current_url()
            .await
            .unwrap()
            .query()
            .unwrap()
            .contains("edit=1")
    );

    // 2. Search exact: the games of the API's answer, each a small board
    //    linking to the viewer at its ply.
    click(client, "#search-exact").await;
    let games = api_hits(
        server,
        &format!("variant={variant}&fen={}", encoded(&start_fen)),
    );
    assert!(!games.is_empty());
    until(
        client,
        "the exact hits",
        &format!(
            "return document.querySelectorAll('#hits a.hit').length === {} \
             && [...document.querySelectorAll('#hits img')].every(i => i.complete && i.naturalWidth > 0)",
            games.len().min(20)
        ),
    )
    .await;
    let first = &games[0];
    let href = value(
        client,
        "return document.querySelector('#hits a.hit').getAttribute('href')",
    )
    .await;
    assert_eq!(
        href,
        json!(format!("/game/{}?ply={}", first["game"], first["ply"]))
    );
    let url = client.current_url().await.unwrap().to_string();
    assert!(url.contains("search=exact"), "{url}");
    shot(client, "editor-01-exact-hits").await;

    // 3. A hit opens the viewer at its ply; Back shows the same search.
    click(client, "#hits a.hit").await;
    until(
        client,
        "the game viewer",
        "return location.pathname.startsWith('/game/') && document.querySelectorAll('#movelist .mv').length > 0",
    )
    .await;
    assert!(
        client
            .current_url()
            .await
            .unwrap()
            .to_string()
            .ends_with(href.as_str().unwrap())
    );
    client.back().await.unwrap();
    until(
        client,
        "the exact hits again",
        "return document.querySelectorAll('#hits a.hit').length > 0 \
         && document.querySelectorAll('#editor-board g.mark').length === 24",
    )
    .await;

    // 4. A pattern by clicking: a white man on 17, an empty 21, no black
    //    man on 13 (put, taken away, put again), either side to move.
    click(client, "#editor-clear").await;
    until(
        client,
        "an empty editor",
        "return document.querySelectorAll('#editor-board g.mark').length === 0",
    )
    .await;
    click(client, "#palette button[data-put='W']").await;
    click(client, "#editor-board rect.sq[data-square='17']").await;
    click(client, "#palette button[data-put='E']").await;
    click(client, "#editor-board rect.sq[data-square='21']").await;
    click(client, "#palette button[data-put='B']").await;
    click(client, "#put-not").await;
    click(client, "#editor-board rect.sq[data-square='13']").await;
    click(client, "#editor-board rect.sq[data-square='13']").await;
    until(
        client,
        "the mark on 13 taken away",
        "return document.getElementById('editor-pattern').value === 'W:W17:E21'",
    )
    .await;
    // The keyboard puts it back: Enter on the focused square.
    client
        .find(Locator::Css("#editor-board rect.sq[data-square='13']"))
        .await
        .unwrap()
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    client
        .find(Locator::Css("#editor-side"))
        .await
        .unwrap()
        .select_by_value("?")
        .await
        .unwrap();
    until(
        client,
        "the written pattern",
        &format!("return document.getElementById('editor-pattern').value === {PATTERN:?}"),
    )
    .await;
    let marks = value(
        client,
        "return [...document.querySelectorAll('#editor-board g.mark')].map(m => m.dataset.square + m.dataset.mark).sort()",
    )
    .await;
    assert_eq!(marks, json!(["13!B", "17W", "21E"]));

    // 5. Material and colours, then search the pattern.
    let white = client
        .find(Locator::Css("#material input[name='w']"))
        .await
        .unwrap();
    white.send_keys("10+").await.unwrap();
    client
        .find(Locator::Css("#editor-colours"))
        .await
        .unwrap()
        .select_by_value("both")
        .await
        .unwrap();
    click(client, "#search-pattern").await;
    until(
        client,
        "the pattern search in the URL",
        &format!(
            "const q = new URLSearchParams(location.search); \
             return q.get('pattern') === {PATTERN:?} && q.get('material') === 'w=10+' \
             && q.get('colours') === 'both' && q.get('search') === 'pattern'"
        ),
    )
    .await;
    let hits = api_hits(
        server,
        &format!(
            "variant={variant}&pattern={}&material={}&colours=both",
            encoded(PATTERN),
            encoded("w=10+")
        ),
    );
    pattern_answer(client, &hits).await;
    shot(client, "editor-02-pattern").await;

    // 6. A pattern hit opens the viewer at the ply it matches; Back again.
    click(client, "#hits a.hit").await;
    until(
        client,
        "the viewer at the matching ply",
        &format!(
            "return location.pathname === '/game/{}' && location.search === '?ply={}' \
             && document.querySelector('#movelist .mv.current')?.dataset.ply === '{}'",
            hits[0]["game"], hits[0]["ply"], hits[0]["ply"]
        ),
    )
    .await;
    shot(client, "editor-03-pattern-hit").await;
    client.back().await.unwrap();
    pattern_answer(client, &hits).await;

    // 7. The link reproduces the editor and its search.
    client.refresh().await.unwrap();
    until(
        client,
        "the reloaded editor",
        &format!(
            "return document.getElementById('editor-pattern').value === {PATTERN:?} \
         && document.querySelector(\"#material input[name='w']\").value === '10+' \
         && document.getElementById('editor-colours').value === 'both' \
         && document.getElementById('editor-side').value === '?' \
         && document.querySelectorAll('#editor-board g.mark').length === 3"
        ),
    )
    .await;
    pattern_answer(client, &hits).await;

    // 8. Phone width: the board and the hits fit.
    client.set_window_size(390, 844).await.unwrap();
    client.refresh().await.unwrap();
    until(
        client,
        "the narrow editor",
        "return document.querySelectorAll('#editor-board g.mark').length === 3",
    )
    .await;
    let fits = value(
        client,
        "return document.querySelector('#editor-board svg').getBoundingClientRect().width <= window.innerWidth \
         && document.documentElement.scrollWidth <= window.innerWidth",
    )
    .await;
    assert_eq!(fits, json!(true));
    pattern_answer(client, &hits).await;
    shot(client, "editor-04-phone").await;

    // 9. A manoeuvre alone, with every ply that fits: the API's hits, and
    //    the URL holds both.
    client.set_window_size(1280, 900).await.unwrap();
    for field in ["#editor-pattern", "#material input[name='w']"] {
        client
            .find(Locator::Css(field))
            .await
            .unwrap()
            .clear()
            .await
            .unwrap();
    }
    client
        .find(Locator::Css("#editor-manoeuvres"))
        .await
        .unwrap()
        .send_keys(MANOEUVRE)
        .await
        .unwrap();
    click(client, "#editor-all-plies").await;
    click(client, "#search-pattern").await;
    until(
        client,
        "the manoeuvre search in the URL",
        &format!(
            "const q = new URLSearchParams(location.search); \
             return q.get('manoeuvres') === {MANOEUVRE:?} && q.get('all_plies') === '1' \
             && !q.get('pattern') && !q.get('material')"
        ),
    )
    .await;
    let hits = api_hits(
        server,
        &format!(
            "variant={variant}&manoeuvre={}&colours=both&all_plies=1",
            encoded(MANOEUVRE)
        ),
    );
    pattern_answer(client, &hits).await;
    let plies = value(
        client,
        "return document.querySelector('#hits a.hit .plies').textContent",
    )
    .await;
    let first: Vec<String> = hits[0]["matching_plies"]
        .as_array()
        .unwrap()
        .iter()
        .take(10)
        .map(Value::to_string)
        .collect();
    assert!(
        plies.as_str().unwrap().contains(&first.join(", ")),
        "{plies} against {first:?}"
    );
    shot(client, "editor-05-manoeuvre").await;
}

/// The manoeuvre the walk searches: any capture by either side.
const MANOEUVRE: &str = "? * *x*";

/// The pattern search's hits on the page are the API's (up to a page):
/// the same games at the same plies, each drawn from the hit's `fen`.
async fn pattern_answer(client: &Client, hits: &[Value]) {
    assert!(!hits.is_empty(), "the walk's pattern fits some sample game");
    let shown = hits.len().min(20);
    until(
        client,
        "the pattern hits",
        &format!(
            "return document.querySelectorAll('#hits a.hit').length === {shown} \
             && [...document.querySelectorAll('#hits img')].every(i => i.complete && i.naturalWidth > 0)"
        ),
    )
    .await;
    let links = value(
        client,
        "return [...document.querySelectorAll('#hits a.hit')].map(a => a.getAttribute('href'))",
    )
    .await;
    let expected: Vec<String> = hits[..shown]
        .iter()
        .map(|h| format!("/game/{}?ply={}", h["game"], h["ply"]))
        .collect();
    assert_eq!(links, json!(expected));
    let picture = value(
        client,
        "return new URL(document.querySelector('#hits img').src).searchParams.get('fen')",
    )
    .await;
    assert_eq!(picture, hits[0]["fen"]);
}
