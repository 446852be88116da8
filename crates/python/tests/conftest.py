"""Shared paths of the Python suite: the repository root, fixtures and seed examples."""

from __future__ import annotations

import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures"
SEEDS = ROOT / "examples" / "seeds"


def rust_cli():
    """The Rust binary `jerry-contracts` the package is compared with: `$JERRY_CONTRACTS_CLI`
    (scripts/python-test.sh builds it), else `cargo run`."""
    cli = os.environ.get("JERRY_CONTRACTS_CLI")
    if cli and pathlib.Path(cli).exists():
        return [cli]
    return ["cargo", "run", "--quiet", "-p", "jerry-contracts-cli", "--"]
