#!/usr/bin/env bash
# Bytes the browser downloads for each page's island: raw, gzip -9, brotli -q 11,
# per bundle (ask: the answering page; desk: the live desk). A bundle is one
# file, pkg/<bundle>.js; its parts, the wasm and the minified script without
# it (wasm-bindgen's JavaScript and the lines that wake the page), are shown
# above it for where the bytes go.
# Builds the release site first (the same steps as the run command).
#   bench/size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v brotli >/dev/null || {
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq brotli >&2
}
scripts/dev.sh build-site >&2
row() { # row LABEL FILE
  printf '%-16s %10d %10d %10d\n' "$1" "$(stat -c%s "$2")" "$(gzip -9 -c "$2" | wc -c)" "$(brotli -q 11 -c "$2" | wc -c)"
}
printf '%-16s %10s %10s %10s\n' file raw gzip-9 brotli
for bundle in ask desk; do
  work=target/wasm32-unknown-unknown/wasm-release/bundle-$bundle
  row "  $bundle.wasm" "$work/$bundle.wasm"
  row "  $bundle.min.js" "$work/$bundle.min.js"
  row "$bundle.js" "target/site/pkg/$bundle.js"
done
