#!/usr/bin/env bash
# Server-rendered answer pages per second against the same ask as JSON
# (GET /api/v1/asks/{id}), in one run: wrk on loopback against the release
# server, 2 threads, 32 connections, DURATION s each (default 15) after a
# 3 s warm-up; then the ratio of the two rates.
#   bench/ssr.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || {
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq wrk >&2
}
. bench/serve.sh
duration=${DURATION:-15}
json_url=$URL/api/v1/asks/${ASK_URL##*/}
run() { # run URL: prints wrk's report
  wrk -t2 -c32 -d3s "$1" >/dev/null
  wrk -t2 -c32 -d"${duration}s" --latency "$1"
}
rate() { sed -n 's/^Requests\/sec: *\([0-9.]*\)$/\1/p' <<<"$1"; }
echo "page: $ASK_URL ($(curl -s "$ASK_URL" | wc -c) bytes of HTML)"
report=$(run "$ASK_URL")
echo "$report"
pages=$(rate "$report")
echo "JSON: $json_url ($(curl -s "$json_url" | wc -c) bytes)"
report=$(run "$json_url")
echo "$report"
json=$(rate "$report")
awk -v p="$pages" -v j="$json" \
  'BEGIN { printf "pages %.0f/s, JSON %.0f/s: pages run at %.1f%% of the JSON rate\n", p, j, 100 * p / j }'
