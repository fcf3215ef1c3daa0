#!/usr/bin/env bash
# The stores and several instances, release build: creates and answers per
# second on a SQLite file and on PostgreSQL (N asks each, default 5,000,
# at most BUDGET s per step); then 3 instances on one PostgreSQL schema:
# cross-instance wake-up (WAKES asks one at a time, default 300) and
# SPREAD long-polls (default 1,000) over the three, each answered on
# another instance. PostgreSQL is ASKDESK_TEST_POSTGRES when set, else a
# throwaway cluster from scripts/dev.sh, with fsync on (SQLite runs with
# synchronous=FULL: both make each commit durable).
#   bench/multi.sh        (N=5000 WAKES=300 SPREAD=1000 BUDGET=60)
#   JSON_OUT=file         also appends each figure to file, one JSON line each
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ASKDESK_TEST_POSTGRES:-}" ]; then
  ASKDESK_PG_DURABLE=1 exec scripts/dev.sh with-postgres "$0" "$@"
fi
command -v psql >/dev/null || { echo "multi.sh: psql is missing (postgresql-client)" >&2; exit 1; }
# 1,000 long-polls are a socket at each end.
ulimit -n "$(ulimit -Hn)"
BENCH_NO_SERVER=1
. bench/serve.sh
export BUDGET=${BUDGET:-60}
n=${N:-5000}
run() { ASKDESK_URLS=$1 SERVER_PIDS=$2 python3 bench/multi.py "${@:3}"; }

# A schema of its own on the shared database, dropped at the end.
schema=bench_$$_$RANDOM
psql "$ASKDESK_TEST_POSTGRES" -qc "CREATE SCHEMA ${schema}_rates; CREATE SCHEMA ${schema}_multi"
trap 'kill "${BENCH_PIDS[@]}" 2>/dev/null || true; rm -rf "$BENCH_TMP";
  PGOPTIONS="-c client_min_messages=warning" psql "$ASKDESK_TEST_POSTGRES" -qc "DROP SCHEMA ${schema}_rates CASCADE; DROP SCHEMA ${schema}_multi CASCADE" || true' EXIT
on_schema() { # on_schema NAME: the test database, with NAME as its search_path
  local sep='?'
  [[ $ASKDESK_TEST_POSTGRES == *\?* ]] && sep='&'
  echo "${ASKDESK_TEST_POSTGRES}${sep}options=-c%20search_path%3D$1"
}

askdesk_start "$BENCH_TMP/rates.db"
run "$URL" "$SERVER_PID" rates sqlite "$n"
askdesk_stop
askdesk_start "$(on_schema "${schema}_rates")"
run "$URL" "$SERVER_PID" rates postgres "$n"
askdesk_stop

urls=() pids=()
for _ in 1 2 3; do
  askdesk_start "$(on_schema "${schema}_multi")"
  urls+=("$URL")
  pids+=("$SERVER_PID")
done
run "${urls[*]}" "${pids[*]}" wake "${WAKES:-300}"
run "${urls[*]}" "${pids[*]}" spread "${SPREAD:-1000}"
