"""Type stubs of jerry_contracts (the native classes and functions, and the Python helpers)."""

import os
import pathlib
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, TypedDict, Union, final

from .errors import (
    DiffError as DiffError,
    InvalidDocument as InvalidDocument,
    JerryContractsError as JerryContractsError,
    MigrationError as MigrationError,
    StoreConflict as StoreConflict,
    StoreError as StoreError,
    UnknownSchema as UnknownSchema,
)

__all__ = [
    "DiffError",
    "InvalidDocument",
    "JerryContractsError",
    "Lines",
    "MigrationError",
    "Put",
    "Record",
    "Report",
    "Store",
    "StoreConflict",
    "StoreError",
    "UnknownSchema",
    "Validator",
    "__version__",
    "check",
    "diff",
    "example",
    "migrate",
    "schema",
    "schemas",
    "validate",
    "validate_lines",
]

__version__: str

# The stub-only type names start with "_": they do not exist at runtime.

#: A document: its JSON text (``str`` or ``bytes``) or a parsed value, written with ``json.dumps``.
_Document = Union[str, bytes, bytearray, Dict[str, Any], List[Any]]
_StrPath = Union[str, "os.PathLike[str]"]
_Severity = Literal["error", "warning", "info"]

class _RecordDict(TypedDict, total=False):
    """A record as the ``common/error.json`` object."""

    error_code: str
    message: str
    severity: _Severity
    path: str
    keyword_location: str
    expected: Any
    actual: Any
    remediation: str
    constitutional_principle: str

class _ReportDict(TypedDict):
    schema: Optional[str]
    valid: bool
    records: List[_RecordDict]

@final
class Record:
    """One finding of a validation run: a record of the ``common/error.json`` type."""

    @property
    def error_code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def severity(self) -> _Severity: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def column(self) -> Optional[int]: ...
    @property
    def keyword_location(self) -> Optional[str]: ...
    @property
    def expected(self) -> Any: ...
    @property
    def actual(self) -> Any: ...
    @property
    def remediation(self) -> Optional[str]: ...
    @property
    def constitutional_principle(self) -> Optional[str]: ...
    @property
    def extra(self) -> Dict[str, Any]: ...
    def to_dict(self) -> _RecordDict: ...

@final
class Report:
    """Every record a validation run produced for one document."""

    @property
    def schema(self) -> Optional[str]: ...
    @property
    def valid(self) -> bool: ...
    @property
    def records(self) -> List[Record]: ...
    @property
    def errors(self) -> List[Record]: ...
    @property
    def warnings(self) -> List[Record]: ...
    def codes(self) -> List[str]: ...
    def to_dict(self) -> _ReportDict: ...
    def raise_for_errors(self) -> "Report": ...
    def __iter__(self) -> Iterator[Record]: ...
    def __len__(self) -> int: ...

@final
class Lines(Iterator[Report]):
    """The reports of an NDJSON stream, one per non-blank line, made as lines are read."""

    def __iter__(self) -> "Lines": ...
    def __next__(self) -> Report: ...

@final
class Validator:
    """Validates documents with a set of options; safe to share between threads."""

    def __new__(
        cls,
        *,
        root: Optional[_StrPath] = None,
        session: Optional[str] = None,
        strict: bool = False,
        max_bytes: Optional[int] = None,
        max_records: Optional[int] = None,
        max_artifact_bytes: Optional[int] = None,
    ) -> "Validator": ...
    @property
    def root(self) -> Optional[pathlib.Path]: ...
    @property
    def session(self) -> Optional[str]: ...
    @property
    def strict(self) -> bool: ...
    @property
    def max_bytes(self) -> int: ...
    @property
    def max_records(self) -> int: ...
    @property
    def max_artifact_bytes(self) -> int: ...
    def validate(self, doc: _Document, schema: Optional[str] = None) -> Report: ...
    def check(self, doc: _Document, schema: Optional[str] = None) -> Report: ...
    def validate_lines(self, lines: Iterable[Union[str, bytes]], schema: Optional[str] = None) -> Lines: ...

@final
class Put:
    """One document's outcome in the artifact store: its report and what became of it."""

    @property
    def report(self) -> Report: ...
    @property
    def outcome(self) -> Literal["written", "unchanged", "refused", "withheld"]: ...

@final
class Store:
    """The artifact store in PostgreSQL: validated writes, exact reads (one connection)."""

    def __new__(cls, database: str) -> "Store": ...
    def migrate(self) -> int: ...
    def applied(self) -> int: ...
    def put(self, doc: _Document) -> Put: ...
    def put_many(self, docs: Iterable[_Document]) -> List[Put]: ...
    def get(self, schema: str, mission_id: str, id: str) -> Optional[str]: ...
    def mission(self, mission_id: str) -> List[Dict[str, str]]: ...
    def tasks(self, mission_id: str) -> List[str]: ...

def validate(
    doc: _Document,
    schema: Optional[str] = None,
    *,
    root: Optional[_StrPath] = None,
    session: Optional[str] = None,
    strict: bool = False,
) -> Report: ...
def check(
    doc: _Document,
    schema: Optional[str] = None,
    *,
    root: Optional[_StrPath] = None,
    session: Optional[str] = None,
    strict: bool = False,
) -> Report: ...
def validate_lines(
    lines: Iterable[Union[str, bytes]],
    schema: Optional[str] = None,
    *,
    root: Optional[_StrPath] = None,
    session: Optional[str] = None,
    strict: bool = False,
) -> Lines: ...
def migrate(doc: Union[str, bytes, bytearray, Dict[str, Any]], to: str = "1.1.0") -> str: ...


class _Verdict(TypedDict):
    changes: List[Dict[str, str]]
    required: Literal["none", "patch", "minor", "major"]
    declared: Optional[Literal["none", "patch", "minor", "major"]]
    ok: bool

def diff(old: Union[str, bytes, Dict[str, Any]], new: Union[str, bytes, Dict[str, Any]]) -> _Verdict: ...
def example(name: str) -> Dict[str, Any]: ...
def schema(name: str) -> Dict[str, Any]: ...

class _SchemaEntry(TypedDict):
    name: str
    path: str
    id: str
    title: Optional[str]
    version: Optional[str]
    agent_id: Optional[str]
    schema_name: Optional[str]

def schemas() -> List[_SchemaEntry]: ...
