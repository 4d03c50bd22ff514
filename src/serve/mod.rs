//! `pdndb serve`: the web explorer and its JSON API over a database,
//! read-only (DESIGN §6).
//!
//! A thin front end like the command line: requests are parsed strictly
//! (`params`), answered by the library's typed queries on a small pool
//! of read-only connections (`state`) and written as JSON (`api`) or as
//! the built-in pages and the board picture (`pages`). Nothing is read
//! from disk but the database: pages, scripts and styles are built into
//! the binary.

mod api;
mod download;
mod error;
mod pages;
mod params;
mod players;
mod state;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::message::RequestMessage;
use crate::store::{Mode, Store, StoreError};
pub use error::ApiError;
use state::AppState;

/// The default port (`pdndb serve`).
pub const DEFAULT_PORT: u16 = 8740;

/// The longest request target answered (path and query), in bytes.
const MAX_TARGET: usize = 8 * 1024;

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database cannot be opened for reading.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The address cannot be listened on.
    #[error("cannot listen on {address}: {why}")]
    Bind {
        /// The address asked for.
        address: SocketAddr,
        /// What stands in the way.
        why: String,
    },
    /// The server failed while running.
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// A server bound to its address, ready to run.
pub struct Bound {
    listener: std::net::TcpListener,
    address: SocketAddr,
    state: Arc<AppState>,
}

/// Opens the database (it must exist and be readable) and listens on
/// `address` (port 0 picks a free port).
///
/// # Errors
/// A missing, foreign or too new database; an address in use or not
/// allowed.
pub fn bind(db: PathBuf, address: SocketAddr) -> Result<Bound, ServeError> {
    // Refuse a database that cannot be read now, rather than on every request.
    Store::open(&db, Mode::Read)?;
    let listener = std::net::TcpListener::bind(address).map_err(|e| ServeError::Bind {
        address,
        why: match e.kind() {
            std::io::ErrorKind::AddrInUse => format!(
                "port {} is already in use (another pdndb serve?); give --port N",
                address.port()
            ),
            std::io::ErrorKind::PermissionDenied => format!(
                "port {} needs privileges here; give --port N above 1023",
                address.port()
            ),
            std::io::ErrorKind::AddrNotAvailable => format!(
                "{} is not an address of this machine; give --bind ADDR",
                address.ip()
            ),
            _ => e.to_string(),
        },
    })?;
    listener.set_nonblocking(true)?;
    let address = listener.local_addr()?;
    let loopback_only = address.ip().is_loopback();
    Ok(Bound {
        listener,
        address,
        state: Arc::new(AppState::new(db, loopback_only)),
    })
}

impl Bound {
    /// The address listened on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Serves until interrupted (Ctrl-C or SIGTERM).
    ///
    /// # Errors
    /// The runtime cannot start, or accepting connections fails.
    pub fn run(self) -> Result<(), ServeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(state::MAX_CONNECTIONS)
            .enable_all()
            .build()?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            axum::serve(listener, router(self.state))
                .with_graceful_shutdown(shutdown())
                .await
        })?;
        Ok(())
    }
}

/// Every route.
fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(pages::explorer))
        .route("/game/{id}", get(pages::game))
        .route("/report", get(pages::report))
        .route("/players", get(pages::players))
        .route("/assets/{name}", get(pages::asset))
        .route("/board.svg", get(pages::board))
        .route("/favicon.ico", get(pages::favicon))
        .route("/api/stats", get(api::stats))
        .route("/api/tree", get(api::tree))
        .route("/api/search", get(api::search))
        .route("/api/games", get(api::games))
        .route("/api/game/{id}", get(api::game))
        .route("/api/report", get(api::report))
        .route("/api/position", get(api::position))
        .route("/api/export", get(download::export))
        .route("/api/players", get(players::players))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// A route that does not exist: JSON under `/api/`, a page elsewhere.
async fn not_found(request: Request) -> Response {
    let path = request.uri().path();
    if path.starts_with("/api/") || path == "/api" {
        ApiError::not_found(RequestMessage::NoSuchRoute {
            path: path.to_string(),
        })
        .into_response()
    } else {
        pages::not_found_page()
    }
}

/// Checks every request before it is answered (its size, its Host) and
/// marks every answer: how long it took, and headers that keep pages from
/// being framed, sniffed or given scripts from elsewhere.
async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let target_len = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    let mut response = if target_len > MAX_TARGET {
        ApiError::refused(
            StatusCode::URI_TOO_LONG,
            RequestMessage::RequestTooLong {
                bytes: target_len,
                most: MAX_TARGET,
            },
        )
        .into_response()
    } else if state.loopback_only && !local_host(&request) {
        // A page elsewhere that renamed itself to this address (DNS
        // rebinding) must not read the database through the browser.
        ApiError::refused(StatusCode::FORBIDDEN, RequestMessage::LocalhostOnly).into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    if let Ok(timing) = HeaderValue::from_str(&format!("app;dur={elapsed:.2}")) {
        headers.insert("server-timing", timing);
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
             object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        ),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether the request names this machine as its host (or names none).
fn local_host(request: &Request) -> bool {
    let Some(host) = request.headers().get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let name = match host.rsplit_once(':') {
        Some((name, port)) if !name.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<IpAddr>()
            .is_ok_and(|ip: IpAddr| ip.is_loopback())
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_host(host: &str) -> Request {
        Request::builder()
            .uri("/")
            .header(header::HOST, host)
            .body(axum::body::Body::empty())
            .unwrap()
    }

    #[test]
    fn only_local_hosts_are_answered_on_loopback() {
        for host in [
            "localhost",
            "localhost:8740",
            "127.0.0.1:8740",
            "[::1]:8740",
            "LOCALHOST",
        ] {
            assert!(local_host(&with_host(host)), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8740",
            "10.0.0.2:8740",
            "localhost.evil:80",
        ] {
            assert!(!local_host(&with_host(host)), "{host}");
        }
    }
}
