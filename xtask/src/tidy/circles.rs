//! Module circles inside each crate: a module that uses a sibling (or a
//! cousin) which, through others, uses it again. A parent and its own
//! children may use each other (that is what `mod` and `super` are); two
//! rooms of one house import one way.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
};

/// The module circles of the crate whose sources are under `src`, each
/// as the modules it joins (`a::b`, `c`).
pub fn circles(src: &Path) -> Vec<Vec<String>> {
    let files = super::rust_files(src);
    let mut modules = BTreeMap::new();
    for file in &files {
        let Ok(relative) = file.strip_prefix(src) else {
            continue;
        };
        let text = relative
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        // A binary's root is a crate of its own.
        if text == "main" && files.iter().any(|f| f.ends_with("lib.rs")) {
            continue;
        }
        let module = match text.as_str() {
            "lib" | "main" => String::new(),
            _ => text.trim_end_matches("/mod").replace('/', "::"),
        };
        modules.insert(module, fs::read_to_string(file).unwrap_or_default());
    }
    let known: BTreeSet<&str> = modules.keys().map(String::as_str).collect();
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (module, text) in &modules {
        for path in paths(text) {
            let Some(target) = resolve(module, &path, &known) else {
                continue;
            };
            if !related(module, target) {
                edges.entry(module.as_str()).or_default().insert(target);
            }
        }
    }
    strongly_connected(&known, &edges)
        .into_iter()
        .filter(|group| group.len() > 1)
        .collect()
}

/// Whether one of `a` and `b` is the other or holds it.
fn related(a: &str, b: &str) -> bool {
    let holds = |outer: &str, inner: &str| {
        outer.is_empty() || inner == outer || inner.starts_with(&format!("{outer}::"))
    };
    holds(a, b) || holds(b, a)
}

/// The deepest module of `known` that `path` (as written in `module`)
/// names, if it names one of this crate's.
fn resolve<'k>(module: &str, path: &[String], known: &BTreeSet<&'k str>) -> Option<&'k str> {
    let mut base: Vec<&str> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut full: Vec<&str> = base;
    full.extend(rest.iter().map(String::as_str));
    (0..=full.len())
        .rev()
        .map(|n| full[..n].join("::"))
        .find_map(|candidate| known.get(candidate.as_str()).copied())
}

/// The `crate::…` and `super::…` paths `text` names, with `use` groups
/// (`use crate::{a::b, c}`) spread out. Comments are skipped.
fn paths(text: &str) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let tokens = tokenize(&code);
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "crate" || tokens[i] == "super" {
            // Not the tail of a longer path (`a::super`), which rustc refuses.
            let after_path = i >= 1 && tokens[i - 1] == "::";
            if !after_path {
                let (spread, next) = spread(&tokens, i, Vec::new());
                found.extend(spread);
                i = next.max(i + 1);
                continue;
            }
        }
        i += 1;
    }
    found
}

/// The paths of the path starting at `tokens[i]`, under `prefix`, with
/// any `{…}` group spread; and where it ends.
fn spread(tokens: &[String], mut i: usize, mut prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    let mut paths = Vec::new();
    while i < tokens.len() {
        let token = tokens[i].as_str();
        if token == "{" {
            i += 1;
            loop {
                let (inner, next) = spread(tokens, i, prefix.clone());
                paths.extend(inner);
                i = next;
                match tokens.get(i).map(String::as_str) {
                    Some(",") => i += 1,
                    Some("}") => return (paths, i + 1),
                    _ => return (paths, i),
                }
                if tokens.get(i).map(String::as_str) == Some("}") {
                    return (paths, i + 1);
                }
            }
        }
        if token.chars().all(|c| c.is_alphanumeric() || c == '_') {
            prefix.push(token.to_owned());
            i += 1;
            if tokens.get(i).map(String::as_str) == Some("::") {
                i += 1;
                continue;
            }
        }
        break;
    }
    if !prefix.is_empty() {
        paths.push(prefix);
    }
    (paths, i)
}

/// Identifiers, `::`, braces and commas of `code`; strings and char
/// literals are skipped.
fn tokenize(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(s) = chars.next() {
                    match s {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // A char literal ('"', '\'') or a lifetime ('a): nothing of a path.
            '\'' => {
                let mut ahead = chars.clone();
                match (ahead.next(), ahead.next()) {
                    (Some('\\'), _) => {
                        chars.next();
                        chars.next();
                        while chars.next().is_some_and(|c| c != '\'') {}
                    }
                    (Some(_), Some('\'')) => {
                        chars.next();
                        chars.next();
                    }
                    _ => {}
                }
            }
            ':' if chars.peek() == Some(&':') => {
                chars.next();
                tokens.push("::".to_owned());
            }
            '{' | '}' | ',' | ';' => tokens.push(c.to_string()),
            c if c.is_alphanumeric() || c == '_' => {
                let mut word = c.to_string();
                while let Some(&n) = chars.peek() {
                    if n.is_alphanumeric() || n == '_' {
                        word.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push(word);
            }
            c if c.is_whitespace() => {}
            _ => tokens.push(" ".to_owned()),
        }
    }
    tokens
}

/// The strongly connected groups of the graph (Tarjan's), each sorted.
fn strongly_connected(
    nodes: &BTreeSet<&str>,
    edges: &BTreeMap<&str, BTreeSet<&str>>,
) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        groups: Vec<Vec<String>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, node: &'a str) {
        let n = walk.index.len();
        walk.index.insert(node, n);
        walk.low.insert(node, n);
        walk.stack.push(node);
        walk.on_stack.insert(node);
        let next: Vec<&str> = walk
            .edges
            .get(node)
            .map(|e| e.iter().copied().collect())
            .unwrap_or_default();
        for other in next {
            if !walk.index.contains_key(other) {
                visit(walk, other);
                let low = walk.low[node].min(walk.low[other]);
                walk.low.insert(node, low);
            } else if walk.on_stack.contains(other) {
                let low = walk.low[node].min(walk.index[other]);
                walk.low.insert(node, low);
            }
        }
        if walk.low[node] == walk.index[node] {
            let mut group = Vec::new();
            while let Some(top) = walk.stack.pop() {
                walk.on_stack.remove(top);
                group.push(top.to_owned());
                if top == node {
                    break;
                }
            }
            group.sort();
            walk.groups.push(group);
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for node in nodes {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.groups
}
