//! The web explorer's downloads, players page, sortable columns, dark
//! theme, keys, swipes and languages in a real browser (Chromium over
//! WebDriver; see `browser.rs`), against a server of the sample archive.
//! Screenshots go to `target/browser-screenshots/`.

use std::path::PathBuf;

use fantoccini::{Client, Locator};
use serde_json::Value;

use super::browser::{browser_in, click, shot, until, value};
use super::run;
use super::serve::{Server, sample_db};

/// Runs `walk` in a browser speaking `language` against a server of the
/// sample archive, given the database too (skipped, saying so, where
/// there is no browser). The browser is closed even when a check fails.
async fn walk_db<F, Fut>(test: &str, language: &str, walk: F)
where
    F: FnOnce(Client, String, PathBuf) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    walk_db_with(test, language, &[], walk).await;
}

/// As [`walk_db`], the files `more` (paths from the crate's directory)
/// imported too.
async fn walk_db_with<F, Fut>(test: &str, language: &str, more: &[&str], walk: F)
where
    F: FnOnce(Client, String, PathBuf) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let Some((_driver, client)) = browser_in(test, language).await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    for file in more {
        let path = super::crate_path(file);
        let (_, err, code) = run(&db, &["import", "--quiet", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
    }
    let server = Server::start(&db, &[]);
    let base = format!("http://{}", server.address);
    let walker = client.clone();
    let walked = tokio::spawn(async move { walk(walker, base, db).await }).await;
    let _ = client.close().await;
    drop(server);
    if let Err(failed) = walked {
        std::panic::resume_unwind(failed.into_panic());
    }
}

/// The bytes a link of the page leads to, fetched by the page.
async fn fetched(client: &Client, css: &str) -> String {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         fetch(document.querySelector({css:?}).href).then((r) => r.text()).then(done, (e) => done('failed: ' + e));"
    );
    match client.execute_async(&script, vec![]).await.unwrap() {
        Value::String(text) => text,
        other => panic!("{css}: {other}"),
    }
}

