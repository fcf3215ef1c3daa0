# shellcheck shell=bash
# Sourced after bench/serve.sh: installs esbuild and React (bench/peers/
# package-lock.json) into the tools folder, builds the peer pages into
# target/bench-peers and serves them on a free loopback port. Sets
# PEERS_URL (the pages are $PEERS_URL/vanilla/ and $PEERS_URL/react/) and
# PEERS_ROOT; the server stops with the others in BENCH_PIDS.
PEERS_MODULES=${ASKDESK_TOOLS:-$HOME/.cache/askdesk-tools}/bench-peers
if [ "$(cat "$PEERS_MODULES/.askdesk-lock" 2>/dev/null)" != "$(sha256sum bench/peers/package-lock.json)" ]; then
  mkdir -p "$PEERS_MODULES"
  cp bench/peers/package.json bench/peers/package-lock.json "$PEERS_MODULES/"
  (cd "$PEERS_MODULES" && npm ci --no-audit --no-fund --silent >&2)
  sha256sum bench/peers/package-lock.json >"$PEERS_MODULES/.askdesk-lock"
fi
PEERS_ROOT=$PWD/target/bench-peers
PEERS_NODE_MODULES=$PEERS_MODULES/node_modules node bench/peers/build.mjs "$PEERS_ROOT" >&2
peers_out=$(mktemp)
node bench/peers/serve.mjs "$PEERS_ROOT" >"$peers_out" &
BENCH_PIDS+=("$!")
PEERS_URL=
for _ in $(seq 100); do
  PEERS_URL=$(sed -n 's/^peers are serving on \(http:[^ ]*\)$/\1/p' "$peers_out")
  [ -n "$PEERS_URL" ] && break
  sleep 0.1
done
rm -f "$peers_out"
[ -n "$PEERS_URL" ] || { echo "the peer pages' server did not start" >&2; exit 1; }
