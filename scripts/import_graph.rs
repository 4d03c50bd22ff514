//! Reads the crate's sources and reports the imports that break its
//! layering: circles between modules, modules that import from one of
//! their own ancestors, and imports against the declared layer order.
//!
//! `cargo run --release --example import-graph [SRC]` (default `src`):
//! exit 1 with the findings, 0 when there are none. Test code
//! (`#[cfg(test)]` items) is left out; so is `main.rs`, a crate of its own.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root (`[]` is the root).
type Module = Vec<String>;

/// Layers, lowest first, of a module's children: an import goes only
/// to a lower layer, never sideways. Children not listed are free.
const LAYERS: &[(&str, &[&[&str]])] = &[
    (
        "",
        &[
            &["escape", "quote", "fs_error"],
            &["message"],
            &["rules"],
            &["notation"],
            &["pattern"],
            &["pdn"],
            &["generate"],
            &["replay"],
            &["openings"],
            &["export"],
            &["store"],
            &["render"],
            &["serve"],
            &["cli"],
        ],
    ),
    (
        "store",
        &[&["codec"], &["stored"], &["write", "read"], &["schema"]],
    ),
];

/// One reference from a file to a module.
#[derive(Clone, Debug)]
struct Edge {
    from: Module,
    to: Module,
    at: String,
}

fn main() {
    let src = std::env::args().nth(1).unwrap_or_else(|| "src".into());
    match check(Path::new(&src)) {
        Ok(findings) if findings.is_empty() => println!("no circles, no imports back up"),
        Ok(findings) => {
            for f in &findings {
                println!("{f}");
            }
            println!("{} finding(s)", findings.len());
            std::process::exit(1);
        }
        Err(err) => {
            eprintln!("{src}: {err}");
            std::process::exit(2);
        }
    }
}

/// Every finding for the crate whose sources are in `src`.
fn check(src: &Path) -> std::io::Result<Vec<String>> {
    let mut files = Vec::new();
    walk(src, &mut files)?;
    let mut sources = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    for file in files {
        let Some(module) = module_of(src, &file) else {
            continue;
        };
        let text = strip_tests(
            &blank_literals(&std::fs::read_to_string(&file)?),
            &mut |m| {
                let mut child = module.clone();
                child.push(m);
                test_only.insert(child);
            },
        );
        sources.insert(module, (file, text));
    }
    sources.retain(|m, _| !test_only.iter().any(|t| m.starts_with(t)));
    let modules: BTreeSet<Module> = sources.keys().cloned().collect();
    let mut edges = Vec::new();
    for (module, (file, text)) in &sources {
        for (path, line) in paths(text) {
            if let Some(to) = resolve(module, &path, &modules)
                && &to != module
            {
                let at = format!("{}:{line}", file.display());
                edges.push(Edge {
                    from: module.clone(),
                    to,
                    at,
                });
            }
        }
    }
    edges.sort_by(|a, b| (&a.from, &a.to, &a.at).cmp(&(&b.from, &b.to, &b.at)));
    edges.dedup_by(|a, b| (&a.from, &a.to, &a.at) == (&b.from, &b.to, &b.at));
    let mut findings = circles(&modules, &edges);
    for e in &edges {
        if e.from.starts_with(&e.to) {
            findings.push(format!(
                "back up: {} imports {} ({})",
                name(&e.from),
                name(&e.to),
                e.at
            ));
        } else if let Some(why) = against_layers(&e.from, &e.to) {
            findings.push(format!(
                "against layers: {} imports {} ({}): {why}",
                name(&e.from),
                name(&e.to),
                e.at
            ));
        }
    }
    Ok(findings)
}

