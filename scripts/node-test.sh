#!/usr/bin/env bash
# The Node package's suite (crates/node): its dependencies from the committed lockfile
# (`npm ci`, into crates/node/node_modules), the CLI the tests ask for each seed's schema, then
# Node's own test runner on crates/node/test. Needs node (20 or later, with npm) and cargo.
#   scripts/node-test.sh [node --test arguments...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"

echo "== node: npm ci ($(date -u +%H:%M:%S))"
(cd crates/node && npm ci --no-audit --no-fund --loglevel=error)

# The tests read each seed's schema from the Rust binary, as a user's tooling would.
cargo build --quiet -p jerry-contracts-cli
export JERRY_CONTRACTS_CLI="$target/debug/jerry-contracts"

echo "== node: node --test ($(date -u +%H:%M:%S))"
exec node --test "$@" crates/node/test/
