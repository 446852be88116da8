"""Records carry the line and column of the value they are about (issue 31, item 6)."""

from __future__ import annotations

import jerry_contracts

TEXT = '{\n  "schema_version": "1.1.0",\n  "session_id": 5\n}\n'


def test_a_record_names_its_line_and_column():
    report = jerry_contracts.validate(TEXT, "session_context/v1.1.0")
    at_session = [r for r in report.records if r.path == "/session_id"]
    assert at_session, [r.to_dict() for r in report.records]
    assert (at_session[0].line, at_session[0].column) == (3, 17)
    # A missing member: the object that lacks it, the root here.
    missing = [r for r in report.records if r.error_code == "SCH-001"]
    assert missing and all((r.line, r.column) == (1, 1) for r in missing)
    assert at_session[0].to_dict()["line"] == 3


def test_lines_place_records_on_the_line_of_the_stream():
    lines = ["", '{"schema_version": "1.1.0", "session_id": 5}']
    reports = list(jerry_contracts.validate_lines(lines))
    placed = [r for r in reports[0].records if r.path == "/session_id"]
    assert (placed[0].line, placed[0].column) == (2, 43)
