"""The artifact store from Python (issue 30, item 2): `jerry_contracts.Store` on a real
PostgreSQL server the fixture starts from the machine's installation, in a temporary directory,
on a Unix socket there (as root, the server runs as the `postgres` account)."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

import jerry_contracts
from conftest import FIXTURES

MISSION = "3f2b8c1e-9a4d-4e7b-b6c2-5d1e8f0a7c93"


def _bindir() -> pathlib.Path:
    given = os.environ.get("JERRY_PG_BIN")
    if given:
        return pathlib.Path(given)
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout
        if (pathlib.Path(out.strip()) / "initdb").exists():
            return pathlib.Path(out.strip())
    except (OSError, subprocess.CalledProcessError):
        pass
    found = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if not found:
        pytest.fail("PostgreSQL's server binaries were not found: install PostgreSQL or set JERRY_PG_BIN")
    return found[-1].parent


@pytest.fixture(scope="module")
def database():
    """Connection parameters of a fresh database on a server started for this module."""
    bindir = _bindir()
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    directory = pathlib.Path(tempfile.mkdtemp(prefix="jerry-pg-py-"))
    data = directory / "data"
    try:
        if as_root:
            shutil.chown(directory, "postgres", "postgres")
        subprocess.run(
            prefix + [str(bindir / "initdb"), "-D", str(data), "-U", "jerry", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            prefix
            + [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(directory / "server.log"), "-w", "start", "-o", f"-k {directory} -c listen_addresses= -c fsync=off"],
            check=True,
            capture_output=True,
        )
        subprocess.run([str(bindir / "createdb"), "-h", str(directory), "-U", "jerry", "store"], check=True, capture_output=True)
        yield f"host={directory} user=jerry dbname=store"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(directory, ignore_errors=True)


def _fixture(schema: str) -> str:
    return (FIXTURES / "mission" / schema / "valid" / "maximal.json").read_text(encoding="utf-8")


def test_put_get_and_the_store_errors(database):
    store = jerry_contracts.Store(database)
    assert store.migrate() == 1
    assert store.applied() == 1

    result = _fixture("worker_result")
    refused = store.put(result)
    assert refused.outcome == "refused"
    assert "REF-008" in refused.report.codes()

    puts = store.put_many([_fixture("mission_envelope"), _fixture("mission_task_graph"), result.encode()])
    assert [p.outcome for p in puts] == ["written", "written", "written"]
    assert store.put(result).outcome == "unchanged"
    assert store.get("worker_result", MISSION, "wrk_002") == result

    parsed = json.loads(result)
    parsed["output_text"] = "another answer"
    with pytest.raises(jerry_contracts.StoreConflict):
        store.put(parsed)
    with pytest.raises(jerry_contracts.UnknownSchema):
        store.get("session_context/v1.1.0", MISSION, "x")
    with pytest.raises(jerry_contracts.StoreError):
        store.put((FIXTURES / "session_context" / "v1.1.0" / "valid" / "seed_example_1.json").read_bytes())

    listed = store.mission(MISSION)
    assert [a["schema"] for a in listed] == ["mission/mission_envelope", "mission/mission_task_graph", "mission/worker_result"]
    assert listed[0]["document"] == _fixture("mission_envelope")
    assert len(store.tasks(MISSION)) == 4


def test_a_database_that_is_not_there_is_a_store_error(database):
    with pytest.raises(jerry_contracts.StoreError):
        jerry_contracts.Store(database.replace("dbname=store", "dbname=missing"))
