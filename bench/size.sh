#!/usr/bin/env bash
# Bytes the browser downloads for each page's island: raw, gzip -9, brotli -q 11,
# per bundle (ask: the answering page; desk: the live desk).
# Builds the release site first (the same steps as the run command).
#   bench/size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v brotli >/dev/null || {
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq brotli >&2
}
scripts/dev.sh build-site >&2
printf '%-14s %10s %10s %10s\n' file raw gzip-9 brotli
for bundle in ask desk; do
  total=(0 0 0)
  for f in "target/site/pkg/$bundle.wasm" "target/site/pkg/$bundle.js"; do
    raw=$(stat -c%s "$f"); gz=$(gzip -9 -c "$f" | wc -c); br=$(brotli -q 11 -c "$f" | wc -c)
    printf '%-14s %10d %10d %10d\n' "$(basename "$f")" "$raw" "$gz" "$br"
    total=($((total[0] + raw)) $((total[1] + gz)) $((total[2] + br)))
  done
  printf '%-14s %10d %10d %10d\n' "$bundle total" "${total[@]}"
done
