#!/usr/bin/env bash
# Server-rendered answer pages per second against the same ask as JSON
# (GET /api/v1/asks/{id}), in one run: wrk on loopback against the release
# server, 2 threads, 32 connections, after a 3 s warm-up of each. The two
# loads alternate, ROUNDS times (default 3), DURATION s each (default 5):
# this machine's speed drifts over a minute, and one run of each, back to
# back, gave ratios from 42% to 57% for the same binary. Prints each
# round, then the medians of the two rates and their ratio.
#   bench/ssr.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || {
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq wrk >&2
}
. bench/serve.sh
duration=${DURATION:-5}
rounds=${ROUNDS:-3}
json_url=$URL/api/v1/asks/${ASK_URL##*/}
rate() { # rate URL: requests per second over DURATION s
  wrk -t2 -c32 -d"${duration}s" "$1" | sed -n 's/^Requests\/sec: *\([0-9.]*\)$/\1/p'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "page: $ASK_URL ($(curl -s "$ASK_URL" | wc -c) bytes of HTML)"
echo "JSON: $json_url ($(curl -s "$json_url" | wc -c) bytes)"
wrk -t2 -c32 -d3s "$ASK_URL" >/dev/null
wrk -t2 -c32 -d3s "$json_url" >/dev/null
pages=() json=()
for round in $(seq "$rounds"); do
  pages+=("$(rate "$ASK_URL")")
  json+=("$(rate "$json_url")")
  awk -v r="$round" -v p="${pages[-1]}" -v j="${json[-1]}" \
    'BEGIN { printf "round %d: pages %.0f/s, JSON %.0f/s (%.1f%%)\n", r, p, j, 100 * p / j }'
done
p=$(printf '%s\n' "${pages[@]}" | median)
j=$(printf '%s\n' "${json[@]}" | median)
awk -v p="$p" -v j="$j" -v n="$rounds" \
  'BEGIN { printf "pages %.0f/s, JSON %.0f/s: pages run at %.1f%% of the JSON rate (medians of %d rounds)\n", p, j, 100 * p / j, n }'