/// `pdndb export ARGS…` on the database.
fn exported(db: &std::path::Path, args: &[&str]) -> String {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    let (out, err, code) = run(db, &all);
    assert_eq!(code, 0, "{err}");
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_download_links_give_what_export_writes() {
    walk_db("the_download_links_give_what_export_writes", "en-US", |client, base, db| async move {
        // The viewer: its game.
        client.goto(&format!("{base}/game/3")).await.unwrap();
        until(&client, "the viewer's download link", "return !!document.getElementById('download-game')").await;
        let href = value(&client, "return document.getElementById('download-game').getAttribute('href')").await;
        assert_eq!(href, "/api/export?game=3");
        assert_eq!(fetched(&client, "#download-game").await, exported(&db, &["--game", "3"]));
        // The explorer: the games at the position, and those of the filtered list.
        client.goto(&format!("{base}/?variant=filipino&player=Reyes")).await.unwrap();
        until(&client, "the filtered list's link", "return !!document.getElementById('download-list') && document.querySelectorAll('#games tbody tr').length > 0").await;
        let fen = value(&client, "return document.getElementById('fen').value").await;
        let fen = fen.as_str().unwrap().to_string();
        let at = exported(&db, &["--variant", "filipino", "--fen", &fen]);
        assert_eq!(fetched(&client, "#download-position").await, at);
        let list = fetched(&client, "#download-list").await;
        assert_eq!(list, exported(&db, &["--variant", "filipino", "--fen", &fen, "--player", "Reyes"]));
        // As many games as the list says it has.
        let count = value(&client, "return document.getElementById('games-count').textContent").await;
        assert_eq!(format!("({})", list.matches("[Event ").count()), count.as_str().unwrap());
        assert!(at.matches("[Event ").count() > list.matches("[Event ").count());
    })
    .await;
}

/// The numbers of a column of a table, top to bottom.
async fn column(client: &Client, table: &str, index: usize) -> Vec<f64> {
    let script = format!(
        "return [...document.querySelectorAll('{table} tbody tr')].map((r) => Number(r.cells[{index}].dataset.raw ?? r.cells[{index}].textContent))"
    );
    serde_json::from_value(value(client, &script).await).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_page_sorts_and_links_to_each_players_games() {
    walk_db("the_players_page_sorts_and_links_to_each_players_games", "en-US", |client, base, _db| async move {
        client.goto(&format!("{base}/")).await.unwrap();
        click(&client, "header.top nav a[href='/players']").await;
        until(&client, "the players", "return location.pathname === '/players' && document.querySelectorAll('#players tbody tr').length > 5").await;
        shot(&client, "players").await;
        // Most games first as the API lists them; a click sorts by games, another reverses.
        click(&client, "#players th[data-sort-key=games]").await;
        let up = column(&client, "#players", 1).await;
        assert!(up.windows(2).all(|w| w[0] <= w[1]), "{up:?}");
        assert!(up.first() < up.last(), "{up:?}");
        click(&client, "#players th[data-sort-key=games]").await;
        let down = column(&client, "#players", 1).await;
        assert!(down.windows(2).all(|w| w[0] >= w[1]), "{down:?}");
        let sorted = value(&client, "return document.querySelector('#players th[data-sort-key=games]').getAttribute('aria-sort')").await;
        assert_eq!(sorted, "descending");
        // By name: in the order of the language.
        click(&client, "#players th[data-sort-key=name]").await;
        let names: Vec<String> = serde_json::from_value(value(&client, "return [...document.querySelectorAll('#players tbody tr')].map((r) => r.dataset.player)").await).unwrap();
        let mut expected = names.clone();
        expected.sort_by_key(|n| n.to_lowercase());
        assert_eq!(names.first(), expected.first(), "{names:?}");
        // The links of a player: games, as White, as Black.
        let links = value(&client, "const r = document.querySelector('#players tbody tr[data-player=\"Reyes, A.\"]'); return [...r.querySelectorAll('a')].map((a) => a.getAttribute('href'))").await;
        assert_eq!(
            links,
            serde_json::json!(["/?player=Reyes%2C+A.", "/?player=Reyes%2C+A.&colour=white", "/?player=Reyes%2C+A.&colour=black"])
        );
        click(&client, "#players tbody tr[data-player=\"Reyes, A.\"] a.player").await;
        until(&client, "the player's games", "return location.pathname === '/' && document.querySelector('#filters [name=player]').value === 'Reyes, A.' && document.querySelectorAll('#games tbody tr').length > 0").await;
        let all_his: Value = value(&client, "return [...document.querySelectorAll('#games tbody tr')].every((r) => (r.cells[1].textContent + r.cells[2].textContent).includes('Reyes'))").await;
        assert_eq!(all_his, Value::Bool(true));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_columns_sort_the_page_and_say_so() {
    walk_db("the_games_columns_sort_the_page_and_say_so", "en-US", |client, base, _db| async move {
        client.goto(&format!("{base}/?variant=english")).await.unwrap();
        until(&client, "the games", "return document.querySelectorAll('#games tbody tr').length > 3").await;
        click(&client, "#games thead th:nth-child(1)").await;
        let up = column(&client, "#games", 0).await;
        assert!(up.windows(2).all(|w| w[0] < w[1]), "{up:?}");
        click(&client, "#games thead th:nth-child(1)").await;
        let down = column(&client, "#games", 0).await;
        assert!(down.windows(2).all(|w| w[0] > w[1]), "{down:?}");
        let note = value(&client, "return document.querySelector('.sort-note').textContent").await;
        assert_eq!(note, "Sorted within this page.");
        // By White's name, text order; kept when the list is drawn again.
        click(&client, "#games thead th:nth-child(2)").await;
        let script = "return [...document.querySelectorAll('#games tbody tr')].map((r) => r.cells[1].textContent)";
        let whites: Vec<String> = serde_json::from_value(value(&client, script).await).unwrap();
        let mut expected = whites.clone();
        expected.sort_by_key(|n| n.to_lowercase());
        assert_eq!(whites, expected);
        click(&client, "#filters button[type=submit]").await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let again: Vec<String> = serde_json::from_value(value(&client, script).await).unwrap();
        assert_eq!(again, expected);
    })
    .await;
}

/// The lightness (0–255) of an element's background.
async fn lightness(client: &Client, css: &str) -> f64 {
    let script = format!(
        "const c = getComputedStyle(document.querySelector({css:?})).backgroundColor.match(/[\\d.]+/g).map(Number); return (c[0] + c[1] + c[2]) / 3"
    );
    value(client, &script).await.as_f64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dark_theme_is_chosen_and_remembered_and_f_flips() {
    walk_db(
        "the_dark_theme_is_chosen_and_remembered_and_f_flips",
        "en-US",
        |client, base, _db| async move {
            client.goto(&format!("{base}/")).await.unwrap();
            until(
                &client,
                "the board",
                "return document.querySelectorAll('#board rect.sq').length === 32",
            )
            .await;
            assert!(lightness(&client, "html").await > 200.0);
            click(&client, "#theme-toggle").await;
            assert_eq!(
                value(&client, "return document.documentElement.dataset.theme").await,
                "dark"
            );
            assert!(lightness(&client, "html").await < 60.0);
            assert!(lightness(&client, "header.top").await < 60.0);
            client.refresh().await.unwrap();
            until(
                &client,
                "the board again",
                "return document.querySelectorAll('#board rect.sq').length === 32",
            )
            .await;
            assert_eq!(
                value(&client, "return document.documentElement.dataset.theme").await,
                "dark"
            );
            assert!(lightness(&client, "html").await < 60.0);
            assert_eq!(
                value(
                    &client,
                    "return document.getElementById('theme-toggle').textContent"
                )
                .await,
                "Light"
            );
            shot(&client, "dark-explorer").await;
            // `f` turns the board: the explorer...
            let body = client.find(Locator::Css("body")).await.unwrap();
            body.send_keys("f").await.unwrap();
            until(
                &client,
                "the explorer turned",
                "return new URLSearchParams(location.search).get('flip') === '1'",
            )
            .await;
            body.send_keys("f").await.unwrap();
            until(
                &client,
                "the explorer turned back",
                "return !location.search.includes('flip')",
            )
            .await;
            // ...but not while typing in a field.
            client
                .find(Locator::Css("#filters [name=player]"))
                .await
                .unwrap()
                .send_keys("f")
                .await
                .unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            assert_eq!(
                value(&client, "return location.search.includes('flip')").await,
                Value::Bool(false)
            );
            // ...and the viewer.
            client.goto(&format!("{base}/game/3")).await.unwrap();
            until(
                &client,
                "the viewer's board",
                "return !!document.querySelector('#board svg')",
            )
            .await;
            client
                .find(Locator::Css("body"))
                .await
                .unwrap()
                .send_keys("f")
                .await
                .unwrap();
            until(
                &client,
                "the viewer turned",
                "return new URLSearchParams(location.search).get('flip') === '1'",
            )
            .await;
            client
                .execute("localStorage.setItem('pdndb-theme', 'light')", vec![])
                .await
                .unwrap();
            client.refresh().await.unwrap();
            assert!(lightness(&client, "html").await > 200.0);
        },
    )
    .await;
}

/// A touch that starts at `from` and ends at `to` (x) over the board.
async fn swipe(client: &Client, from: i64, to: i64) {
    let script = format!(
        "const board = document.getElementById('board');
         const touch = (x) => new Touch({{ identifier: 1, target: board, clientX: x, clientY: 200 }});
         board.dispatchEvent(new TouchEvent('touchstart', {{ touches: [touch({from})], changedTouches: [touch({from})], bubbles: true }}));
         board.dispatchEvent(new TouchEvent('touchend', {{ touches: [], changedTouches: [touch({to})], bubbles: true }}));"
    );
    client.execute(&script, vec![]).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swipe_over_the_viewers_board_steps_through_the_moves() {
    walk_db("a_swipe_over_the_viewers_board_steps_through_the_moves", "en-US", |client, base, _db| async move {
        client.set_window_size(390, 844).await.unwrap();
        client.goto(&format!("{base}/game/3?ply=0")).await.unwrap();
        until(&client, "the viewer", "return !!document.querySelector('#board svg') && document.getElementById('where').textContent.startsWith('start')").await;
        swipe(&client, 300, 100).await;
        until(&client, "one move on", "return new URLSearchParams(location.search).get('ply') === '1'").await;
        swipe(&client, 300, 60).await;
        until(&client, "two moves on", "return new URLSearchParams(location.search).get('ply') === '2'").await;
        swipe(&client, 100, 300).await;
        until(&client, "one move back", "return new URLSearchParams(location.search).get('ply') === '1'").await;
        // A short or mostly vertical move of the finger is no swipe.
        swipe(&client, 200, 180).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(value(&client, "return new URLSearchParams(location.search).get('ply')").await, "1");
        shot(&client, "phone-viewer").await;
        client.goto(&format!("{base}/")).await.unwrap();
        until(&client, "the explorer", "return document.querySelectorAll('#games tbody tr').length > 0").await;
        let fits = value(&client, "return document.querySelector('#board svg').getBoundingClientRect().width <= window.innerWidth && document.querySelector('header.top').scrollWidth <= window.innerWidth").await;
        assert_eq!(fits, Value::Bool(true));
        shot(&client, "phone-explorer").await;
    })
    .await;
}

/// The page's words in a language: its header, headings, side to move, a date.
async fn speaks(client: &Client, base: &str, words: &[(&str, &str)]) {
    client
        .goto(&format!("{base}/?variant=filipino"))
        .await
        .unwrap();
    until(client, "the games", "return document.querySelectorAll('#games tbody tr').length > 0 && document.getElementById('side').textContent !== ''").await;
    for (script, expected) in words {
        let said = value(client, &format!("return {script}")).await;
        assert_eq!(said.as_str(), Some(*expected), "{script}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_speak_russian_to_a_russian_browser() {
    walk_db("the_pages_speak_russian_to_a_russian_browser", "ru", |client, base, _db| async move {
        speaks(&client, &base, &[
            ("document.documentElement.lang", "ru"),
            ("document.querySelector('header.top nav a[href=\"/players\"]').textContent", "Игроки"),
            ("document.querySelector('#games thead th').textContent", "Партия"),
            ("document.querySelector('.tree-pane h2').textContent", "Ходы, сыгранные из этой позиции"),
            ("document.getElementById('side').textContent", "Ход белых"),
            ("document.getElementById('flip').textContent", "Перевернуть"),
            ("document.getElementById('language').value", "ru"),
        ]).await;
        // A PDN date, as Russian writes it; the games' count too.
        let date = value(&client, "const c = [...document.querySelectorAll('#games tbody td')].find((td) => td.dataset.raw === '2019.05.03'); return c ? c.textContent : null").await;
        assert_eq!(date, "3 мая 2019 г.");
        let share = value(
            &client,
            "return /^\\d+,\\d\\s%$/.test(document.querySelector('#tree tbody td:nth-child(3)').textContent)",
        )
        .await;
        assert_eq!(share, Value::Bool(true));
        shot(&client, "russian-explorer").await;
        // The switch: Dutch, remembered.
        client.execute("const s = document.getElementById('language'); s.value = 'nl'; s.dispatchEvent(new Event('change'));", vec![]).await.unwrap();
        until(&client, "Dutch", "return document.documentElement.lang === 'nl' && document.querySelector('header.top nav a[href=\"/players\"]').textContent === 'Spelers'").await;
        client.goto(&format!("{base}/players")).await.unwrap();
        until(&client, "the players in Dutch", "return document.querySelectorAll('#players tbody tr').length > 0").await;
        assert_eq!(value(&client, "return document.querySelector('#players th[data-sort-key=games]').textContent").await, "Partijen");
        assert_eq!(value(&client, "return document.querySelector('#players .as-white').textContent").await, "met wit");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_speak_dutch_to_a_dutch_browser() {
    walk_db("the_pages_speak_dutch_to_a_dutch_browser", "nl-NL", |client, base, _db| async move {
        speaks(&client, &base, &[
            ("document.documentElement.lang", "nl"),
            ("document.querySelector('header.top nav a[href=\"/players\"]').textContent", "Spelers"),
            ("document.querySelector('#games thead th').textContent", "Partij"),
            ("document.getElementById('side').textContent", "Wit aan zet"),
            ("document.querySelector('#games thead th:nth-child(2)').textContent", "Wit"),
            ("document.querySelector('#games thead th:nth-child(3)').textContent", "Zwart"),
        ]).await;
        let date = value(&client, "const c = [...document.querySelectorAll('#games tbody td')].find((td) => td.dataset.raw === '2019.05.03'); return c ? c.textContent : null").await;
        assert_eq!(date, "3 mei 2019");
        client.goto(&format!("{base}/game/3")).await.unwrap();
        until(&client, "the viewer in Dutch", "return document.getElementById('download-game')?.textContent === 'PDN downloaden'").await;
        until(
            &client,
            "the fault in Dutch",
            "return document.getElementById('fault').textContent.startsWith('De notatie stopt bij halve zet 6: ')",
        )
        .await;
    })
    .await;
}

/// What the tables would still translate on the page shown: every text
/// (not marked `translate="no"`), the `title`, `placeholder`, `aria-label`
/// and `alt` attributes and the parts of the window's title, for which the
/// language's words or patterns give another text.
async fn english_left(client: &Client) -> Vec<String> {
    let script = "const done = arguments[arguments.length - 1];
        import('/assets/i18n.js').then(({ t }) => {
          const left = [];
          const kept = (node) => node.closest('[translate=no], script, style, textarea, select#language');
          const look = (text, where) => {
            const s = (text || '').trim();
            if (s && t(s) !== s) left.push(`${where}: ${s}`);
          };
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.nodeType === Node.TEXT_NODE) {
              if (!kept(node.parentElement)) look(node.data, 'text');
            } else if (!kept(node)) {
              for (const name of ['title', 'placeholder', 'aria-label', 'alt']) look(node.getAttribute(name), name);
            }
          }
          for (const part of document.title.split(' · ')) look(part, 'window title');
          done(left);
        }, (e) => done(['failed: ' + e]));";
    let found = client.execute_async(script, vec![]).await.unwrap();
    serde_json::from_value(found).unwrap()
}

/// Every page, in the browser's language, until the page is drawn; none
/// has a text the tables would translate left in English.
async fn no_english_left(client: &Client, base: &str, language: &str) {
    let pages = [
        (
            "/?variant=filipino&player=Reyes&colour=white&result=white&status=ok",
            "return document.getElementById('summary').textContent !== '' && document.querySelectorAll('#games tbody tr').length > 0 && document.querySelectorAll('#tree tbody tr').length > 0 && document.querySelector('#board svg') !== null",
        ),
        (
            "/?variant=filipino&edit=1&pattern=W%3AW21%2C22&search=pattern",
            "return document.querySelectorAll('#hits .hit').length > 0 && document.querySelector('#editor-board svg .sq[aria-label]') !== null",
        ),
        (
            "/?variant=filipino&edit=1&pattern=W%3AQ9&search=pattern",
            "return document.getElementById('message').textContent !== '' && document.getElementById('hits').textContent !== ''",
        ),
        (
            "/game/3",
            "return document.getElementById('fault').textContent !== '' && document.getElementById('source').textContent !== '' && document.querySelector('#board svg') !== null",
        ),
        (
            "/game/19?ply=69",
            "return document.getElementById('fault').textContent !== '' && document.querySelectorAll('#board svg .arrow').length > 0",
        ),
        (
            "/report",
            "return document.querySelectorAll('#problems tbody tr').length > 0",
        ),
        (
            "/report?results=1",
            "return document.getElementById('count').textContent !== ''",
        ),
        (
            "/players",
            "return document.querySelectorAll('#players tbody tr').length > 0",
        ),
        (
            "/nowhere",
            "return document.querySelector('main h1') !== null",
        ),
        (
            "/game/x",
            "return document.querySelector('main h1') !== null",
        ),
    ];
    for (path, drawn) in pages {
        client.goto(&format!("{base}{path}")).await.unwrap();
        until(
            client,
            path,
            &format!(
                "return document.documentElement.lang === '{language}' && (() => {{ {drawn} }})()"
            ),
        )
        .await;
        // What the page draws after it answers (sorting notes, downloads).
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let left = english_left(client).await;
        assert!(left.is_empty(), "{path} in {language}: {left:#?}");
    }
}

/// The pages showing what the server says in words of its own — a
/// record's message (a tag the moves contradict, set-ups that cannot be
/// used, games pdndb does not play), a result the moves contradict, a
/// refused request (moves, a pattern, a variant, a date range, a FEN,
/// rules switches, a game that is not there) — say it in the browser's
/// language: none of the server's English is left in the part that shows
/// it.
async fn no_server_english_left(client: &Client, base: &str, language: &str, db: &std::path::Path) {
    let (out, err, code) = run(db, &["games", "--json", "--event", "Result contradicted"]);
    assert_eq!(code, 0, "{err}");
    let contradicted = super::json_lines(&out)[0]["game"].as_i64().unwrap();
    let unusable = game_of(db, "Set-up unusable");
    let chess = game_of(db, "Chess");
    let pages: [(String, &str, &[&str]); 11] = [
        (
            "/report?file=messages".to_string(),
            "#problems tbody",
            &[
                "the tag says",
                "is illegal",
                "FEN: invalid",
                "two pieces",
                "crowning row",
                "not a side to move",
                "a game pdndb does not play",
                "chess",
                "names no game",
                "lies beyond every board",
            ],
        ),
        (
            "/game/99999".to_string(),
            "#message",
            &["no game", "in the database"],
        ),
        (
            "/?variant=filipino&fen=X%3AW22".to_string(),
            "#message",
            &["is not a side to move", "expected"],
        ),
        (
            "/?variant=english&fen=W%3AW1%2C22%3AB9".to_string(),
            "#message",
            &["invalid position", "white man", "crowning row"],
        ),
        (
            format!("/game/{contradicted}"),
            "#fault",
            &["Result tag differs"],
        ),
        (
            format!("/game/{unusable}"),
            "#message",
            &["the game is", "FEN: invalid", "two pieces"],
        ),
        (
            format!("/game/{chess}"),
            "#message",
            &["the game is", "a game pdndb does not play", "chess"],
        ),
        (
            "/?variant=filipino&moves=22-18,22-17".to_string(),
            "#message",
            &["is not a legal move", "legal:"],
        ),
        (
            "/?variant=filipino&edit=1&pattern=W%3AW99&search=pattern".to_string(),
            "#hits",
            &["is not on the", "board"],
        ),
        (
            "/?variant=chess".to_string(),
            "#message",
            &["unknown variant", "expected"],
        ),
        (
            "/?variant=filipino&date=2019.13".to_string(),
            "#tree-note",
            &["there is no month", "date \""],
        ),
    ];
    for (path, shown, english) in pages {
        client.goto(&format!("{base}{path}")).await.unwrap();
        let said = format!("((document.querySelector({shown:?}) || {{}}).textContent || '')");
        until(
            client,
            &path,
            &format!("return document.documentElement.lang === '{language}' && {said} !== ''"),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let text = value(client, &format!("return {said}")).await;
        let text = text.as_str().unwrap_or_default();
        for words in english {
            assert!(
                !text.contains(words),
                "{path} in {language}: {words:?} left in {text:?}"
            );
        }
        let left = english_left(client).await;
        assert!(left.is_empty(), "{path} in {language}: {left:#?}");
    }
    no_refusal_left_in_english(client, base, language, unusable).await;
}

/// The id of the first game of an event.
fn game_of(db: &std::path::Path, event: &str) -> i64 {
    let (out, err, code) = run(db, &["games", "--json", "--event", event]);
    assert_eq!(code, 0, "{err}");
    super::json_lines(&out)[0]["game"].as_i64().unwrap()
}

/// Every refusal of the API that carries English beyond its code — a FEN
/// and its set-up, rules switches, what the database holds, why moves do
/// not read, a route or game that is not there — is worded by the pages'
/// tables in the browser's language, with none of its English left.
async fn no_refusal_left_in_english(client: &Client, base: &str, language: &str, no_board: i64) {
    let no_board = format!("/api/game/{no_board}?ply=1");
    let asked: [(&str, &[&str]); 9] = [
        ("/api/tree?fen=W%3AWzz", &["is not a square"]),
        (
            "/api/tree?variant=english&fen=W%3AW5%2C5%2C6%2C6%3AB9",
            &["invalid position", "two pieces", "more like it"],
        ),
        (
            "/api/tree?variant=filipino%2Bking-first%3Dmaybe",
            &["is not a value of", "expected", " or "],
        ),
        (
            "/api/tree?variant=filipino%2Bcolour%3Dred",
            &["unknown rules switch", "expected"],
        ),
        ("/api/tree?variant=frisian", &["it holds", "games)"]),
        (
            "/api/search?variant=filipino&moves=32-28",
            &["is illegal under"],
        ),
        ("/api/nowhere", &["no such route"]),
        ("/api/game/99999", &["no game", "in the database"]),
        (
            &no_board,
            &[
                "no board to show",
                "the game is",
                "FEN: invalid",
                "two pieces",
            ],
        ),
    ];
    client.goto(&format!("{base}/players")).await.unwrap();
    for (path, english) in asked {
        refusal_worded(client, path, language, english).await;
    }
}

/// The refusal of `path`, fetched by the page and worded by its tables:
/// none of `english` left in it.
async fn refusal_worded(client: &Client, path: &str, language: &str, english: &[&str]) {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         import('/assets/i18n.js').then(({{ said }}) => fetch({path:?})
           .then((r) => r.json()).then((body) => done([said(body), body.error, body.code])))
           .catch((e) => done(['failed: ' + e, '', '']));"
    );
    let found = client.execute_async(&script, vec![]).await.unwrap();
    let (worded, error, code): (Option<String>, String, String) =
        serde_json::from_value(found).unwrap();
    let worded =
        worded.unwrap_or_else(|| panic!("{path} ({code}) in {language}: no words for {error:?}"));
    for words in english {
        assert!(
            !worded.contains(words),
            "{path} ({code}) in {language}: {words:?} left in {worded:?}"
        );
    }
}

/// A database made unusable under a running server — replaced by bytes
/// that are no database, then removed — is refused with its cause, which
/// the pages word in the browser's language.
async fn no_database_failure_left_in_english(client: &Client, language: &str) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gone.sqlite");
    let messages = super::crate_path("tests/data/messages.pdn");
    let (_, err, code) = run(&db, &["import", "--quiet", messages.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let server = Server::start(&db, &[]);
    // The page is served without the database; no query has run yet.
    client
        .goto(&format!("http://{}/assets/i18n.js", server.address))
        .await
        .unwrap();
    for companion in ["gone.sqlite-wal", "gone.sqlite-shm"] {
        let _ = std::fs::remove_file(dir.path().join(companion));
    }
    std::fs::write(&db, vec![b'x'; 8192]).unwrap();
    let english: &[&str] = &[
        "not a pdndb database",
        "not an SQLite file",
        "give another --db",
    ];
    refusal_worded(client, "/api/games", language, english).await;
    std::fs::remove_file(&db).unwrap();
    let english: &[&str] = &["no database here", "pdndb import", "give --db"];
    refusal_worded(client, "/api/games", language, english).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_page_leaves_a_translated_word_in_english() {
    for language in ["ru", "nl"] {
        let test = "no_page_leaves_a_translated_word_in_english";
        walk_db_with(
            test,
            language,
            &["tests/data/messages.pdn"],
            move |client, base, db| async move {
                no_english_left(&client, &base, language).await;
                no_server_english_left(&client, &base, language, &db).await;
                no_database_failure_left_in_english(&client, language).await;
                if language == "ru" {
                    client
                        .goto(&format!("{base}/game/19?ply=69"))
                        .await
                        .unwrap();
                    until(
                        &client,
                        "the arrows",
                        "return document.querySelectorAll('#board svg .arrow').length > 0",
                    )
                    .await;
                    shot(&client, "russian-viewer").await;
                    for (path, drawn, name) in [
                        (
                            "/report?file=messages",
                            "#problems tbody tr",
                            "russian-report-messages",
                        ),
                        ("/game/99999", "#message", "russian-game-not-found"),
                        (
                            "/?variant=english&fen=W%3AW1%2C22%3AB9",
                            "#message",
                            "russian-explorer-fen",
                        ),
                    ] {
                        client.goto(&format!("{base}{path}")).await.unwrap();
                        until(
                            &client,
                            path,
                            &format!(
                                "return (document.querySelector({drawn:?}) || {{}}).textContent > ''"
                            ),
                        )
                        .await;
                        shot(&client, name).await;
                    }
                }
            },
        )
        .await;
    }
}
