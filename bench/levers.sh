#!/usr/bin/env bash
# What each size lever buys the ask page's bundle: builds that one bundle
# again with each lever added to the ones before (in a target directory of
# its own, so the project's builds are untouched) and prints its brotli
# bytes and the change from the row above. Each row is a full wasm build of
# std and every dependency, a few minutes on two cores.
#   bench/levers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=target/levers
mkdir -p "$dir"
build() { # build NAME: the ask bundle's brotli bytes with the environment as set
  ASKDESK_BUNDLES=ask ASKDESK_SITE=$PWD/$dir/site-$1 CARGO_TARGET_DIR=$dir/cargo \
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
export CARGO_PROFILE_WASM_RELEASE_OPT_LEVEL=s
row "opt-level s instead of z (not taken)" opt-s
