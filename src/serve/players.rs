//! `GET /api/players`: every player's games and results, as
//! `players --json` prints them (for the players page).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::error::{ApiError, json};
use super::params::Params;
use super::state::AppState;

/// `GET /api/players?variant=V&min_games=N`: as `players --json`, one
/// array, most games first.
pub async fn players(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref(), &["variant", "min_games"])?;
    let min_games = params.number("min_games", 0u64, 0..=u64::from(u32::MAX))?;
    super::params::rules(&params, "variant")?;
    let rows = state
        .with_store(move |store| Ok(store.players(params.text("variant"), min_games)?))
        .await?;
    Ok(json(StatusCode::OK, &rows))
}
