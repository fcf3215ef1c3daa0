#!/usr/bin/env bash
# Many agents waiting in MCP ask_user: release build, a SQLite file in a
# scratch folder, a fresh server for each N (default 1,000 and 10,000):
# N streamable-HTTP sessions, each with an ask_user call open, the server's
# RSS once all wait; then the asks answered one at a time through the API,
# answer POST returned → that agent has the result, p50/p99 (for at most
# BUDGET s each, default 60). The clients are one Python process (asyncio,
# raw HTTP/1.1).
#   bench/mcp_waiters.sh      (COUNTS="1000 10000" BUDGET=60)
#   JSON_OUT=file             also appends each figure to file, one JSON line each
set -euo pipefail
cd "$(dirname "$0")/.."
counts=${COUNTS:-1000 10000}
BENCH_NO_SERVER=1
. bench/serve.sh
open_files_for mcp_waiters.sh "$counts"
for n in $counts; do
  askdesk_start "$BENCH_TMP/mcp-waiters-$n.db"
  ASKDESK_URL=$URL SERVER_PID=$SERVER_PID python3 bench/mcp_waiters.py "$n"
  askdesk_stop
done
