//! `GET /api/export`: games as a PDN file to save, written by the
//! library's export (what `pdndb export` writes for the same choice) and
//! streamed as it is written.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::params::{Params, shown};
use super::state::AppState;
use crate::export::{ExportOptions, Paths};
use crate::message::RequestMessage;
use crate::notation::Notation;
use crate::replay::Status;
use crate::rules::Rules;
use crate::store::export::{ExportChoice, ExportError};
use crate::store::games::GameFilterText;
use crate::store::param::Wording;
use crate::store::query::VariantFilter;
use crate::store::{GameId, Store};

/// The parameters `/api/export` takes.
const NAMES: [&str; 19] = [
    "variant",
    "fen",
    "moves",
    "player",
    "white",
    "black",
    "event",
    "site",
    "date",
    "result",
    "status",
    "opening",
    "colour",
    "game",
    "notation",
    "limit",
    "skip_broken",
    "paths",
    "canonical_names",
];

/// What is read from the request before the database is.
struct Asked {
    params: Params,
    statuses: Vec<Status>,
    games: Vec<GameId>,
    options: ExportOptions,
    limit: usize,
    canonical_names: bool,
}

/// `GET /api/export`: as `export` with the same options (`game`
/// repeatable, `status` comma-separated), the PDN text streamed as
/// `application/x-chess-pdn`, to be saved as a file.
pub async fn export(State(state): State<Arc<AppState>>, RawQuery(query): RawQuery) -> Response {
    match answer(state, query).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

async fn answer(state: Arc<AppState>, query: Option<String>) -> Result<Response, ApiError> {
    let asked = read(Params::parse(query.as_deref(), &NAMES)?)?;
    let filename = match asked.games.as_slice() {
        [one] => format!("pdndb-game-{one}.pdn"),
        _ => "pdndb-games.pdn".to_string(),
    };
    let body = state
        .with_store_streamed(
            move |store| choose(store, asked),
            |store, choice, out| {
                store
                    .export_games(&choice, out)
                    .map(|_| ())
                    .map_err(|e| match e {
                        ExportError::Write(e) => e,
                        ExportError::Store(e) => std::io::Error::other(e.to_string()),
                    })
            },
        )
        .await?;
    let disposition = format!("attachment; filename=\"{filename}\"");
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-chess-pdn; charset=utf-8"),
    );
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The parameters that need no database, checked.
fn read(params: Params) -> Result<Asked, ApiError> {
    let statuses = params.statuses("status")?;
    let games = params
        .all("game")
        .into_iter()
        .map(|id| {
            super::api::game_id(id.trim()).map(GameId).map_err(|e| {
                ApiError::bad_request(RequestMessage::BadValue {
                    param: "game".to_string(),
                    why: e.message,
                })
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let paths = params
        .parsed("paths", |name| {
            Paths::ALL
                .into_iter()
                .find(|p| p.name().eq_ignore_ascii_case(name.trim()))
                .ok_or_else(|| format!("{} is not written, short or full", shown(name)))
        })?
        .unwrap_or_default();
    let options = ExportOptions {
        notation: params.parsed("notation", |n| n.parse::<Notation>())?,
        skip_broken: params.flag("skip_broken")?,
        paths,
    };
    // As `export --limit`: 0 or none is every game.
    let limit = match params.number("limit", 0usize, 0..=usize::MAX)? {
        0 => usize::MAX,
        n => n,
    };
    let canonical_names = params.flag("canonical_names")?;
    Ok(Asked {
        params,
        statuses,
        games,
        options,
        limit,
        canonical_names,
    })
}

/// The export's choice, read as `export` reads its options.
fn choose(store: &Store, asked: Asked) -> Result<ExportChoice, ApiError> {
    let params = &asked.params;
    let (fen, moves, variant) = (
        params.text("fen"),
        params.text("moves"),
        params.text("variant"),
    );
    if fen.is_some() && moves.is_some() {
        return Err(ApiError::bad_request(RequestMessage::FenAndMoves));
    }
    let at = match fen.is_some() || moves.is_some() {
        true => Some(store.position_query(fen, moves, variant)?),
        false => {
            if let Some(v) = variant {
                Rules::parse(v).map_err(super::params::unknown_variant)?;
            }
            None
        }
    };
    let tags = GameFilterText {
        player: params.text("player"),
        white: params.text("white"),
        black: params.text("black"),
        event: params.text("event"),
        site: params.text("site"),
        date: params.text("date"),
        result: params.text("result"),
        status: None,
        variant: None,
        opening: params.text("opening"),
        colour: params.text("colour"),
    }
    .parse()
    .map_err(|e| ApiError::bad_request(e.said(Wording::Parameters)))?;
    let canonical = match asked.canonical_names {
        true => store.canonical_names()?,
        false => HashMap::new(),
    };
    Ok(ExportChoice {
        at,
        variant: VariantFilter(variant.map(str::to_string)),
        tags,
        statuses: asked.statuses,
        games: asked.games,
        limit: asked.limit,
        canonical,
        options: asked.options,
    })
}
