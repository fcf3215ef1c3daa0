//! The site the server serves, laid out in `target/site`: `pkg/<bundle>.js`
//! for each bundle (a classic script of wasm-bindgen's JavaScript with the
//! wasm in it, [`bundle`]), `pkg/askdesk.css`, the hosted form's script
//! for hosts that run no WebAssembly, and `public/`, each with its brotli
//! (`-q 11`) and gzip (`-9`) forms beside it. The server names the bundles
//! and the stylesheet by their content when it serves them, and a release
//! build embeds the whole folder.

mod bundle;

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{
    process::{at, run, stale, step, Error, Result},
    settings::{Settings, NAME},
};

/// Builds the release site (every bundle for size) in `settings.site`.
pub fn build(settings: &Settings) -> Result {
    step("site (wasm-release)");
    let site = &settings.site;
    fs::create_dir_all(site.join("pkg")).map_err(at(site))?;
    // Each bundle's script is made (one core's work, mostly) while the
    // next bundle compiles, once wasm-bindgen is there; it may still be
    // installing in the background (`tools::start`) during the first.
    std::thread::scope(|scope| {
        let mut making: Option<std::thread::ScopedJoinHandle<'_, Result>> = None;
        for name in &settings.bundles {
            let compiled = bundle::compile(settings, name)?;
            if let Some(previous) = making.take() {
                joined(previous)?;
            }
            if let Some(compiled) = compiled {
                // The next bundle compiles meanwhile, while wasm-bindgen
                // may still be installing.
                making = Some(scope.spawn(move || {
                    crate::tools::ready(settings)?;
                    bundle::finish(settings, &compiled)
                }));
            }
        }
        making.map_or(Ok(()), joined)
    })?;
    copy_static(settings, site)?;
    compress(site)?;
    mark_listing(settings, site)
}

/// The watch's site, in `site` (a folder of its own, so a release build
/// never embeds it): built for a quick rebuild rather than for size, with
/// no compressed forms ([`bundle::watch`]).
pub fn build_for_watch(settings: &Settings, site: &Path) -> Result {
    step("site (wasm-dev)");
    fs::create_dir_all(site.join("pkg")).map_err(at(site))?;
    bundle::watch(settings, site)?;
    copy_static(settings, site)
}

/// The stylesheet, `public/`, and the hosted form's script. The copies are
/// written anew each time (as `cp` does), so their compressed forms are
/// too.
fn copy_static(settings: &Settings, site: &Path) -> Result {
    copy(
        Path::new("style/main.css"),
        &site.join("pkg").join(format!("{NAME}.css")),
    )?;
    copy_tree(Path::new("public"), site)?;
    hosted_script(settings, site)
}

/// Copies what is in `from` into `to`, folders and all (`cp -r from/. to`).
fn copy_tree(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).map_err(at(to))?;
    for entry in fs::read_dir(from).map_err(at(from))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            copy(&entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Copies the file `from` to `to`, anew (as `cp`: `to` is modified now).
fn copy(from: &Path, to: &Path) -> Result {
    fs::copy(from, to).map(drop).map_err(|e| {
        Error::new(format!(
            "copying {} to {}: {e}",
            from.display(),
            to.display()
        ))
    })
}

/// The hosted form's script for hosts that run no WebAssembly: one
/// classic script, with the official MCP Apps class in it (pinned by
/// `scripts/dev.sh`), inlined into the form's document
/// (`app::hosted::document`).
fn hosted_script(settings: &Settings, site: &Path) -> Result {
    let source = Path::new("frontend/hosted-script.mjs");
    let out = site.join("pkg/hosted-script.js");
    let apps = settings
        .node_modules()
        .join("@modelcontextprotocol/ext-apps/package.json");
    if !stale(&out, &[source, &apps]) {
        return Ok(());
    }
    run(Command::new("esbuild")
        .env("NODE_PATH", settings.node_modules())
        .args([
            "--bundle",
            "--format=iife",
            "--minify",
            "--platform=browser",
        ])
        .arg("--log-level=warning")
        .arg(format!("--outfile={}", out.display()))
        .arg(source))
}

/// Every file under `dir`, folders walked, in no particular order.
fn files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).map_err(at(dir))? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            found.extend(files(&entry.path())?);
        } else {
            found.push(entry.path());
        }
    }
    Ok(found)
}

/// Each file's brotli (`-q 11`, what the bundle budget measures) and gzip
/// (`-9 -n`) forms beside it, made again only when the file is newer.
fn compress(site: &Path) -> Result {
    for file in files(site)? {
        let name = file.to_string_lossy();
        if name.ends_with(".br") || name.ends_with(".gz") {
            continue;
        }
        let (br, gz) = (
            PathBuf::from(format!("{name}.br")),
            PathBuf::from(format!("{name}.gz")),
        );
        if stale(&br, &[&file]) {
            run(Command::new("brotli")
                .args(["-q", "11", "-f", "-o"])
                .arg(&br)
                .arg(&file))?;
        }
        if stale(&gz, &[&file]) {
            let out = fs::File::create(&gz).map_err(at(&gz))?;
            run(Command::new("gzip")
                .args(["-9", "-n", "-c"])
                .arg(&file)
                .stdout(out))?;
        }
    }
    Ok(())
}

/// The files under `site`, by their paths from it, sorted: one a line.
fn listing(site: &Path) -> Result<String> {
    let mut names: Vec<String> = files(site)?
        .iter()
        .filter_map(|f| f.strip_prefix(site).ok())
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(names.join("\n") + "\n")
}

/// A release build embeds the site (`server/src/main.rs`, the binary's
/// own file, through rust-embed). Cargo rebuilds the binary when an
/// embedded file changes, but it cannot see a file added or removed, so
/// when the site's listing differs from the last build's (kept beside the
/// site) that file's time is touched, which rebuilds it: the release
/// binary never serves a stale listing. Only its time changes, never its
/// text.
fn mark_listing(settings: &Settings, site: &Path) -> Result {
    let listing = listing(site)?;
    let stamp = PathBuf::from(format!("{}-listing", site.display()));
    if fs::read_to_string(&stamp).ok().as_deref() == Some(listing.as_str()) {
        return Ok(());
    }
    let assets = settings.root.join("server/src/main.rs");
    fs::File::options()
        .write(true)
        .open(&assets)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()))
        .map_err(at(&assets))?;
    fs::write(&stamp, listing).map_err(at(&stamp))
}

/// How a thread making a bundle's script ended.
fn joined(thread: std::thread::ScopedJoinHandle<'_, Result>) -> Result {
    thread
        .join()
        .unwrap_or_else(|_| Err(Error::new("making a bundle's script panicked")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::TempDir;

    #[test]
    fn the_listing_names_every_file_under_the_site_sorted() {
        let dir = TempDir::new(&std::env::temp_dir(), "xtask-listing-").expect("a folder");
        let site = dir.path();
        fs::create_dir_all(site.join("pkg")).expect("folder");
        for name in ["sw.js", "pkg/ask.js", "pkg/ask.js.br", "icon.svg"] {
            fs::write(site.join(name), name).expect("written");
        }
        assert_eq!(
            listing(site).expect("listed"),
            "icon.svg\npkg/ask.js\npkg/ask.js.br\nsw.js\n"
        );
    }
}
