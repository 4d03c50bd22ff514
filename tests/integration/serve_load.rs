//! `pdndb serve` under load keeps its memory bounded: rounds of hundreds
//! of clients asking at once for a page of 1,000 games. Beyond the
//! requests it answers and those it lets wait, it answers 503 with
//! `Retry-After` at once, so its resident memory (`VmRSS`, `VmHWM` from
//! `/proc`) stays under a bound and stops growing from round to round. No
//! timing is measured.

use std::path::Path;

use serde_json::Value;

use super::generate;
use super::http_load::{resident_kib, round};
use super::run;
use super::serve::Server;

/// Clients asking at once, in each round.
const CLIENTS: usize = 400;
/// Games per page.
const PAGE: usize = 1000;
/// Every game starts at the initial position: a full page each time.
const TARGET: &str = "/api/search?fen=W%3AW21-32%3AB1-12&limit=1000";

/// A database of 2,000 generated Filipino games in `dir`.
fn database(dir: &Path) -> std::path::PathBuf {
    let archive = dir.join("games.pdn");
    generate(&archive, "filipino", 2 * PAGE, 3);
    let db = dir.join("games.sqlite");
    let (_, err, code) = run(&db, &["import", "--quiet", archive.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    db
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_memory_stays_bounded_under_rounds_of_concurrent_searches() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&database(dir.path()), &[]);
    let mut resident = Vec::new();
    for number in 1..=3 {
        let got = round(server.address, TARGET, CLIENTS, PAGE).await;
        let (rss, peak) = resident_kib(server.pid()).expect("the server's /proc status");
        resident.push((rss / 1024, peak / 1024));
        assert_eq!(got.failed, 0, "round {number}: {:?}", got.first_failure);
        assert_eq!(got.count(200) + got.count(503), CLIENTS, "{got:?}");
        assert!(got.count(200) > 0, "round {number}: nothing answered");
        assert_eq!(got.short_pages, 0, "round {number}");
    }
    // Still answering, in full, once the load is over.
    let after = server.get(TARGET);
    assert_eq!(after.status, 200);
    assert_eq!(after.header("x-total-count"), Some("2000"));
    let (first, _) = resident[0];
    let (last, peak) = resident[2];
    assert!(
        peak < 48,
        "serve peaked at {peak} MiB ({resident:?} MiB by round)"
    );
    assert!(
        last <= first + 6,
        "serve still grows: {first} → {last} MiB resident ({resident:?} MiB by round)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_beyond_those_waiting_are_refused_with_retry_after_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&database(dir.path()), &[]);
    // Far more clients than are answered and let wait at once; a query of
    // a page of 1,000 games lasts long enough that most find no place.
    let got = round(server.address, TARGET, CLIENTS, PAGE).await;
    assert_eq!(got.failed, 0, "{:?}", got.first_failure);
    assert!(got.count(503) > 0, "none refused: {got:?}");
    assert_eq!(got.busy_without_retry_after, 0, "{got:?}");
    assert_eq!(got.count(200) + got.count(503), CLIENTS, "{got:?}");
    let body: Value = serde_json::from_str(got.busy_body.as_deref().unwrap()).unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(message.contains("busy"), "{message}");
    assert_eq!(body["code"], "busy", "{body}");
    assert!(body["parts"]["seconds"].as_u64().is_some(), "{body}");
    // The refused ones were not kept: the server answers in full afterwards.
    let after = server.get(TARGET);
    assert_eq!(after.status, 200);
    assert_eq!(after.header("x-total-count"), Some("2000"));
    let page: Value = serde_json::from_str(&after.body).unwrap();
    assert_eq!(page.as_array().unwrap().len(), PAGE);
}
