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
# This script installs (Debian packages, the toolchain, the tools), sets the
# environment every cargo call shares, and hands over to xtask (xtask/).
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
SUITES=(fmt clippy unit wasm e2e mcp multi contract tui) # == xtask/src/suites.rs

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

# Sets MODE and the environment every cargo call shares.
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
  # Both toolchains build std for wasm32 from its sources (-Zbuild-std,
  # the arguments are xtask's, src/settings.rs), with the bundle's own
  # settings (opt-level z, LTO) and a panic that only traps: no panic
  # messages, locations or formatting machinery in the browser's download
  # (about 11 KB of brotli). -Zbuild-std needs RUSTC_BOOTSTRAP; it is set
  # for every cargo call, xtask's own build included, never toggled:
  # build scripts fingerprint it, and a change rebuilds the whole tree.
  export RUSTC_BOOTSTRAP=1
  # Only the wasm32 target's crates: the bundle, its clippy run and the
  # browser tests share one build of them.
  # No source locations or Debug formatting in the browser's download
  # either, and std built for size. bench/levers.sh measures what each of
  # these saves: it sets ASKDESK_WASM_SIZE_FLAGS and
  # ASKDESK_BUILD_STD_FEATURES (empty: without them).
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort ${ASKDESK_WASM_SIZE_FLAGS--Zlocation-detail=none -Zfmt-debug=none}"
  # CI builds a fresh clone once and throws it away: incremental caches
  # would never be read, and they are about a third of its disk (a CI run
  # once failed on a full disk). A developer's clone keeps them.
  if [ -n "${CI:-}" ] && [ -z "${CARGO_INCREMENTAL:-}" ]; then
    export CARGO_INCREMENTAL=0
  fi
  export PATH="$TOOLS/bin:$TOOLS/npm/node_modules/.bin:$PATH"
}

# wasm-bindgen-cli is xtask's to install (src/tools.rs): in the background,
# while the bundles compile.
install_wasm_tools() {
  wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}" ||
    npm_tools "binaryen@$BINARYEN_VERSION"
  [ "$(esbuild --version 2>/dev/null)" = "$ESBUILD_VERSION" ] || npm_tools "esbuild@$ESBUILD_VERSION"
  local apps=$TOOLS/npm/node_modules/@modelcontextprotocol/ext-apps/package.json
  if [ ! -f "$apps" ] || [ "$(node -p "require('$apps').version")" != "${EXT_APPS_PACKAGES[0]##*@}" ]; then
    npm_tools "${EXT_APPS_PACKAGES[@]}"
  fi
}

npm_tools() { # npm_tools PACKAGE@VERSION... : into the tools' node_modules
  need_node
  log "npm install $*"
  mkdir -p "$TOOLS/npm"
  npm install --prefix "$TOOLS/npm" --no-audit --no-fund --silent "$@" >&2
}

need_node() { command -v npm >/dev/null || apt_install nodejs npm; }

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
  export ASKDESK_PYTHON=$venv/bin/python
}

# PostgreSQL for the tests that claim it: ASKDESK_TEST_POSTGRES when set,
# else a throwaway cluster of Debian's postgresql, which xtask starts
# (src/postgres.rs); installed here when missing.
need_postgres() {
  [ -n "${ASKDESK_TEST_POSTGRES:-}" ] && return 0
  compgen -G '/usr/lib/postgresql/*/bin' >/dev/null || apt_install postgresql
}

# The live-reload WebSocket of `watch`, from npm.
install_ws() {
  local ws=$TOOLS/npm/node_modules/ws/package.json
  need_node
  if [ ! -f "$ws" ] || [ "$(node -p "require('$ws').version")" != "$WS_VERSION" ]; then
    npm_tools "ws@$WS_VERSION"
  fi
}

bootstrap() { select_toolchain; install_wasm_tools; }

# The site's brotli forms (xtask's src/site.rs runs `brotli -q 11`).
need_brotli() { command -v brotli >/dev/null || apt_install brotli; }
need_psql() { command -v psql >/dev/null || apt_install postgresql-client; }

# What the suite $1 needs beyond bootstrap.
install_suite() {
  case $1 in
    fmt | clippy) ;;
    # zsh and fish: the completion scripts are checked by the shells themselves.
    unit) apt_install zsh fish; need_postgres ;;
    wasm) install_browser ;;
    e2e) install_browser; install_end2end; need_brotli ;;
    # Two instances on one PostgreSQL: the test makes its own schema.
    mcp) install_mcp_client; need_psql; need_brotli; need_postgres ;;
    # The tools virtualenv (pytest, httpx2), three servers on one
    # PostgreSQL behind HAProxy.
    multi) install_mcp_client; need_psql; apt_install haproxy; need_postgres ;;
    contract) install_mcp_client ;;
    tui) command -v tmux >/dev/null || apt_install tmux ;;
  esac
}

# Hands over to xtask "$@" with what it reads (src/settings.rs), built by
# cargo and run from a copy (the unit suite may rebuild target/debug/xtask
# under it, and it starts each suite as itself); not `cargo xtask`, which
# would add LD_LIBRARY_PATH, [env] and CARGO_PKG_* to every suite's runners.
xtask() {
  export ASKDESK_TOOLS=$TOOLS ASKDESK_TOOLCHAIN_MODE=$MODE CHROMIUM CHROMEDRIVER
  local bin copy=${CARGO_TARGET_DIR:-$ROOT/target}/xtask-run
  bin=$(cargo build --quiet -p xtask --message-format=json-render-diagnostics |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
  mkdir -p "$copy"
  if ! cmp -s "$bin" "$copy/xtask"; then
    cp "$bin" "$copy/xtask.$$" && mv -f "$copy/xtask.$$" "$copy/xtask"
  fi
  exec "$copy/xtask" "$@"
}

# -------------------------------------------------------------------- main --

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  run | build | build-site | build-release) bootstrap; need_brotli; xtask "$cmd" "$@" ;;
  test)
    suites=("$@")
    ((${#suites[@]})) || suites=("${SUITES[@]}")
    for s in "${suites[@]}"; do
      [[ " ${SUITES[*]} " == *" $s "* ]] || die "unknown suite '$s' (${SUITES[*]})"
    done
    bootstrap
    for s in "${suites[@]}"; do install_suite "$s"; done
    xtask test "$@"
    ;;
  with-postgres)
    [ -z "${ASKDESK_TEST_POSTGRES:-}" ] || exec "$@"
    need_postgres
    select_toolchain
    xtask with-postgres "$@"
    ;;
  watch)
    bootstrap; install_ws
    command -v inotifywait >/dev/null || apt_install inotify-tools
    xtask watch "$@"
    ;;
  bootstrap)
    bootstrap; install_browser; install_end2end; install_mcp_client
    command -v tmux >/dev/null || apt_install tmux
    xtask tools
    ;;
  env) select_toolchain; xtask env ;;
  *)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    [ -z "$cmd" ] || exit 2
    ;;
esac
