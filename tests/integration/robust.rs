//! Robustness through the real binary: pathological inputs read by `check`
//! and `import` (bounded time and memory, neighbours intact), imports
//! killed at many moments then completed, and a disk that fills up.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{crate_path, integrity, json_lines};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pdndb")
}

const BEFORE: &str = "[Event \"before\"]\n1. 23-18 10-15 *\n\n";
const AFTER: &str = "\n\n[Event \"after\"]\n1. 23-18 10-15 *\n";

/// Full sizes in release builds (what CI runs), smaller in debug builds.
fn size(full: usize) -> usize {
    if cfg!(debug_assertions) {
        full / 10
    } else {
        full
    }
}

/// Runs the binary to its end; returns stdout, stderr, exit code and the
/// peak resident memory of the process in MiB (its `VmHWM`, sampled every
/// millisecond while it runs: the kernel's own accounting of a child
/// started from this large test process would include this process).
pub fn run_measured(args: &[&str], db: Option<&Path>) -> (String, String, i32, u64) {
    let mut command = Command::new(bin());
    if let Some(db) = db {
        command.arg("--db").arg(db);
    }
    let mut child = command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).unwrap();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut s).unwrap();
        String::from_utf8_lossy(&s).into_owned()
    });
    let (status, peak_kib) = wait_sampling_peak(&mut child);
    (
        out.join().unwrap(),
        err.join().unwrap(),
        status.code().unwrap_or(-1),
        peak_kib / 1024,
    )
}

/// Waits for a child, sampling its peak resident memory (KiB) meanwhile.
fn wait_sampling_peak(child: &mut Child) -> (std::process::ExitStatus, u64) {
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
    path
}

fn event(record: &Value) -> &str {
    record["tags"]["Event"].as_str().unwrap_or_default()
}

/// The pathological inputs of the reader and the replay, each between two
/// sound games.
pub fn pathological_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut inputs = Vec::new();
    // Binary garbage.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let garbage: Vec<u8> = (0..size(1 << 20))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    inputs.push(("garbage", garbage));
    // A 50 MB comment, closed, then one never closed.
    let comment = "a long comment, ".repeat(size(50 << 20) / 16);
    inputs.push((
        "comment",
        format!("[Event \"comment\"]\n1. 23-18 {{{comment}}} 10-15 *\n").into_bytes(),
    ));
    inputs.push((
        "unterminated comment",
        format!("[Event \"open comment\"]\n1. 23-18 {{{comment}").into_bytes(),
    ));
    // 100,000 nested parentheses.
    inputs.push((
        "nested parentheses",
        format!(
            "[Event \"deep\"]\n1. 23-18 {}{} 10-15 *\n",
            "(22-17 ".repeat(100_000),
            ")".repeat(100_000)
        )
        .into_bytes(),
    ));
    // A 10 MB line without a break.
    inputs.push((
        "long line",
        "x23-18 ".repeat(size(10 << 20) / 7).into_bytes(),
    ));
    // Invalid UTF-8 in tags and moves.
    inputs.push((
        "invalid utf-8",
        b"[Event \"\xff\xfe bad\"]\n[White \"M\xfcller\"]\n1. 23-18 \xc3\x28 10-15 *\n".to_vec(),
    ));
    // A 100,000-ply game.
    let mut long = String::from("[Event \"long\"]\n");
    for _ in 0..25_000 {
        long.push_str("1. 23-18 10-15 18-23 15-10 ");
    }
    long.push_str("*\n");
    inputs.push(("100,000 plies", long.into_bytes()));
    // A king endgame in Dama numbers: readings multiply.
    inputs.push((
        "exploding readings",
        format!(
            "[Event \"kings\"]\n[FEN \"W:WK29,K4,K13:BK1,K32,K20\"]\n[Notation \"Dama\"]\n{} *\n",
            crate::check::king_shuffle_in_dama(400)
        )
        .into_bytes(),
    ));
    // 40 kings in a FEN.
    let kings: Vec<String> = (1..=40).map(|s| format!("K{s}")).collect();
    inputs.push((
        "40 kings",
        format!(
            "[Event \"crowd\"]\n[GameType \"26,W,8,8,N2,0\"]\n[FEN \"W:W{}:B\"]\n*\n",
            kings.join(",")
        )
        .into_bytes(),
    ));
    inputs
}

