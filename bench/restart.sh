#!/usr/bin/env bash
# A rolling restart behind HAProxy: three instances on one PostgreSQL, a
# thousand agents long-polling through the balancer, answers arriving while
# each instance is stopped (SIGTERM, --shutdown-grace 2) and started again
# (end2end/multi/test_restart.py, which asserts that nothing is lost or
# heard twice). Prints its figures as JSON: how long each restart took,
# calls the agents had to try again, and answer → agent p50 / p99 / max.
#   bench/restart.sh        (AGENTS=1000)
#   JSON_OUT=file           also writes the figures there
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ASKDESK_TEST_POSTGRES:-}" ]; then
  ASKDESK_PG_DURABLE=1 exec scripts/dev.sh with-postgres "$0" "$@"
fi
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] ||
  { echo "restart.sh: haproxy is missing (scripts/dev.sh test multi installs it)" >&2; exit 1; }
bin=${ASKDESK_BENCH_BIN:-target/debug/askdesk}
[ -x "$bin" ] || { echo "restart.sh: no $bin; build it first (scripts/dev.sh build)" >&2; exit 1; }
out=${JSON_OUT:-$(mktemp)}
ASKDESK_BIN=$bin ASKDESK_RESTART_AGENTS=${AGENTS:-1000} ASKDESK_BENCH_OUT=$out \
  "${ASKDESK_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/askdesk-tools}/py/bin/python" -m pytest \
  end2end/multi/test_restart.py -q -p no:cacheprovider >&2
cat "$out"
