#!/usr/bin/env bash
# CI's first step (.ci/run): make sure Node.js >= 20.19 and npm are on PATH. When either is missing or node is older,
# install Debian's nodejs and npm with apt-get (as .ci/run installs chromium) and check again; if that still does not
# give a new enough Node, fail with one sentence naming the version found and the version needed.
# What must stay true: the required version matches package.json "engines"; exit 0 only when the check passes.
# Tested by scripts/ci-ensure-node.test.ts with a fake node, npm and apt-get on PATH.
set -euo pipefail

# Node.js at least this version, with npm (package.json "engines"; vite 8 and vitest 4 need it).
NODE_NEEDED_MAJOR=20
NODE_NEEDED_MINOR=19

# The node on PATH ("none" without one); "... without npm" when npm is missing.
node_found() {
  local version="none"
  if command -v node >/dev/null 2>&1; then version=$(node -p 'process.versions.node' 2>/dev/null || echo "unknown"); fi
  if ! command -v npm >/dev/null 2>&1; then version="$version without npm"; fi
  echo "$version"
}

# Succeeds when node >= NODE_NEEDED_MAJOR.NODE_NEEDED_MINOR and npm are both on PATH.
node_ok() {
  local found major minor
  found=$(node_found)
  [[ "$found" =~ ^([0-9]+)\.([0-9]+)\.[0-9]+$ ]] || return 1
  major=${BASH_REMATCH[1]}
  minor=${BASH_REMATCH[2]}
  (( major > NODE_NEEDED_MAJOR || (major == NODE_NEEDED_MAJOR && minor >= NODE_NEEDED_MINOR) ))
}

if ! node_ok; then
  echo "Node.js $(node_found) found; installing Debian's nodejs and npm." >&2
  export DEBIAN_FRONTEND=noninteractive
  # A failed install is reported by the check below, in one sentence, instead of apt's output ending the script.
  { apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null; } || true
  hash -r
  if ! node_ok; then
    echo "CI needs Node.js >= ${NODE_NEEDED_MAJOR}.${NODE_NEEDED_MINOR} with npm, but found $(node_found) even after installing Debian's nodejs and npm; install a newer Node.js (e.g. from nodejs.org) and run again." >&2
    exit 1
  fi
fi
