#!/usr/bin/env bash
# Where each waiting long-poll's memory goes: a release server built with
# dhat as its allocator (`--features dhat-heap`, in a target folder of its
# own), N long-polls waiting (bench/waiters.py, default 2,000), then
# stopped, and its heap at the peak by allocation site, per waiter
# (bench/heap.py). dhat counts what is allocated, not what is resident:
# memory reserved and never written (hyper's write buffer) counts here and
# not in the RSS bench/waiters.sh reports.
#   bench/heap.sh    (N=2000; ASKDESK_HEAP_BIN=a dhat build skips the build)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-2000}
# ASKDESK_HEAP_BIN names such a build and skips this one.
if [ -z "${ASKDESK_HEAP_BIN:-}" ]; then
  scripts/dev.sh bootstrap >&2
  target=$PWD/target/heap
  CARGO_TARGET_DIR=$target RUSTC_BOOTSTRAP=1 cargo build --release -p server --bin askdesk --features dhat-heap >&2
  ASKDESK_HEAP_BIN=$target/release/askdesk
fi
BENCH_NO_SERVER=1 ASKDESK_BENCH_BIN=$ASKDESK_HEAP_BIN
ASKDESK_BENCH_SITE=${ASKDESK_BENCH_SITE:-$PWD/target/site}
. bench/serve.sh
open_files_for heap.sh "$n"
cd "$BENCH_TMP"
askdesk_start "$BENCH_TMP/heap.db"
cd - >/dev/null
ASKDESK_URL=$URL SERVER_PID=$SERVER_PID BUDGET=60 python3 bench/waiters.py wait "$n" >&2
askdesk_stop
python3 bench/heap.py "$BENCH_TMP/dhat-heap.json" "$n"
