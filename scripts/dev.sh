#!/usr/bin/env bash
# askdesk's developer entry point. Every subcommand first installs what is
# missing (and nothing else), so each one works on a fresh machine.
#
#   scripts/dev.sh run              build in release mode and serve on 127.0.0.1:3000
#   scripts/dev.sh test [SUITE...]  run every suite, or the named ones:
#                                   fmt clippy unit wasm e2e mcp multi contract tui
#   scripts/dev.sh watch [ARGS...]  serve a debug build; rebuild, restart and
#                                   reload the page on every save
#   scripts/dev.sh build            build the debug server and the site
#   scripts/dev.sh build-site       build only the site (target/site)
#   scripts/dev.sh build-release    build the release server and the site (benchmarks)
#   scripts/dev.sh bootstrap        install the toolchain and tools only
#   scripts/dev.sh env              print the toolchain this machine uses
#   scripts/dev.sh with-postgres CMD...  run CMD with ASKDESK_TEST_POSTGRES set
#                                   (a throwaway cluster unless it is set already)
#
# Toolchain: a rustup toolchain with the wasm32-unknown-unknown target and
# std's sources (rust-src) is used when there is one (or rustup can add
# them). Otherwise Debian's rustc-web/cargo-web builds everything: the
# server too, so that one toolchain and one environment serve every cargo
# call and nothing is compiled twice. Either way std is built for wasm32
# from source (-Zbuild-std, which needs RUSTC_BOOTSTRAP=1, set for every
# call). ASKDESK_TOOLCHAIN=rustup|debian forces the choice.
#
# Tools land in ASKDESK_TOOLS (default ~/.cache/askdesk-tools), outside the
# clone, so a fresh clone on the same machine reuses them.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
TOOLS=${ASKDESK_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/askdesk-tools}
NAME=askdesk # == LEPTOS_OUTPUT_NAME in .cargo/config.toml
SITE=${ASKDESK_SITE:-$ROOT/target/site}
LOGS=$ROOT/target/test-logs
# wasm-bindgen-cli must equal the wasm-bindgen crate exactly.
WB_VERSION=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml)
# Debian's binaryen (108) emits a broken module from wasm-bindgen's output;
# the npm package is current and runs on Node.js.
BINARYEN_VERSION=132.0.0
# The live-reload WebSocket of `watch` (scripts/reload.mjs).
WS_VERSION=8.23.1
# Minifies wasm-bindgen's JavaScript into each bundle's classic script
# (scripts/wasm-module.mjs; about 1 KB less brotli per bundle).
ESBUILD_VERSION=0.28.2
# The official MCP Apps class the hosted form's script drives its host with
# (frontend/hosted-script.mjs), and what it needs; the same versions as
# end2end/package.json's.
EXT_APPS_PACKAGES=(@modelcontextprotocol/ext-apps@2.0.4 @modelcontextprotocol/client@2.4.0
  @modelcontextprotocol/core@2.4.0 zod@4.6.7)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}

