//! The environment `scripts/dev.sh` hands over, read once: where the tools
//! and the site are, which bundles to build and how, and what the suites
//! run against. Nothing after this reads a variable of its own.

use std::path::{Path, PathBuf};

use crate::process::{Error, Result};

/// The browser bundles: each page with an island (`app::Bundle::name`),
/// and the form an agent's host shows (`hosted`, which the server inlines
/// into the MCP App's document, `app::hosted`); each is a feature of
/// `frontend` of the same name.
pub const BUNDLES: [&str; 3] = ["ask", "desk", "hosted"];

/// The site's name (== `LEPTOS_OUTPUT_NAME` in `.cargo/config.toml`): the
/// stylesheet is `pkg/<name>.css`.
pub const NAME: &str = "askdesk";

#[derive(Debug, Clone)]
pub struct Settings {
    /// The workspace; every relative path below is from it.
    pub root: PathBuf,
    /// `ASKDESK_TOOLS`: wasm-bindgen, the npm packages, the Python venv.
    pub tools: PathBuf,
    /// `ASKDESK_SITE`, else `target/site`: the release site.
    pub site: PathBuf,
    /// `ASKDESK_BUNDLES` (names split by spaces), else [`BUNDLES`]: the
    /// benchmarks build only some.
    pub bundles: Vec<String>,
    /// `ASKDESK_DEAD_EXPORTS=keep`: wasm-streams' exported classes stay in
    /// the bundles (`bench/levers.sh` measures what dropping them saves).
    pub keep_dead_exports: bool,
    /// What every cargo call for the wasm32 target adds ([`wasm_args`]).
    pub wasm_args: Vec<String>,
    /// `CARGO_TARGET_DIR`, else `target`: where cargo puts the wasm.
    pub target_dir: PathBuf,
    /// `ASKDESK_PYTHON`, else the tools' venv: pytest, schemathesis.
    pub python: PathBuf,
    /// `CHROMIUM` and `CHROMEDRIVER`: Debian's, unless named.
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
    /// `ASKDESK_TEST_POSTGRES`: a PostgreSQL the tests use instead of a
    /// throwaway one.
    pub test_postgres: Option<String>,
    /// `ASKDESK_PG_DURABLE=1`: the throwaway cluster keeps fsync
    /// (benchmarks).
    pub durable_postgres: bool,
    /// `LEPTOS_RELOAD_PORT`, else 3001: the watch's live-reload socket.
    pub reload_port: String,
    /// `ASKDESK_TOOLCHAIN_MODE`: which toolchain `scripts/dev.sh` chose.
    pub toolchain: String,
}

impl Settings {
    /// The settings of this process's environment, for the workspace at
    /// `root`.
    pub fn from_env(root: &Path) -> Settings {
        Settings::from_vars(root, |name| {
            std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
        })
    }

    /// The settings `var` gives (a variable's value, `None` when unset).
    /// As in `scripts/dev.sh`, an empty variable is an unset one, except
    /// `ASKDESK_BUILD_STD_FEATURES` (empty: no features).
    pub fn from_vars(root: &Path, value: impl Fn(&str) -> Option<String>) -> Settings {
        let var = |name: &str| value(name).filter(|v| !v.is_empty());
        let tools = var("ASKDESK_TOOLS").map_or_else(
            || {
                var("XDG_CACHE_HOME")
                    .map(PathBuf::from)
                    .unwrap_or_else(|| Path::new(&var("HOME").unwrap_or_default()).join(".cache"))
                    .join("askdesk-tools")
            },
            PathBuf::from,
        );
        let bundles = var("ASKDESK_BUNDLES")
            .map(|b| b.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| BUNDLES.map(str::to_owned).to_vec());
        Settings {
            root: root.to_path_buf(),
            site: var("ASKDESK_SITE").map_or_else(|| root.join("target/site"), PathBuf::from),
            bundles,
            keep_dead_exports: var("ASKDESK_DEAD_EXPORTS").as_deref() == Some("keep"),
            wasm_args: wasm_args(value("ASKDESK_BUILD_STD_FEATURES").as_deref()),
            target_dir: var("CARGO_TARGET_DIR").map_or_else(|| "target".into(), PathBuf::from),
            python: var("ASKDESK_PYTHON")
                .map_or_else(|| tools.join("py/bin/python"), PathBuf::from),
            chromium: var("CHROMIUM").map_or_else(|| "/usr/bin/chromium".into(), PathBuf::from),
            chromedriver: var("CHROMEDRIVER")
                .map_or_else(|| "/usr/bin/chromedriver".into(), PathBuf::from),
            test_postgres: var("ASKDESK_TEST_POSTGRES"),
            durable_postgres: var("ASKDESK_PG_DURABLE").as_deref() == Some("1"),
            reload_port: var("LEPTOS_RELOAD_PORT").unwrap_or_else(|| "3001".into()),
            toolchain: var("ASKDESK_TOOLCHAIN_MODE").unwrap_or_else(|| "unknown".into()),
            tools,
        }
    }

