//! The JSON API (DESIGN §6): each route reads its parameters, calls the
//! library's query and answers the records the command's `--json` prints,
//! as one array (with `X-Total-Count` where a listing is cut to a page)
//! or one object.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::error::{ApiError, JsonRecords, json};
use super::params::{Params, shown};
use super::state::AppState;
use crate::message::RequestMessage;
use crate::notation::Notation;
use crate::pattern::Colours;
use crate::replay::Status;
use crate::store::Store;
use crate::store::games::{GameFilterText, GameSort};
use crate::store::param::Wording;
use crate::store::problems::ProblemFilter;
use crate::store::query::{PositionQuery, SearchHit};
use crate::store::scan::criteria;
use crate::store::view::ViewError;

/// The most records one page holds.
const MAX_LIMIT: usize = 1000;
/// The furthest a page starts.
const MAX_OFFSET: usize = 100_000_000;

/// The parameters naming a position (as `tree` and `search` take them).
const POSITION: [&str; 3] = ["variant", "fen", "moves"];
/// The parameters of a search beyond one exact position.
const SEARCH: [&str; 6] = [
    "pattern",
    "pattern_json",
    "material",
    "manoeuvre",
    "colours",
    "all_plies",
];
/// The parameters of the games filter (as `games` takes them).
const FILTER: [&str; 9] = [
    "player", "white", "black", "event", "site", "date", "result", "status", "opening",
];

type Answer = Result<Response, ApiError>;

/// A JSON array with how many records there are in all.
fn page(records: JsonRecords, total: usize) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert("x-total-count", HeaderValue::from(total));
    (headers, records.into_response()).into_response()
}

