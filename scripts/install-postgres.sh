#!/usr/bin/env bash
# PostgreSQL for the bench's database scenarios and test/postgres: Debian's
# `postgresql` package. Does nothing when a PostgreSQL bin directory exists
# (/usr/lib/postgresql/*/bin/initdb, or PG_BIN). The bench and the tests make
# their own throwaway clusters, so no default cluster is created or started.
set -euo pipefail

if [ -n "${PG_BIN:-}" ] && [ -x "$PG_BIN/initdb" ]; then exit 0; fi
for bin in /usr/lib/postgresql/*/bin; do
  if [ -x "$bin/initdb" ]; then exit 0; fi
done

if ! command -v apt-get >/dev/null; then
  echo "install-postgres: no apt-get here. Install PostgreSQL 15 or newer (postgresql.org/download," >&2
  echo "  Homebrew 'postgresql@15', …) and set PG_BIN to the directory holding initdb and pg_ctl." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# No "main" cluster: postgresql-common reads this before the package's postinst runs.
$SUDO mkdir -p /etc/postgresql-common
if ! grep -qs '^create_main_cluster' /etc/postgresql-common/createcluster.conf; then
  echo 'create_main_cluster = false' | $SUDO tee -a /etc/postgresql-common/createcluster.conf >/dev/null
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
ls -d /usr/lib/postgresql/*/bin
