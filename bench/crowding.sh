#!/usr/bin/env bash
# Slow clients: a fresh release server with its default limits (but a
# header timeout of HEADER_TIMEOUT s, default 10, so the bench sees it
# act), an ask, and another client's requests measured before and while
# N sockets (default 1,000) from one other loopback address send half a
# request head and never finish it.
#   bench/crowding.sh     (N=1000 HEADER_TIMEOUT=10 ROUNDS=300)
#   JSON_OUT=file         also appends the figures to file as a JSON line
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-1000}
export HEADER_TIMEOUT=${HEADER_TIMEOUT:-10}
BENCH_NO_SERVER=1
. bench/serve.sh
open_files_for crowding.sh "$n"
# The limits under test are the server's defaults, not the benchmarks'.
BENCH_DEFAULT_LIMITS=1 askdesk_start "$BENCH_TMP/crowding.db" --header-timeout "$HEADER_TIMEOUT"
ASKDESK_URL=$URL SERVER_PID=$SERVER_PID python3 bench/crowding.py "$n"
askdesk_stop
