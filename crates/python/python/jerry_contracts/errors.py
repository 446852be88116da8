"""The exceptions of jerry_contracts. Every one derives from :class:`JerryContractsError`."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

if TYPE_CHECKING:  # the stubs of the package (__init__.pyi) type them
    from . import Record, Report
else:
    from ._native import Record, Report


class JerryContractsError(Exception):
    """The base class of every error this package raises."""


class InvalidDocument(JerryContractsError, ValueError):
    """A document is not valid. Carries the :class:`Report` and its error records."""

    report: "Report"
    records: "List[Record]"

    def __init__(self, report: "Report") -> None:
        self.report = report
        self.records = list(report.errors)
        super().__init__(str(report))

    @property
    def record(self) -> "Optional[Record]":
        """The first error record."""
        return self.records[0] if self.records else None


class UnknownSchema(JerryContractsError, LookupError):
    """No schema has the name given."""


class MigrationError(JerryContractsError, ValueError):
    """A document could not be migrated (not JSON, not an envelope, an unknown version...)."""


class DiffError(JerryContractsError, ValueError):
    """A schema given to :func:`diff` is not JSON."""


class StoreError(JerryContractsError):
    """The artifact store failed: the database, a document it cannot key or keep."""


class StoreConflict(StoreError):
    """Another artifact is stored under the key: a stored artifact is never overwritten."""
