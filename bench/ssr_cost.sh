#!/usr/bin/env bash
# What the server spends on a server-rendered answer page against the same
# ask as JSON (GET /api/v1/asks/{id}), in instructions: the release server
# runs under valgrind's callgrind, which counts only while N requests of one
# kind (default 300) are served, one after another on one kept-alive
# connection, after one request not counted. A fresh server for each kind.
# The counts come out the same from run to run, where bench/ssr.sh's rates
# drift with this machine's load; they leave out the kernel's share of a
# request (its socket), which both kinds pay alike.
#   bench/ssr_cost.sh      (N=300)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v callgrind_control >/dev/null || {
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq valgrind >&2
}
BENCH_NO_SERVER=1
. bench/serve.sh
n=${N:-300}
counts=$BENCH_TMP/callgrind.out
ASKDESK_WRAP=(valgrind --tool=callgrind --instr-atstart=no "--callgrind-out-file=$counts")

control() { # control on|off: counting in the server
  callgrind_control -i "$1" "$SERVER_PID" >/dev/null 2>&1 ||
    { echo "callgrind_control could not turn counting $1" >&2; exit 1; }
}

# cost page|json: sets PER, the instructions per request of that kind.
cost() {
  askdesk_start :memory:
  create_ask
  local url=$ASK_URL args=() i
  [ "$1" = json ] && url=$URL/api/v1/asks/${ASK_URL##*/}
  curl -sf -o /dev/null "$url"
  for ((i = 0; i < n; i++)); do args+=(-o /dev/null "$url"); done
  control on
  curl -sf "${args[@]}"
  control off
  # Stopped, the server writes its counts.
  askdesk_stop
  PER=$(awk -v n="$n" '/^totals:/ { printf "%.0f", $2 / n }' "$counts")
  [ -n "$PER" ] || { echo "callgrind wrote no counts for $1" >&2; exit 1; }
  rm -f "$counts"
}
cost page
page=$PER
cost json
json=$PER
awk -v n="$n" -v p="$page" -v j="$json" \
  'BEGIN { printf "instructions per request, %d of each: page %d, JSON %d: a page costs %.2fx the JSON\n", n, p, j, p / j }'
