#!/usr/bin/env bash
# Every benchmark figure in one go, against one build, as one Markdown table
# (figure | measured | target | met?): bundle bytes; time to interactive and
# bytes on the wire beside the vanilla and React peers (tti.sh); SSR against
# JSON, in requests per second (ssr.sh) and instructions (ssr_cost.sh); long-poll waiters and stored asks (waiters.sh); agents
# waiting in MCP ask_user (mcp_waiters.sh); answer
# validation (criterion); the terminal UI's first frame (tui.sh); creates
# and answers per second on SQLite and PostgreSQL, and three instances on
# one PostgreSQL (multi.sh); a rolling restart of three behind HAProxy
# (restart.sh); webhook notifications (notify.sh); another
# client's requests beside 1,000 half-open sockets (crowding.sh); with
# FIRST_RUN=1, a fresh clone's first `scripts/dev.sh run` (first_run.sh).
# The release server and site are built once and copied aside, so builds
# running meanwhile change nothing here; ASKDESK_BENCH_BIN (and
# ASKDESK_BENCH_SITE) skip the build and use what they name. Each figure is
# bounded in time; the whole takes about 12 minutes after the build.
# Logs stay in target/bench-report.
#   bench/report.sh
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
out=$PWD/target/bench-report
rm -rf "$out"
mkdir -p "$out"
step() { printf '\n\033[1m=== %s\033[0m (%d s)\n' "$*" "$((SECONDS - started))" >&2; }

step "build"
scripts/dev.sh bootstrap >&2
if [ -z "${ASKDESK_BENCH_BIN:-}" ]; then
  scripts/dev.sh build-release >&2
  cp target/release/askdesk "$out/askdesk"
  cp -r target/site "$out/site"
  export ASKDESK_BENCH_BIN=$out/askdesk ASKDESK_BENCH_SITE=$out/site
fi
site=${ASKDESK_BENCH_SITE:-target/site}
for bundle in ask desk; do
  stat -c%s "$site/pkg/$bundle.js.br"
done >"$out/bundle.txt"

# A figure that fails is reported as not measured; the others still run.
measure() { # measure NAME COMMAND...: runs COMMAND, its output in NAME.log
  step "$1"
  local name=$1
  shift
  if ! "$@" >"$out/$name.log" 2>"$out/$name.err"; then
    echo "$name failed; the end of $out/$name.err:" >&2
    tail -n 20 "$out/$name.err" >&2
  fi
  cat "$out/$name.log" >&2
}
measure tti env LOADS="${LOADS:-20}" JSON_OUT="$out/tti.json" bench/tti.sh
measure ssr env DURATION=5 ROUNDS=5 bench/ssr.sh
measure ssr_cost bench/ssr_cost.sh
measure waiters env BUDGET=60 JSON_OUT="$out/waiters.json" bench/waiters.sh
measure mcp_waiters env COUNTS=1000 BUDGET=30 JSON_OUT="$out/mcp_waiters.json" bench/mcp_waiters.sh
measure validate cargo bench -p interaction --bench validate -- --warm-up-time 1 --measurement-time 5
measure tui bench/tui.sh
measure multi env JSON_OUT="$out/multi.json" bench/multi.sh
measure restart env JSON_OUT="$out/restart.json" bench/restart.sh
measure notify env JSON_OUT="$out/notify.json" bench/notify.sh
measure crowding env JSON_OUT="$out/crowding.json" bench/crowding.sh
# A fresh clone's first run, cold: half an hour more, so only when asked.
if [ -n "${FIRST_RUN:-}" ]; then
  measure first_run env JSON_OUT="$out/first_run.json" bench/first_run.sh
fi

step "report"
python3 bench/report.py "$out"
echo
echo "Measured in $((SECONDS - started)) s on $(nproc) cores; logs in $out."
