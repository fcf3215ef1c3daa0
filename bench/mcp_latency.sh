#!/usr/bin/env bash
# Latency from the human's answer to the MCP client's result, release build:
# p50/p90/p99 over 200 asks, over streamable HTTP and over stdio
# (`askdesk mcp` talking to the same server).
#   bench/mcp_latency.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/dev.sh bootstrap >&2
. bench/serve.sh
ASKDESK_URL=$URL ASKDESK_BIN=$ASKDESK_BIN \
  "${ASKDESK_TOOLS:-$HOME/.cache/askdesk-tools}/py/bin/python" bench/mcp_latency.py
