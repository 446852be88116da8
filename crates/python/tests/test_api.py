"""The Python API: record shape, reports, options, NDJSON, migration, diff, examples, schemas."""

from __future__ import annotations

import json

import pytest

import jerry_contracts
from conftest import ROOT, SEEDS

RECORD_FIELDS = {
    "error_code",
    "message",
    "severity",
    "path",
    "keyword_location",
    "expected",
    "actual",
    "remediation",
    "constitutional_principle",
}
ERROR_SCHEMA = json.loads((ROOT / "schemas" / "common" / "error.json").read_text(encoding="utf-8"))
HANDOFF = (SEEDS / "000_2464_example_1_handoff.json").read_bytes()


def test_record_shape_is_common_error_json():
    report = jerry_contracts.validate(b'{"agent_id": "ps-researcher"}')
    assert not report.valid
    assert report.schema == "agents/ps/researcher_output"
    assert len(report) == len(report.records) == len(list(report)) > 0
    declared = set(ERROR_SCHEMA["properties"])
    for record in report:
        assert isinstance(record, jerry_contracts.Record)
        as_dict = record.to_dict()
        assert set(as_dict) <= declared | set(record.extra)
        assert set(ERROR_SCHEMA["required"]) <= set(as_dict)
        for field in RECORD_FIELDS:
            assert getattr(record, field) == as_dict.get(field), field
        assert record.severity in ("error", "warning", "info")
        assert record.error_code.startswith("SCH-")
        assert str(record).startswith("error SCH-")
        # The record validates against common/error.json itself.
        assert jerry_contracts.validate(as_dict, "common/error").valid
    assert report.codes() == [r.error_code for r in report]
    assert report.to_dict()["records"] == [r.to_dict() for r in report]
    assert report.errors == report.records and report.warnings == []


def test_a_valid_handoff():
    report = jerry_contracts.validate(HANDOFF)
    assert report.valid and report.schema == "session_context/v1.1.0"
    assert report.raise_for_errors() is report
    assert "valid" in repr(report)


def test_options_reach_the_validator():
    validator = jerry_contracts.Validator(session="sess-other", strict=True, max_bytes=100)
    assert (validator.session, validator.strict, validator.max_bytes, validator.root) == ("sess-other", True, 100, None)
    assert (validator.max_records, validator.max_artifact_bytes) == (1000, 256 << 20)
    capped = jerry_contracts.Validator(max_records=2, max_artifact_bytes=1024)
    assert (capped.max_records, capped.max_artifact_bytes) == (2, 1024)
    too_large = validator.validate(HANDOFF)
    assert "SCH-015" in too_large.codes()
    other_session = jerry_contracts.validate(HANDOFF, session="sess-other")
    assert other_session.valid
    assert any(w.error_code == "SEM-017" for w in other_session.warnings)


def test_check_raises_with_the_records():
    with pytest.raises(jerry_contracts.InvalidDocument) as raised:
        jerry_contracts.check({"agent_id": "ps-researcher"})
    error = raised.value
    assert isinstance(error, jerry_contracts.JerryContractsError) and isinstance(error, ValueError)
    assert error.report.codes() == [r.error_code for r in error.records]
    assert error.record is error.records[0]


def test_validate_lines_streams_ndjson():
    seen = []

    def lines():
        for line in [HANDOFF.replace(b"\n", b" ") + b"\n", b"\n", "   ", "{not json}\n", b'{"agent_id": "ps-researcher"}']:
            seen.append(line)
            yield line

    stream = jerry_contracts.validate_lines(lines())
    first = next(stream)
    assert first.valid and len(seen) == 1  # read as it goes
    rest = list(stream)
    assert [r.valid for r in rest] == [False, False]
    assert rest[0].codes()[0].startswith("SCH-")
    assert list(jerry_contracts.Validator().validate_lines([])) == []


def test_dict_input_keeps_numbers_exact():
    document = json.loads(HANDOFF)
    assert jerry_contracts.validate(document).valid
    # The next double past the maximum 1 is rejected, the one before it accepted: the value
    # reaches the validator as written.
    document["payload"]["confidence"]["overall"] = 1.0000000000000002
    report = jerry_contracts.validate(document)
    [record] = report.errors
    assert record.path == "/payload/confidence/overall" and record.error_code == "SCH-004"
    assert record.actual == 1.0000000000000002
    document["payload"]["confidence"]["overall"] = 0.9999999999999999
    assert jerry_contracts.validate(document).valid
    document["payload"]["confidence"]["overall"] = 10**40
    [record] = jerry_contracts.validate(document).errors
    assert record.path == "/payload/confidence/overall" and record.actual == 1e40


def test_migrate_keeps_the_text():
    old = (SEEDS / "001_producer_handoff.json").read_text(encoding="utf-8")
    text = old.replace('"payload": {', '"payload": {"big": 12345678901234567890.50, ', 1)
    migrated = jerry_contracts.migrate(text)
    assert migrated == text.replace('"1.0.0"', '"1.1.0"', 1)
    assert "12345678901234567890.50" in migrated
    assert jerry_contracts.migrate(migrated) == migrated
    with pytest.raises(jerry_contracts.MigrationError):
        jerry_contracts.migrate(b"{not json")
    with pytest.raises(jerry_contracts.MigrationError):
        jerry_contracts.migrate(text, to="9.9.9")


def test_diff_classifies_changes():
    old = jerry_contracts.schema("orchestration/todo")
    same = jerry_contracts.diff(old, old)
    assert same["changes"] == [] and same["required"] == "none" and same["ok"]
    new = json.loads(json.dumps(old))
    new["required"] = list(new.get("required", [])) + ["brand_new"]
    new.setdefault("properties", {})["brand_new"] = {"type": "string"}
    verdict = jerry_contracts.diff(old, new)
    assert verdict["required"] == "major"
    assert "MAJOR" in {c["class"] for c in verdict["changes"]}
    assert {c["class"] for c in verdict["changes"]} <= {"MAJOR", "MINOR", "PATCH"}
    assert jerry_contracts.diff("orchestration/todo", json.dumps(new)) == verdict
    with pytest.raises(jerry_contracts.DiffError):
        jerry_contracts.diff("{nope", old)


def test_examples_schemas_and_unknown_names():
    entries = jerry_contracts.schemas()
    assert {"name", "path", "id", "title", "version", "agent_id", "schema_name"} <= set(entries[0])
    for entry in entries:
        document = jerry_contracts.schema(entry["name"])
        assert document["$id"] == entry["id"]
        if "definitions" in document and "type" not in document and "properties" not in document:
            continue  # a definition library has no document of its own
        example = jerry_contracts.example(entry["name"])
        assert jerry_contracts.validate(example, entry["name"]).valid, entry["name"]
    with pytest.raises(jerry_contracts.UnknownSchema):
        jerry_contracts.schema("no/such")
    with pytest.raises(jerry_contracts.UnknownSchema):
        jerry_contracts.example("no/such")
    assert isinstance(jerry_contracts.__version__, str)
