"""Shared paths of the Python suite: the repository root, fixtures and seed examples."""

from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures"
SEEDS = ROOT / "examples" / "seeds"
