//! What every request shares: the database, a few open connections, and
//! the places in line for them.
//!
//! Every request that reads the database takes one of
//! [`MAX_CONNECTIONS`] connections for as long as its query runs, on one
//! of as many threads; up to [`MAX_WAITING`] more wait their turn, in the
//! order they came. A request beyond those is not kept: it is answered at
//! once with 503 and `Retry-After`. So however many clients ask at once,
//! the server holds at most that many requests' work, and as many threads
//! and SQLite page caches as connections.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

use super::error::ApiError;
use crate::store::{Mode, Store};

/// Requests answered at once (open connections, threads that query).
pub const MAX_CONNECTIONS: usize = 4;

/// Requests that may wait for a connection; one more is refused (503).
pub const MAX_WAITING: usize = 64;

/// The seconds a refused client is asked to wait (`Retry-After`).
pub const RETRY_AFTER: u32 = 1;

/// The server's shared state.
pub struct AppState {
    /// The database file.
    db: PathBuf,
    /// Open read-only connections not in use.
    idle: Mutex<Vec<Store>>,
    /// One permit per request being answered.
    permits: Arc<Semaphore>,
    /// One permit per request being answered or waiting to be.
    places: Arc<Semaphore>,
    /// Whether the server listens on loopback only (then requests must name
    /// a local host).
    pub loopback_only: bool,
}

/// What a request holds while its query runs: its place in line and its
/// turn. Both are given back when the query ends, even when the client
/// has gone away before.
struct Turn {
    _place: OwnedSemaphorePermit,
    _permit: OwnedSemaphorePermit,
}

impl AppState {
    /// State for a database.
    pub fn new(db: PathBuf, loopback_only: bool) -> AppState {
        AppState {
            db,
            idle: Mutex::new(Vec::new()),
            permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            places: Arc::new(Semaphore::new(MAX_CONNECTIONS + MAX_WAITING)),
            loopback_only,
        }
    }

    /// A place in line, then a turn: at once when a connection is free,
    /// after the requests before it otherwise.
    ///
    /// # Errors
    /// 503 when [`MAX_WAITING`] requests already wait, or the server is
    /// stopping.
    async fn turn(&self) -> Result<Turn, ApiError> {
        let place = match self.places.clone().try_acquire_owned() {
            Ok(place) => place,
            Err(TryAcquireError::NoPermits) => {
                return Err(ApiError::busy(
                    format!(
                        "the server is busy: {MAX_CONNECTIONS} requests are being answered and \
                         {MAX_WAITING} wait; try again in {RETRY_AFTER} s"
                    ),
                    RETRY_AFTER,
                ));
            }
            Err(TryAcquireError::Closed) => return Err(stopping()),
        };
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| stopping())?;
        Ok(Turn {
            _place: place,
            _permit: permit,
        })
    }

    /// Runs `query` on a connection of the pool, on a thread that may
    /// block, once it is this request's turn. A connection that failed is
    /// dropped (the next request opens a fresh one, so a database replaced
    /// or restored is seen again).
    ///
    /// # Errors
    /// The server is busy, the database cannot be opened, or `query`'s own
    /// error.
    pub async fn with_store<T: Send + 'static>(
        self: &Arc<Self>,
        query: impl FnOnce(&Store) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let turn = self.turn().await?;
        let state = self.clone();
        tokio::task::spawn_blocking(move || {
            // Held until the query ends, whether or not anyone still waits
            // for its answer: at most MAX_CONNECTIONS queries run.
            let _turn = turn;
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

/// The answer while the server shuts down.
fn stopping() -> ApiError {
    ApiError::unavailable("the server is stopping".to_string())
}
