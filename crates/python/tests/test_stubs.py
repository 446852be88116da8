"""The type stubs (`__init__.pyi`) say what the module has: mypy's stubtest compares them with
the runtime module, name by name and signature by signature."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_stubs_match_the_module(tmp_path):
    pytest.importorskip("mypy")
    # jerry_contracts.types (generated TypedDicts and aliases) is a .py module, its own stub:
    # stubtest would compare the file with itself, and reads each Literal alias as a Union on
    # the stub side and as a callable at run time (124 false findings). test_types checks that
    # module with mypy and at run time instead (and a stubtest that finds nothing there does not
    # fail on the unused entry).
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("jerry_contracts\\.types\\..*\n")
    command = [sys.executable, "-m", "mypy.stubtest", "jerry_contracts", "--allowlist", str(allowlist)]
    command.append("--ignore-unused-allowlist")
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
