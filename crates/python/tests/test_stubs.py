"""The type stubs (`__init__.pyi`) say what the module has: mypy's stubtest compares them with
the runtime module, name by name and signature by signature."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_stubs_match_the_module():
    pytest.importorskip("mypy")
    command = [sys.executable, "-m", "mypy.stubtest", "jerry_contracts"]
    # PEP 800's @disjoint_base is newer than Python 3.9's typing; a mypy that knows it is told
    # not to ask for it.
    usage = subprocess.run(command[:3] + ["--help"], capture_output=True, text=True, check=False).stdout
    if "--ignore-disjoint-bases" in usage:
        command.append("--ignore-disjoint-bases")
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
