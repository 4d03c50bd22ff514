//! Tests that cannot run here say so, where a passing run shows it.
//!
//! The test harness captures what a test prints with `eprintln!` and shows
//! it only when the test fails, so a skip said that way is silent in a
//! passing run. [`skip`] writes to the process's standard error itself,
//! which the harness does not capture: every run shows
//! `SKIPPED test: reason`.
//!
//! Two kinds of skip:
//! * [`skip`]: the test may skip anywhere, CI included (the corpus in
//!   `../shared/corpus`, root for a read-only mount);
//! * [`must_run`]: `.ci/run` provides what the test needs (Chromium and its
//!   WebDriver, `script`, `man`), so with `CI` set the test fails instead.

use std::io::Write;
use std::path::PathBuf;

use crate::crate_path;

/// Says that `test` is skipped, and why, on the process's standard error.
pub fn skip(test: &str, reason: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
}

/// As [`skip`], for a test that must run in CI: with `CI` set, panics
/// naming the test and what it lacks.
pub fn must_run(test: &str, reason: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{test} must run when CI is set, but cannot: {reason}"
    );
    skip(test, reason);
}

/// `relative` under the shared corpus (`../shared/corpus` beside the
/// crate), or `None` after saying that `test` is skipped without it.
pub fn corpus(test: &str, relative: &str) -> Option<PathBuf> {
    let path = crate_path("../shared/corpus").join(relative);
    if path.exists() {
        Some(path)
    } else {
        skip(test, &format!("{} is not present", path.display()));
        None
    }
}

#[cfg(test)]
mod tests {
    use std::process::{Command, Output};

    use super::{must_run, skip};

    /// Runs one of the ignored tests below in a child process of this
    /// test binary, with the harness capturing its output as usual.
    fn run_alone(test: &str, ci: bool) -> Output {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command.args([test, "--exact", "--ignored", "--test-threads=1"]);
        if ci {
            command.env("CI", "true");
        } else {
            command.env_remove("CI");
        }
        command.output().unwrap()
    }

    #[test]
    #[ignore = "run as a child process by the test below"]
    fn a_test_that_may_skip() {
        skip("a_test_that_may_skip", "what it needs is absent");
    }

    #[test]
    #[ignore = "run as a child process by the test below"]
    fn a_test_that_must_run_in_ci() {
        must_run("a_test_that_must_run_in_ci", "what it needs is absent");
    }

    #[test]
    fn skips_show_in_a_passing_run_and_fail_in_ci_when_they_must_run() {
        let cases = [
            ("skip::tests::a_test_that_may_skip", false, true),
            ("skip::tests::a_test_that_may_skip", true, true),
            ("skip::tests::a_test_that_must_run_in_ci", false, true),
            ("skip::tests::a_test_that_must_run_in_ci", true, false),
        ];
        for (test, ci, passes) in cases {
            let out = run_alone(test, ci);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stdout.contains("1 passed") || stdout.contains("1 failed"));
            assert_eq!(out.status.success(), passes, "{test} (CI: {ci}): {stdout}");
            let name = test.rsplit("::").next().unwrap();
            let said = format!("SKIPPED {name}: what it needs is absent\n");
            if passes {
                // Shown although the harness captures the test's output.
                assert!(stderr.contains(&said), "{test} (CI: {ci}): {stderr}");
            } else {
                assert!(
                    stdout.contains(&format!("{name} must run when CI is set, but cannot")),
                    "{test}: {stdout}"
                );
            }
        }
    }

    /// Every skip goes through this module: a skip written with
    /// `eprintln!` would be silent in a passing run again.
    #[test]
    fn no_test_skips_with_eprintln() {
        let folder = crate::crate_path("tests/integration");
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("skip.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (k, window) in lines.windows(3).enumerate() {
                let joined = window.join(" ").to_lowercase();
                assert!(
                    !(window[0].contains("eprintln!") && joined.contains("skip")),
                    "{}:{}: a skip said with eprintln! is silent in a passing run; \
                     use skip::skip or skip::must_run",
                    path.display(),
                    k + 1
                );
            }
        }
    }
}
