"""The `jerry-contracts` command, installed by the wheel: `jerry-contracts validate ...` or
`python -m jerry_contracts validate ...` runs the Rust command line compiled into the package
(the same code as the `jerry-contracts` binary), so it needs no Rust toolchain.
"""

from __future__ import annotations

import signal
import sys
from typing import Optional, Sequence

# The native module has no stub of its own (the package's __init__.pyi types what it re-exports);
# `command` serves this script only.
from ._native import command  # type: ignore[import-not-found]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line `argv` (default: this process's arguments) and returns its exit
    status: 0 all clean, 1 problems found, 2 usage or I/O error."""
    args = sys.argv[1:] if argv is None else list(argv)
    status: int = command(["jerry-contracts", *args])
    return status


def _run() -> None:
    # The command runs in Rust with the GIL released, where Python's own SIGINT handler would
    # only set a flag nobody reads: Ctrl-C ends the process, as it ends the binary.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(main())


if __name__ == "__main__":
    _run()
