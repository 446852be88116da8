#!/usr/bin/env python3
"""The Python package `jerry_contracts` against Python's JSON Schema validators, in one run.

Issue 14 (item 5) and docs/performance.md, "The Python package". On the same documents, each
call starting from the document's bytes:

- `jerry_contracts.validate(data)`: the full four-layer validate, default options (the module
  function, which makes its validator per call), and `Validator().validate(data)` reusing one;
- python-jsonschema: `json.loads` + `Draft7Validator.is_valid`, every schema registered under its
  `$id` and the draft-7 format checker (scripts/bench_python.py's set-up, peer (f) of the Rust
  bench);
- fastjsonschema: `json.loads` + the compiled validator; `$ref`s are resolved from memory while
  compiling, by a `handlers` entry for `https` that answers from the schemas of schemas/
  (no bundling, no network); formats on (its regexes), defaults not filled in;
- jsonschema-rs: `json.loads` + `Draft7Validator.is_valid`, every schema in a `Registry`,
  formats on;
- `json.loads` alone, the parse every peer pays, for reference;
- for a caller who holds the parsed document (its parse not timed): `jerry_contracts.validate`
  of the dict (which `json.dumps` writes back to text) and jsonschema-rs's `is_valid` of it.

The documents are the Rust bench's (`JERRY_BENCH_WRITE_ONLY=1 cargo bench --bench validate`
writes them to $JERRY_BENCH_DIR, default /tmp/jerry-contracts-bench; this script runs that when
they are missing). Before measuring, every contender must accept every document and reject two
broken ones (a required member removed; a `date-time` that is not one), so that like is compared
with like; the verdicts are printed.

Timing is timeit's: blocks of n calls with the garbage collector off, n chosen so a block takes
about --block seconds, --repeat blocks per contender, the contenders interleaved (their order
turned each round) so that the machine's load falls on all of them alike. The table gives the
best block (timeit's min) and the median, in µs per document, and the ratios of each peer's time
to jerry's: the measure to read on a shared machine is the ratio, not the time.

The script makes its own virtual environment ($JERRY_BENCH_VENV, default
/tmp/jerry-contracts-pybench-venv), installs maturin and the peers there from PyPI, builds the
package in release (`maturin build --release`, then pip installs the wheel) and runs again
inside it. Needs python3 (3.9+, with venv) and cargo.

    scripts/bench_python_package.py [--workloads handoff_1k handoff_6k] [--json FILE] [--no-build]
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_python  # noqa: E402  (the registry set-up of peer (f), shared)

ROOT = bench_python.ROOT
ENVELOPE = bench_python.ENVELOPE
VENV = Path(os.environ.get("JERRY_BENCH_VENV", "/tmp/jerry-contracts-pybench-venv"))
IN_VENV = "JERRY_PYBENCH_IN_VENV"
# Pinned to a major version each; jsonschema-rs is 0.x, where each minor may break the API
# (the `registry=` argument used below), so its minor is pinned.
REQUIREMENTS = [
    "maturin>=1.5,<2",
    "jsonschema[format-nongpl]>=4.18,<5",
    "fastjsonschema>=2.19,<3",
    "jsonschema-rs>=0.61,<0.62",
]
DEFAULT_WORKLOADS = ["handoff_1k", "handoff_6k", "handoff_100k"]


# ---------------------------------------------------------------------------------------------
# Outside the venv: make it, build the package, write the documents, run again inside
# ---------------------------------------------------------------------------------------------


def prepare(args: argparse.Namespace) -> None:
    directory = Path(args.dir)
    if not all((directory / f"{w}.json").exists() or (directory / f"{w}.ndjson").exists() for w in args.workloads):
        print(f"== writing the bench documents to {directory} (JERRY_BENCH_WRITE_ONLY=1 cargo bench --bench validate)")
        env = dict(os.environ, JERRY_BENCH_WRITE_ONLY="1", JERRY_BENCH_DIR=str(directory))
        subprocess.run(["cargo", "bench", "--bench", "validate"], cwd=ROOT, env=env, check=True)
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"== virtual environment {VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *REQUIREMENTS], check=True
    )
    if not args.no_build:
        print("== maturin build --release (crates/python)")
        wheels = VENV / "wheels"
        for old in wheels.glob("*.whl"):
            old.unlink()
        env = dict(os.environ, VIRTUAL_ENV=str(VENV), PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ['PATH']}")
        subprocess.run(
            [str(VENV / "bin" / "maturin"), "build", "--release", "--manifest-path", "crates/python/Cargo.toml",
             "--interpreter", str(python), "--out", str(wheels)],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        wheel = next(wheels.glob("*.whl"))
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--force-reinstall",
             "--no-deps", str(wheel)],
            check=True,
        )  # fmt: skip
    env = dict(os.environ, **{IN_VENV: "1"})
    os.execve(str(python), [str(python), __file__, *sys.argv[1:]], env)


# ---------------------------------------------------------------------------------------------
# Inside the venv: the contenders, their verdicts, the measurements
# ---------------------------------------------------------------------------------------------


def contenders() -> tuple[dict, dict]:
    """Name -> function from a document's bytes to its verdict (True when valid); and versions."""
    from importlib.metadata import version

    import fastjsonschema
    import jsonschema_rs

    import jerry_contracts

    loads = json.loads
    schemas = bench_python.load_schemas()
    by_id = {s["$id"]: s for s in schemas}

    validate = jerry_contracts.validate
    reused = jerry_contracts.Validator()
    jsonschema_validator = bench_python.build_validator()
    fast = fastjsonschema.compile(
        {"$ref": ENVELOPE}, handlers={"https": lambda uri: by_id[uri]}, use_default=False
    )
    fast_error = fastjsonschema.JsonSchemaValueException
    registry = jsonschema_rs.Registry([(s["$id"], s) for s in schemas])
    rs_validator = jsonschema_rs.Draft7Validator({"$ref": ENVELOPE}, validate_formats=True, registry=registry)

    class Parsed(dict):
        def __missing__(self, data: bytes):
            self[data] = loads(data)
            return self[data]

    parsed = Parsed()

    def fastjsonschema_is_valid(data: bytes) -> bool:
        try:
            fast(loads(data))
        except fast_error:
            return False
        return True

    # Every function has the same shape (one call from the bytes, one attribute or call on the
    # result), so the harness's own cost is the same for all.
    functions = {
        "jerry validate": lambda data: validate(data).valid,
        "jerry Validator reused": lambda data: reused.validate(data).valid,
        "python-jsonschema": lambda data: jsonschema_validator.is_valid(loads(data)),
        "fastjsonschema": fastjsonschema_is_valid,
        "jsonschema-rs": lambda data: rs_validator.is_valid(loads(data)),
        "json.loads alone": lambda data: loads(data) is not None,
        # For a caller who already holds the parsed document: the parse is not timed (the dict is
        # looked up by the bytes, parsed once). jerry writes it back to text (`json.dumps`).
        "jerry validate(dict)": lambda data: validate(parsed[data]).valid,
        "jsonschema-rs (dict)": lambda data: rs_validator.is_valid(parsed[data]),
    }
    versions = {
        "python": sys.version.split()[0],
        "jerry-contracts": jerry_contracts.__version__,
        "jsonschema": version("jsonschema"),
        "fastjsonschema": version("fastjsonschema"),
        "jsonschema-rs": version("jsonschema-rs"),
        "python-jsonschema formats": sorted(jsonschema_validator.format_checker.checkers),
    }
    return functions, versions


