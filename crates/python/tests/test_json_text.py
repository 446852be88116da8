"""A parsed document is judged as the text `json.dumps(doc, ensure_ascii=False, allow_nan=False)`
writes. The extension writes that text itself for documents of `json.loads`' types: byte for
byte the same text, on every fixture and on the awkward cases; anything else it leaves to
`json.dumps`, whose conversions and errors stay as they were."""

from __future__ import annotations

import collections
import enum
import json

import pytest

import jerry_contracts
from conftest import FIXTURES
from jerry_contracts._native import _json_text  # type: ignore[import-not-found]

FIXTURE_FILES = sorted(FIXTURES.rglob("*.json"))


def dumps(doc):
    return json.dumps(doc, ensure_ascii=False, allow_nan=False).encode()


def test_every_fixture_is_written_as_json_dumps_writes_it():
    written = 0
    for path in FIXTURE_FILES:
        doc = json.loads(path.read_bytes())
        text = _json_text(doc)
        assert text is not None, path
        assert text == dumps(doc), path
        written += 1
    assert written > 500


AWKWARD = [
    {},
    [],
    (),
    "",
    {"": ""},
    {"quote\"back\\slash": "line\nfeed\rreturn\ttab\bback\fform\x00nul\x1fus\x7fdel"},
    {"unicode": "é ☃ 😀 \u2028 \u2029 \ufeff"},
    [0, -1, 2**63 - 1, -(2**63), 2**63, -(2**64) - 1, 10**100],
    [0.0, -0.0, 1.0, 1.5, 1e16, 1e-7, 123456789.123456789, 5e-324, 1.7976931348623157e308],
    [True, False, None],
    {"nested": [{"a": [[[]]], "b": {"c": None}}]},
    (1, (2, [3, (4,)])),
    {"order": 1, "is": 2, "kept": 3, "a": 4},
]


@pytest.mark.parametrize("doc", AWKWARD, ids=range(len(AWKWARD)))
def test_awkward_values_are_written_as_json_dumps_writes_them(doc):
    assert _json_text(doc) == dumps(doc)


class Colour(enum.IntEnum):
    RED = 1


class Text(str):
    pass


def deep(levels):
    """A list nested `levels` deep (the writer stops at 256)."""
    doc: list = []
    for _ in range(levels):
        doc = [doc]
    return doc


def cycle():
    doc: dict = {}
    doc["self"] = doc
    return doc


LEFT_TO_JSON_DUMPS = [
    float("nan"),
    [float("inf")],
    {1: "int key"},
    {None: "none key"},
    {("a",): "tuple key"},
    {"lone": "\ud800"},
    [Colour.RED],
    {"subclass": Text("text")},
    collections.OrderedDict(a=1),
    {"set": {1, 2}},
    cycle(),
    deep(300),
]


@pytest.mark.parametrize("doc", LEFT_TO_JSON_DUMPS, ids=range(len(LEFT_TO_JSON_DUMPS)))
def test_anything_else_is_left_to_json_dumps(doc):
    assert _json_text(doc) is None


@pytest.mark.parametrize("doc", LEFT_TO_JSON_DUMPS, ids=range(len(LEFT_TO_JSON_DUMPS)))
def test_validate_still_answers_as_json_dumps_does(doc):
    try:
        expected = dumps(doc)
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError) as err:
        with pytest.raises(type(err)):
            jerry_contracts.validate(doc)
        return
    try:
        expected_report = jerry_contracts.validate(expected)
    except UnicodeEncodeError:
        return
    assert jerry_contracts.validate(doc).to_dict() == expected_report.to_dict()
