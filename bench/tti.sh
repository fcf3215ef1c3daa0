#!/usr/bin/env bash
# Time to interactive of the answer page in headless Chromium (Debian's),
# release build: from navigation start to the moment the wasm has hydrated
# the page (`body[data-hydrated]`), over 30 fresh loads with an empty cache.
#   bench/tti.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/dev.sh bootstrap >&2
. bench/serve.sh
ASK_URL=$ASK_URL node bench/tti.mjs
