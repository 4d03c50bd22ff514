//! `pdndb serve` through the real binary: its JSON API answers as the
//! commands do, refuses bad and hostile requests clearly (never a 500),
//! and keeps serving through imports, disconnects and bad input.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::{crate_path, json_lines, run};

/// A running `pdndb serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub address: SocketAddr,
}

impl Server {
    /// Starts `pdndb --db DB serve --port 0 ARGS…` and reads the address it
    /// prints.
    pub fn start(db: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("pdndb"))
            .arg("--db")
            .arg(db)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .parse()
            .unwrap();
        Server { child, address }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `GET target`: status, headers (names lower case) and body.
    pub fn get(&self, target: &str) -> Response {
        self.request(&format!(
            "GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        ))
    }

    /// Sends raw request bytes and reads the whole answer.
    pub fn request(&self, raw: &str) -> Response {
        let mut stream = TcpStream::connect(self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.write_all(raw.as_bytes()).unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        Response::parse(&bytes)
    }

    /// `GET target` expecting 200 and JSON.
    pub fn json(&self, target: &str) -> Value {
        let response = self.get(target);
        assert_eq!(response.status, 200, "{target}: {}", response.body);
        serde_json::from_str(&response.body).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers, names lower case.
    pub headers: Vec<(String, String)>,
    /// Body (chunked bodies joined).
    pub body: String,
}

impl Response {
    fn parse(bytes: &[u8]) -> Response {
        let text = String::from_utf8_lossy(bytes);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        let body = if chunked {
            unchunk(body)
        } else {
            body.to_string()
        };
        Response {
            status,
            headers,
            body,
        }
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The body of a chunked answer.
fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || after.len() < size {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    out
}

/// A database of the sample archive.
pub fn sample_db(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("db.sqlite");
    let sample = crate_path("sample-pdn");
    let (_, err, code) = run(&db, &["import", "--quiet", sample.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    db
}

/// The JSON lines a command prints, as one array.
fn command_json(db: &Path, args: &[&str]) -> Value {
    let (out, err, code) = run(db, args);
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    Value::Array(json_lines(&out))
}

#[test]
fn the_api_answers_as_the_commands_do() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let (stats, _, _) = run(&db, &["stats", "--json"]);
    assert_eq!(
        server.json("/api/stats"),
        serde_json::from_str::<Value>(&stats).unwrap()
    );
    assert_eq!(
        server.json("/api/tree"),
        command_json(&db, &["tree", "--json"])
    );
    assert_eq!(
        server.json("/api/tree?variant=english&moves=11-15%2023-19&notation=numeric"),
        command_json(
            &db,
            &[
                "tree",
                "--json",
                "--variant",
                "english",
                "--moves",
                "11-15 23-19",
                "--notation",
                "numeric"
            ]
        )
    );
    assert_eq!(
        server.json("/api/games?limit=1000&sort=date"),
        command_json(
            &db,
            &["games", "--json", "--limit", "1000", "--sort", "date"]
        )
    );
    assert_eq!(
        server.json("/api/games?player=reyes&limit=1000"),
        command_json(
            &db,
            &["games", "--json", "--limit", "1000", "--player", "reyes"]
        )
    );
    assert_eq!(
        server.json("/api/report?limit=1000"),
        command_json(&db, &["report", "--json"])
    );
    assert_eq!(
        server.json("/api/report?status=ambiguous"),
        command_json(&db, &["report", "--json", "--status", "ambiguous"])
    );
    // search: the command's fields, plus status, plies and cleaned tags.
    let api = server.json("/api/search?moves=22-18");
    let cli = command_json(&db, &["search", "--json", "--moves", "22-18"]);
    let api_games = api.as_array().unwrap();
    assert!(!api_games.is_empty());
    assert_eq!(api_games.len(), cli.as_array().unwrap().len());
    for (a, c) in api_games.iter().zip(cli.as_array().unwrap()) {
        for (field, value) in c.as_object().unwrap() {
            assert_eq!(&a[field], value, "{field}");
        }
        assert!(a["status"].is_string() && a["cleaned_tags"].is_object());
    }
    // Pages of a listing: the total in a header, pages that join up.
    let first = server.get("/api/search?moves=22-18&limit=2");
    let total: usize = first.header("x-total-count").unwrap().parse().unwrap();
    assert_eq!(total, api_games.len());
    let second = server.json("/api/search?moves=22-18&limit=2&offset=2");
    let joined: Vec<Value> = serde_json::from_str::<Vec<Value>>(&first.body)
        .unwrap()
        .into_iter()
        .chain(second.as_array().unwrap().iter().cloned())
        .collect();
    assert_eq!(joined[..], api_games[..joined.len()]);
    // Numbers too large never wrap round: an offset past the end gives
    // nothing; one past what is served, or an id past i64, is refused.
    for route in ["/api/games", "/api/search", "/api/report"] {
        let past = server.get(&format!("{route}?offset=100000"));
        assert_eq!(past.status, 200, "{route}: {}", past.body);
        assert_eq!(past.body.trim(), "[]", "{route}");
        for offset in ["9223372036854775807", "18446744073709551615"] {
            let r = server.get(&format!("{route}?offset={offset}&limit={offset}"));
            assert_eq!(r.status, 400, "{route} {offset}: {}", r.body);
            assert!(
                r.body.contains("offset") || r.body.contains("limit"),
                "{}",
                r.body
            );
        }
    }
    for id in ["9223372036854775807", "18446744073709551615"] {
        let r = server.get(&format!("/api/game/{id}"));
        assert!([400, 404].contains(&r.status), "{id}: {}", r.body);
    }
}

#[test]
fn the_explorer_line_gives_legal_moves_and_the_board_their_squares() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let line = server.json("/api/position?variant=filipino&moves=22-18,11-15");
    assert_eq!(line["moves"].as_array().unwrap().len(), 2);
    assert_eq!(line["side"], "white");
    // 18x11 is the one capture: named by its ends or its path.
    let legal = line["legal"].as_array().unwrap();
    assert!(
        legal
            .iter()
            .any(|m| m["move"] == "18x11" && m["captured"] == serde_json::json!([15]))
    );
    let after = server.json("/api/position?variant=filipino&moves=22-18,11-15,18x11");
    assert_eq!(after["moves"][2]["fen"], after["fen"]);
    let bad = server.get("/api/position?variant=filipino&moves=22-18,22-17");
    assert_eq!(bad.status, 400);
    assert!(
        bad.body
            .contains("ply 2: \\\"22-17\\\" is not a legal move here"),
        "{}",
        bad.body
    );
    // The board: clickable squares named by number, flipped on request.
    let fen = line["fen"].as_str().unwrap();
    let board = server.get(&format!(
        "/board.svg?variant=filipino&fen={}&clickable=1&flip=1&arrows=18x11",
        fen.replace(':', "%3A").replace(',', "%2C")
    ));
    assert_eq!(board.status, 200, "{}", board.body);
    assert_eq!(
        board.header("content-type"),
        Some("image/svg+xml; charset=utf-8")
    );
    let doc = roxmltree::Document::parse(&board.body).unwrap();
    let squares: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("sq"))
        .collect();
    assert_eq!(squares.len(), 32);
    // Flipped: square 32 is drawn in the top row, square 1 in the bottom.
    let y = |label: &str| {
        squares
            .iter()
            .find(|n| n.attribute("data-square") == Some(label))
            .and_then(|n| n.attribute("y"))
            .and_then(|y| y.parse::<f64>().ok())
            .unwrap()
    };
    assert!(y("32") < y("1"));
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("arrow"))
            .count(),
        1
    );
}

/// Values meant to break parsing, escaping or file access.
const HOSTILE: &[&str] = &[
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "%22%27%3E%3Cimg%20src%3Dx%3E",
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "99999999999999999999999999",
    "-1",
    "%00",
    "%FF%FE",
    "W%3AW99%3AB1",
];

#[test]
fn hostile_values_are_refused_on_every_route_and_never_echoed_as_markup() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let routes: &[(&str, &[&str])] = &[
        ("/api/stats", &["x"]),
        ("/api/tree", &["variant", "fen", "moves", "notation"]),
        (
            "/api/search",
            &[
                "fen", "moves", "limit", "offset", "player", "date", "result", "status",
            ],
        ),
        (
            "/api/games",
            &[
                "player", "event", "date", "result", "status", "variant", "sort", "limit", "offset",
            ],
        ),
        ("/api/game/1", &["ply", "notation"]),
        (
            "/api/report",
            &["status", "variant", "file", "resolved", "limit", "offset"],
        ),
        ("/api/position", &["variant", "fen", "moves", "notation"]),
        (
            "/board.svg",
            &[
                "variant",
                "fen",
                "notation",
                "flip",
                "last",
                "arrows",
                "clickable",
            ],
        ),
        (
            "/api/export",
            &[
                "player", "fen", "moves", "game", "status", "notation", "paths", "limit",
            ],
        ),
        ("/api/players", &["variant", "min_games"]),
        ("/", &["fen"]),
        ("/report", &["status"]),
        ("/players", &["name"]),
        ("/game/1", &["ply"]),
    ];
    let mut asked = 0;
    for (route, names) in routes {
        for name in *names {
            for value in HOSTILE {
                let target = format!("{route}?{name}={value}");
                let r = server.get(&target);
                asked += 1;
                assert!(
                    [200, 400, 404].contains(&r.status),
                    "{target}: {} {}",
                    r.status,
                    r.body
                );
                assert!(!r.body.contains("<script>alert"), "{target}: {}", r.body);
                assert!(!r.body.contains("<img src=x>"), "{target}");
                if route.starts_with("/api/") && r.status != 200 {
                    let error: Value = serde_json::from_str(&r.body)
                        .unwrap_or_else(|e| panic!("{target}: {e}: {}", r.body));
                    assert!(error["error"].as_str().is_some_and(|m| !m.is_empty()));
                }
            }
        }
    }
    assert!(asked > 300);
    // Paths: ids that are not ids, files that are not assets.
    for target in [
        "/api/game/abc",
        "/api/game/0",
        "/api/game/-5",
        "/api/game/99999999999999999999999",
        "/game/%3Cscript%3E",
        "/assets/..%2F..%2FCargo.toml",
        "/assets/%2e%2e/src/main.rs",
        "/../Cargo.toml",
        "/assets/",
        "/api/",
    ] {
        let r = server.get(target);
        assert!([400, 404].contains(&r.status), "{target}: {}", r.status);
        assert!(
            !r.body.contains("[package]") && !r.body.contains("fn main"),
            "{target}"
        );
    }
    assert_eq!(server.get("/api/game/99999").status, 404);
    // A target longer than read: 414, not a crash.
    let long = format!("/api/tree?fen={}", "W".repeat(20_000));
    assert_eq!(server.get(&long).status, 414);
    // Still serving.
    assert_eq!(server.get("/api/stats").status, 200);
}

#[test]
fn requests_that_name_another_host_are_refused_on_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let r = server
        .request("GET /api/stats HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n");
    assert_eq!(r.status, 403);
    let r = server.request(&format!(
        "GET /api/stats HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.address
    ));
    assert_eq!(r.status, 200);
    // Answers carry the headers that keep pages from being framed or fed
    // scripts from elsewhere, and how long they took.
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .contains("script-src 'self'")
    );
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert!(
        page.header("server-timing")
            .unwrap()
            .starts_with("app;dur=")
    );
    // Only reading: other methods are refused.
    let r = server.request(
        "POST /api/stats HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(r.status, 405);
}

#[test]
fn a_missing_database_a_newer_one_and_a_taken_port_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.sqlite");
    let (_, err, code) = run(&missing, &["serve", "--port", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("no database here"), "{err}");
    assert!(!missing.exists());

    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let port = server.address.port().to_string();
    // Not a usage error: the command was asked rightly and failed.
    let (_, err, code) = run(&db, &["serve", "--port", &port]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("port {port} is already in use")),
        "{err}"
    );
    drop(server);

