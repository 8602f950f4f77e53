#!/usr/bin/env bash
# Installs what Glass needs to drive a browser, and nothing twice:
#   - a Chromium for headless runs: $GLASS_CHROMIUM, or a headless shell
#     (Playwright's, or chromium-headless-shell on $PATH); otherwise the OS
#     package (apt-get install -y chromium-headless-shell), which opens
#     pages for about half the CPU of a full Chromium. Where that package
#     does not exist, a full Chromium (Playwright's or one on $PATH; else
#     apt-get install -y chromium) is used instead;
#   - Node.js for the Playwright driver (the OS package when missing);
#   - the Playwright driver, through playwright-go (glass-conformance setup);
#   - TypeScript for the type check of the runtime's declarations (npm ci in
#     sdk/, pinned by its package-lock.json).
# Where it cannot install by itself it prints one line naming the command
# to run, and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }

# as_root runs a command as root: directly, or through sudo when it needs no
# password. It fails when neither works.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    return 1
  fi
}

apt_updated=
apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 1
  if [ -z "$apt_updated" ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
    apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || return 1
}

# find_shell prints the headless shell glasstest.FindChromium would take.
find_shell() {
  local cache="${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"
  local c
  for c in "$cache"/chromium_headless_shell-*/chrome-headless-shell-linux*/chrome-headless-shell \
           "$cache"/chromium_headless_shell-*/chrome-linux*/headless_shell; do
    [ -x "$c" ] && { echo "$c"; return 0; }
  done
  for c in chromium-headless-shell chrome-headless-shell headless_shell; do
    command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
  done
  return 1
}

# find_full prints the full Chromium glasstest.FindChromium falls back to.
find_full() {
  local cache="${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"
  local c
  for c in "$cache"/chromium-*/chrome-linux*/chrome; do
    [ -x "$c" ] && { echo "$c"; return 0; }
  done
  for c in chromium chromium-browser google-chrome google-chrome-stable; do
    command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
  done
  return 1
}

if [ -n "${GLASS_CHROMIUM:-}" ]; then
  [ -x "$GLASS_CHROMIUM" ] || die "GLASS_CHROMIUM=$GLASS_CHROMIUM is not an executable file"
elif ! find_shell >/dev/null; then
  say "no headless shell found; installing Debian's chromium-headless-shell package"
  if ! apt_install chromium-headless-shell || ! find_shell >/dev/null; then
    if full=$(find_full); then
      say "chromium-headless-shell cannot be installed here; headless runs use $full, at about twice the CPU (sudo apt-get install -y chromium-headless-shell to change that)"
    else
      say "no Chromium found; installing Debian's chromium package"
      apt_install chromium || die "no Chromium found and it cannot be installed here; run: sudo apt-get install -y chromium-headless-shell (or chromium; or set GLASS_CHROMIUM=/path/to/chrome)"
      find_full >/dev/null || die "chromium was installed but is not on PATH; set GLASS_CHROMIUM=/path/to/chrome"
    fi
  fi
fi

if ! command -v node >/dev/null 2>&1 && [ -z "${PLAYWRIGHT_NODEJS_PATH:-}" ]; then
  say "no Node.js found; installing Debian's nodejs package"
  apt_install nodejs || die "no Node.js found and it cannot be installed here; run: sudo apt-get install -y nodejs (or set PLAYWRIGHT_NODEJS_PATH=/path/to/node)"
fi

# TypeScript, pinned by sdk/package-lock.json: go test ./sdk type-checks the
# runtime's declarations with it. npm ci installs exactly the lock into
# sdk/node_modules (which git ignores), only when it is missing or another
# version.
if ! command -v npm >/dev/null 2>&1; then
  say "no npm found; installing Debian's npm package"
  apt_install npm || die "no npm found and it cannot be installed here; run: sudo apt-get install -y npm"
fi
want_ts=$(node -p 'require("./sdk/package-lock.json").packages["node_modules/typescript"].version')
have_ts=$(node -p 'require("./sdk/node_modules/typescript/package.json").version' 2>/dev/null || true)
if [ "$have_ts" != "$want_ts" ]; then
  say "installing TypeScript $want_ts into sdk/node_modules (npm ci)"
  npm ci --prefix sdk --no-audit --no-fund --loglevel=error >/dev/null || die "npm ci in sdk/ failed; run: npm ci --prefix sdk"
fi

go run ./cmd/glass-conformance setup
