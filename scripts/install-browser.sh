#!/usr/bin/env bash
# Debian's Chromium for the browser tests (Playwright drives it; no browser download of its own).
# Idempotent: does nothing when chromium is already installed.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing; install it as root: apt-get install -y chromium" >&2
  exit 1
fi
echo "installing Debian's chromium for the browser tests ..." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
