#!/usr/bin/env bash
# Many agents waiting, and many asks stored: release build, a SQLite file in
# a scratch folder, a fresh server for each figure. For N = 1,000 and
# 10,000: N pending asks, one long-poll GET /api/v1/asks/{id}?wait=300 per
# ask, the server's RSS once all wait; then the asks are answered one at a
# time, answer POST returned → its waiter has the reply, p50/p99 (for at
# most BUDGET s each, default 60). Then 100,000 asks stored (for at most
# 300 s): RSS at idle, and again after a restart on that file. Storing is
# bound by the server's CPU (0.7-1.3 ms per create when last measured, half
# of it waking threads: each statement hops to the SQLite connection's own
# thread and back), which swings with this shared 2-core machine: reports
# have stored 470 to 2,300 asks/s, so 100,000 take 45-215 s.
# The clients are one Python process (asyncio, raw HTTP/1.1).
#   bench/waiters.sh      (COUNTS="1000 10000" STORED=100000 BUDGET=60)
#   JSON_OUT=file         also appends each figure to file, one JSON line each
set -euo pipefail
cd "$(dirname "$0")/.."
counts=${COUNTS:-1000 10000}
stored=${STORED:-100000}
BENCH_NO_SERVER=1
. bench/serve.sh
open_files_for waiters.sh "$counts"
run() { ASKDESK_URL=$URL SERVER_PID=$SERVER_PID python3 bench/waiters.py "$@"; }
for n in $counts; do
  askdesk_start "$BENCH_TMP/waiters-$n.db"
  BUDGET=${BUDGET:-60} run wait "$n"
  askdesk_stop
done
askdesk_start "$BENCH_TMP/stored.db"
BUDGET=300 run store "$stored"
askdesk_stop
askdesk_start "$BENCH_TMP/stored.db"
echo -n "after a restart on that file: "
run idle
askdesk_stop