log() { printf '\n\033[1m=== %s\033[0m\n' "$*" >&2; }
die() { printf 'dev.sh: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- installs --

APT_UPDATED=
apt_install() { # apt_install PACKAGE... : installs the ones not installed yet
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  command -v apt-get >/dev/null || die "missing ${missing[*]}; this is not a Debian machine, install them by hand"
  local sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  log "apt-get install ${missing[*]}"
  if [ -z "$APT_UPDATED" ]; then $sudo apt-get update -qq; APT_UPDATED=1; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

# Whether rustup has the wasm32 target and std's sources (which build std
# for it, see select_toolchain), or can add them. A failed attempt is
# remembered per rustc version: on machines whose rustup cannot download,
# the attempt hangs until the timeout.
rustup_ready() {
  local installed stamp="$TOOLS/rustup-wasm32-unavailable" version
  installed=$(rustup target list --installed 2>/dev/null; rustup component list --installed 2>/dev/null)
  if grep -qx wasm32-unknown-unknown <<<"$installed" && grep -q '^rust-src' <<<"$installed"; then
    return 0
  fi
  version=$(rustc --version 2>/dev/null || true)
  [ "$(cat "$stamp" 2>/dev/null)" != "$version" ] || return 1
  log "rustup target add wasm32-unknown-unknown; rustup component add rust-src"
  if timeout 90 rustup target add wasm32-unknown-unknown >&2 &&
    timeout 90 rustup component add rust-src >&2; then
    return 0
  fi
  echo "$version" >"$stamp"
  return 1
}

# Sets MODE, WASM_ARGS and the environment every cargo call shares.
select_toolchain() {
  local want=${ASKDESK_TOOLCHAIN:-}
  mkdir -p "$TOOLS"
  if [ -z "$want" ] && command -v rustup >/dev/null 2>&1 && rustup_ready; then
    want=rustup
  fi
  case "${want:-debian}" in
    rustup)
      MODE=rustup
      local have
      have=$(rustup component list --installed 2>/dev/null || true)
      grep -q '^clippy' <<<"$have" || rustup component add clippy >&2
      grep -q '^rustfmt' <<<"$have" || rustup component add rustfmt >&2
      grep -q '^rust-src' <<<"$have" || rustup component add rust-src >&2
      ;;
    debian)
      MODE=debian
      apt_install rustc-web cargo-web rust-web-src lld-22 rust-web-clippy rustfmt-web
      # Debian's tools first on PATH, ahead of any rustup proxies.
      local shims="$TOOLS/debian-bin" b
      mkdir -p "$shims"
      for b in cargo rustc rustdoc rust-lld cargo-clippy clippy-driver cargo-fmt rustfmt; do
        ln -sfn "/usr/bin/$b" "$shims/$b"
      done
      export PATH="$shims:$PATH"
      ;;
    *) die "ASKDESK_TOOLCHAIN must be rustup or debian, not '$want'" ;;
  esac
  # Both toolchains build std for wasm32 from its sources (-Zbuild-std),
  # with the bundle's own settings (opt-level z, LTO) and a panic that only
  # traps: no panic messages, locations or formatting machinery in the
  # browser's download (about 11 KB of brotli). -Zbuild-std needs
  # RUSTC_BOOTSTRAP; it is set for every cargo call, never toggled: build
  # scripts fingerprint it, and a change rebuilds the whole tree.
  export RUSTC_BOOTSTRAP=1
  WASM_ARGS=(--target wasm32-unknown-unknown -Zbuild-std=std,panic_abort)
  local std_features=${ASKDESK_BUILD_STD_FEATURES-optimize_for_size}
  [ -z "$std_features" ] || WASM_ARGS+=("-Zbuild-std-features=$std_features")
  # Only the wasm32 target's crates: the bundle, its clippy run and the
  # browser tests share one build of them.
  # No source locations or Debug formatting in the browser's download
  # either, and std built for size. bench/levers.sh measures what each of
  # these saves: it sets ASKDESK_WASM_SIZE_FLAGS and
  # ASKDESK_BUILD_STD_FEATURES (empty: without them).
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort ${ASKDESK_WASM_SIZE_FLAGS--Zlocation-detail=none -Zfmt-debug=none}"
  # A test build would otherwise compile a second, unwinding std beside the
  # profile's one, and rustc sees two `core`s ("duplicate lang item");
  # -Zpanic-abort-tests keeps one.
  WASM_TEST_ARGS=(-Zpanic-abort-tests)
  # CI builds a fresh clone once and throws it away: incremental caches
  # would never be read, and they are about a third of its disk (a CI run
  # once failed on a full disk). A developer's clone keeps them.
  if [ -n "${CI:-}" ] && [ -z "${CARGO_INCREMENTAL:-}" ]; then
    export CARGO_INCREMENTAL=0
  fi
  export PATH="$TOOLS/bin:$TOOLS/npm/node_modules/.bin:$PATH"
}

install_wasm_tools() {
  if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WB_VERSION"; then
    log "cargo install wasm-bindgen-cli $WB_VERSION"
    # Not --locked: its lockfile pins a webpki-roots the registry may not serve.
    cargo install wasm-bindgen-cli --version "$WB_VERSION" --root "$TOOLS" --force
  fi
  if ! wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then
    need_node
    log "npm install binaryen@$BINARYEN_VERSION"
    mkdir -p "$TOOLS/npm"
    npm install --prefix "$TOOLS/npm" --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION" >&2
  fi
  if [ "$(esbuild --version 2>/dev/null)" != "$ESBUILD_VERSION" ]; then
    need_node
    log "npm install esbuild@$ESBUILD_VERSION"
    mkdir -p "$TOOLS/npm"
    npm install --prefix "$TOOLS/npm" --no-audit --no-fund --silent "esbuild@$ESBUILD_VERSION" >&2
  fi
  local apps=$TOOLS/npm/node_modules/@modelcontextprotocol/ext-apps/package.json
  if [ ! -f "$apps" ] || [ "$(node -p "require('$apps').version")" != "${EXT_APPS_PACKAGES[0]##*@}" ]; then
    need_node
    log "npm install ${EXT_APPS_PACKAGES[*]}"
    mkdir -p "$TOOLS/npm"
    npm install --prefix "$TOOLS/npm" --no-audit --no-fund --silent "${EXT_APPS_PACKAGES[@]}" >&2
  fi
}

