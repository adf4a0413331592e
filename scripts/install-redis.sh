#!/usr/bin/env bash
# redis-server for test/rate-limit's Redis tests (the Redis rate-limit and session stores, and
# the two-process test): Debian's `redis-server` package. Does nothing when redis-server is on
# PATH (or REDIS_SERVER names it). The tests start their own throwaway server on a free
# loopback port, so the package's system service is neither needed nor started.
set -euo pipefail

if [ -n "${REDIS_SERVER:-}" ] && [ -x "$REDIS_SERVER" ]; then exit 0; fi
if command -v redis-server >/dev/null; then exit 0; fi

if ! command -v apt-get >/dev/null; then
  echo "install-redis: no apt-get here. Install Redis 6 or newer (redis.io/download, Homebrew 'redis', …)" >&2
  echo "  and put redis-server on PATH, or set REDIS_SERVER to its path." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# No service started by the package's postinst where policy-rc.d is honoured (containers, CI).
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
command -v redis-server