def broken_documents(valid: bytes) -> dict[str, bytes]:
    """Two documents every contender must reject, made from a valid handoff."""
    doc = json.loads(valid)
    missing = {k: v for k, v in doc.items() if k != "timestamp"}
    bad_format = dict(doc, timestamp="yesterday at noon")
    return {
        "required `timestamp` removed": json.dumps(missing).encode(),
        "`timestamp` not a date-time": json.dumps(bad_format).encode(),
    }


def check_verdicts(functions: dict, documents: dict[str, list[bytes]]) -> None:
    """Every contender accepts every document and rejects the broken ones; exits otherwise."""
    import jerry_contracts

    first = next(iter(documents.values()))[0]
    broken = broken_documents(first)
    failures = []
    print("verdicts (accepts every document of the workload / rejects the broken one):")
    for name, fn in functions.items():
        if name == "json.loads alone":
            continue
        cells = []
        for workload, docs in documents.items():
            ok = all(fn(d) for d in docs)
            cells.append(f"{workload} {'accepted' if ok else 'REJECTED'}")
            failures += [] if ok else [f"{name} rejects {workload}"]
        for what, doc in broken.items():
            ok = not fn(doc)
            cells.append(f"{what}: {'rejected' if ok else 'ACCEPTED'}")
            failures += [] if ok else [f"{name} accepts the document with {what}"]
        print(f"  {name:<24} " + "; ".join(cells))
    for workload, docs in documents.items():
        records = sum(len(jerry_contracts.validate(d).records) for d in docs)
        if records:
            failures.append(f"jerry reports {records} record(s) on {workload}")
    if failures:
        sys.exit("the contenders disagree, so the comparison would not be like with like:\n  " + "\n  ".join(failures))


def block(fn, docs: list[bytes], n: int) -> float:
    """Seconds for n passes of fn over docs, the collector off (as timeit does)."""
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        started = time.perf_counter()
        for _ in itertools.repeat(None, n):
            for doc in docs:
                fn(doc)
        return time.perf_counter() - started
    finally:
        if gc_was_on:
            gc.enable()


def passes_per_block(fn, docs: list[bytes], seconds: float) -> int:
    """timeit's autorange: the smallest n of 1, 2, 5, 10, 20, ... whose block takes `seconds`."""
    for exponent in itertools.count():
        for factor in (1, 2, 5):
            n = factor * 10**exponent
            if block(fn, docs, n) >= seconds:
                return n
    raise AssertionError("unreachable")


