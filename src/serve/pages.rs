//! The pages, their scripts and styles (built into the binary: nothing is
//! read from disk or fetched from elsewhere), and the board picture.

use axum::extract::{Path, RawQuery};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::api::game_id;
use super::error::ApiError;
use super::params::Params;
use crate::message::RequestMessage;
use crate::notation::Notation;
use crate::render::Board;
use crate::render::svg;
use crate::rules::{Color, Move};
use crate::store::query::position_from_fen;

/// A built-in file: its name under `/assets/`, type and content.
struct Asset {
    name: &'static str,
    kind: &'static str,
    body: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file a page loads.
const ASSETS: &[Asset] = &[
    Asset {
        name: "favicon.svg",
        kind: "image/svg+xml",
        body: include_str!("assets/favicon.svg"),
    },
    Asset {
        name: "app.css",
        kind: "text/css; charset=utf-8",
        body: include_str!("assets/app.css"),
    },
    Asset {
        name: "common.js",
        kind: JS,
        body: include_str!("assets/common.js"),
    },
    Asset {
        name: "editor.js",
        kind: JS,
        body: include_str!("assets/editor.js"),
    },
    Asset {
        name: "explorer.js",
        kind: JS,
        body: include_str!("assets/explorer.js"),
    },
    Asset {
        name: "game.js",
        kind: JS,
        body: include_str!("assets/game.js"),
    },
    Asset {
        name: "report.js",
        kind: JS,
        body: include_str!("assets/report.js"),
    },
    Asset {
        name: "players.js",
        kind: JS,
        body: include_str!("assets/players.js"),
    },
    Asset {
        name: "i18n.js",
        kind: JS,
        body: include_str!("assets/i18n.js"),
    },
    Asset {
        name: "theme.js",
        kind: JS,
        body: include_str!("assets/theme.js"),
    },
    Asset {
        name: "gestures.js",
        kind: JS,
        body: include_str!("assets/gestures.js"),
    },
    Asset {
        name: "sortable.js",
        kind: JS,
        body: include_str!("assets/sortable.js"),
    },
    Asset {
        name: "download.js",
        kind: JS,
        body: include_str!("assets/download.js"),
    },
];

/// The scripts every page runs after its own: the keys and gestures,
/// sortable tables and downloads. The words in the reader's language
/// (`i18n.js`) come before the page's own, which then draws into a
/// translated page.
const SHARED_SCRIPTS: [&str; 3] = ["gestures.js", "sortable.js", "download.js"];

const HTML: &str = "text/html; charset=utf-8";

/// A whole page: the head and the header every page shares around its own
/// `<main>` (a built-in file), with its title and script.
fn page(status: StatusCode, title: &str, script: Option<&str>, main: &'static str) -> Response {
    // The translator watches the page before the page's script draws it.
    let script: String = ["i18n.js"]
        .into_iter()
        .chain(script)
        .chain(SHARED_SCRIPTS)
        .map(|s| format!("\n<script type=\"module\" src=\"/assets/{s}\"></script>"))
        .collect();
    let body = format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pdndb · {title}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/theme.js"></script>{script}
</head>
<body>
<header class="top">
  <a class="brand" href="/">pdndb</a>
  <nav><a href="/">Explorer</a><a href="/players">Players</a><a href="/report">Problems</a></nav>
  <span class="summary" id="summary"></span>
  <span class="prefs"><select id="language" aria-label="Language"></select>
  <button type="button" id="theme-toggle" aria-pressed="false" title="Dark or light pages">Dark</button></span>
</header>
{main}</body>
</html>
"#
    );
    (status, [(header::CONTENT_TYPE, HTML)], body).into_response()
}

/// `GET /`: the explorer (its state is in the query string, read by the
/// page's script).
pub async fn explorer() -> Response {
    page(
        StatusCode::OK,
        "Explorer",
        Some("explorer.js"),
        include_str!("assets/explorer.html"),
    )
}