    let newer = dir.path().join("newer.sqlite");
    std::fs::copy(&db, &newer).unwrap();
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 999")
        .unwrap();
    let (_, err, code) = run(&newer, &["serve", "--port", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("newer"), "{err}");
}

#[test]
fn it_keeps_serving_while_an_import_writes_and_after_clients_leave_early() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let archive = dir.path().join("many.pdn");
    let (pdn, _, code) = run(
        &db,
        &[
            "generate",
            "--games",
            "4000",
            "--seed",
            "7",
            "--variant",
            "filipino",
        ],
    );
    assert_eq!(code, 0);
    std::fs::write(&archive, pdn).unwrap();
    let server = Server::start(&db, &[]);
    let before = server.json("/api/stats")["games"].as_u64().unwrap();
    let mut import = Command::new(assert_cmd::cargo::cargo_bin("pdndb"))
        .arg("--db")
        .arg(&db)
        .args(["import", "--quiet"])
        .arg(&archive)
        .spawn()
        .unwrap();
    // Queries keep being answered while the import runs.
    let mut answered = 0;
    while import.try_wait().unwrap().is_none() {
        for target in ["/api/stats", "/api/tree", "/api/games?limit=5"] {
            assert_eq!(server.get(target).status, 200, "{target}");
            answered += 1;
        }
    }
    assert!(import.wait().unwrap().success());
    assert!(answered > 0);
    let after = server.json("/api/stats")["games"].as_u64().unwrap();
    assert_eq!(after, before + 4000);
    // Clients that go away before their answer is read.
    for _ in 0..20 {
        let mut stream = TcpStream::connect(server.address).unwrap();
        let _ = stream.write_all(b"GET /api/games?limit=1000 HTTP/1.1\r\nHost: localhost\r\n\r\n");
        drop(stream);
        let mut half = TcpStream::connect(server.address).unwrap();
        let _ = half.write_all(b"GET /api/tr");
    }
    assert_eq!(
        server
            .json("/api/games?limit=1000")
            .as_array()
            .unwrap()
            .len(),
        1000
    );
}