/// The names a route takes: `groups` joined.
fn names(groups: &[&[&'static str]]) -> Vec<&'static str> {
    groups.iter().flat_map(|g| g.iter().copied()).collect()
}

/// The notation asked for, if any.
fn notation(params: &Params) -> Result<Option<Notation>, ApiError> {
    params.parsed("notation", |n| n.parse::<Notation>())
}

/// The position asked for, as the commands resolve `--variant`, `--fen`
/// and `--moves`.
fn asked_position(store: &Store, params: &Params) -> Result<PositionQuery, ApiError> {
    if params.text("fen").is_some() && params.text("moves").is_some() {
        return Err(ApiError::bad_request(RequestMessage::FenAndMoves));
    }
    Ok(store.position_query(
        params.text("fen"),
        params.text("moves"),
        params.text("variant"),
    )?)
}

/// The games filter of the parameters (`variant` apart; `colour` where
/// the route takes it).
fn filter_text<'a>(params: &'a Params, variant: Option<&'a str>) -> GameFilterText<'a> {
    GameFilterText {
        player: params.text("player"),
        white: params.text("white"),
        black: params.text("black"),
        event: params.text("event"),
        site: params.text("site"),
        date: params.text("date"),
        result: params.text("result"),
        status: params.text("status"),
        variant,
        opening: params.text("opening"),
        colour: params.text("colour"),
    }
}

/// `GET /api/stats`: as `stats --json`.
pub async fn stats(State(state): State<Arc<AppState>>, RawQuery(query): RawQuery) -> Answer {
    Params::parse(query.as_deref(), &[])?;
    let stats = state.with_store(|store| Ok(store.stats()?)).await?;
    Ok(json(StatusCode::OK, &stats))
}

/// `GET /api/tree`: as `tree --json`; the games filters as `games`
/// takes them, and `colour` (the side of `player`).
pub async fn tree(State(state): State<Arc<AppState>>, RawQuery(query): RawQuery) -> Answer {
    let params = Params::parse(
        query.as_deref(),
        &names(&[&POSITION, &FILTER, &["colour", "notation"]]),
    )?;
    let asked = notation(&params)?;
    let games = filter_text(&params, None)
        .parse()
        .map_err(|e| ApiError::bad_request(e.said(Wording::Parameters)))?;
    let moves = state
        .with_store(move |store| {
            let query = asked_position(store, &params)?;
            let notation = asked.unwrap_or_else(|| query.usual_notation());
            Ok(store.tree_of(
                &query.position,
                &query.filter,
                &games,
                notation,
                query.rules.geometry,
            )?)
        })
        .await?;
    Ok(json(StatusCode::OK, &moves))
}

/// A game found by `search`, with its status (for the explorer's list).
#[derive(Serialize)]
struct FoundGame {
    #[serde(flatten)]
    hit: SearchHit,
    status: Status,
    plies: Option<i64>,
    cleaned_tags: serde_json::Map<String, serde_json::Value>,
}

/// `GET /api/search`: as `search --json`, plus each game's `status`,
/// `plies` and `cleaned_tags` (as `games` shows them); `limit` (1–1000, default 50) games after `offset`;
/// `colour` as `/api/tree` takes it.
pub async fn search(State(state): State<Arc<AppState>>, RawQuery(query): RawQuery) -> Answer {
    let params = Params::parse(
        query.as_deref(),
        &names(&[&POSITION, &FILTER, &SEARCH, &["colour", "limit", "offset"]]),
    )?;
    let limit = params.number("limit", 50, 1..=MAX_LIMIT)?;
    let offset = params.number("offset", 0, 0..=MAX_OFFSET)?;
    let filter = filter_text(&params, None)
        .parse()
        .map_err(|e| ApiError::bad_request(e.said(Wording::Parameters)))?;
    let colours = params
        .parsed("colours", |c| c.parse::<Colours>())?
        .unwrap_or_default();
    let all_plies = params.flag("all_plies")?;
    let (found, total) = state
        .with_store(move |store| {
            let manoeuvres = params.all("manoeuvre");
            let by_criteria = !manoeuvres.is_empty()
                || ["pattern", "pattern_json", "material"]
                    .iter()
                    .any(|name| params.text(name).is_some());
            if by_criteria && (params.text("fen").is_some() || params.text("moves").is_some()) {
                return Err(ApiError::bad_request(RequestMessage::PositionAndCriteria));
            }
            let query = asked_position(store, &params)?;
            let mut found = JsonRecords::default();
            let mut seen = 0;
            let mut keep = |hit: SearchHit| -> Result<(), ApiError> {
                seen += 1;
                if seen > offset
                    && let Some(row) = store.game_row(hit.game)?
                {
                    found.push(&FoundGame {
                        status: row.status,
                        plies: row.plies,
                        cleaned_tags: row.tags,
                        hit,
                    })?;
                }
                Ok(())
            };
            let shown = if by_criteria {
                let sought = criteria(
                    params.text("pattern"),
                    params.text("pattern_json"),
                    params.text("material"),
                    &manoeuvres,
                    colours,
                    &query.rules,
                )
                .map_err(|e| ApiError::bad_request(e.said(Wording::Parameters)))?;
                store.each_pattern_hit(
                    &sought,
                    &query.filter,
                    &filter,
                    all_plies,
                    offset + limit,
                    &mut keep,
                )?
            } else {
                store.each_search_hit_in(&query, colours, &filter, offset + limit, &mut keep)?
            };
            Ok((found, shown.total))
        })
        .await?;
    Ok(page(found, total))
}

/// `GET /api/games`: as `games --json`.
pub async fn games(State(state): State<Arc<AppState>>, RawQuery(query): RawQuery) -> Answer {
    let params = Params::parse(
        query.as_deref(),
        &names(&[&FILTER, &["variant", "sort", "limit", "offset"]]),
    )?;
    let limit = params.number("limit", 50, 1..=MAX_LIMIT)?;
    let offset = params.number("offset", 0, 0..=MAX_OFFSET)?;
    let sort = match params
        .text("sort")
        .map(|text| (text, text.parse::<GameSort>()))
    {
        None => GameSort::Id,
        Some((_, Ok(sort))) => sort,
        // The value as messages show it, cut when long.
        Some((other, Err(_))) => {
            return Err(ApiError::bad_request(RequestMessage::BadSort {
                param: "sort".to_string(),
                value: shown(other),
            }));
        }
    };
    let filter = filter_text(&params, params.text("variant"))
        .parse()
        .map_err(|e| ApiError::bad_request(e.said(Wording::Parameters)))?;
    let (rows, total) = state
        .with_store(move |store| {
            let mut rows = JsonRecords::default();
            let shown =
                store.each_listed_game(&filter, sort, limit, offset, |row| rows.push(&row))?;
            Ok((rows, shown.total))
        })
        .await?;
    Ok(page(rows, total))
}

/// `GET /api/report`: as `report --json`, a page at a time: `status`
/// (comma-separated; default every status but ok), `resolved`, `results`
/// (instead of statuses: the games whose result contradicts their moves),
/// `variant`, `file` (a part of the file's path), `limit`, `offset`.
pub async fn report(State(state): State<Arc<AppState>>, RawQuery(query): RawQuery) -> Answer {
    let params = Params::parse(
        query.as_deref(),
        &[
            "status", "resolved", "results", "variant", "file", "limit", "offset",
        ],
    )?;
    let limit = params.number("limit", 50, 1..=MAX_LIMIT)?;
    let offset = params.number("offset", 0, 0..=MAX_OFFSET)?;
    let statuses = params.statuses("status")?;
    super::params::rules(&params, "variant")?;
    let filter = ProblemFilter {
        statuses,
        resolved: params.flag("resolved")?,
        results: params.flag("results")?,
        variant: params.text("variant").map(str::to_string),
        file: params.text("file").map(str::to_string),
    };
    let (records, total) = state
        .with_store(move |store| {
            let mut records = JsonRecords::default();
            let total =
                store.each_problem(&filter, limit, offset, |record| records.push(&record))?;
            Ok((records, total))
        })
        .await?;
    Ok(page(records, total))
}

/// `GET /api/position`: the line `moves` plays from `fen` (default: the
/// start of `variant`) and the legal moves where it ends, for the
/// explorer's board.
pub async fn position(State(state): State<Arc<AppState>>, RawQuery(query): RawQuery) -> Answer {
    let params = Params::parse(query.as_deref(), &names(&[&POSITION, &["notation"]]))?;
    let asked = notation(&params)?;
    let line = state
        .with_store(move |store| {
            Ok(store.line(
                params.text("variant"),
                params.text("fen"),
                params.text("moves"),
                asked,
            )?)
        })
        .await?;
    Ok(json(StatusCode::OK, &line))
}

/// The game id of a path, strictly: a positive whole number.
pub fn game_id(text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::bad_request(RequestMessage::NotAGameId { value: shown(text) }))
}

/// `GET /api/game/ID`: as `show --json`, with every move of the main line
/// (comments, NAGs and variations as written) and, for problem games, the
/// fault and the other readings.
pub async fn game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Answer {
    let id = game_id(&id)?;
    let params = Params::parse(query.as_deref(), &["ply", "notation"])?;
    let ply = params
        .text("ply")
        .map(|_| params.number("ply", 0usize, 0..=100_000))
        .transpose()?;
    let asked = params
        .text("notation")
        .map(|n| n.parse::<Notation>())
        .transpose()
        .map_err(|e| {
            ApiError::bad_request(RequestMessage::BadValue {
                param: "notation".to_string(),
                why: e.to_string(),
            })
        })?;
    let detail = state
        .with_store(move |store| {
            store
                .game_detail(crate::store::GameId(id), ply, asked)
                .map_err(|e| match e {
                    ViewError::NotFound(m) => ApiError::not_found(*m),
                    ViewError::Store(e) => e.into(),
                    ViewError::Value { param, why } => {
                        ApiError::bad_request(RequestMessage::BadValue {
                            param: Wording::Parameters.name(param),
                            why,
                        })
                    }
                    ViewError::NoBoard(said) => ApiError::bad_request(*said),
                })
        })
        .await?;
    Ok(json(StatusCode::OK, &detail))
}
