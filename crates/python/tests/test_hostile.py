"""Hostile inputs get a report or a Python exception, never a crash; threads validate at once."""

from __future__ import annotations

import json
import sys
import threading

import pytest

import jerry_contracts
from conftest import SEEDS

HANDOFF = (SEEDS / "000_2464_example_1_handoff.json").read_bytes()

HOSTILE = {
    "empty": b"",
    "blank": b"   \n",
    "null": b"null",
    "number": b"1e999999",
    "invalid_utf8": b'{"agent_id": "ps-\xff\xfe"}',
    "lone_surrogate_escape": b'{"agent_id": "\\ud800"}',
    "nul": b"\x00\x00\x00",
    "deep_arrays": b"[" * 100_000 + b"]" * 100_000,
    "deep_objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "unclosed": b'{"agent_id": ',
    "duplicate_keys": b'{"agent_id": "ps-researcher", "agent_id": "nse-risk"}',
    "huge_string": b'{"agent_id": "' + b"x" * (8 << 20) + b'"}',
    "many_members": b"{" + b",".join(b'"k%d": %d' % (i, i) for i in range(200_000)) + b"}",
    "huge_number": b'{"schema_version": ' + b"9" * 100_000 + b"}",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_bytes_get_a_report(name):
    report = jerry_contracts.validate(HOSTILE[name])
    assert not report.valid
    assert report.errors and all(r.error_code for r in report.errors)
    text = HOSTILE[name].decode("utf-8", errors="replace")
    assert not jerry_contracts.validate(text).valid
    # Against a named schema, and streamed as a line.
    assert not jerry_contracts.validate(HOSTILE[name], "session_context/v1.1.0").valid
    for report in jerry_contracts.validate_lines([HOSTILE[name]]):
        assert not report.valid


def test_over_the_size_limit():
    report = jerry_contracts.Validator(max_bytes=1024).validate(HOSTILE["huge_string"])
    assert "SCH-015" in report.codes()


def test_a_report_lists_at_most_its_cap_and_counts_the_rest():
    doc = json.loads(HANDOFF)
    payload = doc["payload"]
    payload["findings"] = [1] * 50_000
    report = jerry_contracts.validate(json.dumps(payload))
    assert not report.valid
    assert len(report) == 1001
    last = report.errors[-1]
    assert (last.error_code, last.severity) == ("SCH-016", "error")
    small = jerry_contracts.Validator(max_records=3).validate(json.dumps(payload))
    assert small.codes()[-1] == "SCH-016" and len(small) == 4


@pytest.mark.parametrize(
    "doc",
    [
        {"x": float("nan")},
        {"x": object()},
        "\ud800",
        {"agent_id": "\udcff"},
        12,
        None,
    ],
    ids=["nan", "object", "surrogate_str", "surrogate_in_dict", "int", "none"],
)
def test_values_json_cannot_write_raise_or_report(doc):
    try:
        report = jerry_contracts.validate(doc)
    except (ValueError, TypeError, UnicodeError):
        return
    assert not report.valid


def test_deep_dict_raises_not_crashes():
    deep = current = {}
    for _ in range(100_000):
        current["a"] = {}
        current = current["a"]
    with pytest.raises((RecursionError, ValueError)):
        jerry_contracts.validate(deep)


def test_wrong_argument_types_raise():
    with pytest.raises(TypeError):
        jerry_contracts.validate(HANDOFF, schema=12)
    with pytest.raises(TypeError):
        jerry_contracts.validate_lines(12)
    with pytest.raises(TypeError):
        jerry_contracts.Validator(strict="yes please", root=3)


def test_unknown_schema_name_is_a_report():
    report = jerry_contracts.validate(HANDOFF, "no/such/schema")
    assert not report.valid


def test_many_threads_at_once():
    documents = [HANDOFF, b'{"agent_id": "ps-researcher"}', HOSTILE["deep_arrays"], json.loads(HANDOFF)]
    expected = [jerry_contracts.validate(d).codes() for d in documents]
    validator = jerry_contracts.Validator()
    failures = []
    barrier = threading.Barrier(8)

    def work(n):
        barrier.wait()
        for round in range(40):
            index = (n + round) % len(documents)
            codes = validator.validate(documents[index]).codes()
            if codes != expected[index]:
                failures.append((n, index, codes))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_the_gil_is_released_while_rust_validates():
    """Another Python thread runs while a large document is judged. The switch interval is made
    long, so a thread that held the GIL through validation would not be preempted: the main
    thread could not observe the validation under way."""
    big = json.loads(HANDOFF)
    big["payload"]["padding"] = ["x" * 100] * 100_000
    text = json.dumps(big).encode()
    state = {"started": False, "done": False}

    def work():
        state["started"] = True
        jerry_contracts.validate(text)
        state["done"] = True

    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    try:
        worker = threading.Thread(target=work)
        worker.start()
        seen_during = 0
        while not state["done"]:
            if state["started"]:
                seen_during += 1
        worker.join()
    finally:
        sys.setswitchinterval(previous)
    assert seen_during > 100
