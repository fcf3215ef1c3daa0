//! The most bytes (brotli) each page with browser code may download: its
//! bundle, one file of JavaScript with the wasm in it. Sizes are
//! deterministic for a toolchain, so this is a test: a change that grows a
//! bundle past its budget fails until it earns the bytes or the budget is
//! raised on purpose. Each budget is the size measured with rustup's
//! toolchain plus 2%; `bench/size.sh` reports the sizes beside the peers'.
//! `hosted-script` is JavaScript only (the official MCP Apps class, pinned
//! in `scripts/dev.sh`, and what it brings), the same on either toolchain.

use std::fs;

use crate::{
    process::{at, Error, Result},
    settings::Settings,
};

/// Each bundle's budget, in bytes of `brotli -q 11`.
pub const BUDGET: [(&str, u64); 4] = [
    ("ask", 103_460),
    ("desk", 65_115),
    ("hosted", 107_216),
    ("hosted-script", 125_303),
];

/// What the check says of the bundles' sizes (`name`, bytes of its
/// `.js.br`): a line for each, and an error naming those over budget or
/// without one.
pub fn judge(sizes: &[(String, u64)]) -> (Vec<String>, Result) {
    let mut lines = Vec::new();
    let mut over = Vec::new();
    for (name, size) in sizes {
        match BUDGET.iter().find(|(n, _)| n == name) {
            Some((_, budget)) => {
                lines.push(format!("bundle {name}: {size} B brotli, budget {budget} B"));
                if size > budget {
                    over.push(name.as_str());
                }
            }
            None => {
                lines.push(format!("bundle {name}: {size} B brotli, no budget"));
                over.push(name.as_str());
            }
        }
    }
    let verdict = if over.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "over budget: {} (the bundles' sizes above)",
            over.join(" ")
        )))
    };
    (lines, verdict)
}

/// Checks the built site's bundles (and the hosted form's script) against
/// their budgets, printing each one's size.
pub fn check(settings: &Settings) -> Result {
    let mut sizes = Vec::new();
    let names = settings.bundles.iter().map(String::as_str);
    for name in names.chain(["hosted-script"]) {
        let br = settings.site.join("pkg").join(format!("{name}.js.br"));
        let size = fs::metadata(&br).map_err(at(&br))?.len();
        sizes.push((name.to_owned(), size));
    }
    let (lines, verdict) = judge(&sizes);
    for line in lines {
        println!("{line}");
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(of: &[(&str, u64)]) -> Vec<(String, u64)> {
        of.iter().map(|(n, s)| ((*n).to_owned(), *s)).collect()
    }

    #[test]
    fn a_bundle_at_its_budget_passes_and_one_byte_over_fails() {
        let (lines, verdict) = judge(&sizes(&[("ask", 103_460), ("hosted-script", 1)]));
        assert!(verdict.is_ok());
        assert_eq!(lines[0], "bundle ask: 103460 B brotli, budget 103460 B");

        let (_, verdict) = judge(&sizes(&[("ask", 1), ("desk", 65_116), ("hosted", 107_217)]));
        let why = verdict.expect_err("over").to_string();
        assert_eq!(why, "over budget: desk hosted (the bundles' sizes above)");
    }

    #[test]
    fn a_bundle_without_a_budget_fails() {
        let (lines, verdict) = judge(&sizes(&[("new", 10)]));
        assert_eq!(lines, ["bundle new: 10 B brotli, no budget"]);
        assert!(verdict.is_err());
    }
}
