#![allow(dead_code)] // each benchmark uses part of it

//! A `pdndb serve` started for a benchmark, shared by the benchmarks of
//! the web server.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// The binary measured: `$PDNDB_BIN`, else the one built with the
/// benchmarks.
pub fn binary() -> String {
    std::env::var("PDNDB_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_pdndb").to_string())
}

/// A `pdndb serve` started here, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub address: SocketAddr,
}

impl Server {
    /// Serves the database `db` on a port of the system's choosing.
    pub fn start(db: &str) -> Server {
        let mut child = Command::new(binary())
            .args(["--db", db, "serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("pdndb serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its output"))
            .read_line(&mut line)
            .expect("its first line");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, address }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