/// Every `.rs` file under `dir`, in a stable order.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The module a file holds; `None` for the binary's `main.rs` and `bin/`.
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Module = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") || parts == ["main"] {
        return None;
    }
    if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] {
        parts.pop();
    }
    Some(parts)
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// The text with comments and the insides of string and character
/// literals replaced by spaces (line breaks kept).
fn blank_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[char]| {
        out.extend(s.iter().map(|&ch| if ch == '\n' { '\n' } else { ' ' }));
    };
    while i < c.len() {
        let rest = &c[i..];
        let end = if rest.starts_with(&['/', '/']) {
            i + rest.iter().position(|&ch| ch == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            block_comment_end(&c, i)
        } else if rest[0] == '"'
            || (rest[0] == 'r' && matches!(rest.get(1), Some('"' | '#')) && !ident_char(&c, i))
        {
            string_end(&c, i)
        } else if rest[0] == '\'' && (rest.get(1) == Some(&'\\') || rest.get(2) == Some(&'\'')) {
            let skip = if rest.get(1) == Some(&'\\') { 3 } else { 2 };
            i + skip
                + rest[skip..]
                    .iter()
                    .position(|&ch| ch == '\'')
                    .map_or(0, |p| p + 1)
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        let end = end.min(c.len()).max(i + 1);
        blank(&mut out, &c[i..end]);
        i = end;
    }
    out
}

/// Whether the character before `i` belongs to an identifier (so `r` at
/// `i` does not start a raw string).
fn ident_char(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

fn block_comment_end(c: &[char], start: usize) -> usize {
    let (mut depth, mut i) = (0usize, start);
    while i + 1 < c.len() {
        if c[i] == '/' && c[i + 1] == '*' {
            depth += 1;
            i += 2;
        } else if c[i] == '*' && c[i + 1] == '/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    c.len()
}

/// The end of the (raw) string literal starting at `start`.
fn string_end(c: &[char], start: usize) -> usize {
    let mut i = start;
    if c[i] == 'r' {
        i += 1;
        let hashes = c[i..].iter().take_while(|&&ch| ch == '#').count();
        i += hashes + 1;
        while i < c.len() {
            if c[i] == '"'
                && c[i + 1..]
                    .iter()
                    .take(hashes)
                    .filter(|&&ch| ch == '#')
                    .count()
                    == hashes
            {
                return i + 1 + hashes;
            }
            i += 1;
        }
        return c.len();
    }
    i += 1;
    while i < c.len() {
        match c[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    c.len()
}

/// The text with every `#[cfg(test)]` item blanked; `test_mod` is told
/// the name of each test module kept in a file of its own.
fn strip_tests(text: &str, test_mod: &mut dyn FnMut(String)) -> String {
    let mut c: Vec<char> = text.chars().collect();
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= c.len() {
        if c[i..i + marker.len()] != marker[..] {
            i += 1;
            continue;
        }
        let (mut j, mut depth) = (i, 0usize);
        while j < c.len() {
            match c[j] {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                ';' if depth == 0 => {
                    let item: String = c[i + marker.len()..j].iter().collect();
                    let words: Vec<&str> = item.split_whitespace().collect();
                    if let Some(pos) = words.iter().position(|w| *w == "mod")
                        && let Some(n) = words.get(pos + 1)
                    {
                        test_mod(n.to_string());
                    }
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let end = j.min(c.len());
        for ch in &mut c[i..end] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
        i = j;
    }
    c.into_iter().collect()
}

/// Every path in the text that may name a module of the crate, with its
/// line: `use` trees expanded, and paths in code starting with `crate`,
/// `super`, `self` or any other word followed by `::`.
fn paths(text: &str) -> Vec<(Vec<String>, usize)> {
    let mut tokens = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut word = String::new();
        for ch in line.chars().chain([' ']) {
            if ch.is_alphanumeric() || ch == '_' {
                word.push(ch);
                continue;
            }
            if !word.is_empty() {
                tokens.push((std::mem::take(&mut word), n + 1));
            }
            if !ch.is_whitespace() {
                tokens.push((ch.to_string(), n + 1));
            }
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let prev = if i > 0 { tokens[i - 1].0.as_str() } else { "" };
        if tokens[i].0 == "use" {
            i = use_tree(&tokens, i + 1, &mut Vec::new(), &mut out);
        } else if is_word(&tokens[i].0)
            && prev != ":"
            && prev != "$"
            && prev != "in"
            && colons(&tokens, i + 1)
        {
            let mut path = vec![tokens[i].0.clone()];
            let line = tokens[i].1;
            i += 1;
            while colons(&tokens, i) && tokens.get(i + 2).is_some_and(|t| is_word(&t.0)) {
                path.push(tokens[i + 2].0.clone());
                i += 3;
            }
            out.push((path, line));
        } else {
            i += 1;
        }
    }
    out
}

fn is_word(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|ch| ch.is_alphabetic() || ch == '_')
}

fn colons(tokens: &[(String, usize)], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| t.0 == ":") && tokens.get(i + 1).is_some_and(|t| t.0 == ":")
}

/// Reads one use tree from token `i`, adding its full paths to `out`;
/// returns the index after it.
fn use_tree(
    t: &[(String, usize)],
    mut i: usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let depth = prefix.len();
    let line = t.get(i).map_or(0, |x| x.1);
    loop {
        match t.get(i).map(|x| x.0.as_str()) {
            Some("{") => {
                i += 1;
                while t.get(i).is_some_and(|x| x.0 != "}") {
                    i = use_tree(t, i, prefix, out);
                    if t.get(i).is_some_and(|x| x.0 == ",") {
                        i += 1;
                    }
                }
                prefix.truncate(depth);
                return i + 1;
            }
            Some(w) if is_word(w) && w != "as" => {
                prefix.push(w.to_string());
                i += 1;
                if colons(t, i) {
                    i += 2;
                    continue;
                }
            }
            Some("*") => i += 1,
            _ => {}
        }
        break;
    }
    out.push((prefix.clone(), line));
    while t
        .get(i)
        .is_some_and(|x| !matches!(x.0.as_str(), "," | "}" | ";"))
    {
        i += 1;
    }
    prefix.truncate(depth);
    i + usize::from(t.get(i).is_some_and(|x| x.0 == ";"))
}

/// The deepest module of the crate that `path`, written in `module`,
/// names; `None` for paths outside the crate.
fn resolve(module: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut rest = path.iter().peekable();
    let mut at: Module = match path.first()?.as_str() {
        "crate" => {
            rest.next();
            Vec::new()
        }
        "self" | "super" => module.clone(),
        _ => module.clone(),
    };
    while rest.peek().is_some_and(|s| *s == "self" || *s == "super") {
        if rest.next().is_some_and(|s| s == "super") {
            at.pop()?;
        }
    }
    let start = at.len();
    for seg in rest {
        at.push(seg.clone());
        if !modules.contains(&at) {
            at.pop();
            break;
        }
    }
    (at.len() > start || path[0] == "crate" || path[0] == "super").then_some(at)
}

/// The layer rule an import from `from` to `to` breaks, if any.
fn against_layers(from: &Module, to: &Module) -> Option<String> {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    let (a, b) = (from.get(common)?, to.get(common)?);
    let parent = from[..common].join("::");
    let (_, layers) = LAYERS.iter().find(|(p, _)| *p == parent)?;
    let rank = |m: &str| layers.iter().position(|l| l.contains(&m));
    match (rank(a), rank(b)) {
        (Some(x), Some(y)) if x == y => Some(format!("{a} and {b} are side by side")),
        (Some(x), Some(y)) if x < y => Some(format!("{b} is above {a}")),
        _ => None,
    }
}

/// Every circle among modules: the strongly connected components of more
/// than one module, each shown as one loop through it.
fn circles(modules: &BTreeSet<Module>, edges: &[Edge]) -> Vec<String> {
    let ids: BTreeMap<&Module, usize> = modules.iter().enumerate().map(|(i, m)| (m, i)).collect();
    let mut next: Vec<BTreeMap<usize, &Edge>> = vec![BTreeMap::new(); modules.len()];
    for e in edges {
        next[ids[&e.from]].entry(ids[&e.to]).or_insert(e);
    }
    let mut comp = vec![usize::MAX; modules.len()];
    let mut out = Vec::new();
    for start in 0..modules.len() {
        if comp[start] != usize::MAX {
            continue;
        }
        let ahead = reach(&next, start, false);
        let behind = reach(&next, start, true);
        let members: Vec<usize> = (0..modules.len())
            .filter(|&m| ahead[m] && behind[m])
            .collect();
        members.iter().for_each(|&m| comp[m] = start);
        if members.len() > 1 {
            let mut text = format!("circle of {} modules:", members.len());
            for e in loop_through(&next, start, &members) {
                text.push_str(&format!(
                    "\n  {} -> {} ({})",
                    name(&e.from),
                    name(&e.to),
                    e.at
                ));
            }
            out.push(text);
        }
    }
    out
}

/// Which modules `start` reaches (or, `back`, is reached from).
fn reach(next: &[BTreeMap<usize, &Edge>], start: usize, back: bool) -> Vec<bool> {
    let mut seen = vec![false; next.len()];
    let mut todo = vec![start];
    seen[start] = true;
    while let Some(m) = todo.pop() {
        for n in 0..next.len() {
            let linked = if back {
                next[n].contains_key(&m)
            } else {
                next[m].contains_key(&n)
            };
            if linked && !seen[n] {
                seen[n] = true;
                todo.push(n);
            }
        }
    }
    seen
}

/// The edges of a shortest loop from `start` back to it inside `members`.
fn loop_through<'a>(
    next: &[BTreeMap<usize, &'a Edge>],
    start: usize,
    members: &[usize],
) -> Vec<&'a Edge> {
    let mut came: BTreeMap<usize, (usize, &Edge)> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(m) = queue.pop_front() {
        for (&n, &e) in &next[m] {
            if members.contains(&n) && !came.contains_key(&n) {
                came.insert(n, (m, e));
                if n == start {
                    queue.clear();
                    break;
                }
                queue.push_back(n);
            }
        }
    }
    let mut chain = Vec::new();
    let mut at = start;
    while let Some(&(prev, e)) = came.get(&at) {
        chain.push(e);
        at = prev;
        if at == start || chain.len() > members.len() {
            break;
        }
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> PathBuf {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("import-graph-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let file = dir.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        dir
    }

    #[test]
    fn a_circle_and_an_import_back_up_are_found() {
        let dir = tree(&[
            ("lib.rs", "pub mod store;\n"),
            ("store/mod.rs", "mod a;\nmod b;\npub struct Store;\n"),
            (
                "store/a.rs",
                "use super::{b::{B, C}, Store};\npub struct A;\n",
            ),
            (
                "store/b.rs",
                "pub struct B;\nfn f() -> crate::store::a::A {\n    crate::store::a::A\n}\n",
            ),
        ]);
        let found = check(&dir).unwrap().join("\n");
        assert!(found.contains("circle of 2 modules"), "{found}");
        assert!(found.contains("store::a -> store::b"), "{found}");
        assert!(
            found.contains("back up: store::a imports store ("),
            "{found}"
        );
        assert!(found.contains("a.rs:1"), "{found}");
    }

    #[test]
    fn layers_are_checked_and_tests_comments_and_strings_ignored() {
        let dir = tree(&[
            ("lib.rs", "pub mod rules;\npub mod store;\n"),
            (
                "rules.rs",
                "// crate::store::X\nconst S: &str = \"crate::store::X\";\nfn f() { let _ = crate::store::X; }\n",
            ),
            (
                "store/mod.rs",
                "pub mod codec;\npub mod read;\npub mod write;\npub use read::Q;\n",
            ),
            (
                "store/codec.rs",
                "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::store::read::Q;\n}\n",
            ),
            ("store/read.rs", "use crate::store::codec;\npub struct Q;\n"),
            (
                "store/write.rs",
                "use crate::rules;\nfn f() { super::read::Q; }\n",
            ),
        ]);
        let found = check(&dir).unwrap();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].contains("against layers: rules imports store (")
                && found[0].contains("rules.rs:3"),
            "{found:?}"
        );
        assert!(
            found[1].contains("write and read are side by side"),
            "{found:?}"
        );
    }

    #[test]
    fn a_clean_tree_passes() {
        let dir = tree(&[
            ("lib.rs", "pub mod rules;\npub mod store;\n"),
            ("main.rs", "use crate::x::y;\n"),
            ("rules.rs", "pub fn f() {}\n"),
            ("store/mod.rs", "mod codec;\nmod read;\npub use read::Q;\n"),
            (
                "store/codec.rs",
                "pub fn f() { let r = r#\"use super::*;\"#; let c = '{'; }\n",
            ),
            (
                "store/read.rs",
                "use super::codec::{self, f};\nuse crate::rules::f as g;\npub struct Q;\n",
            ),
        ]);
        assert_eq!(check(&dir).unwrap(), Vec::<String>::new());
    }

    /// The crate itself: no circle, no import back up, no import against
    /// the layer order anywhere in `src/`.
    #[test]
    fn the_crate_has_no_findings() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = check(&src).unwrap();
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
