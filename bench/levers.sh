#!/usr/bin/env bash
# What each size lever buys the ask page's bundle: builds that one bundle
# again with each lever added to the ones before (in a target directory of
# its own, so the project's builds are untouched) and prints its brotli
# bytes and the change from the row above. Each row is a full wasm build of
# std and every dependency, a few minutes on two cores. Then alternatives
# measured and not taken, each the bundle as built with one change made in
# a scratch worktree of HEAD, its change counted from the bundle as built.
#   bench/levers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$PWD/target/levers
mkdir -p "$dir"
build() { # build NAME: the ask bundle's brotli bytes with the environment as set
  ASKDESK_BUNDLES=ask ASKDESK_SITE=$dir/site-$1 CARGO_TARGET_DIR=$dir/cargo \
    scripts/dev.sh build-site >"$dir/$1.log" 2>&1 || { tail -20 "$dir/$1.log" >&2; exit 1; }
  stat -c%s "$dir/site-$1/pkg/ask.js.br"
}
printf '| lever (added to the rows above) | ask bundle, brotli | change |\n|---|---|---|\n'
row() { # row LABEL NAME
  local size
  size=$(build "$2")
  printf '| %s | %d B | %s |\n' "$1" "$size" "${last:+$((size - last)) B}"
  last=$size
}
last=
export ASKDESK_WASM_SIZE_FLAGS="" ASKDESK_BUILD_STD_FEATURES="" ASKDESK_DEAD_EXPORTS=keep
row "opt-level z, LTO, -Cpanic=immediate-abort, wasm-opt -Oz --converge" base
export ASKDESK_WASM_SIZE_FLAGS="-Zlocation-detail=none"
row "-Zlocation-detail=none" location
export ASKDESK_WASM_SIZE_FLAGS="$ASKDESK_WASM_SIZE_FLAGS -Zfmt-debug=none"
row "-Zfmt-debug=none" fmt
export ASKDESK_BUILD_STD_FEATURES=optimize_for_size
row "std's optimize_for_size" size
export ASKDESK_DEAD_EXPORTS=
row "wasm-streams' unused exports dropped (wasm-metadce; the bundles as scripts/dev.sh builds them)" dead
built=$last
export CARGO_PROFILE_WASM_RELEASE_OPT_LEVEL=s
row "opt-level s instead of z (not taken)" opt-s
unset CARGO_PROFILE_WASM_RELEASE_OPT_LEVEL

tree=$dir/tree
trap 'git worktree remove --force "$tree" 2>/dev/null || true' EXIT
alternative() { # alternative LABEL NAME CHANGE: the bundle as built, CHANGE run in a worktree
  git worktree remove --force "$tree" 2>/dev/null || true
  git worktree add --detach -q "$tree" HEAD
  (cd "$tree"; "$3")
  local size
  size=$(cd "$tree" && build "$2")
  printf '| %s | %d B | %d B |\n' "$1" "$size" "$((size - built))"
}
# serde-wasm-bindgen formats every error's message (serde's own, with the
# float formatting that its "invalid type: floating point" needs), though
# the islands only ever ask whether a value read; a copy of the crate whose
# errors carry no message, patched in, measures what that costs.
no_error_messages() {
  local version source
  version=$(sed -n '/^name = "serde-wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p}' Cargo.lock)
  source=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"serde-wasm-bindgen-$version" | head -n 1)
  rm -rf "$dir/serde-wasm-bindgen" && cp -r "$source" "$dir/serde-wasm-bindgen"
  sed -i 's/JsError::new(&msg.to_string())/{ let _ = msg; JsError::new("") }/' "$dir/serde-wasm-bindgen/src/error.rs"
  grep -q 'JsError::new("")' "$dir/serde-wasm-bindgen/src/error.rs"
  printf '\n[patch.crates-io]\nserde-wasm-bindgen = { path = "%s" }\n' "$dir/serde-wasm-bindgen" >>.cargo/config.toml
}
alternative "serde-wasm-bindgen's errors without their messages (a fork of the crate; not taken)" \
  no-messages no_error_messages
# The decline box is the part of the island a person may never open: left
# out, the most that loading it when opened (wasm-split) could save, before
# the loader and second request that splitting adds.
no_decline() {
  perl -0pi -e 's/ *<DeclineBox form busy send\/>\n//; s/#\[component\]\nfn DeclineBox\(/#[allow(dead_code)]\n#[component]\nfn DeclineBox(/' \
    app/src/ask/form.rs
  ! grep -q '<DeclineBox' app/src/ask/form.rs && grep -q 'allow(dead_code)' app/src/ask/form.rs
}
alternative "the decline box left out of the island: the most loading it when opened could save (not taken)" \
  no-decline no_decline
