#!/usr/bin/env bash
# Server-rendered answer pages per second: wrk on loopback against the
# release server, 2 threads, 32 connections, 15 s, after a 3 s warm-up.
#   bench/ssr.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || {
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq wrk >&2
}
. bench/serve.sh
echo "page: $ASK_URL ($(curl -s "$ASK_URL" | wc -c) bytes of HTML)"
wrk -t2 -c32 -d3s "$ASK_URL" >/dev/null
wrk -t2 -c32 -d15s --latency "$ASK_URL"