need_node() {
  command -v npm >/dev/null || apt_install nodejs npm
}

install_browser() {
  if [ ! -x "$CHROMIUM" ] || [ ! -x "$CHROMEDRIVER" ]; then
    apt_install chromium chromium-driver
  fi
  [ -x "$CHROMIUM" ] || die "no Chromium at $CHROMIUM (set CHROMIUM)"
  [ -x "$CHROMEDRIVER" ] || die "no ChromeDriver at $CHROMEDRIVER (set CHROMEDRIVER)"
}

install_end2end() {
  need_node
  local stamp=end2end/node_modules/.askdesk-lock
  if [ "$(cat "$stamp" 2>/dev/null)" != "$(sha256sum end2end/package-lock.json)" ]; then
    log "npm ci (end2end)"
    # Playwright never downloads a browser here: the config points at Debian's Chromium.
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent >&2)
    sha256sum end2end/package-lock.json >"$stamp"
  fi
}

# The official Python MCP SDK, a client this project did not write, in a
# virtualenv beside the other tools.
install_mcp_client() {
  local venv=$TOOLS/py stamp
  stamp=$venv/.askdesk-requirements
  if [ "$(cat "$stamp" 2>/dev/null)" != "$(sha256sum end2end/mcp/requirements.txt)" ]; then
    command -v python3 >/dev/null || apt_install python3
    python3 -m venv "$venv" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$venv"; }
    log "pip install (end2end/mcp)"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r end2end/mcp/requirements.txt >&2
    sha256sum end2end/mcp/requirements.txt >"$stamp"
  fi
  PYTHON=$venv/bin/python
}

