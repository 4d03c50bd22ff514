//! The explorer's filters in a real browser: the Player field and the
//! colour choose the games of the opening tree as well as the list, the
//! page says so, and a link with `player` and `colour` opens the explorer
//! filtered. Screenshots go to `target/browser-screenshots/`.

use fantoccini::{Client, Locator};
use serde_json::Value;

use super::browser::{click, shot, until, value, walk_sample};
use super::serve::Server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_filter_changes_the_tree_and_a_link_opens_a_repertoire() {
    walk_sample(
        "the_player_filter_changes_the_tree_and_a_link_opens_a_repertoire",
        |client, base, server| async move { walk(&client, &base, &server).await },
    )
    .await;
}

/// The games the tree shows, summed over its rows (a script expression).
const TREE_SUM: &str = "[...document.querySelectorAll('#tree tbody tr')]\
     .reduce((n, tr) => n + Number(tr.children[1].textContent), 0)";

/// The games of `/api/tree` with a query, summed.
fn api_games(server: &Server, query: &str) -> i64 {
    let records = server.json(&format!("/api/tree?{query}"));
    records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_i64().unwrap())
        .sum()
}

async fn walk(client: &Client, base: &str, server: &Server) {
    client.goto(&format!("{base}/")).await.unwrap();
    until(
        client,
        "the tree and the games",
        "return document.querySelectorAll('#tree tbody tr').length > 0 \
         && document.querySelectorAll('#games tbody tr').length > 0",
    )
    .await;
    let note = value(
        client,
        "return document.getElementById('filter-note').textContent",
    )
    .await;
    assert_eq!(note, Value::from("Tree and games: all games"));
    let all = value(client, &format!("return {TREE_SUM}"))
        .await
        .as_i64()
        .unwrap();
    let variant = value(
        client,
        "return document.getElementById('tree-note').textContent",
    )
    .await;
    let variant = variant.as_str().unwrap();
    let variant = &variant[variant.find('(').unwrap() + 1..variant.find(')').unwrap()];
    // The White player of the first game listed.
    let player = value(
        client,
        "return document.querySelector('#games tbody tr').children[1].textContent",
    )
    .await;
    let player = player.as_str().unwrap().to_string();
    let wanted = api_games(
        server,
        &format!("variant={variant}&player={}", player.replace(' ', "+")),
    );
    assert!(0 < wanted && wanted < all, "{player}: {wanted} of {all}");

    // Player filled in: the tree's counts change to that player's games.
    client
        .find(Locator::Css("#filters input[name=player]"))
        .await
        .unwrap()
        .send_keys(&player)
        .await
        .unwrap();
    click(client, "#filters button[type=submit]").await;
    until(
        client,
        "the player's tree",
        &format!(
            "return {TREE_SUM} === {wanted} \
             && document.getElementById('tree-note').textContent.includes('filtered')"
        ),
    )
    .await;
    let note = value(
        client,
        "return document.getElementById('filter-note').textContent",
    )
    .await;
    assert_eq!(
        note,
        Value::from(format!("Tree and games: filtered by Player: {player}"))
    );
    let url = client.current_url().await.unwrap().to_string();
    assert!(url.contains("player="), "{url}");
    shot(client, "tree-01-player").await;

    // With White: the player's repertoire, in the URL.
    client
        .execute(
            "document.querySelector('#filters select[name=colour]').value = 'white'",
            vec![],
        )
        .await
        .unwrap();
    click(client, "#filters button[type=submit]").await;
    until(
        client,
        "colour in the URL",
        "return location.search.includes('colour=white')",
    )
    .await;
    let as_white = api_games(
        server,
        &format!(
            "variant={variant}&player={}&colour=white",
            player.replace(' ', "+")
        ),
    );
    until(
        client,
        "the repertoire with White",
        &format!(
            "return {TREE_SUM} === {as_white} && document.getElementById('filter-note')\
             .textContent.includes(', as White')"
        ),
    )
    .await;
    shot(client, "tree-02-repertoire").await;

    // A link to a player's repertoire opens the explorer filtered.
    let link = format!("{base}/?player={}&colour=white", player.replace(' ', "%20"));
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    until(
        client,
        "the form filled from the link",
        &format!(
            "return document.querySelector('#filters input[name=player]').value === {:?} \
             && document.querySelector('#filters select[name=colour]').value === 'white'",
            player
        ),
    )
    .await;
    until(
        client,
        "the linked repertoire",
        &format!(
            "return {TREE_SUM} === {as_white} \
             && document.querySelectorAll('#games tbody tr').length > 0"
        ),
    )
    .await;
    // The games listed are the player's with White (names contain it).
    let whites = value(
        client,
        "return [...document.querySelectorAll('#games tbody tr')].map((tr) => tr.children[1].textContent)",
    )
    .await;
    for white in whites.as_array().unwrap() {
        let white = white.as_str().unwrap().to_lowercase();
        assert!(white.contains(&player.to_lowercase()), "{white}");
    }
    shot(client, "tree-03-link").await;
}