#[test]
fn a_value_that_does_not_fit_is_named_as_each_front_end_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let plies = command_json(&db, &["show", "1", "--json"])[0]["moves"]
        .as_array()
        .unwrap()
        .len();
    let beyond = (plies + 5).to_string();
    let why = format!("game 1 has {plies} plies: there is no position {beyond}");
    // The command line names the option, the server the parameter.
    let (out, err, code) = run(&db, &["show", "1", "--ply", &beyond]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains(&format!("--ply: {why}")), "{err}");
    let server = Server::start(&db, &[]);
    let r = server.get(&format!("/api/game/1?ply={beyond}"));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains(&format!("ply: {why}")), "{}", r.body);
    assert!(!r.body.contains("--"), "{}", r.body);
    // A notation is read once, into its type, by either front end.
    let r = server.get("/api/game/1?notation=chess");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("notation: ") && r.body.contains("chess"),
        "{}",
        r.body
    );
    let (_, err, code) = run(&db, &["show", "1", "--notation", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("--notation") && err.contains("chess"), "{err}");
    let r = server.get("/api/game/1?notation=LUZON");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains(r#""notation":"luzon""#), "{}", r.body);
}

#[test]
fn the_site_has_an_icon() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let server = Server::start(&db, &[]);
    let r = server.get("/favicon.ico");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.starts_with("<svg"), "{}", r.body);
    let page = server.get("/");
    assert!(page.body.contains(r#"rel="icon""#), "{}", page.body);
}

#[test]
fn every_listing_row_says_who_moves_first() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("two.pdn");
    std::fs::write(
        &pdn,
        "[White \"Wyllie\"]\n[Black \"Anderson\"]\n[GameType \"21\"]\n[Result \"1-0\"]\n\n\
         1. 11-15 23-19 2. 8-11 22-17 1-0\n\n\
         [White \"Derkx\"]\n[Black \"Meijer\"]\n[GameType \"20\"]\n[Result \"2-0\"]\n\n\
         1. 32-28 19-23 2. 28x19 14x23 2-0\n",
    )
    .unwrap();
    let db = dir.path().join("db.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let first = |rows: &Value| -> Vec<(String, String)> {
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let variant = r["variant"].as_str().unwrap();
                (
                    variant.to_string(),
                    r["first_side"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let both = vec![
        ("english".to_string(), "black".to_string()),
        ("international".to_string(), "white".to_string()),
    ];
    let (out, err, code) = run(&db, &["games", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(first(&Value::Array(json_lines(&out))), both);
    let server = Server::start(&db, &[]);
    assert_eq!(first(&server.json("/api/games")), both);
    assert_eq!(first(&server.json("/api/games?player=Anderson")), both[..1]);
    assert_eq!(first(&server.json("/api/report?status=ok")), both);
    assert_eq!(
        first(&server.json("/api/search?variant=english&moves=11-15")),
        both[..1]
    );
    assert_eq!(
        first(&server.json("/api/search?variant=international&moves=32-28")),
        both[1..]
    );
    for (id, side) in [(1, "black"), (2, "white")] {
        assert_eq!(server.json(&format!("/api/game/{id}"))["first_side"], side);
    }
    // The explorer's line numbers its moves from the same side.
    let line = server.json("/api/position?variant=english");
    assert_eq!(line["first_side"], "black");
}

#[test]
fn refusals_and_record_messages_carry_a_code_and_its_parts() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let messages = crate_path("tests/data/messages.pdn");
    let (_, err, code) = run(&db, &["import", "--quiet", messages.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let server = Server::start(&db, &[]);
    let refused = |target: &str, code: &str| -> Value {
        let r = server.get(target);
        assert_eq!(r.status, 400, "{target}: {}", r.body);
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(body["code"], code, "{target}: {body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}"
        );
        body["parts"].clone()
    };
    let parts = refused("/api/games?date=2019.13", "bad_date_range");
    assert_eq!(
        (&parts["param"], &parts["value"]),
        (&"date".into(), &"2019.13".into())
    );
    let parts = refused(
        "/api/position?variant=filipino&moves=22-18,22-17",
        "move_not_legal_here",
    );
    assert_eq!(parts["ply"], 2);
    assert_eq!(parts["token"], "\"22-17\"");
    assert!(
        parts["legal"].as_str().unwrap().contains("11-15"),
        "{parts}"
    );
    let parts = refused(
        "/api/search?variant=filipino&pattern=W%3AW99",
        "bad_pattern",
    );
    assert_eq!(parts["param"], "pattern");
    let parts = refused("/api/tree?variant=chess", "unknown_variant");
    assert_eq!(parts["value"], "chess");
    assert!(
        parts["expected"]
            .as_str()
            .unwrap()
            .starts_with("filipino, ")
    );
    let parts = refused("/api/tree?fen=W:Wzz", "bad_fen");
    assert_eq!(
        parts["fen"],
        serde_json::json!({"code": "not_a_square", "parts": {"text": "zz"}})
    );
    let parts = refused("/api/tree?variant=english&fen=W:W5,5:B9", "bad_fen");
    assert_eq!(parts["fen"]["code"], "invalid_position");
    assert_eq!(
        parts["fen"]["parts"]["problems"][0],
        serde_json::json!({"code": "two_pieces", "parts": {"square": 5}})
    );
    let parts = refused(
        "/api/tree?variant=filipino%2Bking-first%3Dmaybe",
        "bad_rules",
    );
    assert_eq!(
        parts["switch"],
        serde_json::json!({"code": "not_a_value_of",
            "parts": {"key": "king-first", "value": "maybe", "expected": ["on", "off"]}})
    );
    let parts = refused("/api/tree?variant=frisian", "variant_absent");
    let held = parts["held"].as_array().unwrap();
    assert!(!held.is_empty(), "{parts}");
    assert!(
        held.iter().all(|h| h["games"].as_i64() > Some(0)),
        "{parts}"
    );
    refused("/api/games?limit=x", "not_in_range");
    refused("/api/games?nothing=1", "unknown_parameter");
    refused("/api/tree?fen=W:W21&moves=22-18", "fen_and_moves");
    let parts = refused(
        "/api/search?variant=filipino&moves=32-28",
        "legal_elsewhere",
    );
    assert_eq!(parts["reason"]["code"], "illegal_move", "{parts}");
    assert_eq!(parts["reason"]["parts"]["token"], "32-28", "{parts}");
    // 404, 414: a code and its parts too.
    let not_found = |target: &str, code: &str| {
        let r = server.get(target);
        assert_eq!(r.status, 404, "{target}: {}", r.body);
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(body["code"], code, "{body}");
        body
    };
    let body = not_found("/api/nowhere", "no_such_route");
    assert_eq!(body["error"], "no such route: /api/nowhere");
    assert_eq!(body["parts"]["path"], "/api/nowhere");
    let body = not_found("/api/game/99999", "no_such_game");
    assert_eq!(body["error"], "no game 99999 in the database");
    assert_eq!(body["parts"]["id"], 99999);
    let long = server.get(&format!("/api/games?player={}", "a".repeat(9000)));
    assert_eq!(long.status, 414, "{}", long.body);
    let body: Value = serde_json::from_str(&long.body).unwrap();
    assert_eq!(body["code"], "request_too_long", "{body}");
    assert_eq!(body["parts"]["most"], 8192, "{body}");
    // The records of the report: the code and parts of their message.
    let records = server.json("/api/report?file=messages");
    let by_code: Vec<(String, String, Value)> = records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let key = &r["message_key"];
            (
                r["message"].as_str().unwrap().to_string(),
                key["code"].as_str().unwrap().to_string(),
                key["parts"].clone(),
            )
        })
        .collect();
    let codes: Vec<&str> = by_code.iter().map(|(_, code, _)| code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "illegal_move",
            "unusable_fen",
            "unusable_fen",
            "unusable_fen",
            "game_not_played",
            "unknown_game_type",
            "square_beyond_boards"
        ],
        "{records}"
    );
    let (message, code, parts) = &by_code[0];
    assert_eq!(code, "illegal_move");
    assert!(message.contains("; the tag says international, but the moves are on 8×8"));
    assert_eq!(parts["tag"], "international");
    assert_eq!(parts["board"], "8×8");
    assert_eq!(parts["ply"], "1 (1.)");
    let (message, _, parts) = &by_code[1];
    assert_eq!(message, &format!("FEN: {}", parts["why"].as_str().unwrap()));
    // The FEN's fault as a code and its parts.
    let fen = |i: usize| by_code[i].2["fen"].clone();
    assert_eq!(
        fen(1)["parts"]["problems"][0],
        serde_json::json!({"code": "two_pieces", "parts": {"square": 18}})
    );
    assert_eq!(
        fen(2)["parts"]["problems"][0],
        serde_json::json!({"code": "man_on_crowning_row", "parts": {"square": 1, "colour": "white"}})
    );
    assert_eq!(
        fen(3),
        serde_json::json!({"code": "not_a_side", "parts": {"text": "X"}})
    );
    // Games pdndb does not play: their message as a code and its parts.
    assert_eq!(
        by_code[4].2,
        serde_json::json!({"game_type": "0", "game": "chess"})
    );
    assert_eq!(
        by_code[4].0,
        "GameType \"0\" is chess, a game pdndb does not play"
    );
    assert_eq!(by_code[5].2, serde_json::json!({"game_type": "77"}));
    assert_eq!(by_code[6].2, serde_json::json!({"square": "60"}));
    // `check --json` writes the same.
    let (out, _, code) = run(&db, &["check", "--json", messages.to_str().unwrap()]);
    assert_eq!(code, 1);
    let checked = json_lines(&out);
    assert_eq!(checked[0]["message_key"], Value::Null);
    assert_eq!(checked[1]["message_key"]["code"], "illegal_move");
    no_board_carries_its_reason(&server, &db);
    drop(server);
    a_database_gone_is_refused_with_its_cause(dir.path());
}

/// A game without a board says why as a code and its parts: in its view
/// (`no_board_message` beside `no_board`), and when a ply of it is asked
/// for (400 `no_board`), the record's own message within.
fn no_board_carries_its_reason(server: &Server, db: &Path) {
    let id_of = |event: &str| {
        let (out, err, code) = run(db, &["games", "--json", "--event", event]);
        assert_eq!(code, 0, "{err}");
        json_lines(&out)[0]["game"].as_i64().unwrap()
    };
    for (event, status, reason) in [
        ("Set-up unusable", "unreadable", "unusable_fen"),
        ("Chess", "unsupported", "game_not_played"),
    ] {
        let id = id_of(event);
        let game = server.json(&format!("/api/game/{id}"));
        let said = &game["no_board_message"];
        assert_eq!(said["code"], "not_replayed_because", "{game}");
        assert_eq!(said["parts"]["status"], status, "{said}");
        assert_eq!(said["parts"]["reason"]["code"], reason, "{said}");
        assert_eq!(
            game["no_board"].as_str().unwrap(),
            format!(
                "the game is {status}: {}",
                said["parts"]["why"].as_str().unwrap()
            )
        );
        let r = server.get(&format!("/api/game/{id}?ply=1"));
        assert_eq!(r.status, 400, "{}", r.body);
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(body["code"], "no_board", "{body}");
        assert_eq!(body["parts"]["id"], id, "{body}");
        assert_eq!(body["parts"]["reason"], *said, "{body}");
        assert_eq!(
            body["error"].as_str().unwrap(),
            format!(
                "game {id} has no board to show: {}",
                game["no_board"].as_str().unwrap()
            )
        );
    }
}

/// A database made unusable under a running server — its file replaced by
/// bytes that are no database, then removed — is refused (503
/// `database_unavailable`) with its cause as a code.
fn a_database_gone_is_refused_with_its_cause(dir: &Path) {
    let db = dir.join("gone.sqlite");
    let messages = crate_path("tests/data/messages.pdn");
    let (_, err, code) = run(&db, &["import", "--quiet", messages.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let server = Server::start(&db, &[]);
    let cause = |expected: &str| {
        let r = server.get("/api/games");
        assert_eq!(r.status, 503, "{}", r.body);
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(body["code"], "database_unavailable", "{body}");
        assert_eq!(body["parts"]["cause"]["code"], expected, "{body}");
        assert_eq!(body["parts"]["why"], body["error"], "{body}");
        body
    };
    for companion in ["gone.sqlite-wal", "gone.sqlite-shm"] {
        let _ = std::fs::remove_file(dir.join(companion));
    }
    std::fs::write(&db, vec![b'x'; 8192]).unwrap();
    cause("not_a_database");
    std::fs::remove_file(&db).unwrap();
    let body = cause("database_missing");
    assert!(
        body["error"].as_str().unwrap().contains("no database here"),
        "{body}"
    );
}
