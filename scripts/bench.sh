#!/usr/bin/env bash
# The whole performance comparison of docs/performance.md in one command:
#   0. `cargo bench --bench ratios`: the wall-time targets (the table docs/performance.md opens
#      with), every peer interleaved in one run, median of the repetitions;
#   1. `cargo bench --bench validate`: validate (a), the schema layer (b), serde typed (c),
#      serde Value (d) and the jsonschema crate (e) on four workloads, plus the breakdown of (a),
#      in one criterion run;
#   2. the release CLI, `validate --format json --ndjson`, on NDJSON streams of 10k, 100k and 1M
#      lines: MB/s and peak RSS (GNU time), to show that memory does not grow with the stream;
#   3. scripts/bench_python.py: Python's jsonschema (f) on the same documents;
# then prints the tables of results and ratios (also written to $JERRY_BENCH_DIR/results.md).
# `scripts/bench.sh --report` prints the tables again from the last run's results.
#
# Environment: JERRY_BENCH_DIR (default /tmp/jerry-contracts-bench) holds the generated
# documents and results; CLI_LINES (default "10000 100000 1000000") the stream lengths;
# KEEP_STREAMS=1 keeps the large stream files (1M lines is ~1.7 GB) after the run.
# About 7 minutes on the 2-core machine once the release builds are done.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export JERRY_BENCH_DIR=${JERRY_BENCH_DIR:-/tmp/jerry-contracts-bench}
CLI_LINES=${CLI_LINES:-"10000 100000 1000000"}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
mkdir -p "$JERRY_BENCH_DIR"

build() {
    echo "== build (release CLI, bench binary)"
    cargo build --release -p jerry-contracts-cli
    cargo bench --bench validate --no-run
}

criterion() {
    echo "== criterion: cargo bench --bench validate"
    local started status
    started=$(date +%s)
    set +e
    cargo bench --bench validate 2>&1 | tee "$JERRY_BENCH_DIR/criterion.log" |
        grep -E '^(workload|every)|time:|thrpt:|^[a-z_0-9]+/[a-z_]+' | grep -v '%'
    status=${PIPESTATUS[0]}
    set -e
    if [[ $status -ne 0 ]]; then
        echo "cargo bench failed ($status); see $JERRY_BENCH_DIR/criterion.log" >&2
        exit 1
    fi
    echo "criterion run: $(($(date +%s) - started)) s"
}

cli() {
    echo "== CLI: jerry-contracts validate --format json --ndjson"
    local bin=$TARGET/release/jerry-contracts stream=$JERRY_BENCH_DIR/ndjson_10k.ndjson
    local stream_lines lines file copies status bytes wall rss timing
    stream_lines=$(wc -l < "$stream")
    : > "$JERRY_BENCH_DIR/cli.tsv"
    for lines in $CLI_LINES; do
        # The stream of the criterion run, repeated: the same documents at every length.
        file=$JERRY_BENCH_DIR/cli_$lines.ndjson
        timing=$JERRY_BENCH_DIR/cli_$lines.time
        copies=$(((lines + stream_lines - 1) / stream_lines))
        if [[ ! -f $file ]] || [[ $(wc -l < "$file") -ne $lines ]]; then
            (for ((i = 0; i < copies; i++)); do cat "$stream"; done | head -n "$lines" > "$file") || true
        fi
        cat "$file" > /dev/null # in the page cache, so the run measures validation, not the disk
        status=0
        /usr/bin/time -v "$bin" validate --format json --ndjson "$file" > /dev/null 2> "$timing" || status=$?
        if [[ $status -ne 0 ]]; then
            echo "the CLI exited with $status on $file (every line should be valid)" >&2
            tail -30 "$timing" >&2
            exit 1
        fi
        bytes=$(stat -c %s "$file")
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$timing")
        rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$timing")
        printf '%s\t%s\t%s\t%s\n' "$lines" "$bytes" "$wall" "$rss" >> "$JERRY_BENCH_DIR/cli.tsv"
        awk -v l="$lines" -v b="$bytes" -v w="$wall" -v r="$rss" \
            'BEGIN {printf "%8d lines %8.1f MB  %7.2f s  %7.1f MB/s  peak RSS %6.1f MB\n", l, b / 1e6, w, b / 1e6 / w, r / 1024}'
        if [[ ${KEEP_STREAMS:-0} != 1 && $lines -gt $stream_lines ]]; then rm -f "$file"; fi
    done
}

python_peer() {
    echo "== python jsonschema: scripts/bench_python.py"
    python3 scripts/bench_python.py --dir "$JERRY_BENCH_DIR" --json "$JERRY_BENCH_DIR/python.json"
}

