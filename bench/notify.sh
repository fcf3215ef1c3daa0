#!/usr/bin/env bash
# Webhook notifications, release build, a SQLite file in a scratch folder:
# create → webhook received, p50/p99 over LATENCY asks one at a time
# (default 300); then FLAKY asks (default 1,000) to a receiver that fails
# the first attempt of every delivery (half of all requests): how long until every notification is taken, and
# the server's RSS before and after. The receiver is an asyncio server on
# a free loopback port (bench/notify.py).
#   bench/notify.sh       (LATENCY=300 FLAKY=1000 BUDGET=60)
#   JSON_OUT=file         also appends each figure to file, one JSON line each
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_NO_SERVER=1
. bench/serve.sh
export BUDGET=${BUDGET:-60}
run() { # run MODE N: a fresh server telling a fresh receiver port
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  askdesk_start "$BENCH_TMP/notify-$1.db" --notify "webhook+http://127.0.0.1:$port/hook" \
    --notify-secret bench-secret
  ASKDESK_URL=$URL SERVER_PID=$SERVER_PID RECEIVER_PORT=$port python3 bench/notify.py "$1" "$2"
  askdesk_stop
}
run latency "${LATENCY:-300}"
run flaky "${FLAKY:-1000}"