def measure(functions: dict, docs: list[bytes], repeat: int, seconds: float) -> dict[str, dict]:
    """Per contender: µs per document of each block, the blocks of all contenders interleaved."""
    names = list(functions)
    passes = {name: passes_per_block(functions[name], docs, seconds) for name in names}
    samples: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(repeat):
        order = names[round_ % len(names) :] + names[: round_ % len(names)]
        for name in order:
            elapsed = block(functions[name], docs, passes[name])
            samples[name].append(elapsed / (passes[name] * len(docs)) * 1e6)
    return {
        name: {"passes_per_block": passes[name], "us_per_doc": samples[name], "min": min(samples[name]),
               "median": statistics.median(samples[name])}
        for name in names
    }  # fmt: skip


def table(results: dict, sizes: dict) -> str:
    workloads = list(results)
    names = list(next(iter(results.values())))
    lines = ["| µs per document, best (median) | bytes | " + " | ".join(names) + " |"]
    lines.append("|---" * (len(names) + 2) + "|")
    for w in workloads:
        cells = [f"{results[w][n]['min']:,.2f} ({results[w][n]['median']:,.2f})" for n in names]
        lines.append(f"| {w} | {sizes[w]:,} | " + " | ".join(cells) + " |")
    peers = ["python-jsonschema", "fastjsonschema", "jsonschema-rs", "json.loads alone", "jerry validate(dict)"]
    lines += ["", "Speed-up of `jerry validate` (peer's time / jerry's; above 1, jerry is faster), best (median):", ""]
    heads = {
        "python-jsonschema": "vs python-jsonschema, target ≥ 100×",
        "jsonschema-rs": "vs json.loads + jsonschema-rs, target > 1×",
        "jerry validate(dict)": "jerry validate(dict) / validate(bytes)",
    }
    lines.append("| ratio | " + " | ".join(heads.get(p, f"vs {p}") for p in peers) + " | Validator reused vs validate |")
    lines.append("|---" * (len(peers) + 2) + "|")
    for w in workloads:
        r = results[w]
        jerry = r["jerry validate"]
        cells = [f"{r[p]['min'] / jerry['min']:,.2f}× ({r[p]['median'] / jerry['median']:,.2f}×)" for p in peers]
        reuse = r["jerry Validator reused"]
        cells.append(f"{jerry['min'] / reuse['min']:.2f}× ({jerry['median'] / reuse['median']:.2f}×)")
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    lines += ["", "From a parsed dict (no parse timed): jsonschema-rs's time / jerry's, best (median):", ""]
    lines += ["| ratio | jsonschema-rs (dict) vs jerry validate(dict) |", "|---|---|"]
    for w in workloads:
        a, b = results[w]["jerry validate(dict)"], results[w]["jsonschema-rs (dict)"]
        lines.append(f"| {w} | {b['min'] / a['min']:.2f}× ({b['median'] / a['median']:.2f}×) |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    functions, versions = contenders()
    print(", ".join(f"{k} {v}" for k, v in versions.items() if k != "python-jsonschema formats"))
    print(f"python-jsonschema checks formats: {', '.join(versions['python-jsonschema formats'])}")
    directory = Path(args.dir)
    documents = {}
    sizes = {}
    for name in args.workloads:
        data = bench_python.workload_path(directory, name).read_bytes()
        docs = [line for line in data.split(b"\n") if line.strip()]
        documents[name] = docs[: args.lines] if len(docs) > 1 and args.lines else docs
        sizes[name] = sum(len(d) for d in documents[name]) // len(documents[name])
    check_verdicts(functions, documents)
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    results = {}
    for name, docs in documents.items():
        t = time.perf_counter()
        results[name] = measure(functions, docs, args.repeat, args.block)
        print(f"measured {name} in {time.perf_counter() - t:.0f} s")
    print(f"\nrun started {started}, load average {os.getloadavg()[0]:.2f} at the end, {args.repeat} blocks "
          f"of ~{args.block} s each per contender\n")  # fmt: skip
    print(table(results, sizes))
    if args.json:
        out = {"started": started, "versions": versions, "bytes_per_doc": sizes, "results": results}
        Path(args.json).write_text(json.dumps(out, indent=2))
        print(f"\nwritten to {args.json}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=os.environ.get("JERRY_BENCH_DIR", "/tmp/jerry-contracts-bench"))
    parser.add_argument("--workloads", nargs="+", default=DEFAULT_WORKLOADS, help="default: the three handoffs")
    parser.add_argument("--lines", type=int, default=200, help="documents of an NDJSON workload used (0: all)")
    parser.add_argument("--repeat", type=int, default=7, help="blocks per contender and workload")
    parser.add_argument("--block", type=float, default=0.2, help="seconds a block takes, about")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--no-build", action="store_true", help="use the package already in the venv")
    args = parser.parse_args()
    if os.environ.get(IN_VENV):
        run(args)
    else:
        prepare(args)


if __name__ == "__main__":
    main()
