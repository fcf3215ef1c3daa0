#!/usr/bin/env bash
# Event fan-out, release build: 1,000 pending asks, 100 clients on
# GET /api/v1/events; POST /api/v1/asks → event at every client, p50/p99,
# and the server's RSS. The clients are one Python process (httpx2).
#   bench/sse_fanout.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/dev.sh bootstrap >&2
. bench/serve.sh
ASKDESK_URL=$URL SERVER_PID=$SERVER_PID \
  "${ASKDESK_TOOLS:-$HOME/.cache/askdesk-tools}/py/bin/python" bench/sse_fanout.py