/// `GET /game/ID`: the game viewer.
pub async fn game(Path(id): Path<String>) -> Response {
    match game_id(&id) {
        Ok(_) => page(
            StatusCode::OK,
            "Game",
            Some("game.js"),
            include_str!("assets/game.html"),
        ),
        Err(_) => page(
            StatusCode::BAD_REQUEST,
            "Bad request",
            None,
            include_str!("assets/bad-request.html"),
        ),
    }
}

/// `GET /report`: the problem games.
pub async fn report() -> Response {
    page(
        StatusCode::OK,
        "Problems",
        Some("report.js"),
        include_str!("assets/report.html"),
    )
}

/// `GET /players`: every player, with links to their games.
pub async fn players() -> Response {
    page(
        StatusCode::OK,
        "Players",
        Some("players.js"),
        include_str!("assets/players.html"),
    )
}

/// A page for paths that lead nowhere.
pub fn not_found_page() -> Response {
    page(
        StatusCode::NOT_FOUND,
        "Not found",
        None,
        include_str!("assets/not-found.html"),
    )
}

/// `GET /assets/NAME`: a built-in file, found by its exact name (no path
/// is ever opened).
pub async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|a| a.name == name) {
        Some(asset) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, asset.kind)],
            asset.body,
        )
            .into_response(),
        None => not_found_page(),
    }
}

/// `GET /favicon.ico`: the site's icon (what browsers ask for unbidden).
pub async fn favicon() -> Response {
    asset(Path("favicon.svg".to_string())).await
}

/// `GET /board.svg`: the board of `fen` (or, with `last`, of the position
/// after that move from `fen`, the move marked), squares named in
/// `notation` (which also orients the board: Luzon mirrored), `flip=1`
/// for Black at the bottom, `arrows` (moves of the shown position,
/// comma-separated), `clickable=1` for square targets.
pub async fn board(RawQuery(query): RawQuery) -> Result<Response, ApiError> {
    let params = Params::parse(
        query.as_deref(),
        &[
            "variant",
            "fen",
            "notation",
            "flip",
            "last",
            "arrows",
            "clickable",
        ],
    )?;
    let asked = super::params::rules(&params, "variant")?;
    let (mut position, rules) = match params.text("fen") {
        Some(fen) => position_from_fen(fen, asked.as_ref()).map_err(|e| {
            ApiError::bad_request(RequestMessage::BadFen {
                param: "fen".to_string(),
                why: e.to_string(),
                fen: Some(e.said()),
            })
        })?,
        None => {
            let rules = asked.unwrap_or_default();
            (crate::rules::Position::initial(&rules), rules)
        }
    };
    let notation = params
        .parsed("notation", |n| n.parse::<Notation>())?
        .unwrap_or_else(|| Notation::usual_for(rules.preset));
    let find = |position: &crate::rules::Position, token: &str, what: &str| {
        let legal = position.legal_moves(&rules);
        legal
            .iter()
            .find(|m| m.full_numeric() == token)
            .copied()
            .ok_or_else(|| {
                ApiError::bad_request(RequestMessage::BadMoves {
                    param: what.to_string(),
                    why: format!(
                        "{} is not a legal move of the position",
                        super::params::shown(token)
                    ),
                })
            })
    };
    let mut last = None;
    if let Some(token) = params.text("last") {
        let mv = find(&position, token.trim(), "last")?;
        position = position.play(&mv);
        last = Some(mv);
    }
    let arrows: Vec<Move> = match params.text("arrows") {
        Some(list) => list
            .split(',')
            .filter(|t| !t.trim().is_empty())
            .take(16)
            .map(|t| find(&position, t.trim(), "arrows"))
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let mut board = Board::new(position, rules.geometry, notation).with_arrows(&rules, &arrows);
    board.last_move = last;
    board.flipped = params.flag("flip")?;
    board.clickable = params.flag("clickable")?;
    let side = match position.side() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let picture = svg::document(&board, &format!("{side} to move"));
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        picture,
    )
        .into_response())
}
