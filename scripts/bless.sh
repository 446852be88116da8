#!/usr/bin/env bash
# Regenerates every committed generated artifact from the schemas and the code, checks that each
# is fresh, and lists what changed. One test holds them all (tests/artifacts.rs):
#   src/generated/contracts.rs (and the pattern DFAs beside it), docs/error-codes.md, docs/constraints.md, docs/schemas/,
#   tests/public-api.txt, crates/python/python/jerry_contracts/types.py, crates/node/contracts.d.ts,
#   crates/node/guards.js, crates/node/guards.d.ts, docs/generated-types.rs
# The generated Rust is written first, by the generator alone, since the library includes it:
# after a change that the committed file no longer compiles with, nothing else would build.
# A bless run writes and then fails on purpose (it compared nothing); the second run checks.
#   scripts/bless.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== generate: src/generated/contracts.rs, patterns-le.dfa, patterns-be.dfa, schema-trees.ndjson"
cargo run -q -p jerry-contracts-codegen
echo "== bless: JERRY_BLESS=1 cargo test --test artifacts"
JERRY_BLESS=1 RUST_BACKTRACE=0 cargo test -p jerry-contracts --test artifacts --quiet 2>&1 |
  sed -n '/JERRY_BLESS: rewrote/,/run the tests again/p' || true
echo "== check: cargo test --test artifacts"
cargo test -p jerry-contracts --test artifacts --quiet
echo "== changed artifacts"
git status --short -- src/generated/contracts.rs src/generated/patterns-le.dfa src/generated/patterns-be.dfa src/generated/schema-trees.ndjson docs/error-codes.md docs/constraints.md docs/schemas tests/public-api.txt \
  crates/python/python/jerry_contracts/types.py crates/node/contracts.d.ts \
  crates/node/guards.js crates/node/guards.d.ts docs/generated-types.rs
