//! The `pdndb` examples of README.md and docs/manual.md, run by trycmd
//! against the real binary: every ```` ```console ```` block's `$ pdndb …`
//! commands run in order, in a temporary folder holding a copy of
//! `sample-pdn/`, and what each prints (standard output and error
//! together) and its exit code (`? N`, 0 when absent) must be what the
//! page shows, so a changed output is a visible diff. `[..]` in a shown
//! line stands for any text, `...` on a line of its own for any lines,
//! `[CWD]` for the temporary folder. `cargo …` commands are not run;
//! examples that cannot run here (`pdndb serve`, shell redirections) are
//! in ```` ```sh ```` or ```` ```text ```` blocks, which trycmd leaves alone.
//!
//! trycmd was chosen over insta snapshots because it reads the examples
//! from the pages themselves: there is no second copy to keep in step.

use std::path::Path;

use crate::crate_path;

/// Copies `from` (a folder of files) into `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Runs the console examples of the page at `page` (relative to the crate
/// root) in a fresh folder: trycmd takes `NAME.in/` beside a copy of the
/// page as the folder its commands run in.
fn run_examples(page: &str) {
    let dir = tempfile::tempdir().unwrap();
    let name = Path::new(page).file_name().unwrap();
    let copy = dir.path().join(name);
    std::fs::copy(crate_path(page), &copy).unwrap();
    copy_folder(
        &crate_path("sample-pdn"),
        &copy.with_extension("in").join("sample-pdn"),
    );
    trycmd::TestCases::new()
        .register_bin("pdndb", Path::new(env!("CARGO_BIN_EXE_pdndb")))
        .register_bin("cargo", trycmd::schema::Bin::Ignore)
        // The default database, whatever the environment says.
        .env("PDNDB_DB", "pdndb.sqlite")
        .env("NO_COLOR", "1")
        .case(&copy)
        .run();
}

#[test]
fn readme_examples_print_what_they_show() {
    run_examples("README.md");
}

#[test]
fn manual_examples_print_what_they_show() {
    run_examples("docs/manual.md");
}

/// Each page has examples that run, so a page whose blocks all stopped
/// being run (another info string, say) fails here instead of passing
/// with nothing checked.
#[test]
fn the_pages_have_examples_that_run() {
    for (page, at_least) in [("README.md", 8), ("docs/manual.md", 3)] {
        let text = std::fs::read_to_string(crate_path(page)).unwrap();
        let mut in_console = false;
        let mut commands = 0;
        for line in text.lines() {
            if line.starts_with("```") {
                in_console = !in_console && line == "```console";
            } else if in_console && line.starts_with("$ pdndb ") {
                commands += 1;
            }
        }
        assert!(
            commands >= at_least,
            "{page}: {commands} pdndb commands in console blocks"
        );
    }
}

/// The pictures a page names (`![…](path)` or `<img src="path">`), in
/// the order named.
fn pictures(text: &str) -> Vec<String> {
    let markdown = text.split("](").skip(1).filter_map(|rest| {
        let path = rest.split(')').next()?;
        let picture = [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"]
            .iter()
            .any(|ext| path.to_ascii_lowercase().ends_with(ext));
        picture.then(|| path.to_string())
    });
    let html = text
        .split("<img ")
        .skip(1)
        .filter_map(|rest| rest.split("src=\"").nth(1)?.split('"').next())
        .map(str::to_string);
    markdown.chain(html).collect()
}

#[test]
fn every_picture_the_readme_names_is_in_the_repository() {
    let readme = std::fs::read_to_string(crate_path("README.md")).unwrap();
    let named = pictures(&readme);
    assert!(!named.is_empty(), "the README names no picture");
    for path in &named {
        assert!(
            !path.contains("://") && crate_path(path).is_file(),
            "README.md names {path}, which is not a file of the repository"
        );
    }
    // The tour shows the explorer where it opens it: its picture follows
    // the `pdndb serve` example, before the next section.
    let serve = readme.find("$ pdndb serve").expect("no pdndb serve step");
    let step = &readme[serve..];
    let step = &step[..step.find("\n## ").unwrap_or(step.len())];
    assert!(
        pictures(step).iter().any(|p| p.contains("explorer")),
        "the pdndb serve step shows no picture of the explorer"
    );
}