# PostgreSQL for the tests that claim it: ASKDESK_TEST_POSTGRES when set,
# else a throwaway cluster (Debian's postgresql, installed when missing)
# under target/ on a free port, stopped when this script exits. The tests'
# cluster skips fsync; with ASKDESK_PG_DURABLE=1 (benchmarks) it keeps it.
# PostgreSQL refuses to run as root, so as root it runs as `postgres`.
PG_DATA=
need_postgres() {
  [ -n "${ASKDESK_TEST_POSTGRES:-}" ] && return 0
  local bin dir port
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ]; then
    apt_install postgresql
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  PG_AS=()
  [ "$(id -u)" -eq 0 ] && PG_AS=(runuser -u postgres --)
  dir=$ROOT/target/postgres
  rm -rf "$dir"
  mkdir -p "$dir"
  if ((${#PG_AS[@]})); then
    chown postgres "$dir"
    # The clone may sit where `postgres` cannot reach (a private home).
    if ! "${PG_AS[@]}" test -w "$dir"; then
      rm -rf "$dir"
      dir=$(mktemp -d /tmp/askdesk-postgres.XXXXXX)
      chown postgres "$dir"
    fi
  fi
  port=$(free_port)
  log "PostgreSQL (throwaway, port $port)"
  "${PG_AS[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  local fsync=off
  [ "${ASKDESK_PG_DURABLE:-}" = 1 ] && fsync=on
  "${PG_AS[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/server.log" \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=$fsync -c max_connections=300" start >&2 ||
    { cat "$dir/server.log" >&2; die "PostgreSQL did not start"; }
  PG_DATA=$dir/data
  PG_CTL=$bin/pg_ctl
  trap stop_postgres EXIT
  export ASKDESK_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres"
}

stop_postgres() {
  [ -n "$PG_DATA" ] || return 0
  "${PG_AS[@]}" "$PG_CTL" -D "$PG_DATA" -m immediate stop >/dev/null 2>&1 || true
  PG_DATA=
}

bootstrap() {
  select_toolchain
  install_wasm_tools
}

# ------------------------------------------------------------------ builds --

build_server() { # build_server dev|release
  log "server ($1)"
  if [ "$1" = release ]; then cargo build -p server --bin askdesk --release; else cargo build -p server --bin askdesk; fi
}

# Compiles the browser bundles and lays out target/site: pkg/<bundle>.js
# for each page with an island (app::Bundle) and for the form an agent's
# host shows (hosted, which the server inlines into the MCP App's
# document, app::hosted), a classic script of
# wasm-bindgen's JavaScript with the wasm in it (scripts/wasm-module.mjs),
# pkg/askdesk.css, and public/, each with its brotli (-q 11) and gzip (-9)
# forms beside it. The server names the bundles and CSS by their content
# when it serves them, and a release build embeds the whole folder.
BUNDLES=(ask desk hosted) # == app::Bundle::name and hosted, and frontend's features
# ASKDESK_BUNDLES="ask" builds only those (benchmarks).
read -r -a BUNDLES <<<"${ASKDESK_BUNDLES:-${BUNDLES[*]}}"
build_site() { # build_site [watch]
  if [ "${1:-}" = watch ]; then build_watch_site; return; fi
  log "site (wasm-release)"
  command -v brotli >/dev/null || apt_install brotli
  mkdir -p "$SITE/pkg"
  local bundle out=${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm-release
  local raw=$out/frontend.wasm kept work
  for bundle in "${BUNDLES[@]}"; do
    # One build per bundle: the feature picks the island it wakes, so only
    # app and frontend compile again, with everything else shared.
    cargo build -p frontend --lib --features "$bundle" --profile wasm-release "${WASM_ARGS[@]}"
    # Both builds write the same file: keep each bundle's wasm under its
    # name, replaced only when it changed.
    kept=$out/bundle-$bundle.wasm work=$out/bundle-$bundle
    cmp -s "$raw" "$kept" || cp "$raw" "$kept"
    # wasm-bindgen and wasm-opt take a while; skip them when the wasm is unchanged.
    if [ ! -f "$SITE/pkg/$bundle.js" ] || [ "$kept" -nt "$SITE/pkg/$bundle.js" ] ||
      [ scripts/wasm-module.mjs -nt "$SITE/pkg/$bundle.js" ] ||
      [ scripts/wasm-dead-exports.mjs -nt "$SITE/pkg/$bundle.js" ]; then
      rm -rf "$work"
      # No default path: the wasm is in the JavaScript, not beside it.
      wasm-bindgen --target web --no-typescript --omit-default-module-path \
        --out-dir "$work" --out-name "$bundle" "$kept"
      # wasm-streams' exported classes, which no bundle uses, and the code
      # only they keep (ASKDESK_DEAD_EXPORTS=keep leaves them, for
      # bench/levers.sh).
      [ "${ASKDESK_DEAD_EXPORTS:-}" = keep ] ||
        node scripts/wasm-dead-exports.mjs "$work/$bundle.js" "$work/${bundle}_bg.wasm"
      # The module makes its own memory, which starts zeroed, and Rust puts
      # the stack first, so the low 1 KiB is touched only a byte short of a
      # stack overflow: wasm-opt may assume both (about 1 KB less brotli).
      wasm-opt -Oz --converge --strip-debug --strip-producers --strip-target-features \
        --zero-filled-memory --low-memory-unused \
        --enable-bulk-memory --enable-nontrapping-float-to-int \
        "$work/${bundle}_bg.wasm" -o "$work/$bundle.wasm"
      # One classic script: the JavaScript minified by esbuild, the wasm in it.
      # The hosted form's bundle is inlined into its document (--inline).
      local inline=()
      [ "$bundle" != hosted ] || inline=(--inline)
      node scripts/wasm-module.mjs "${inline[@]}" "$work/$bundle.js" "$work/$bundle.wasm" "$SITE/pkg/$bundle.js"
      # A site laid out before the wasm moved into the JavaScript.
      rm -f "$SITE/pkg/$bundle".wasm{,.br,.gz}
    fi
  done
  copy_static
  local f
  while IFS= read -r f; do
    if [ ! -f "$f.br" ] || [ "$f" -nt "$f.br" ]; then brotli -q 11 -f -o "$f.br" "$f"; fi
    if [ ! -f "$f.gz" ] || [ "$f" -nt "$f.gz" ]; then gzip -9 -n -c "$f" >"$f.gz"; fi
  done < <(find "$SITE" -type f ! -name '*.br' ! -name '*.gz')
  # A release build embeds target/site; cargo notices changed files but not
  # added or removed ones, so a new listing rebuilds the embedding module.
  local listing stamp=$SITE-listing
  listing=$(cd "$SITE" && find . -type f | sort | sha256sum)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$listing" ]; then
    touch server/src/http/assets.rs
    echo "$listing" >"$stamp"
  fi
}

copy_static() {
  cp style/main.css "$SITE/pkg/$NAME.css"
  cp -r public/. "$SITE/"
  hosted_script
}

# The hosted form's script for hosts that run no WebAssembly: one classic
# script, with the official MCP Apps class in it, inlined into the form's
# document (app::hosted::document).
hosted_script() {
  local src=frontend/hosted-script.mjs out=$SITE/pkg/hosted-script.js
  local apps=$TOOLS/npm/node_modules/@modelcontextprotocol/ext-apps/package.json
  if [ ! -f "$out" ] || [ "$src" -nt "$out" ] || [ "$apps" -nt "$out" ]; then
    NODE_PATH=$TOOLS/npm/node_modules esbuild --bundle --format=iife --minify --platform=browser \
      --log-level=warning --outfile="$out" "$src"
  fi
}

# The watch's site, in a folder of its own (so a release build never
# embeds it): built for a quick rebuild rather than for size. One bundle
# with both pages' islands (one compile), laid out under both bundles'
# names; the wasm-dev profile (no LTO, incremental), no wasm-opt and no
# compressed forms.
build_watch_site() {
  log "site (wasm-dev)"
  mkdir -p "$SITE/pkg"
  local work=${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm-dev
  local bundles=${BUNDLES[*]}
  cargo build -p frontend --lib --features "${bundles// /,}" --profile wasm-dev "${WASM_ARGS[@]}"
  if [ ! -f "$SITE/pkg/${BUNDLES[0]}.js" ] || [ "$work/frontend.wasm" -nt "$SITE/pkg/${BUNDLES[0]}.js" ] ||
    [ scripts/wasm-module.mjs -nt "$SITE/pkg/${BUNDLES[0]}.js" ]; then
    rm -rf "$work/bundle"
    wasm-bindgen --target web --no-typescript --omit-default-module-path \
      --out-dir "$work/bundle" --out-name bundle "$work/frontend.wasm"
    # --inline: the one file also stands as the hosted form's bundle.
    node scripts/wasm-module.mjs --inline "$work/bundle/bundle.js" "$work/bundle/bundle_bg.wasm" "$SITE/pkg/${BUNDLES[0]}.js"
    local bundle
    for bundle in "${BUNDLES[@]:1}"; do cp "$SITE/pkg/${BUNDLES[0]}.js" "$SITE/pkg/$bundle.js"; done
  fi
  copy_static
}

# ------------------------------------------------------------------- suites --

# served_url OUT PID LOG: the URL a server started with --addr 127.0.0.1:0
# prints on OUT, once it does; if it exits or stays silent for 10 s, its
# LOG is shown and the script stops.
served_url() {
  local out=$1 pid=$2 log=$3 url= _
  for _ in $(seq 100); do
    url=$(sed -n 's/^askdesk is serving on \(http:[^ ]*\)$/\1/p' "$out")
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    kill "$pid" 2>/dev/null || true
    cat "$log" >&2
    die "the server did not start"
  fi
  echo "$url"
}

# The most bytes (brotli) each page with browser code may download: its
# bundle, one file of JavaScript with the wasm in it. Sizes are
# deterministic for a toolchain, so this is a test: a change that grows a
# bundle past its budget fails until it earns the bytes or the budget is
# raised on purpose. Each budget is the size measured with rustup's
# toolchain plus 2%; bench/size.sh reports the sizes beside the peers'.
# hosted-script is JavaScript only (the official MCP Apps class, pinned in
# EXT_APPS_PACKAGES, and what it brings), the same on either toolchain.
declare -A BUNDLE_BUDGET=([ask]=103460 [desk]=65115 [hosted]=107216 [hosted-script]=125303)

check_bundle_budget() {
  local bundle size over=
  for bundle in "${BUNDLES[@]}" hosted-script; do
    size=$(stat -c%s "$SITE/pkg/$bundle.js.br")
    printf 'bundle %s: %d B brotli, budget %d B\n' "$bundle" "$size" "${BUNDLE_BUDGET[$bundle]}"
    [ "$size" -le "${BUNDLE_BUDGET[$bundle]}" ] || over+=" $bundle"
  done
  [ -z "$over" ] || die "over budget:$over (the bundles' sizes above)"
}

suite_fmt() { cargo fmt --all --check; }

suite_clippy() {
  cargo clippy --workspace --exclude frontend --all-targets -- -D warnings
  # The browser half: the entry crate with both pages' islands.
  cargo clippy -p frontend -p askform -p app --features frontend/ask,frontend/desk,frontend/hosted --profile wasm-release \
    "${WASM_ARGS[@]}" -- -D warnings
}

# The vocabulary, the desk on every store (PostgreSQL included, see
# need_postgres), the router in-process.
# zsh and fish: the completion scripts are checked by the shells themselves.
suite_unit() {
  apt_install zsh fish
  cargo test --workspace --exclude frontend
}

suite_wasm() {
  install_browser
  # wasm-bindgen-test-runner drives Chromium through ChromeDriver, headless.
  # app's components with the ask island's features, as the ask bundle
  # builds them, so the dependencies are compiled once for both.
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    CHROMEDRIVER=$CHROMEDRIVER \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON=$ROOT/end2end/webdriver.json \
    cargo test -p app --features ask-island --test browser --profile wasm-release \
    "${WASM_ARGS[@]}" "${WASM_TEST_ARGS[@]}"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

suite_e2e() {
  install_browser
  install_end2end
  build_server dev
  build_site
  check_bundle_budget
  local dir out pid url=
  dir=$(mktemp -d)
  out=$dir/server.out
  # Port 0: the kernel picks a free port and the server prints its URL.
  # The embedding tests serve host pages on two more loopback ports (a real
  # local origin: Chromium blocks public pages from framing loopback ones);
  # both may frame askdesk, only the first is told of the outcome.
  local host_port other_port
  host_port=$(free_port)
  other_port=$(free_port)
  target/debug/askdesk --addr 127.0.0.1:0 --database "$dir/askdesk.db" --site-root "$SITE" \
    --frame-ancestors "'self' http://127.0.0.1:$host_port http://127.0.0.1:$other_port" \
    --embed-origin "http://127.0.0.1:$host_port" \
    --web-push mailto:e2e@askdesk.test \
    >"$out" 2>"$LOGS/e2e-server.log" &
  pid=$!
  url=$(served_url "$out" "$pid" "$LOGS/e2e-server.log")
  # A second desk, with a token: where a phone signs in by the desk's
  # one-time link (phone.spec.ts).
  local token=e2e-desk-token-e2e-desk-token token_pid token_url
  target/debug/askdesk --addr 127.0.0.1:0 --database "$dir/token.db" --site-root "$SITE" \
    --token "$token" >"$dir/token.out" 2>"$LOGS/e2e-token-server.log" &
  token_pid=$!
  token_url=$(served_url "$dir/token.out" "$token_pid" "$LOGS/e2e-token-server.log")
  # oidc.spec.ts starts desks of its own (ASKDESK_BIN, SITE_ROOT) beside a
  # real OpenID provider (end2end/oidc/provider.mjs).
  local rc=0
  (cd end2end && BASE_URL=$url HOST_PORT=$host_port OTHER_PORT=$other_port CHROMIUM=$CHROMIUM \
    TOKEN_URL=$token_url DESK_TOKEN=$token ASKDESK_BIN=$ROOT/target/debug/askdesk SITE_ROOT=$SITE \
    npx playwright test) || rc=$?
  kill "$pid" "$token_pid" 2>/dev/null || true
  wait "$pid" "$token_pid" 2>/dev/null || true
  rm -rf "$dir"
  return $rc
}

# ask_user through the Python MCP SDK, over HTTP and stdio, against the
# debug server and the site (both built already by e2e when both run); and
# one session across two instances on the test PostgreSQL.
suite_mcp() {
  install_mcp_client
  # Two instances on one PostgreSQL: the test makes its own schema.
  command -v psql >/dev/null || apt_install postgresql-client
  build_server dev
  build_site # the servers the tests start serve it (built already after e2e)
  ASKDESK_BIN=$ROOT/target/debug/askdesk ASKDESK_SITE_ROOT=$SITE \
    "$PYTHON" -m pytest end2end/mcp -q -p no:cacheprovider
}

# Three real askdesk processes on one PostgreSQL (the test makes its own
# schema) acting as one desk while they are SIGKILLed, and restarted one
# after another behind HAProxy.
suite_multi() {
  install_mcp_client # the tools virtualenv: pytest and httpx2
  command -v psql >/dev/null || apt_install postgresql-client
  apt_install haproxy
  build_server dev
  ASKDESK_BIN=$ROOT/target/debug/askdesk \
    "$PYTHON" -m pytest end2end/multi -q -p no:cacheprovider --durations=0
}

# schemathesis against the API's own OpenAPI document, on the debug server
# with a token: examples, coverage and a fuzzing phase bounded by examples
# per operation (end2end/contract/schemathesis.toml). A fixed seed keeps a
# run reproducible; `schemathesis … --seed <n>` replays another.
suite_contract() {
  install_mcp_client
  build_server dev
  local out pid url token=contract-token-0123456789
  out=$(mktemp)
  ASKDESK_TOKEN=$token target/debug/askdesk --addr 127.0.0.1:0 --database :memory: \
    >"$out" 2>"$LOGS/contract-server.log" &
  pid=$!
  url=$(served_url "$out" "$pid" "$LOGS/contract-server.log")
  local rc=0
  ASKDESK_TOKEN=$token "$(dirname "$PYTHON")/schemathesis" \
    --config-file end2end/contract/schemathesis.toml \
    run "$url/api/v1/openapi.json" --seed 20261130 || rc=$?
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -f "$out"
  return "$rc"
}

# `askdesk tui` and `askdesk answer` in a real terminal: tmux sends keys and
# reads the screen, keyless and connected to a real server. The tmux tests
# are the ignored ones of the tui crate's one test binary.
suite_tui() {
  command -v tmux >/dev/null || apt_install tmux
  build_server dev
  ASKDESK_BIN=$ROOT/target/debug/askdesk cargo test -p tui --test tui -- --ignored
}

run_tests() {
  local suites=("$@") s
  ((${#suites[@]})) || suites=(fmt clippy unit wasm e2e mcp multi contract tui)
  for s in "${suites[@]}"; do
    declare -F "suite_$s" >/dev/null || die "unknown suite '$s' (fmt clippy unit wasm e2e mcp multi contract tui)"
  done
  bootstrap
  mkdir -p "$LOGS"
  case " ${suites[*]} " in *" unit "* | *" mcp "* | *" multi "*) need_postgres ;; esac
  local failed=() passed=() start
  for s in "${suites[@]}"; do
    log "suite $s"
    start=$SECONDS
    # Each suite runs in a subshell so that one failure does not stop the
    # rest. Not in an `if`: there bash would ignore `set -e` inside the suite
    # and only its last command would count.
    set +e
    (set -e; "suite_$s") 2>&1 | tee "$LOGS/$s.log"
    local rc=${PIPESTATUS[0]}
    set -e
    if [ "$rc" -eq 0 ]; then
      passed+=("$s ($((SECONDS - start))s)")
    else
      failed+=("$s ($((SECONDS - start))s)")
    fi
  done
  log "summary"
  printf 'suites passed: %s\n' "${passed[*]:-none}"
  printf 'suites failed: %s\n' "${failed[*]:-none}"
  summarize "${suites[@]}"
  ((${#failed[@]} == 0))
}

# The runners' own summary lines, then one total over all of them.
summarize() {
  local s total_pass=0 total_fail=0 n
  for s in "$@"; do
    [ -f "$LOGS/$s.log" ] || continue
    case $s in
      unit | wasm | tui)
        grep -E '^test result:' "$LOGS/$s.log" | grep -v ' 0 passed; 0 failed' | sed "s/^/$s: /" || true
        n=$(grep -E '^test result:' "$LOGS/$s.log" | grep -oE '[0-9]+ passed' | awk '{s+=$1} END {print s+0}')
        total_pass=$((total_pass + n))
        n=$(grep -E '^test result:' "$LOGS/$s.log" | grep -oE '[0-9]+ failed' | awk '{s+=$1} END {print s+0}')
        total_fail=$((total_fail + n))
        ;;
      contract)
        # "Test cases: N generated, N passed, …" or "…, K found K unique failures".
        grep -E '^  [0-9]+ generated' "$LOGS/$s.log" | sed "s/^ */$s: /" || true
        n=$(grep -oE '^  [0-9]+ generated, [0-9]+ passed' "$LOGS/$s.log" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || true)
        total_pass=$((total_pass + ${n:-0}))
        n=$(grep -oE 'found [0-9]+ unique' "$LOGS/$s.log" | grep -oE '[0-9]+' || true)
        total_fail=$((total_fail + ${n:-0}))
        ;;
      mcp | multi)
        grep -E '^[0-9]+ (passed|failed)|^=+ .*(passed|failed)' "$LOGS/$s.log" | sed "s/^/$s: /" || true
        n=$(grep -oE '[0-9]+ passed' "$LOGS/$s.log" | tail -1 | grep -oE '[0-9]+' || true)
        total_pass=$((total_pass + ${n:-0}))
        n=$(grep -oE '[0-9]+ failed' "$LOGS/$s.log" | tail -1 | grep -oE '[0-9]+' || true)
        total_fail=$((total_fail + ${n:-0}))
        ;;
      e2e)
        grep -E '^ +[0-9]+ (passed|failed|flaky|skipped)' "$LOGS/$s.log" | sed "s/^ */$s: /" || true
        n=$(grep -E '^ +[0-9]+ passed' "$LOGS/$s.log" | grep -oE '[0-9]+' | head -1 || true)
        total_pass=$((total_pass + ${n:-0}))
        n=$(grep -E '^ +[0-9]+ failed' "$LOGS/$s.log" | grep -oE '[0-9]+' | head -1 || true)
        total_fail=$((total_fail + ${n:-0}))
        ;;
    esac
  done
  printf 'tests: %d passed, %d failed\n' "$total_pass" "$total_fail"
}

# ------------------------------------------------------------------- watch --

# What a save in these rebuilds: everything the server and the bundles are
# made of.
WATCHED=(app askform client desk frontend interaction server/src agents/src notify/src style public scripts/wasm-module.mjs scripts/wasm-dead-exports.mjs Cargo.toml)

# Serves a debug server and the site, rebuilds both when a watched file is
# saved, restarts the server on the new build, and then tells every open
# page to reload (Leptos' <AutoReload>, over scripts/reload.mjs). A build
# that fails leaves the last server running and says why.
watch() {
  bootstrap
  command -v inotifywait >/dev/null || apt_install inotify-tools
  need_node
  if [ ! -d "$TOOLS/npm/node_modules/ws" ] ||
    [ "$(node -p "require('$TOOLS/npm/node_modules/ws/package.json').version")" != "$WS_VERSION" ]; then
    log "npm install ws@$WS_VERSION"
    mkdir -p "$TOOLS/npm"
    npm install --prefix "$TOOLS/npm" --no-audit --no-fund --silent "ws@$WS_VERSION" >&2
  fi
  local port=${LEPTOS_RELOAD_PORT:-3001} out
  out=$(mktemp)
  WATCH_OUT=$out
  NODE_PATH=$TOOLS/npm/node_modules node scripts/reload.mjs "$port" &
  WATCH_RELOAD=$!
  WATCH_SERVER=
  trap 'kill $WATCH_RELOAD $WATCH_SERVER 2>/dev/null || true; rm -f "$WATCH_OUT"' EXIT
  SITE=$ROOT/target/site-watch
  while true; do
    if build_server dev && build_site watch; then
      if [ -n "$WATCH_SERVER" ]; then
        kill "$WATCH_SERVER" 2>/dev/null || true
        wait "$WATCH_SERVER" 2>/dev/null || true
      fi
      : >"$out"
      # LEPTOS_WATCH for the server alone: Leptos reads it at compile time
      # too, and builds with and without it would rebuild each other.
      LEPTOS_WATCH=1 LEPTOS_RELOAD_PORT=$port \
        target/debug/askdesk --site-root "$SITE" "$@" > >(tee "$out") &
      WATCH_SERVER=$!
      served_url "$out" "$WATCH_SERVER" /dev/null >/dev/null
      kill -HUP "$WATCH_RELOAD"
      log "serving; watching for changes (Ctrl-C stops)"
    else
      log "the build failed; still serving the last one"
    fi
    inotifywait -qq -r -e close_write,create,delete,move "${WATCHED[@]}"
  done
}

# -------------------------------------------------------------------- main --

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  run)
    bootstrap
    # The site first: the release binary embeds it.
    build_site
    build_server release
    log "askdesk"
    exec target/release/askdesk "$@"
    ;;
  test) run_tests "$@" ;;
  with-postgres)
    need_postgres
    "$@"
    ;;
  watch) watch "$@" ;;
  build) bootstrap; build_server dev; build_site ;;
  build-site) bootstrap; build_site ;;
  build-release) bootstrap; build_site; build_server release ;;
  bootstrap)
    bootstrap; install_browser; install_end2end; install_mcp_client
    command -v tmux >/dev/null || apt_install tmux
    ;;
  env)
    select_toolchain
    echo "toolchain: $MODE ($(cargo --version))"
    echo "wasm build: cargo build ${WASM_ARGS[*]}"
    echo "RUSTC_BOOTSTRAP=${RUSTC_BOOTSTRAP:-}"
    echo "tools: $TOOLS"
    ;;
  *)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    [ -z "$cmd" ] || exit 2
    ;;
esac
