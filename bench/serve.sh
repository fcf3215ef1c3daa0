# shellcheck shell=bash
# Sourced by the benchmarks: builds the release server and site, starts the
# server on a free loopback port with a throwaway database, creates one ask
# and sets URL, ASK_URL and SERVER_PID. askdesk_start starts another (with
# a database of the caller's choosing) and askdesk_stop stops it; with
# BENCH_NO_SERVER=1 it is the caller's to start any. Every process in
# BENCH_PIDS stops, and the scratch folder BENCH_TMP goes, when the script
# exits.
#
# With ASKDESK_BENCH_BIN (and ASKDESK_BENCH_SITE) set, nothing is built:
# bench/report.sh builds once and copies the binary and site aside, so that
# every figure of one report comes from one build.

# open_files_for SCRIPT COUNTS: raises the open-file limit to the hard one
# and exits unless it holds the largest of COUNTS connections: a socket at
# each end, the client and the server each holding one per connection.
open_files_for() {
  ulimit -n "$(ulimit -Hn)"
  local most
  most=$(tr ' ' '\n' <<<"$2" | sort -n | tail -n 1)
  [ "$(ulimit -n)" -gt $((most + 200)) ] ||
    { echo "$1: $most connections need more than $(ulimit -n) open files" >&2; exit 1; }
}

BENCH_PIDS=()
BENCH_TMP=$(mktemp -d)
trap 'kill "${BENCH_PIDS[@]}" 2>/dev/null || true; rm -rf "$BENCH_TMP"' EXIT
if [ -z "${ASKDESK_BENCH_BIN:-}" ]; then
  scripts/dev.sh build-release >&2
fi
ASKDESK_BIN=${ASKDESK_BENCH_BIN:-$PWD/target/release/askdesk}
ASKDESK_SITE=${ASKDESK_BENCH_SITE:-$PWD/target/site}

# askdesk_start DATABASE [OPTION...]: starts a server on a free loopback
# port and sets URL and SERVER_PID. The server runs under the command in
# the array ASKDESK_WRAP when that is set (bench/ssr_cost.sh: callgrind).
# Every benchmark client comes from one loopback address, so the limits on
# what one address may hold are off, unless BENCH_DEFAULT_LIMITS=1
# (bench/crowding.sh measures those limits).
ASKDESK_WRAP=()
askdesk_start() {
  local out=$BENCH_TMP/server.out limits=(--max-connections-per-address 0 --max-waits-per-address 0)
  [ "${BENCH_DEFAULT_LIMITS:-}" = 1 ] && limits=()
  "${ASKDESK_WRAP[@]}" "$ASKDESK_BIN" --addr 127.0.0.1:0 --database "$1" --site-root "$ASKDESK_SITE" "${limits[@]}" "${@:2}" \
    >"$out" 2>/dev/null &
  SERVER_PID=$!
  BENCH_PIDS+=("$SERVER_PID")
  URL=
  for _ in $(seq 300); do
    URL=$(sed -n 's/^askdesk is serving on \(http:[^ ]*\)$/\1/p' "$out")
    [ -n "$URL" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  rm -f "$out"
  [ -n "$URL" ] || { echo "the server did not start" >&2; exit 1; }
}

# askdesk_stop: stops the server askdesk_start started last and waits (at
# most 10 s, then kills it) until it has gone, so its database is free.
askdesk_stop() {
  kill "$SERVER_PID" 2>/dev/null || true
  for _ in $(seq 100); do
    case $(ps -o stat= -p "$SERVER_PID" 2>/dev/null || true) in Z* | '') break ;; esac
    sleep 0.1
  done
  kill -9 "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
}

# create_ask: creates the benchmarks' ask (three questions) on the server
# at URL and sets ASK_URL, its page.
create_ask() {
  ASK_URL=$(curl -sf -X POST "$URL/api/v1/asks" -H 'content-type: application/json' -d '{
  "title": "Release plan", "agent": "bench",
  "questions": [
    {"id": "features", "header": "Features", "question": "Which features should ship?", "multiSelect": true,
     "options": [{"label": "Auth", "description": "Sign-in with a token"}, {"label": "Logging"}, {"label": "Metrics"}]},
    {"id": "db", "header": "Database", "question": "Which database?",
     "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
    {"id": "notes", "question": "Anything else?"}
  ]}' | sed -n 's/.*"url":"\([^"]*\)".*/\1/p')
  [ -n "$ASK_URL" ] || { echo "could not create an ask" >&2; exit 1; }
}

[ "${BENCH_NO_SERVER:-}" = 1 ] && return 0
askdesk_start :memory:
create_ask
