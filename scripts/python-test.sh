#!/usr/bin/env bash
# The Python package's suite (crates/python), as a user gets the package: builds the wheel with
# maturin, installs it into a fresh virtual environment, and runs pytest on crates/python/tests.
#
# The environment ($JERRY_PY_VENV, default .venv-test) is made anew on every run (`venv --clear`)
# and gets maturin, pytest and mypy (whose stubtest checks the type stubs, and which checks the
# seeds' examples against jerry_contracts.types) from the package index, then the wheel. The
# wheel is built in the dev profile, next to the test builds (target/python-wheels), and the
# Rust binary the verdict tests compare with is built alongside. Needs python3 (3.9 or later,
# with the venv module) and cargo.
#   scripts/python-test.sh [pytest arguments...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="${JERRY_PY_VENV:-$root/.venv-test}"
python="${PYTHON:-python3}"
target="${CARGO_TARGET_DIR:-$root/target}"
wheels="$target/python-wheels"

echo "== python: a fresh virtual environment ($venv) ($(date -u +%H:%M:%S))"
# Made anew each run, but only a directory this script made (it carries the marker) is cleared:
# an environment or directory of someone else's is never emptied.
marker="$venv/.made-by-jerry-contracts-python-test"
if [ -e "$venv" ] && [ ! -e "$marker" ] && [ -n "$(ls -A "$venv" 2>/dev/null)" ]; then
    echo "scripts/python-test.sh: $venv exists and was not made by this script; not clearing it" >&2
    echo "(remove it, or set JERRY_PY_VENV to another directory)" >&2
    exit 2
fi
"$python" -m venv --clear "$venv"
touch "$marker"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" "pytest>=7" "mypy>=1.10"

echo "== python: the wheel ($(date -u +%H:%M:%S))"
# Only this script's own wheels live in $wheels: the old ones go so that exactly one is installed.
mkdir -p "$wheels"
rm -f "$wheels"/jerry_contracts-*.whl
"$venv/bin/maturin" build --quiet --manifest-path crates/python/Cargo.toml --out "$wheels"
wheel=("$wheels"/jerry_contracts-*.whl)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${wheel[@]}"

# The verdict tests compare with the Rust binary on the same files.
cargo build --quiet -p jerry-contracts-cli
export JERRY_CONTRACTS_CLI="$target/debug/jerry-contracts"

echo "== python: pytest ($(date -u +%H:%M:%S))"
# From the repository root, where the tests find the fixtures; the package imported is the
# installed wheel (crates/python/python is not on the path).
exec "$venv/bin/python" -m pytest -q crates/python/tests "$@"
