#!/usr/bin/env bash
# Installs Debian's chromium for the real-browser tests (test/browser), when it is missing.
# CI runs this from .ci/run as root; elsewhere it uses sudo when it can, or says what to do.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "install-chromium: chromium is missing; install Debian's chromium package as root (apt-get install chromium)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
command -v chromium
