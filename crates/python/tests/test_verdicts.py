"""The package's verdicts are the Rust library's: the CLI's on every fixture, the sidecars'
expectations, and every seed example valid."""

from __future__ import annotations

import json
import pathlib
import subprocess

import pytest

import jerry_contracts
from conftest import FIXTURES, ROOT, SEEDS, rust_cli

FIXTURE_FILES = sorted(FIXTURES.rglob("*.json"))
SCHEMA_NAMES = {entry["name"] for entry in jerry_contracts.schemas()}


def test_the_corpus_is_there():
    assert len(FIXTURE_FILES) > 500
    assert len(SCHEMA_NAMES) > 20


@pytest.fixture(scope="module")
def cli_verdicts():
    """`jerry-contracts validate --format json tests/fixtures`, run once: {path: line}."""
    done = subprocess.run(
        rust_cli() + ["validate", "--format", "json", str(FIXTURES)],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {str(pathlib.Path(line["source"]).resolve()): line for line in lines}


def known_requirements_aside(records):
    """The records but REF-002: a CLI run learns the requirement ids of the documents it has
    judged and holds later ones to them (REF-002, a warning), where one `validate` call knows none."""
    return [record for record in records if record["error_code"] != "REF-002"]


def test_every_fixture_as_the_cli_judges_it(cli_verdicts):
    assert len(cli_verdicts) == len(FIXTURE_FILES)
    differences = []
    for path in FIXTURE_FILES:
        expected = cli_verdicts[str(path.resolve())]
        report = jerry_contracts.validate(path.read_bytes())
        got = {
            "valid": report.valid,
            "schema": report.schema,
            "errors": known_requirements_aside(record.to_dict() for record in report),
        }
        want = {key: expected[key] for key in ("valid", "schema")}
        want["errors"] = known_requirements_aside(expected["errors"])
        if got != want:
            differences.append((str(path.relative_to(ROOT)), got, want))
    assert not differences, differences[:3]


def schema_fixtures(kind):
    """(schema name, fixture path) for the fixtures of whole schemas (not of definitions)."""
    cases = []
    for path in FIXTURE_FILES:
        relative = path.relative_to(FIXTURES)
        parts = relative.parts
        if "definitions" in parts or len(parts) < 3 or parts[-2] != kind:
            continue
        name = "/".join(parts[:-2])
        if name in SCHEMA_NAMES:
            cases.append(pytest.param(name, path, id=str(relative)))
    return cases


@pytest.mark.parametrize("name,path", schema_fixtures("valid"))
def test_valid_fixture(name, path):
    # Fixtures are judged by JSON Schema (tests/fixtures/README.md); the semantic and
    # constitutional layers may still have something to say about a minimal document.
    report = jerry_contracts.validate(path.read_bytes(), name)
    assert [r for r in report.errors if r.error_code.startswith("SCH-")] == [], str(report)


@pytest.mark.parametrize("name,path", schema_fixtures("invalid"))
def test_invalid_fixture_fails_where_its_sidecar_says(name, path):
    report = jerry_contracts.validate(path.read_bytes(), name)
    assert not report.valid
    sidecar = path.with_suffix(".expect")
    if sidecar.exists():
        expect = json.loads(sidecar.read_text(encoding="utf-8"))
        schema_errors = [r.path for r in report.errors if r.error_code.startswith("SCH-")]
        assert schema_errors == [expect["pointer"]], str(report)
    with pytest.raises(jerry_contracts.InvalidDocument) as raised:
        jerry_contracts.check(path.read_bytes(), name)
    assert raised.value.records == report.errors
    assert raised.value.record == report.errors[0]
    assert isinstance(raised.value, jerry_contracts.JerryContractsError)


def test_both_kinds_of_fixture_are_found():
    assert len(schema_fixtures("valid")) > 50
    assert len(schema_fixtures("invalid")) > 100


def seed_schemas():
    """The schema `examples/seeds/schemas.map` names for each seed example."""
    names = {}
    for line in (SEEDS / "schemas.map").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            file, name = line.split()
            names[file] = name
    return names


SEED_SCHEMAS = seed_schemas()


@pytest.mark.parametrize("path", sorted(SEEDS.glob("*.json")), ids=lambda p: p.name)
def test_seed_example_validates(path):
    name = SEED_SCHEMAS.get(path.name)
    as_bytes = jerry_contracts.validate(path.read_bytes(), name)
    assert as_bytes.valid, str(as_bytes)
    as_text = jerry_contracts.validate(path.read_text(encoding="utf-8"), name)
    as_dict = jerry_contracts.validate(json.loads(path.read_text(encoding="utf-8")), name)
    assert as_text.codes() == as_bytes.codes() == as_dict.codes()
    assert as_text.schema == as_bytes.schema == as_dict.schema