#[test]
fn a_file_cut_anywhere_keeps_the_games_before_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        format!("{BEFORE}[Event \"cut\"]\n[White \"Müller\"]\n1. 23-18 10-15 2. 18-14 9x18 *\n");
    let cut_game = BEFORE.len();
    for cut in (cut_game + 1..text.len()).step_by(7) {
        let path = write(dir.path(), "cut.pdn", &text.as_bytes()[..cut]);
        let (out, err, code, _) = run_measured(&["check", "--json", path.to_str().unwrap()], None);
        assert!(code == 0 || code == 1, "cut at {cut}: exit {code}\n{err}");
        let records = json_lines(&out);
        assert_eq!(records[0]["status"], "ok", "cut at {cut}");
        assert_eq!(records.len(), 2, "cut at {cut}: {out}");
    }
}

#[test]
fn pathological_inputs_cost_no_neighbour_and_stay_bounded() {
    let dir = tempfile::tempdir().unwrap();
    for (name, middle) in pathological_inputs() {
        let mut bytes = BEFORE.as_bytes().to_vec();
        bytes.extend_from_slice(&middle);
        bytes.extend_from_slice(AFTER.as_bytes());
        let path = write(dir.path(), "input.pdn", &bytes);
        let file = path.to_str().unwrap();

        let began = Instant::now();
        let (out, err, code, peak) = run_measured(&["check", "--json", file], None);
        let took = began.elapsed();
        assert!(code == 0 || code == 1, "{name}: check exit {code}\n{err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        let records = json_lines(&out);
        let first = records.first().unwrap();
        let last = records.last().unwrap();
        assert_eq!(
            (event(first), &first["status"]),
            ("before", &Value::from("ok")),
            "{name}"
        );
        assert_eq!(
            (event(last), &last["status"]),
            ("after", &Value::from("ok")),
            "{name}: {last}"
        );
        // Text that is no game is reported as junk; anything else as a game.
        if name == "garbage" || name == "long line" {
            assert!(err.contains("junk between games"), "{name}: {err}");
        } else {
            assert!(records.len() >= 3, "{name}: the input itself is reported");
        }
        assert!(peak < 300, "{name}: check peaked at {peak} MiB");
        assert!(
            took < Duration::from_secs(120),
            "{name}: check took {took:?}"
        );

        let db = dir.path().join("robust.sqlite");
        let _ = std::fs::remove_file(&db);
        let (out, err, code, peak) = run_measured(&["import", "--json", file], Some(&db));
        assert_eq!(code, 0, "{name}: import exit {code}\n{err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        let summary: Value = serde_json::from_str(&out).unwrap();
        assert!(summary["ok"].as_u64().unwrap() >= 2, "{name}: {summary}");
        assert!(peak < 300, "{name}: import peaked at {peak} MiB");
        assert_eq!(integrity(&db), "ok", "{name}");
    }
}

/// What a database holds, for comparing two imports of the same files.
fn contents(db: &Path) -> Vec<String> {
    let conn = crate::open_with_index_rows(db);
    [
        "SELECT count(*) FROM game",
        "SELECT count(*) FROM provenance",
        "SELECT count(*) FROM source_file WHERE complete = 1",
        "SELECT count(*) FROM position",
        "SELECT total(key % 1000003) + total(game * ply) + total(coalesce(next, 0) * game) FROM position",
        "SELECT group_concat(status || moves_key, ',') FROM (SELECT status, moves_key FROM game ORDER BY id)",
    ]
    .iter()
    .map(|sql| {
        conn.query_row(sql, [], |r| r.get::<_, rusqlite::types::Value>(0))
            .map(|v| format!("{sql}: {v:?}"))
            .unwrap()
    })
    .collect()
}

fn import_command(db: &Path, inputs: &[&Path]) -> Command {
    let mut command = Command::new(bin());
    command
        .arg("--db")
        .arg(db)
        .args(["import", "--quiet"])
        .args(inputs)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// Starts an import and kills it (SIGKILL) after `delay`; whether it was
/// still running then.
fn import_killed_after(db: &Path, inputs: &[&Path], delay: Duration) -> bool {
    let mut child = import_command(db, inputs).spawn().unwrap();
    std::thread::sleep(delay);
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    child.wait().unwrap();
    running
}

#[test]
fn imports_killed_at_twenty_moments_are_completed_by_the_same_command() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("gen.pdn");
    let status = Command::new(bin())
        .args(["generate", "--games", "3000", "--seed", "21", "-o"])
        .arg(&archive)
        .status()
        .unwrap();
    assert!(status.success());
    let samples = crate_path("sample-pdn");
    let inputs: [&Path; 2] = [&samples, &archive];
    let fresh = dir.path().join("fresh.sqlite");
    let began = Instant::now();
    assert!(import_command(&fresh, &inputs).status().unwrap().success());
    let full = began.elapsed();
    let expected = contents(&fresh);

    let runs = 20;
    let mut killed = 0;
    for run in 0..runs {
        let db = dir.path().join(format!("killed-{run}.sqlite"));
        // Spread over the whole import, start to final index write.
        let delay = full.mul_f64((run as f64 + 0.5) / runs as f64);
        if import_killed_after(&db, &inputs, delay) {
            killed += 1;
        }
        assert_eq!(integrity(&db), "ok", "run {run}, killed after {delay:?}");
        // Every third run, the completing import is killed too.
        if run % 3 == 2 {
            import_killed_after(&db, &inputs, full / 3);
            assert_eq!(integrity(&db), "ok", "run {run}, second kill");
        }
        let status = import_command(&db, &inputs).status().unwrap();
        assert!(status.success(), "run {run}: the completing import failed");
        assert_eq!(integrity(&db), "ok", "run {run}");
        assert_eq!(contents(&db), expected, "run {run}, killed after {delay:?}");
    }
    assert!(
        killed >= runs / 2,
        "only {killed} of {runs} imports were still running when killed"
    );
}

#[test]
fn a_full_disk_gives_a_clear_message_and_an_intact_database() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("gen.pdn");
    let status = Command::new(bin())
        .args(["generate", "--games", "3000", "--seed", "5", "-o"])
        .arg(&archive)
        .status()
        .unwrap();
    assert!(status.success());
    let samples = crate_path("sample-pdn");
    let db = dir.path().join("full.sqlite");
    assert!(import_command(&db, &[&samples]).status().unwrap().success());
    let before = contents(&db);
    // No file of the process may grow beyond 2 MB: writes past that fail
    // as on a full disk (the signal the kernel sends then is ignored).
    let out = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 2048; exec \"$0\" --db \"$1\" import \"$2\"")
        .arg(bin())
        .arg(&db)
        .arg(&archive)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is the disk full"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(integrity(&db), "ok");
    let complete = |db: &Path| -> i64 {
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.query_row(
            "SELECT count(*) FROM source_file WHERE complete = 1",
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    let whole = dir.path().join("whole.sqlite");
    assert!(
        import_command(&whole, &[&samples])
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(
        complete(&db),
        complete(&whole),
        "the files imported before are intact"
    );
    assert_ne!(
        contents(&db),
        before,
        "some games were committed before the disk filled"
    );
    // With room again, the same command completes to what one import gives.
    assert!(import_command(&db, &[&archive]).status().unwrap().success());
    assert!(
        import_command(&whole, &[&archive])
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(contents(&db), contents(&whole));
}
