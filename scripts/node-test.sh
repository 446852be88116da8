#!/usr/bin/env bash
# The Node package's suite (crates/node): its dependencies from the committed lockfile
# (`npm ci`, into crates/node/node_modules); the native addon (crates/node/src, napi-rs) built in
# the dev profile and copied into the package as jerry-contracts.node, as napi-rs's own tooling
# places it; the CLI, whose verdicts the tests compare with; then Node's own test runner on
# crates/node/test. Needs node (20 or later, with npm) and cargo.
#   scripts/node-test.sh [node --test arguments...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"

echo "== node: npm ci ($(date -u +%H:%M:%S))"
(cd crates/node && npm ci --no-audit --no-fund --loglevel=error)

echo "== node: the addon and the CLI ($(date -u +%H:%M:%S))"
cargo build --quiet -p jerry-contracts-node -p jerry-contracts-cli
case "$(uname -s)" in
Darwin) library="$target/debug/libjerry_contracts_node.dylib" ;;
MINGW* | MSYS* | CYGWIN*) library="$target/debug/jerry_contracts_node.dll" ;;
*) library="$target/debug/libjerry_contracts_node.so" ;;
esac
# Written under a temporary name and renamed, so a Node process that has the old addon loaded
# never sees a half-written file.
cp "$library" crates/node/jerry-contracts.node.tmp
mv -f crates/node/jerry-contracts.node.tmp crates/node/jerry-contracts.node
export JERRY_CONTRACTS_CLI="$target/debug/jerry-contracts"

echo "== node: node --test ($(date -u +%H:%M:%S))"
exec node --test "$@" crates/node/test/
