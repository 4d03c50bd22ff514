//! What every request shares: the database and a few open connections.

use std::path::PathBuf;
use std::sync::Mutex;

use tokio::sync::Semaphore;

use super::error::ApiError;
use crate::store::{Mode, Store};

/// Requests answered at once; the others wait their turn.
pub const MAX_CONNECTIONS: usize = 4;

/// The server's shared state.
pub struct AppState {
    /// The database file.
    db: PathBuf,
    /// Open read-only connections not in use.
    idle: Mutex<Vec<Store>>,
    /// One permit per request being answered.
    permits: Semaphore,
    /// Whether the server listens on loopback only (then requests must name
    /// a local host).
    pub loopback_only: bool,
}

impl AppState {
    /// State for a database.
    pub fn new(db: PathBuf, loopback_only: bool) -> AppState {
        AppState {
            db,
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(MAX_CONNECTIONS),
            loopback_only,
        }
    }

    /// Runs `query` on a connection of the pool, on a thread that may
    /// block. A connection that failed is dropped (the next request opens
    /// a fresh one, so a database replaced or restored is seen again).
    ///
    /// # Errors
    /// The database cannot be opened, or `query`'s own error.
    pub async fn with_store<T: Send + 'static>(
        self: &std::sync::Arc<Self>,
        query: impl FnOnce(&Store) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| ApiError::unavailable("the server is stopping".to_string()))?;
        let state = self.clone();
        tokio::task::spawn_blocking(move || {
            let taken = state.idle.lock().ok().and_then(|mut idle| idle.pop());
            let store = match taken {
                Some(store) => store,
                None => Store::open(&state.db, Mode::Read).map_err(ApiError::from)?,
            };
            let answer = query(&store);
            let healthy = !matches!(&answer, Err(e) if e.is_unavailable());
            if healthy && let Ok(mut idle) = state.idle.lock() {
                idle.push(store);
            }
            answer
        })
        .await
        .map_err(|e| ApiError::unavailable(format!("the query stopped: {e}")))?
    }
}
