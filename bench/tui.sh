#!/usr/bin/env bash
# `askdesk answer` (the terminal UI, keyless) on a 5-question file, release
# build: time from start to the first frame drawn, and peak RSS. The binary
# exits right after its first frame when ASKDESK_TUI_EXIT_AFTER_FIRST_FRAME
# is set; `script` gives it a terminal.
#   bench/tui.sh
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
command -v hyperfine >/dev/null || $sudo apt-get install -y -qq hyperfine >&2
command -v script >/dev/null || $sudo apt-get install -y -qq bsdutils >&2
# ASKDESK_BENCH_BIN: a binary built already (see bench/serve.sh).
if [ -n "${ASKDESK_BENCH_BIN:-}" ]; then
  bin=$ASKDESK_BENCH_BIN
else
  scripts/dev.sh env >/dev/null
  cargo build --release -p server --bin askdesk >&2
  bin=$PWD/target/release/askdesk
fi
file=$PWD/tui/tests/five-questions.json
run="ASKDESK_TUI_EXIT_AFTER_FIRST_FRAME=1 $bin answer $file"
# Process start to main (exec, loading): the binary without a terminal.
hyperfine --warmup 5 --runs 100 -N "$bin --version" 2>&1 | grep -E 'Time|Range'
# main to the first frame drawn, as the binary measures it, over 30 runs.
for _ in $(seq 30); do
  script -qfec "$run" /dev/null | grep -ao 'first frame [0-9]* µs' | grep -o '[0-9]*' || true
done | sort -n | awk '{a[NR]=$1} END {printf "main to first frame (µs): min %d, median %d, max %d\n", a[1], a[int((NR+1)/2)], a[NR]}'
rss=$(script -qfec "/usr/bin/time -f 'peak RSS %M KiB' env $run" /dev/null | grep -a 'peak RSS' | tr -d '\r')
echo "$rss"
