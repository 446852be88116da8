#!/usr/bin/env bash
# Regenerates every committed generated artifact from the schemas and the code, checks that each
# is fresh, and lists what changed. One test holds them all (tests/artifacts.rs):
#   docs/error-codes.md, docs/constraints.md, docs/schemas/, tests/public-api.txt,
#   crates/python/python/jerry_contracts/types.py docs/generated-types.rs
# A bless run writes and then fails on purpose (it compared nothing); the second run checks.
#   scripts/bless.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== bless: JERRY_BLESS=1 cargo test --test artifacts"
JERRY_BLESS=1 RUST_BACKTRACE=0 cargo test -p jerry-contracts --test artifacts --quiet 2>&1 |
  sed -n '/JERRY_BLESS: rewrote/,/run the tests again/p' || true
echo "== check: cargo test --test artifacts"
cargo test -p jerry-contracts --test artifacts --quiet
echo "== changed artifacts"
git status --short -- docs/error-codes.md docs/constraints.md docs/schemas tests/public-api.txt \
  crates/python/python/jerry_contracts/types.py docs/generated-types.rs
