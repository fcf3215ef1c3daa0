//! A bundle: `frontend` compiled to wasm32 with one bundle's feature,
//! wasm-bindgen's JavaScript for it, wasm-opt, and one classic script of
//! both (`scripts/wasm-module.mjs`) in the site's `pkg/`.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{
    process::{at, remove_dir, run, stale, Result},
    settings::Settings,
};

/// The scripts each bundle's file is made by: a newer one remakes it.
const MODULE: &str = "scripts/wasm-module.mjs";
const DEAD_EXPORTS: &str = "scripts/wasm-dead-exports.mjs";

/// `cargo build -p frontend --lib` for wasm32 with `features` and
/// `profile`; the wasm lands in [`wasm_dir`].
fn cargo_build(settings: &Settings, features: &str, profile: &str) -> Result {
    run(Command::new("cargo")
        .args(["build", "-p", "frontend", "--lib", "--features", features])
        .args(["--profile", profile])
        .args(&settings.wasm_args))
}

/// Where cargo writes the wasm of `profile`.
fn wasm_dir(settings: &Settings, profile: &str) -> PathBuf {
    settings
        .target_dir
        .join("wasm32-unknown-unknown")
        .join(profile)
}

/// `wasm-bindgen` of `wasm` into `out_dir`, its files named `out_name`.
/// No default path: the wasm goes into the JavaScript, not beside it.
fn bindgen(wasm: &Path, out_dir: &Path, out_name: &str) -> Result {
    run(Command::new("wasm-bindgen")
        .args([
            "--target",
            "web",
            "--no-typescript",
            "--omit-default-module-path",
        ])
        .arg("--out-dir")
        .arg(out_dir)
        .args(["--out-name", out_name])
        .arg(wasm))
}

/// One classic script of `js` with `wasm` in it, at `out`; `inline` for a
/// script the server puts into a document rather than serving it.
fn module(js: &Path, wasm: &Path, out: &Path, inline: bool) -> Result {
    let mut node = Command::new("node");
    node.arg(MODULE);
    if inline {
        node.arg("--inline");
    }
    run(node.arg(js).arg(wasm).arg(out))
}

/// A bundle's wasm, compiled and kept under its name, whose script is to
/// be made again ([`finish`]).
pub struct Compiled {
    name: String,
    kept: PathBuf,
    script: PathBuf,
}

/// The release bundle `name`'s wasm, built for size: `None` when its
/// script in the site's `pkg/` is up to date with it. One build per
/// bundle: the feature picks the island it wakes, so only `app` and
/// `frontend` compile again, with everything else shared.
pub fn compile(settings: &Settings, name: &str) -> Result<Option<Compiled>> {
    cargo_build(settings, name, "wasm-release")?;
    let out = wasm_dir(settings, "wasm-release");
    // Every bundle's build writes the same file: each bundle's wasm is
    // kept under its name, replaced only when it changed, so its time
    // says when it last did, and the next bundle's build may start while
    // this one's script is made.
    let (raw, kept) = (
        out.join("frontend.wasm"),
        out.join(format!("bundle-{name}.wasm")),
    );
    let fresh = fs::read(&raw).map_err(at(&raw))?;
    if fs::read(&kept).ok().as_ref() != Some(&fresh) {
        fs::copy(&raw, &kept).map_err(at(&kept))?;
    }
    let script = settings.site.join("pkg").join(format!("{name}.js"));
    // wasm-bindgen and wasm-opt take a while: skipped when nothing the
    // script is made of changed.
    let stale = stale(
        &script,
        &[&kept, Path::new(MODULE), Path::new(DEAD_EXPORTS)],
    );
    Ok(stale.then(|| Compiled {
        name: name.to_owned(),
        kept,
        script,
    }))
}

/// The compiled bundle's script in the site's `pkg/`: wasm-bindgen,
/// wasm-opt, and the one classic script of both.
pub fn finish(settings: &Settings, compiled: &Compiled) -> Result {
    let Compiled { name, kept, script } = compiled;
    let work = wasm_dir(settings, "wasm-release").join(format!("bundle-{name}"));
    remove_dir(&work)?;
    bindgen(kept, &work, name)?;
    let (js, bound) = (
        work.join(format!("{name}.js")),
        work.join(format!("{name}_bg.wasm")),
    );
    // wasm-streams' exported classes, which no bundle uses, and the code
    // only they keep (ASKDESK_DEAD_EXPORTS=keep leaves them, for
    // bench/levers.sh).
    if !settings.keep_dead_exports {
        run(Command::new("node").arg(DEAD_EXPORTS).arg(&js).arg(&bound))?;
    }
    let optimized = work.join(format!("{name}.wasm"));
    // The module makes its own memory, which starts zeroed, and Rust puts
    // the stack first, so the low 1 KiB is touched only a byte short of a
    // stack overflow: wasm-opt may assume both.
    run(Command::new("wasm-opt")
        .args(["-Oz", "--converge", "--strip-debug", "--strip-producers"])
        .args([
            "--strip-target-features",
            "--zero-filled-memory",
            "--low-memory-unused",
        ])
        .args(["--enable-bulk-memory", "--enable-nontrapping-float-to-int"])
        .arg(&bound)
        .arg("-o")
        .arg(&optimized))?;
    // The hosted form's bundle is inlined into its document.
    module(&js, &optimized, script, name == "hosted")?;
    // A site laid out before the wasm moved into the JavaScript.
    for old in [".wasm", ".wasm.br", ".wasm.gz"] {
        let _ = fs::remove_file(settings.site.join("pkg").join(format!("{name}{old}")));
    }
    Ok(())
}

/// The watch's bundles in `site`: one build with every bundle's island
/// (one compile) in the wasm-dev profile (no LTO, incremental), no
/// wasm-opt, laid out under every bundle's name.
pub fn watch(settings: &Settings, site: &Path) -> Result {
    cargo_build(settings, &settings.bundles.join(","), "wasm-dev")?;
    let work = wasm_dir(settings, "wasm-dev");
    let wasm = work.join("frontend.wasm");
    let mut names = settings.bundles.iter();
    let Some(first) = names.next() else {
        return Ok(());
    };
    let script = site.join("pkg").join(format!("{first}.js"));
    if !stale(&script, &[&wasm, Path::new(MODULE)]) {
        return Ok(());
    }
    let bundle = work.join("bundle");
    remove_dir(&bundle)?;
    crate::tools::ready(settings)?;
    bindgen(&wasm, &bundle, "bundle")?;
    // --inline: the one file also stands as the hosted form's bundle.
    module(
        &bundle.join("bundle.js"),
        &bundle.join("bundle_bg.wasm"),
        &script,
        true,
    )?;
    for name in names {
        let copy = site.join("pkg").join(format!("{name}.js"));
        fs::copy(&script, &copy).map_err(at(&copy))?;
    }
    Ok(())
}
