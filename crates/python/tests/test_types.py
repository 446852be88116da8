"""`jerry_contracts.types`, the TypedDicts generated from the schemas: the module imports, every
hint resolves at run time, and mypy accepts every seed example typed with its schema's type (and
refuses one with a required key removed, one with a wrong-typed value and one with an undeclared
key)."""

from __future__ import annotations

import json
import pathlib
import typing

import pytest

import jerry_contracts
import jerry_contracts.types as types
from conftest import SEEDS

SEED_FILES = sorted(SEEDS.glob("*.json"))


def seed_schemas():
    """{seed file name: schema name}: `schemas.map` where it names one, else the detected schema."""
    named = {}
    for line in (SEEDS / "schemas.map").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            file, schema = line.split()
            named[file] = schema
    found = {}
    for path in SEED_FILES:
        schema = named.get(path.name) or jerry_contracts.validate(path.read_bytes()).schema
        assert schema, f"no schema for {path.name}"
        found[path.name] = schema
    return found


def test_the_module_names_every_registry_schema():
    assert "BY_SCHEMA" in types.__all__
    for name in types.__all__:
        assert hasattr(types, name), name
    names = {entry["name"] for entry in jerry_contracts.schemas()}
    roots = {name for name in types.BY_SCHEMA if "#" not in name}
    # Every schema with a root type has an entry (definition libraries such as common/types
    # have only definitions).
    assert roots <= names
    assert len(roots) > 40
    assert types.BY_SCHEMA["agents/ps/researcher_output"] is types.ResearcherOutput


def test_every_hint_resolves_at_run_time():
    classes = [getattr(types, name) for name in types.__all__ if isinstance(getattr(types, name), type)]
    assert len(classes) > 100
    for cls in classes:
        typing.get_type_hints(cls)
    required = types.ResearcherOutput.__required_keys__
    assert "agent_id" in required and "findings" in required


def mypy_version_flag(api):
    """The oldest Python version this mypy checks for, from 3.9 (the package's floor) up: mypy
    2 no longer accepts `--python-version 3.9`."""
    for version in ("3.9", "3.10", "3.11", "3.12"):
        _, err, status = api.run(["--python-version", version, "--no-incremental", "-c", "x: int = 1"])
        if status == 0:
            return version
    pytest.fail(f"mypy accepts none of the Python versions tried: {err}")


def literal(value):
    """A JSON value as Python source (`repr` of the parsed value: true/false/null become
    True/False/None)."""
    return repr(value)


def typed_module(type_name, document):
    return f"from jerry_contracts.types import {type_name}\n\ndoc: {type_name} = {literal(document)}\n"


def required_str_key(cls, document):
    """A required key of `cls` whose hint is `str` and that `document` holds."""
    hints = typing.get_type_hints(cls)
    for key in sorted(cls.__required_keys__):
        if hints[key] is str and key in document:
            return key
    return None


def test_mypy_accepts_the_seed_examples_typed(tmp_path):
    api = pytest.importorskip("mypy.api")
    schemas = seed_schemas()
    assert len(schemas) == len(SEED_FILES) > 10
    files = {}
    negatives = {}
    for path in SEED_FILES:
        type_name = types.BY_SCHEMA[schemas[path.name]].__name__
        document = json.loads(path.read_text())
        stem = "seed_" + path.stem
        files[stem] = typed_module(type_name, document)
        cls = getattr(types, type_name)
        if "missing" in negatives or not isinstance(cls, type):
            continue
        key = required_str_key(cls, document)
        if key is None:
            continue
        missing = {k: v for k, v in document.items() if k != key}
        wrong = dict(document, **{key: 12345})
        negatives["missing"] = (f"missing_{path.stem}", typed_module(type_name, missing), f'"{key}"')
        negatives["wrong"] = (f"wrong_{path.stem}", typed_module(type_name, wrong), f'"{key}"')
        # The schemas leave objects open, a TypedDict is closed: a key the schema does not
        # declare is refused (no seed example has one; see the module docstring and D-210).
        extra = dict(document, undeclared_key="x")
        negatives["extra"] = (f"extra_{path.stem}", typed_module(type_name, extra), '"undeclared_key"')
    assert set(negatives) == {"missing", "wrong", "extra"}, "no seed gives the negative cases"
    for stem, source in [*files.items(), *[(s, src) for s, src, _ in negatives.values()]]:
        (tmp_path / f"{stem}.py").write_text(source)
    version = mypy_version_flag(api)
    # One run over every file: the positive and the negative cases.
    out, err, status = api.run(
        [
            "--strict",
            "--python-version",
            version,
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "--hide-error-context",
            "--no-error-summary",
            *sorted(str(p) for p in tmp_path.glob("*.py")),
        ]
    )
    assert status in (0, 1), err
    errors = [line for line in out.splitlines() if ": error:" in line]
    by_file = {}
    for line in errors:
        by_file.setdefault(pathlib.Path(line.split(":", 1)[0]).stem, []).append(line)
    # Every seed example is its type: no error in any seed file.
    assert not [line for stem, lines in by_file.items() if stem.startswith("seed_") for line in lines], out
    # Each negative case is refused, naming the key.
    for stem, _, key in negatives.values():
        assert stem in by_file, f"mypy accepted {stem}:\n{out}"
        assert any(key in line for line in by_file[stem]), by_file[stem]
