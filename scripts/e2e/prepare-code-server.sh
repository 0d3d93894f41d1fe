#!/usr/bin/env bash
# Prepares a real VS Code for the end-to-end tests: code-server (VS Code's own server and
# workbench, from the npm registry) in a git-ignored cache, plus the Debian packages it needs
# (libkrb5-dev, ripgrep, chromium). The README section "A real VS Code" says why.
#
# Idempotent: missing Debian packages are installed, present ones are left alone; a prepared
# code-server is recognised by its marker file and reused, so a second run takes about a second.
# The cache is built in a temporary folder and renamed into place only when complete.
#
#   scripts/e2e/prepare-code-server.sh          # prints the path of code-server's entry.js last
#   CODE_SERVER_CACHE=/some/dir scripts/...     # another cache folder (default: .vscode-test/)
set -euo pipefail

VERSION="4.96.4"   # the last code-server line built for Node 20 (VS Code 1.96.4)
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${CODE_SERVER_CACHE:-$root/.vscode-test}"
dest="$cache/code-server-$VERSION"
marker="$dest/.prepared"
log() { printf '[prepare-code-server] %s\n' "$*" >&2; }

# 1. Debian packages, only those that are missing.
missing=()
if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then
  for pkg in libkrb5-dev ripgrep chromium; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then missing+=("$pkg"); fi
  done
else
  log "not a Debian system: install Kerberos headers, ripgrep (rg) and Chromium yourself"
fi
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

# 2-6. code-server, once.
if [ -f "$marker" ] && [ "$(cat "$marker")" = "$VERSION" ] && [ -f "$dest/package/out/node/entry.js" ]; then
  log "code-server $VERSION is ready in $dest"
  echo "$dest/package/out/node/entry.js"
  exit 0
fi

mkdir -p "$cache"
work="$(mktemp -d "$cache/.prepare-XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "fetching code-server@$VERSION from the npm registry"
(cd "$work" && npm pack "code-server@$VERSION" --silent >/dev/null && tar xzf "code-server-$VERSION.tgz" && rm "code-server-$VERSION.tgz")
pkg="$work/package"

log "installing code-server's own modules"
(cd "$pkg" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2 && npm rebuild argon2 --loglevel=error >&2)

log "installing VS Code's modules (proxy-agent from the registry instead of its git URL)"
node - "$pkg/lib/vscode/npm-shrinkwrap.json" <<'JS'
const fs = require('node:fs');
const file = process.argv[2];
const wrap = JSON.parse(fs.readFileSync(file, 'utf8'));
for (const [where, entry] of Object.entries(wrap.packages ?? {})) {
  if (!where.endsWith('node_modules/@vscode/proxy-agent')) continue;
  entry.resolved = `https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-${entry.version}.tgz`;
  delete entry.integrity;
}
fs.writeFileSync(file, JSON.stringify(wrap, null, 2) + '\n');
JS
(cd "$pkg/lib/vscode" \
  && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2 \
  && npm rebuild kerberos @parcel/watcher @vscode/deviceid @vscode/spdlog native-watchdog node-pty --loglevel=error >&2)

# @vscode/ripgrep's install step downloads a binary: use Debian's instead.
mkdir -p "$pkg/lib/vscode/node_modules/@vscode/ripgrep/bin"
ln -sf "$(command -v rg || echo /usr/bin/rg)" "$pkg/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"
ln -sfn node_modules "$pkg/lib/vscode/node_modules.asar"

log "installing the built-in extensions' modules"
(cd "$pkg/lib/vscode/extensions" && npm install --omit=dev --no-audit --no-fund --loglevel=error >&2)

XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/config" node "$pkg/out/node/entry.js" --version >&2
echo "$VERSION" > "$pkg/../.prepared-tmp"
rm -rf "$dest"
mkdir -p "$dest"
mv "$pkg" "$dest/package"
mv "$work/.prepared-tmp" "$marker"
log "code-server $VERSION is ready in $dest"
echo "$dest/package/out/node/entry.js"
