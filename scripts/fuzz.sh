#!/usr/bin/env bash
# Bounded fuzzing of jerry-contracts (docs/fuzzing.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      SECONDS per target (default 120); targets: validate ndjson walk docs_out root
#
# Seeds fuzz/corpus/<target>/ from tests/fixtures (and fuzz/seeds/<target>/), then runs each
# target for SECONDS with libFuzzer when a nightly toolchain is there (installing cargo-fuzz if it
# is missing), else with the stable harness (a seeded mutation loop built on stable Rust).
# Crashing inputs go to fuzz/artifacts/<target>/. Exit status: 0 when nothing was found, 1 when a
# target crashed or hung, 2 on a usage or build error.
#
# Environment:
#   FUZZ_ENGINE=auto|libfuzzer|stable   which engine (default auto: libfuzzer if nightly is there)
#   FUZZ_SEED=N                         the stable harness's seed (default: from the clock)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seconds="${1:-120}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
    echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
    exit 2
fi
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(validate ndjson walk docs_out root)
for target in "${targets[@]}"; do
    case "$target" in
        validate | ndjson | walk | docs_out | root) ;;
        *) echo "fuzz.sh: unknown target $target (validate, ndjson, walk, docs_out, root)" >&2; exit 2 ;;
    esac
done

# ---------------------------------------------------------------------------------------------
# The seed corpus
# ---------------------------------------------------------------------------------------------

# The registry's schema names in byte order: the first byte of a `validate` input picks
# names[byte % count] (fuzz/src/lib.rs, schema_names).
mapfile -t schema_names < <(cd schemas && find . -name '*.json' | sed -e 's|^\./||' -e 's|\.json$||' | LC_ALL=C sort)

seed_corpus() {
    local target="$1" dir="fuzz/corpus/$1" fixture relative name schema index i
    mkdir -p "$dir" "fuzz/artifacts/$target"
    # Every fixture, as it is.
    while IFS= read -r fixture; do
        relative="${fixture#tests/fixtures/}"
        name="${relative//\//_}"
        cp "$fixture" "$dir/$name"
        if [ "$target" = validate ]; then
            # The same, prefixed with the byte that picks its own schema for `validate_as`.
            schema="${relative%%/valid/*}"
            schema="${schema%%/invalid/*}"
            schema="${schema%%/definitions/*}"
            index=""
            for i in "${!schema_names[@]}"; do
                if [ "${schema_names[$i]}" = "$schema" ]; then index="$i"; break; fi
            done
            if [ -n "$index" ]; then
                # shellcheck disable=SC2059 # the format is the byte
                { printf "\\$(printf '%03o' "$index")"; cat "$fixture"; } > "$dir/as-$name"
            fi
        fi
    done < <(find tests/fixtures -name '*.json' | LC_ALL=C sort)
    if [ -d "fuzz/seeds/$target" ]; then
        cp fuzz/seeds/"$target"/* "$dir/"
    fi
    echo "fuzz.sh: $dir: $(find "$dir" -type f | wc -l) files"
}

for target in "${targets[@]}"; do
    seed_corpus "$target"
done

# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------

engine="${FUZZ_ENGINE:-auto}"
if [ "$engine" = auto ]; then
    engine=stable
    if command -v rustup > /dev/null && rustup toolchain list 2> /dev/null | grep -q '^nightly'; then
        if cargo fuzz --version > /dev/null 2>&1 || cargo install cargo-fuzz --locked; then
            engine=libfuzzer
        else
            echo "fuzz.sh: cargo-fuzz cannot be installed; using the stable harness" >&2
        fi
    else
        echo "fuzz.sh: no nightly toolchain; using the stable harness" >&2
    fi
fi

status=0
summary=()
case "$engine" in
    libfuzzer)
        cargo fuzz --version > /dev/null 2>&1 || cargo install cargo-fuzz --locked
        for target in "${targets[@]}"; do
            log="fuzz/artifacts/$target/libfuzzer.log"
            echo "fuzz.sh: $target: libFuzzer for $seconds s (log: $log)"
            # -a: debug assertions (an overflow is a finding); the stable harness's limits.
            set +e
            cargo +nightly fuzz run -a "$target" "fuzz/corpus/$target" -- \
                -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
                -print_final_stats=1 2>&1 | tee "$log" | grep -E '^#[0-9]+.*(DONE|pulse|INITED)|ERROR|SUMMARY|stat::|artifact'
            code="${PIPESTATUS[0]}"
            set -e
            executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
            rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
            coverage="$(grep -E '^#[0-9]+.*DONE' "$log" | tail -1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')"
            summary+=("$target (libFuzzer, $seconds s): ${executions:-?} executions, ${rate:-?} exec/s, coverage ${coverage:-?} edges, exit $code")
            [ "$code" -eq 0 ] || status=1
        done
        ;;
    stable)
        cargo build --release --no-default-features --manifest-path fuzz/Cargo.toml --bins
        for target in "${targets[@]}"; do
            log="fuzz/artifacts/$target/stable.log"
            echo "fuzz.sh: $target: stable harness for $seconds s (log: $log)"
            seed_args=()
            [ -z "${FUZZ_SEED:-}" ] || seed_args=(--seed "$FUZZ_SEED")
            set +e
            "fuzz/target/release/$target" --seconds "$seconds" "${seed_args[@]}" 2>&1 | tee "$log"
            code="${PIPESTATUS[0]}"
            set -e
            line="$(grep -E '^#[0-9]+'$'\t''DONE' "$log" | tail -1 | tr '\t' ' ')"
            summary+=("$target (stable harness, $seconds s): ${line:-no summary}, exit $code")
            [ "$code" -eq 0 ] || status=1
        done
        ;;
    *)
        echo "fuzz.sh: FUZZ_ENGINE must be auto, libfuzzer or stable, not $engine" >&2
        exit 2
        ;;
esac

echo
for line in "${summary[@]}"; do
    echo "fuzz.sh: $line"
done
if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: findings in fuzz/artifacts/ (replay one: fuzz/target/release/<target> FILE, or cargo +nightly fuzz run <target> FILE)"
fi
exit "$status"