    /// The debug or release server binary.
    pub fn askdesk(&self, release: bool) -> PathBuf {
        let profile = if release { "release" } else { "debug" };
        self.root.join("target").join(profile).join("askdesk")
    }

    /// The npm packages' folder in the tools (esbuild's `NODE_PATH`).
    pub fn node_modules(&self) -> PathBuf {
        self.tools.join("npm/node_modules")
    }

    /// Where the suites' logs and reports go.
    pub fn logs(&self) -> PathBuf {
        self.root.join("target/test-logs")
    }
}

/// What every cargo call for the wasm32 target adds. Both toolchains build
/// std for wasm32 from its sources (-Zbuild-std, which is why
/// `RUSTC_BOOTSTRAP=1` is set for every cargo call), with the bundle's own
/// profile and, unless `ASKDESK_BUILD_STD_FEATURES` says otherwise (empty:
/// none; `bench/levers.sh`), std's `optimize_for_size`.
pub fn wasm_args(std_features: Option<&str>) -> Vec<String> {
    let mut args = [
        "--target",
        "wasm32-unknown-unknown",
        "-Zbuild-std=std,panic_abort",
    ]
    .map(str::to_owned)
    .to_vec();
    match std_features.unwrap_or("optimize_for_size") {
        "" => {}
        features => args.push(format!("-Zbuild-std-features={features}")),
    }
    args
}

/// Refuses to build outside `scripts/dev.sh`'s environment: without
/// `RUSTC_BOOTSTRAP=1` -Zbuild-std fails, and build scripts fingerprint
/// the variable, so a cargo call without it would rebuild the whole tree.
pub fn check_environment() -> Result {
    if std::env::var_os("RUSTC_BOOTSTRAP").is_some_and(|v| v == "1") {
        Ok(())
    } else {
        Err(Error::new(
            "RUSTC_BOOTSTRAP=1 is not set: run this through scripts/dev.sh, which sets up \
             the toolchain and the tools first",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(vars: &[(&str, &str)]) -> Settings {
        Settings::from_vars(Path::new("/w"), |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn std_is_built_for_size_unless_told_otherwise() {
        assert_eq!(
            wasm_args(None),
            [
                "--target",
                "wasm32-unknown-unknown",
                "-Zbuild-std=std,panic_abort",
                "-Zbuild-std-features=optimize_for_size"
            ]
        );
        assert_eq!(wasm_args(Some("")).len(), 3, "empty: no std features");
        assert_eq!(
            wasm_args(Some("panic_immediate_abort"))
                .last()
                .map(String::as_str),
            Some("-Zbuild-std-features=panic_immediate_abort")
        );
    }

    #[test]
    fn defaults_and_overrides_come_from_the_environment() {
        let plain = settings(&[("HOME", "/home/a"), ("ASKDESK_SITE", "")]);
        assert_eq!(plain.tools, Path::new("/home/a/.cache/askdesk-tools"));
        assert_eq!(
            plain.python,
            Path::new("/home/a/.cache/askdesk-tools/py/bin/python")
        );
        assert_eq!(plain.site, Path::new("/w/target/site"));
        assert_eq!(plain.bundles, ["ask", "desk", "hosted"]);
        assert_eq!(plain.reload_port, "3001");
        assert!(plain.test_postgres.is_none() && !plain.durable_postgres);

        let set = settings(&[
            ("ASKDESK_TOOLS", "/t"),
            ("ASKDESK_BUNDLES", " ask  desk "),
            ("ASKDESK_DEAD_EXPORTS", "keep"),
            ("ASKDESK_TEST_POSTGRES", "postgres://x"),
            ("ASKDESK_PG_DURABLE", "1"),
        ]);
        assert_eq!(set.python, Path::new("/t/py/bin/python"));
        assert_eq!(set.bundles, ["ask", "desk"]);
        assert!(set.keep_dead_exports && set.durable_postgres);
        assert_eq!(set.test_postgres.as_deref(), Some("postgres://x"));
        assert_eq!(set.askdesk(true), Path::new("/w/target/release/askdesk"));
    }
}
