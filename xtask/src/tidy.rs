//! The rules ARCHITECTURE.md promises that a program can hold, checked
//! over the workspace's files (rust-analyzer's `tidy`, in spirit): each
//! crate depends only on the layers below it in the crates' picture; each
//! crate has its entry, with what it may not do; no source file is over
//! the line limit; every path the code map names exists; no crate's
//! modules import one another in a circle. `cargo xtask
//! tidy` prints what is wrong; `tests/tidy.rs` fails on it.

mod circles;

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
};

/// The most lines a file under a crate's `src/` may have.
pub const MAX_FILE_LINES: usize = 400;

/// The dependencies between crates of one layer that the picture allows.
const SIDEWAYS: &[(&str, &str)] = &[("app", "askform")];

/// Everything wrong in the workspace at `root`, one line each.
pub fn tidy(root: &Path) -> Vec<String> {
    let members = match members(root) {
        Ok(members) => members,
        Err(why) => return vec![why],
    };
    let architecture = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap_or_default();
    let mut problems = Vec::new();
    problems.extend(layering(root, &members, &architecture));
    problems.extend(entries(&members, &architecture));
    problems.extend(file_lengths(root, &members));
    problems.extend(code_map(root, &members, &architecture));
    problems.extend(module_circles(root, &members));
    problems
}

/// No crate's modules import in a circle ([`circles`]).
fn module_circles(root: &Path, members: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for krate in members {
        for circle in circles::circles(&root.join(krate).join("src")) {
            problems.push(format!(
                "{krate}/src: its modules {} import one another in a circle; one of them \
                 should not need the others (move what both use below both)",
                circle.join(", ")
            ));
        }
    }
    problems
}

/// The workspace's member crates, by folder, from its manifest.
fn members(root: &Path) -> Result<Vec<String>, String> {
    let text = fs::read_to_string(root.join("Cargo.toml"))
        .map_err(|e| format!("Cargo.toml: cannot read it: {e}"))?;
    let manifest: toml::Table =
        toml::from_str(&text).map_err(|e| format!("Cargo.toml: not TOML: {e}"))?;
    let members = manifest
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(toml::Value::as_array)
        .ok_or("Cargo.toml: no [workspace] members")?;
    Ok(members
        .iter()
        .filter_map(toml::Value::as_str)
        .map(str::to_owned)
        .collect())
}

/// The layers of ARCHITECTURE.md's picture of the crates, top first: the
/// first code block under "## The crates", each line's leading crate
/// names.
fn layers(members: &[String], architecture: &str) -> BTreeMap<String, usize> {
    let section = architecture
        .split("## The crates")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .unwrap_or_default();
    let mut layers = BTreeMap::new();
    for (layer, line) in section.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        for word in line.split_whitespace() {
            if !members.iter().any(|m| m == word) {
                break;
            }
            layers.insert(word.to_owned(), layer);
        }
    }
    layers
}

/// The askdesk crates `crate` depends on (not for tests).
fn dependencies(root: &Path, krate: &str, members: &[String]) -> Vec<String> {
    let path = root.join(krate).join("Cargo.toml");
    let Ok(manifest) = fs::read_to_string(&path).map(|t| toml::from_str::<toml::Table>(&t)) else {
        return Vec::new();
    };
    let Ok(manifest) = manifest else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut tables = vec![manifest.get("dependencies")];
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        tables.extend(targets.values().map(|t| t.get("dependencies")));
    }
    for table in tables
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_table)
    {
        found.extend(
            table
                .keys()
                .filter(|name| members.iter().any(|m| m == *name))
                .cloned(),
        );
    }
    found
}

/// Each crate depends only on crates of the layers below its own.
fn layering(root: &Path, members: &[String], architecture: &str) -> Vec<String> {
    let layers = layers(members, architecture);
    let mut problems = Vec::new();
    for krate in members {
        let Some(&layer) = layers.get(krate) else {
            problems.push(format!(
                "ARCHITECTURE.md: the crates' picture does not show `{krate}`"
            ));
            continue;
        };
        for dependency in dependencies(root, krate, members) {
            let below = layers.get(&dependency).is_some_and(|&l| l > layer);
            if !below && !SIDEWAYS.contains(&(krate.as_str(), dependency.as_str())) {
                problems.push(format!(
                    "{krate}/Cargo.toml: `{krate}` depends on `{dependency}`, which is not in a \
                     layer below it in ARCHITECTURE.md's picture of the crates"
                ));
            }
        }
    }
    problems
}

/// Each crate has its entry in ARCHITECTURE.md, saying what it may not do
/// (the binary, which nothing depends on, says so instead).
fn entries(members: &[String], architecture: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for krate in members {
        let heading = format!("### `{krate}`");
        let Some(entry) = architecture.split(&heading).nth(1) else {
            problems.push(format!("ARCHITECTURE.md: no entry `{heading}`"));
            continue;
        };
        let entry = entry.split("\n### ").next().unwrap_or_default();
        if !entry.contains("**May not:**") && !entry.contains("Nothing depends on it") {
            problems.push(format!(
                "ARCHITECTURE.md: the entry of `{krate}` does not say what it may not do"
            ));
        }
    }
    problems
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// No file under a crate's `src/` is over [`MAX_FILE_LINES`] lines.
fn file_lengths(root: &Path, members: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for krate in members {
        for file in rust_files(&root.join(krate).join("src")) {
            let lines = fs::read_to_string(&file).map_or(0, |t| t.lines().count());
            if lines > MAX_FILE_LINES {
                let shown = file.strip_prefix(root).unwrap_or(&file).display();
                problems.push(format!(
                    "{shown}: {lines} lines, over {MAX_FILE_LINES}; split it at a seam"
                ));
            }
        }
    }
    problems
}

/// Every path the code map names exists: `src/…` in a crate's entry is
/// that crate's, and `crate/…` anywhere is the workspace's.
fn code_map(root: &Path, members: &[String], architecture: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut krate: Option<&str> = None;
    for line in architecture.lines() {
        if let Some(heading) = line.strip_prefix("### `") {
            krate = heading.split('`').next();
        } else if line.starts_with("## ") {
            krate = None;
        }
        for (i, quoted) in line.split('`').enumerate() {
            // The odd pieces are inside backticks.
            if i % 2 == 0 || quoted.contains(' ') || !quoted.ends_with(".rs") {
                continue;
            }
            let path = match (quoted.strip_prefix("src/"), krate) {
                (Some(_), Some(krate)) => root.join(krate).join(quoted),
                _ if members.iter().any(|m| quoted.starts_with(&format!("{m}/"))) => {
                    root.join(quoted)
                }
                _ => continue,
            };
            if !path.exists() {
                problems.push(format!(
                    "ARCHITECTURE.md: `{quoted}`{} does not exist",
                    krate.map(|k| format!(" (in `{k}`)")).unwrap_or_default()
                ));
            }
        }
    }
    problems
}
