//! Many clients at once against a running `pdndb serve`: each opens its
//! own connection, asks one request and reads the whole answer. Used by
//! the serve memory guard (`serve_load.rs`) and by the benchmark that
//! measures it (`benches/serve_load.rs`, which includes this file).

use std::collections::BTreeMap;
use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What one round of requests got.
#[derive(Debug, Default)]
pub struct Round {
    /// Answers by status code.
    pub statuses: BTreeMap<u16, usize>,
    /// 503 answers without a `Retry-After` header.
    pub busy_without_retry_after: usize,
    /// The body of the first 503 answer.
    pub busy_body: Option<String>,
    /// 200 answers whose body is not a JSON array of the length asked for.
    pub short_pages: usize,
    /// Requests that got no answer (connection refused or reset), with
    /// the first reason.
    pub failed: usize,
    /// Why the first failed request failed.
    pub first_failure: Option<String>,
    /// Bytes read in all.
    pub bytes: usize,
}

impl Round {
    /// Answers with this status.
    pub fn count(&self, status: u16) -> usize {
        self.statuses.get(&status).copied().unwrap_or(0)
    }
}

/// What one request got.
enum Outcome {
    Answer {
        status: u16,
        retry_after: bool,
        records: Option<usize>,
        bytes: usize,
        body: Option<String>,
    },
    Failed(String),
}

/// `clients` requests for `target` at once, each on its own connection
/// (`Connection: close`); returns when every answer is read. A 200 answer
/// is counted short unless its body is a JSON array of `records` items.
pub async fn round(address: SocketAddr, target: &str, clients: usize, records: usize) -> Round {
    let tasks: Vec<_> = (0..clients)
        .map(|_| tokio::spawn(ask(address, target.to_string())))
        .collect();
    let mut round = Round::default();
    for task in tasks {
        match task.await {
            Ok(Outcome::Answer {
                status,
                retry_after,
                records: got,
                bytes,
                body,
            }) => {
                *round.statuses.entry(status).or_default() += 1;
                round.bytes += bytes;
                if status == 503 {
                    round.busy_without_retry_after += usize::from(!retry_after);
                    if round.busy_body.is_none() {
                        round.busy_body = body;
                    }
                }
                if status == 200 && got != Some(records) {
                    round.short_pages += 1;
                }
            }
            Ok(Outcome::Failed(why)) => {
                round.failed += 1;
                round.first_failure.get_or_insert(why);
            }
            Err(e) => {
                round.failed += 1;
                round.first_failure.get_or_insert(e.to_string());
            }
        }
    }
    round
}

/// One request on its own connection.
async fn ask(address: SocketAddr, target: String) -> Outcome {
    let request = format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    let mut bytes = Vec::new();
    let read = async {
        let mut stream = TcpStream::connect(address).await?;
        stream.write_all(request.as_bytes()).await?;
        stream.read_to_end(&mut bytes).await
    };
    if let Err(e) = read.await {
        return Outcome::Failed(e.to_string());
    }
    let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Outcome::Failed(format!("no header in {} bytes", bytes.len()));
    };
    let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let retry_after = head.lines().any(|l| l.starts_with("retry-after:"));
    let body = &bytes[end + 4..];
    let records = (status == 200 && !head.contains("transfer-encoding: chunked"))
        .then(|| serde_json::from_slice::<Vec<serde::de::IgnoredAny>>(body).ok())
        .flatten()
        .map(|list| list.len());
    Outcome::Answer {
        status,
        retry_after,
        records,
        bytes: bytes.len(),
        body: (status != 200).then(|| String::from_utf8_lossy(body).into_owned()),
    }
}

/// A process's resident memory now and at its peak (`VmRSS`, `VmHWM`), in
/// KiB, read from `/proc`; `None` where there is no such file.
pub fn resident_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}
