#!/usr/bin/env bash
# The Node package's benchmark against ajv (crates/node/bench/ratios.mjs): the addon built in the
# release profile, loaded through JERRY_CONTRACTS_ADDON, the package's dev dependencies (ajv,
# ajv-formats) from the lockfile. REPS and BATCH_MS tune it (docs/performance.md).
#   scripts/bench-node.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
(cd crates/node && npm ci --no-audit --no-fund --loglevel=error)
cargo build --quiet --release -p jerry-contracts-node
case "$(uname -s)" in
Darwin) library="$target/release/libjerry_contracts_node.dylib" ;;
MINGW* | MSYS* | CYGWIN*) library="$target/release/jerry_contracts_node.dll" ;;
*) library="$target/release/libjerry_contracts_node.so" ;;
esac
# Node loads an addon by its `.node` name: a copy beside the library, in the target directory.
cp "$library" "$target/release/jerry-contracts.node"
JERRY_CONTRACTS_ADDON="$target/release/jerry-contracts.node" exec node crates/node/bench/ratios.mjs
