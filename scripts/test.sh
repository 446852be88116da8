#!/usr/bin/env bash
# README's test command: the Rust suite of every crate (`cargo test --workspace`), then the
# Python package's suite (scripts/python-test.sh: the wheel built, installed into a fresh virtual
# environment, and tested with pytest), then the Node package's (scripts/node-test.sh: npm ci
# from the lockfile, then Node's test runner). Needs cargo, python3 and node; everything else is
# installed.
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== rust: cargo test --workspace ($(date -u +%H:%M:%S))"
cargo test --workspace

scripts/python-test.sh

scripts/node-test.sh
