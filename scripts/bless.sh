#!/usr/bin/env bash
# Regenerates every committed generated artifact from the schemas and the code, then checks that
# each is fresh (the checks the test suite runs), and lists what changed:
#   docs/error-codes.md, docs/constraints.md       (tests/docs_fresh.rs)
#   docs/schemas/                                  (tests/docs_schemas.rs)
#   tests/public-api.txt                           (tests/public_api.rs)
#   crates/python/python/jerry_contracts/types.py  (crates/codegen/tests/python_types.rs)
# A bless run writes and then fails on purpose (it compared nothing); the second run checks.
#   scripts/bless.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

checks=(
  "-p jerry-contracts --test docs_fresh"
  "-p jerry-contracts --test docs_schemas"
  "-p jerry-contracts --test public_api"
  "-p jerry-contracts-codegen --test python_types"
)
for check in "${checks[@]}"; do
  echo "== bless: cargo test $check"
  # shellcheck disable=SC2086 # the words of one check
  JERRY_BLESS=1 cargo test $check --quiet >/dev/null 2>&1 || true
done
for check in "${checks[@]}"; do
  echo "== check: cargo test $check"
  # shellcheck disable=SC2086
  cargo test $check --quiet
done
echo "== changed artifacts"
git status --short -- docs/error-codes.md docs/constraints.md docs/schemas tests/public-api.txt \
  crates/python/python/jerry_contracts/types.py
