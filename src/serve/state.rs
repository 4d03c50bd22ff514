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

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

use super::error::ApiError;
use crate::message::{DatabaseCause, RequestMessage};
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
                return Err(ApiError::busy(MAX_CONNECTIONS, MAX_WAITING, RETRY_AFTER));
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
            let store = state.take_store()?;
            let answer = query(&store);
            state.give_back(store, !matches!(&answer, Err(e) if e.is_unavailable()));
            answer
        })
        .await
        .map_err(|e| {
            let cause = if e.is_cancelled() {
                DatabaseCause::QueryCancelled
            } else {
                DatabaseCause::QueryFailed
            };
            stopped(e.to_string(), cause)
        })?
    }

    /// Runs `prepare` on a connection of the pool as [`Self::with_store`]
    /// does, then `write` on the same connection, its output streamed:
    /// the answer is `prepare`'s error, or a body that `write` fills as it
    /// goes (a failure after the start cuts the body short). The turn is
    /// held until `write` ends or the client goes away.
    ///
    /// # Errors
    /// The server is busy, the database cannot be opened, or `prepare`'s
    /// error.
    pub async fn with_store_streamed<P: 'static>(
        self: &Arc<Self>,
        prepare: impl FnOnce(&Store) -> Result<P, ApiError> + Send + 'static,
        write: impl FnOnce(&Store, P, &mut dyn Write) -> std::io::Result<()> + Send + 'static,
    ) -> Result<Body, ApiError> {
        let turn = self.turn().await?;
        let state = self.clone();
        let (ready, started) = tokio::sync::oneshot::channel();
        let (sink, body) = chunked();
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            let store = match state.take_store() {
                Ok(store) => store,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            let prepared = match prepare(&store) {
                Ok(prepared) => prepared,
                Err(e) => {
                    state.give_back(store, !e.is_unavailable());
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            let _ = ready.send(Ok(()));
            let mut sink = sink;
            let written = write(&store, prepared, &mut sink).and_then(|()| sink.flush());
            if let Err(e) = written {
                sink.fail(e);
            }
            state.give_back(store, true);
        });
        // The query's thread ended without a word: it failed.
        started
            .await
            .map_err(|e| stopped(e.to_string(), DatabaseCause::QueryFailed))??;
        Ok(body)
    }

    /// An idle connection, or a new one.
    fn take_store(&self) -> Result<Store, ApiError> {
        let taken = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        match taken {
            Some(store) => Ok(store),
            None => Store::open(&self.db, Mode::Read).map_err(ApiError::from),
        }
    }

    /// Puts a connection back among the idle ones, unless it failed (the
    /// next request opens a fresh one).
    fn give_back(&self, store: Store, healthy: bool) {
        if healthy && let Ok(mut idle) = self.idle.lock() {
            idle.push(store);
        }
    }
}

/// 503: the query stopped before it answered, and why.
fn stopped(why: String, cause: DatabaseCause) -> ApiError {
    ApiError::unavailable(RequestMessage::QueryStopped {
        why,
        cause: Some(cause),
        detail: None,
    })
}

/// The bytes written at most before they are sent on.
const CHUNK: usize = 64 * 1024;

/// A writer whose bytes a response body sends, a chunk at a time, and that
/// body. The writer waits while the client is slow (a few chunks are held
/// at most) and fails once the client has gone.
fn chunked() -> (Chunks, Body) {
    let (sender, receiver) = tokio::sync::mpsc::channel(4);
    let sink = Chunks {
        buffer: Vec::with_capacity(CHUNK),
        sender,
    };
    (sink, Body::from_stream(Received(receiver)))
}

/// The writing end of [`chunked`].
struct Chunks {
    buffer: Vec<u8>,
    sender: tokio::sync::mpsc::Sender<std::io::Result<Bytes>>,
}

impl Chunks {
    /// Sends what is buffered.
    fn send(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK));
        self.sender
            .blocking_send(Ok(Bytes::from(chunk)))
            .map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
            })
    }

    /// Ends the body with an error: the client sees it cut short.
    fn fail(self, error: std::io::Error) {
        let _ = self.sender.blocking_send(Err(error));
    }
}

impl Write for Chunks {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK {
            self.send()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}

/// The reading end of [`chunked`], as a stream of chunks.
struct Received(tokio::sync::mpsc::Receiver<std::io::Result<Bytes>>);

impl futures_core::Stream for Received {
    type Item = std::io::Result<Bytes>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.0.poll_recv(context)
    }
}

/// The answer while the server shuts down.
fn stopping() -> ApiError {
    ApiError::unavailable(RequestMessage::Stopping)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_body_carries_every_byte_and_its_writer_fails_once_it_is_dropped() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .build()
            .unwrap();
        let (mut sink, body) = chunked();
        let text: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let sent = text.clone();
        let writer = std::thread::spawn(move || {
            for part in sent.chunks(1000) {
                sink.write_all(part).unwrap();
            }
            sink.flush().unwrap();
        });
        let received = runtime
            .block_on(axum::body::to_bytes(body, usize::MAX))
            .unwrap();
        writer.join().unwrap();
        assert_eq!(received.as_ref(), text.as_slice());

        let (mut sink, body) = chunked();
        drop(body);
        let failed = sink.write_all(&vec![b'x'; CHUNK]).unwrap_err();
        assert_eq!(failed.kind(), std::io::ErrorKind::BrokenPipe);
    }
}
