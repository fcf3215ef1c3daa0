#!/usr/bin/env bash
# Time to interactive of the answer page in headless Chromium (Debian's),
# release build, beside two peers of the same form (bench/peers: a
# hand-written page and React 19 SSR + hydration): from navigation start to
# `body[data-hydrated]`, CPU unthrottled and slowed 4×, cold cache and
# repeat visit, medians of LOADS (default 15) rounds, and a phone (Slow 4G,
# CPU 4×: first paint and interactive, PHONE_LOADS rounds, default 9; and an ask
# opened after the desk, whose bundle the desk prefetched); bytes on the wire on
# the first and the repeat visit; and the scripts a page without an island
# (a cancelled ask) fetches. JSON_OUT=file also writes the figures as JSON.
#   bench/tti.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/dev.sh bootstrap >&2
. bench/serve.sh
. bench/peers/serve.sh
id=$(curl -sf -X POST "$URL/api/v1/asks" -H 'content-type: application/json' \
  -d '{"title": "Withdrawn", "questions": [{"id": "q1", "question": "Go?", "options": [{"label": "Yes"}, {"label": "No"}]}]}' |
  sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
curl -sf -X DELETE "$URL/api/v1/asks/$id" >/dev/null
ASK_URL=$ASK_URL DESK_URL=$URL/ VANILLA_URL=$PEERS_URL/vanilla/ REACT_URL=$PEERS_URL/react/ FINISHED_URL=$URL/asks/$id \
  node bench/tti.mjs