report() {
    echo "== results (MB = 10^6 bytes)"
    python3 - "$TARGET/criterion" "$JERRY_BENCH_DIR" <<'EOF' | tee "$JERRY_BENCH_DIR/results.md"
import json, sys
from pathlib import Path

criterion, out = Path(sys.argv[1]), Path(sys.argv[2])
workloads = ["handoff_1k", "handoff_6k", "handoff_100k", "ndjson_10k"]
functions = ["a_validate", "b_typed_check_value", "b_typed_garde_bytes", "c_serde_typed", "d_serde_value", "e_jsonschema"]
heads = ["(a) validate", "(b) typed check on Value", "(b) typed+garde from bytes", "(c) serde typed", "(d) serde Value", "(e) jsonschema", "(f) python"]
python = json.loads((out / "python.json").read_text())

def ns(group, function):
    return json.loads((criterion / group / function / "new" / "estimates.json").read_text())["mean"]["point_estimate"]

rows = {}
for w in workloads:
    t = {f: ns(w, f) for f in functions}
    t["f_python"] = python[w]["seconds_per_pass"] * 1e9
    rows[w] = t
keys = functions + ["f_python"]

print("| MB/s | bytes | docs | " + " | ".join(heads) + " |")
print("|---" * (len(heads) + 3) + "|")
for w, t in rows.items():
    size, docs = python[w]["bytes"], python[w]["documents"]
    print(f"| {w} | {size:,} | {docs:,} | " + " | ".join(f"{size / t[k] * 1e3:,.1f}" for k in keys) + " |")
print()
print("| µs per document | " + " | ".join(heads) + " |")
print("|---" * (len(heads) + 1) + "|")
for w, t in rows.items():
    docs = python[w]["documents"]
    print(f"| {w} | " + " | ".join(f"{t[k] / 1e3 / docs:,.2f}" for k in keys) + " |")

print()
print("| ratio | (a) vs (e): speed-up, target ≥ 2.5× | (a)/(c): cost, target ≤ 1.3× | (a) vs (f): speed-up, target ≥ 100× | (a)/(d) | (b on Value)/(c) | (b from bytes)/(c) | (e)/(d) |")
print("|---" * 8 + "|")
for w, t in rows.items():
    a = t["a_validate"]
    print(f"| {w} | {t['e_jsonschema'] / a:.2f}× | {a / t['c_serde_typed']:.2f}× | {t['f_python'] / a:.0f}× "
          f"| {a / t['d_serde_value']:.2f}× | {t['b_typed_check_value'] / t['c_serde_typed']:.2f}× "
          f"| {t['b_typed_garde_bytes'] / t['c_serde_typed']:.2f}× | {t['e_jsonschema'] / t['d_serde_value']:.2f}× |")

print()
parts = ["validate_value", "typed_check", "deserialize_tracked", "deserialize_plain", "payload_to_value", "garde", "parse_ignored_any"]
print("| breakdown, µs | (a) | (d) parse to Value | " + " | ".join(parts) + " | (c) |")
print("|---" * (len(parts) + 4) + "|")
for w in workloads[:3]:
    t = rows[w]
    cells = [f"{ns('breakdown_' + w, p) / 1e3:,.2f}" for p in parts]
    print(f"| {w} | {t['a_validate'] / 1e3:,.2f} | {t['d_serde_value'] / 1e3:,.2f} | " + " | ".join(cells) + f" | {t['c_serde_typed'] / 1e3:,.2f} |")

print()
print("| CLI NDJSON lines | MB | seconds | MB/s (target ≥ 300) | peak RSS MB |")
print("|---|---|---|---|---|")
for row in (out / "cli.tsv").read_text().split("\n"):
    if row:
        lines, size, wall, rss = row.split("\t")
        print(f"| {int(lines):,} | {int(size) / 1e6:,.1f} | {float(wall):.2f} | {int(size) / 1e6 / float(wall):,.1f} | {int(rss) / 1024:,.1f} |")
print()
print(f"python {python['python']}, jsonschema {python['jsonschema']}; formats python checks: {', '.join(python['formats'])}")
EOF
}

ratios() {
    echo "== targets in wall time: cargo bench --bench ratios (with the lone peer, D-167)"
    cargo build --release --quiet -p jerry-contracts-lone-peer
    cargo bench --bench ratios 2>/dev/null | tee "$JERRY_BENCH_DIR/ratios.md"
}

if [[ ${1:-} != --report ]]; then
    build
    ratios
    criterion
    cli
    python_peer
fi
report
