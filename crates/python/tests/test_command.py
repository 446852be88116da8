"""The `jerry-contracts` command the wheel installs (console script and `python -m
jerry_contracts`) is the Rust command line: same output, same exit status, as the binary built
from crates/cli, on valid and invalid documents, standard input, usage errors and a file name that
is not UTF-8."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT, SEEDS, rust_cli
from jerry_contracts.__main__ import main

SCRIPT = pathlib.Path(sys.executable).parent / ("jerry-contracts.exe" if os.name == "nt" else "jerry-contracts")
INVALID = sorted((FIXTURES / "session_context" / "v1.1.0" / "invalid").glob("*.json"))[:5]


def run(command, args, stdin=None):
    done = subprocess.run(command + args, cwd=ROOT, input=stdin, capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(params=["script", "module"])
def installed(request):
    """The command as the wheel installs it: the console script, or `python -m jerry_contracts`."""
    if request.param == "script":
        assert SCRIPT.exists(), f"the wheel installed no {SCRIPT.name} next to {sys.executable}"
        return [str(SCRIPT)]
    return [sys.executable, "-m", "jerry_contracts"]


def same_as_the_binary(installed, args, stdin=None):
    got = run(installed, args, stdin)
    expected = run(rust_cli(), args, stdin)
    assert got == expected
    return got


def test_the_seed_examples_are_valid(installed):
    status, out, _ = same_as_the_binary(installed, ["validate", str(SEEDS)])
    assert status == 0
    assert out.count(b"valid") >= 17


def test_invalid_documents_exit_1_with_the_binarys_records(installed):
    assert INVALID, "no *.invalid.json fixture found"
    status, out, _ = same_as_the_binary(installed, ["validate", "--format", "json", *map(str, INVALID)])
    assert status == 1
    assert len(out.splitlines()) == len(INVALID)


def test_standard_input_and_migrate(installed):
    document = (SEEDS / "001_producer_handoff.json").read_bytes()
    status, out, _ = same_as_the_binary(installed, ["migrate", "-"], stdin=document)
    assert status == 0
    assert b'"1.1.0"' in out


def test_usage_errors_exit_2(installed):
    status, out, err = same_as_the_binary(installed, ["validate", "--no-such-flag", "x.json"])
    assert status == 2
    assert b"--no-such-flag" in err


def test_version_and_list(installed):
    status, out, _ = same_as_the_binary(installed, ["--version"])
    assert status == 0
    assert out.startswith(b"jerry-contracts ")
    status, out, _ = same_as_the_binary(installed, ["list"])
    assert status == 0
    assert b"session_context/v1.1.0" in out


@pytest.mark.skipif(os.name == "nt" or sys.platform == "darwin", reason="needs a file system that takes any bytes")
def test_a_file_name_that_is_not_utf8_reaches_the_command(installed, tmp_path):
    name = os.fsdecode(b"\xff-doc.json")
    (tmp_path / name).write_bytes((SEEDS / "001_producer_handoff.json").read_bytes())
    status, out, _ = same_as_the_binary(installed, ["validate", str(tmp_path / name)])
    assert status == 0
    assert b"-doc.json" in out


def test_main_returns_the_status(capfd):
    assert main(["schema", "no/such/schema"]) == 2
    assert "no/such/schema" in capfd.readouterr().err
    assert main(["example", "common/error"]) == 0
    assert '"error_code"' in capfd.readouterr().out
