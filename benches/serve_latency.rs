//! Latency of `pdndb serve` over HTTP, run by hand (not in CI) on a
//! database already imported:
//!
//! ```text
//! cargo bench --bench serve_latency -- DB [N]
//! ```
//!
//! Cargo builds the release binary first; the benchmark starts it (or the
//! binary `PDNDB_BIN` names, to measure another build) as
//! `pdndb --db DB serve --port 0`, samples N positions (default 300) from
//! the database's own games as `tree_latency` does, and N game ids (those
//! games'), then asks over one keep-alive HTTP/1.1 connection, as the
//! explorer does, for each position or game:
//!
//! - `tree`: `/api/tree?variant=V&fen=F&notation=numeric`
//! - `search`: `/api/search?variant=V&fen=F&limit=20`
//! - `game`: `/api/game/ID`
//! - `position`: `/api/position?variant=V&fen=F`
//! - `board`: `/board.svg?variant=V&fen=F&clickable=1`
//!
//! (V the game's preset, F the position's numeric FEN). After one pass to
//! warm the caches, prints per route the median, the 99th percentile and
//! the slowest, in ms, of the time the server measured (its
//! `Server-Timing: app;dur=…` header, around the handler) and of the time
//! the client waited (request written to answer read), with the request
//! of the slowest.

mod sample;
mod served;

use served::Server;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use pdndb::notation::write_fen;
use pdndb::{Mode, Store};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

/// One keep-alive connection.
struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

/// What one request took: the server's measure and the client's, in ms,
/// and the body's length.
struct Timed {
    server: f64,
    client: f64,
    bytes: usize,
}

impl Client {
    fn connect(address: SocketAddr) -> Client {
        let stream = TcpStream::connect(address).expect("a connection");
        stream.set_nodelay(true).expect("no delay");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("a timeout");
        Client {
            reader: BufReader::new(stream.try_clone().expect("the stream")),
            writer: stream,
        }
    }

    /// `GET target`, expecting 200.
    fn get(&mut self, target: &str) -> Timed {
        let began = Instant::now();
        self.writer
            .write_all(format!("GET {target} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes())
            .expect("the request is sent");
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("a status line");
        let status = line.split(' ').nth(1).unwrap_or_default().to_string();
        let (mut length, mut chunked, mut server) = (0, false, f64::NAN);
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("a header");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let Some((name, value)) = header.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().unwrap_or(0),
                "transfer-encoding" => chunked = value.contains("chunked"),
                "server-timing" => {
                    server = value
                        .split("dur=")
                        .nth(1)
                        .and_then(|d| d.parse().ok())
                        .unwrap_or(f64::NAN);
                }
                _ => {}
            }
        }
        let body = if chunked {
            self.chunks()
        } else {
            let mut body = vec![0; length];
            self.reader.read_exact(&mut body).expect("the body");
            body
        };
        let client = began.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(
            status,
            "200",
            "{target}: {}",
            String::from_utf8_lossy(&body)
        );
        Timed {
            server,
            client,
            bytes: body.len(),
        }
    }

    /// A chunked body.
    fn chunks(&mut self) -> Vec<u8> {
        let mut body = Vec::new();
        let mut line = String::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("a chunk size");
            let size = usize::from_str_radix(line.trim(), 16).expect("a chunk size");
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).expect("a chunk");
            if size == 0 {
                return body;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some(db) = args.first() else {
        eprintln!(
            "usage: cargo bench --bench serve_latency -- DB [N]  (builds and starts target/release/pdndb)"
        );
        std::process::exit(2);
    };
    let wanted: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(300);
    let (games, sampled) = {
        let store = Store::open(std::path::Path::new(db), Mode::Read).expect("a pdndb database");
        (
            store.game_count().expect("the games"),
            sample::positions(&store, wanted),
        )
    };
    let (at, routes) = routes(&sampled);
    let server = Server::start(db);
    let mut client = Client::connect(server.address);
    println!(
        "{db}: {games} games, {} positions (plies 0–40), over HTTP/1.1 keep-alive",
        sampled.len()
    );
    for (_, targets) in &routes {
        for target in targets {
            client.get(target);
        }
    }
    println!(
        "{:<9} {:>26}   {:>26}   {:>9}",
        "route", "server p50 / p99 / max ms", "client p50 / p99 / max ms", "bytes p50"
    );
    for (name, targets) in &routes {
        let timed: Vec<Timed> = targets.iter().map(|t| client.get(t)).collect();
        let slowest = timed
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.server.total_cmp(&b.1.server))
            .map_or(0, |(i, _)| i);
        let mut server: Vec<f64> = timed.iter().map(|t| t.server).collect();
        let mut client: Vec<f64> = timed.iter().map(|t| t.client).collect();
        let mut bytes: Vec<f64> = timed.iter().map(|t| t.bytes as f64).collect();
        let (s50, s99, smax) = sample::percentiles(&mut server);
        let (c50, c99, cmax) = sample::percentiles(&mut client);
        let (b50, _, _) = sample::percentiles(&mut bytes);
        println!(
            "{name:<9} {s50:8.2} {s99:8.2} {smax:8.2}   {c50:8.2} {c99:8.2} {cmax:8.2}   {b50:9.0}   \
             slowest: {} (ply {})",
            targets[slowest], at[slowest].2
        );
    }
}

/// Each route's requests at the sampled positions, and the positions'
/// (variant, FEN, ply) as written in them.
#[allow(clippy::type_complexity)]
fn routes(
    sampled: &[sample::Sampled],
) -> (
    Vec<(String, String, usize)>,
    Vec<(&'static str, Vec<String>)>,
) {
    let encode = |text: &str| utf8_percent_encode(text, NON_ALPHANUMERIC).to_string();
    let at: Vec<(String, String, usize)> = sampled
        .iter()
        .map(|s| (encode(&s.preset), encode(&write_fen(&s.position)), s.ply))
        .collect();
    let routes: Vec<(&str, Vec<String>)> = vec![
        (
            "tree",
            at.iter()
                .map(|(v, f, _)| format!("/api/tree?variant={v}&fen={f}&notation=numeric"))
                .collect(),
        ),
        (
            "search",
            at.iter()
                .map(|(v, f, _)| format!("/api/search?variant={v}&fen={f}&limit=20"))
                .collect(),
        ),
        (
            "game",
            sampled
                .iter()
                .map(|s| format!("/api/game/{}", s.game))
                .collect(),
        ),
        (
            "position",
            at.iter()
                .map(|(v, f, _)| format!("/api/position?variant={v}&fen={f}"))
                .collect(),
        ),
        (
            "board",
            at.iter()
                .map(|(v, f, _)| format!("/board.svg?variant={v}&fen={f}&clickable=1"))
                .collect(),
        ),
    ];
    (at, routes)
}
