#!/usr/bin/env python3
"""Peer (f) of docs/performance.md: Python's `jsonschema` Draft7Validator on the benchmark's documents.

The documents are the ones `cargo bench --bench validate` writes (default directory
/tmp/jerry-contracts-bench; `JERRY_BENCH_WRITE_ONLY=1 cargo bench --bench validate` writes them
without measuring). Every schema under schemas/ is registered under its `$id`, so the relative
`$ref`s resolve from memory; format checks are on, as for the Rust peers. Each iteration parses
the text (`json.loads`) and validates it, as peer (e) does with serde_json.

Prints one line per workload and, with --json FILE, writes the results for scripts/bench.sh.
When `jsonschema` cannot be imported, a virtual environment is made under /tmp and the script
runs again inside it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path("/tmp/jerry-contracts-bench-venv")
ENVELOPE = "https://jerry.dev/schemas/session_context/v1.1.0.json"
WORKLOADS = ["handoff_1k", "handoff_6k", "handoff_100k", "ndjson_10k"]


def ensure_jsonschema() -> None:
    """Re-runs the script in a venv with jsonschema when this interpreter lacks it."""
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        if os.environ.get("JERRY_BENCH_IN_VENV"):
            sys.exit("jsonschema is still missing inside the venv")
        python = VENV / "bin" / "python"
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        # The format-nongpl extra brings the checkers of date-time, uri and uri-reference, which
        # the Rust peers check too.
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "jsonschema[format-nongpl]"], check=True)
        env = dict(os.environ, JERRY_BENCH_IN_VENV="1")
        os.execve(str(python), [str(python), __file__, *sys.argv[1:]], env)


def load_schemas() -> list[dict]:
    """Every schema under schemas/, parsed (each has its `$id`)."""
    return [json.loads(p.read_text()) for p in sorted((ROOT / "schemas").rglob("*.json"))]


def workload_path(directory: Path, name: str) -> Path:
    """The file of workload `name` in `directory` (`.json` or `.ndjson`); exits when it is missing."""
    for ext in ("json", "ndjson"):
        if (directory / f"{name}.{ext}").exists():
            return directory / f"{name}.{ext}"
    sys.exit(f"{directory}/{name}.*: missing; run `JERRY_BENCH_WRITE_ONLY=1 cargo bench --bench validate` first")


def build_validator():
    """Draft7Validator of the v1.1.0 envelope, every schema registered under its `$id`, formats on."""
    import jsonschema
    from jsonschema import Draft7Validator

    schemas = load_schemas()
    root = {"$ref": ENVELOPE}
    checker = Draft7Validator.FORMAT_CHECKER
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT7

        registry = Registry().with_resources((s["$id"], Resource.from_contents(s, default_specification=DRAFT7)) for s in schemas)
        validator = Draft7Validator(root, registry=registry, format_checker=checker)
    except ImportError:  # jsonschema < 4.18: the RefResolver with a store of every schema
        resolver = jsonschema.RefResolver("", root, store={s["$id"]: s for s in schemas})
        validator = Draft7Validator(root, resolver=resolver, format_checker=checker)
    return validator


def version() -> str:
    from importlib.metadata import version as v

    return v("jsonschema")


def measure(validator, lines: list[bytes], budget: float) -> tuple[float, int]:
    """Seconds per pass over `lines` (parse + validate), over at least one pass and `budget` seconds."""
    passes = 0
    started = time.perf_counter()
    while True:
        for line in lines:
            if not validator.is_valid(json.loads(line)):
                raise SystemExit(f"python jsonschema rejects a document: {line[:120]!r}")
        passes += 1
        elapsed = time.perf_counter() - started
        if elapsed >= budget:
            return elapsed / passes, passes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=os.environ.get("JERRY_BENCH_DIR", "/tmp/jerry-contracts-bench"))
    parser.add_argument("--budget", type=float, default=3.0, help="seconds per workload (at least one pass)")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    ensure_jsonschema()
    validator = build_validator()
    directory = Path(args.dir)
    results = {"jsonschema": version(), "python": sys.version.split()[0], "formats": sorted(validator.format_checker.checkers)}
    print(f"python {results['python']}, jsonschema {results['jsonschema']}, formats checked: {', '.join(results['formats'])}")
    for name in WORKLOADS:
        data = workload_path(directory, name).read_bytes()
        lines = [line for line in data.split(b"\n") if line.strip()]
        validator.is_valid(json.loads(lines[0]))  # warm-up: resolve and cache the references
        seconds, passes = measure(validator, lines, args.budget)
        per_doc_us = seconds / len(lines) * 1e6
        mb_s = len(data) / seconds / 1e6
        results[name] = {"bytes": len(data), "documents": len(lines), "passes": passes, "seconds_per_pass": seconds, "us_per_doc": per_doc_us, "mb_per_s": mb_s}
        print(f"{name:<13} {len(lines):>6} doc(s) {len(data):>10} B  {per_doc_us:>12.1f} µs/doc  {mb_s:>8.3f} MB/s  ({passes} pass(es))")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
