#!/usr/bin/env bash
# The Python package's suite (crates/python): makes its own virtual environment (.venv-test, or
# $JERRY_PY_VENV), installs maturin, pytest and mypy (whose stubtest checks the type stubs) there
# from PyPI, builds the package into it with `maturin develop`, builds the CLI the tests compare
# verdicts with, and runs pytest on
# crates/python/tests. Needs python3 (3.9 or later, with the venv module) and cargo.
#   scripts/python-test.sh [pytest arguments...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="${JERRY_PY_VENV:-$root/.venv-test}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" "pytest>=7" mypy

# `maturin develop` installs into the environment VIRTUAL_ENV names.
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    "$venv/bin/maturin" develop --quiet --manifest-path crates/python/Cargo.toml

# The verdict tests compare with the CLI's on the same files.
cargo build --quiet -p jerry-contracts-cli
target="${CARGO_TARGET_DIR:-$root/target}"
export JERRY_CONTRACTS_CLI="$target/debug/jerry-contracts"

exec "$venv/bin/python" -m pytest -q crates/python/tests "$@"
