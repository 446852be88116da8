"""Validate, migrate and compare jerry contract documents; the Rust library underneath.

>>> import jerry_contracts
>>> report = jerry_contracts.validate(b'{"agent_id": "ps-researcher"}')
>>> report.valid
False
"""

from __future__ import annotations

from ._native import (
    Lines,
    Put,
    Record,
    Report,
    Store,
    Validator,
    __version__,
    diff,
    example,
    migrate,
    schema,
    schemas,
    validate,
    validate_lines,
)
from .errors import (
    DiffError,
    InvalidDocument,
    JerryContractsError,
    MigrationError,
    StoreConflict,
    StoreError,
    UnknownSchema,
)


def check(doc, schema=None, *, root=None, session=None, strict=False):
    """As :func:`validate`, raising :class:`InvalidDocument` when the document is not valid."""
    return Validator(root=root, session=session, strict=strict).check(doc, schema)


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
