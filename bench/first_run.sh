#!/usr/bin/env bash
# A newcomer's first `scripts/dev.sh run`, timed from a fresh clone until the
# desk serves: a new clone of HEAD, its own empty target folder and an empty
# tools folder (wasm-bindgen-cli, npm tools), as on a fresh machine of this
# kind. Debian's packages and cargo's registry cache stay (downloads are the
# network's time, not the build's). Prints where the time went, by the
# steps the run announces (=== lines), and with JSON_OUT=file writes
# {"seconds", "cores", "phases": [[name, seconds], ...]}.
#   bench/first_run.sh      (takes the better part of half an hour)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d "${TMPDIR:-/tmp}/askdesk-first-run.XXXXXX")
trap 'kill "$run_pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$scratch"' EXIT
git clone -q . "$scratch/clone"
log=$scratch/run.log
started=$EPOCHREALTIME
# Each line stamped with the time it came (bash's own clock: no process per
# line beside the build being timed); the report counts from the start.
(
  cd "$scratch/clone"
  ASKDESK_TOOLS=$scratch/tools ASKDESK_DATA=$scratch/data CARGO_TARGET_DIR=$scratch/clone/target \
    scripts/dev.sh run --addr 127.0.0.1:0 --database "$scratch/askdesk.db" 2>&1 |
    while IFS= read -r line; do
      printf '%s %s\n' "$EPOCHREALTIME" "$line"
    done
) >"$log" &
run_pid=$!
until grep -q "askdesk is serving on " "$log"; do
  kill -0 "$run_pid" 2>/dev/null || { tail -n 30 "$log" >&2; echo "the run ended before it served" >&2; exit 1; }
  sleep 2
done
python3 - "$log" "$(nproc)" "${JSON_OUT:-}" "$started" <<'PY'
import json, re, sys
log, cores, out, started = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
marks = []  # (seconds, name) of each announced step
end = None
for line in open(log, encoding="utf-8", errors="replace"):
    stamp, _, text = line.partition(" ")
    at = float(stamp) - started
    text = re.sub(r"\x1b\[[0-9;]*m", "", text.strip())
    if text.startswith("=== "):
        marks.append((at, text[4:]))
    elif "askdesk is serving on " in text:
        end = at
        break
marks.insert(0, (0.0, "bootstrap"))
phases = [(name, round(nxt - at, 1)) for (at, name), (nxt, _) in zip(marks, marks[1:] + [(end, "")])]
for name, sec in phases:
    print(f"{sec:8.1f} s  {name}")
print(f"clone to serving: {end:.0f} s ({end / 60:.1f} min) on {cores} cores")
if out:
    json.dump({"seconds": end, "cores": cores, "phases": phases}, open(out, "w"))
PY
