#!/usr/bin/env bash
# What a user's build pays for this crate (issue 28, item 6), for two commits in one run:
#   scripts/build-cost.sh [BASE [HEAD]]      (default: HEAD~1 against HEAD)
# For each commit, a scratch binary crate that depends on the crate (DEP, below) is built in its
# own clean target directory, debug profile, and timed:
#   clean     `cargo build` from nothing, with a `main.rs` that only calls the gate
#             (`Validator::validate`, not generic);
#   touch     the rebuild after touching that `main.rs`;
#   typed     the rebuild when `main.rs` adds a first `typed::from_slice::<ResearcherOutput>`,
#             reported as the added cost over `touch`;
#   envelope  the same for a first `Handoff::<ResearcherOutput>::from_slice`;
# then the size of the crate's debug rlib and the line count of its generated code.
# The commits alternate (BASE, HEAD, BASE, ...) REPS times (default 1); the table shows the
# median of each measure, then the ratio HEAD / BASE. Results go to $JERRY_BUILD_COST_DIR
# (default a fresh temporary directory, removed at the end unless KEEP=1).
# How the scratch crate depends on the crate (DEP, default `git`):
#   git   a git dependency on the commit (`git = "file://<this repository>", rev = ...`): cargo
#         builds it as it builds a crate from a registry, without incremental compilation and so
#         in 16 codegen units. This is what a user of the published crate pays.
#   path  a path dependency on the commit's tree (`git archive`): cargo builds it as a local
#         package, incrementally, in 256 codegen units, each carrying the debug info of the types
#         it mentions. This is what a workspace that vendors the crate pays.
# `git` leaves cargo's own clone of this repository in $CARGO_HOME/git, as any git dependency does.
# Dependencies come from the commit's Cargo.lock; the first run fetches them. About 8 minutes
# per commit and repetition on the 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BASE=$(git rev-parse --short "${1:-HEAD~1}")
HEAD=$(git rev-parse --short "${2:-HEAD}")
REPS=${REPS:-1}
DEP=${DEP:-git}
case $DEP in
git | path) ;;
*)
    echo "DEP must be git or path, not '$DEP'" >&2
    exit 2
    ;;
esac
if [[ -n ${JERRY_BUILD_COST_DIR:-} ]]; then
    WORK=$JERRY_BUILD_COST_DIR
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d -t jerry-build-cost.XXXXXX)
    if [[ ${KEEP:-0} != 1 ]]; then trap 'rm -rf "$WORK"' EXIT; fi
fi
RESULTS=$WORK/results.tsv
: >"$RESULTS"

now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$2"; }

# main.rs of the scratch crate: the gate, plus one generic first use ($1: none|typed|envelope).
write_main() {
    local use=$1 file=$2
    {
        echo 'use jerry_contracts::validation::Validator;'
        echo 'fn main() {'
        echo '    let bytes = std::env::args().nth(1).unwrap_or_default().into_bytes();'
        echo '    println!("{}", Validator::new().validate(&bytes).is_valid());'
        case $use in
        typed)
            echo '    let typed = jerry_contracts::typed::from_slice::<jerry_contracts::agents::ps::ResearcherOutput>(&bytes);'
            echo '    println!("{}", typed.is_ok());'
            ;;
        envelope)
            echo '    let handoff = jerry_contracts::envelope::Handoff::<jerry_contracts::agents::ps::ResearcherOutput>::from_slice(&bytes);'
            echo '    println!("{}", handoff.is_ok());'
            ;;
        esac
        echo '}'
    } >"$file"
}

timed_build() {
    local dir=$1 started ended
    started=$(now)
    if ! (cd "$dir" && CARGO_TARGET_DIR=$dir/target cargo build --quiet 2>"$dir/build.log"); then
        echo "build failed in $dir:" >&2
        cat "$dir/build.log" >&2
        exit 1
    fi
    ended=$(now)
    elapsed "$started" "$ended"
}

measure() {
    local commit=$1 rep=$2 src=$WORK/src-$1 user=$WORK/user-$1-$2
    if [[ ! -d $src ]]; then
        mkdir -p "$src"
        git archive "$commit" | tar -x -C "$src"
    fi
    rm -rf "$user"
    mkdir -p "$user/src"
    cp "$src/Cargo.lock" "$user/Cargo.lock"
    local dependency
    if [[ $DEP == git ]]; then
        dependency="{ git = \"file://$ROOT\", rev = \"$(git rev-parse "$commit")\" }"
    else
        dependency="{ path = \"$src\" }"
    fi
    cat >"$user/Cargo.toml" <<EOF
[package]
name = "build-cost-user"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
jerry-contracts = $dependency

[workspace]
EOF
    write_main none "$user/src/main.rs"
    local clean touch typed envelope
    clean=$(timed_build "$user")
    touch "$user/src/main.rs"
    touch=$(timed_build "$user")
    write_main typed "$user/src/main.rs"
    typed=$(timed_build "$user")
    write_main none "$user/src/main.rs"
    timed_build "$user" >/dev/null
    write_main envelope "$user/src/main.rs"
    envelope=$(timed_build "$user")
    local rlib generated
    rlib=$(find "$user/target/debug/deps" -name 'libjerry_contracts-*.rlib' -printf '%s\n' | sort -n | tail -1)
    # The generated Rust: committed since D-168, in the build script's output before.
    if [[ -f $src/src/generated/contracts.rs ]]; then
        generated=$(wc -l <"$src/src/generated/contracts.rs")
    else
        generated=$(find "$user/target/debug/build" -path '*jerry-contracts-*/out/contracts.rs' -exec cat {} + | wc -l)
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$commit" "$rep" "$clean" "$touch" \
        "$(elapsed "$touch" "$typed")" "$(elapsed "$touch" "$envelope")" "$rlib" "$generated" >>"$RESULTS"
    echo "  $commit rep $rep: clean ${clean}s, touch ${touch}s, typed ${typed}s, envelope ${envelope}s, rlib $rlib B, $generated generated lines"
    rm -rf "$user/target"
}

echo "== build cost: $BASE (base) against $HEAD (head), $DEP dependency, $REPS repetition(s), in $WORK"
(cd "$ROOT" && cargo fetch --quiet)
for rep in $(seq 1 "$REPS"); do
    measure "$BASE" "$rep"
    measure "$HEAD" "$rep"
done

python3 - "$RESULTS" "$BASE" "$HEAD" "$DEP" <<'EOF'
import statistics, sys
path, base, head, dep = sys.argv[1:]
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
names = ["clean build (s)", "rebuild after touching main.rs (s)", "added by a first typed::from_slice (s)",
         "added by a first Handoff::from_slice (s)", "debug rlib (MB)", "generated lines"]
def median(commit, column):
    values = [float(row[2 + column]) for row in rows if row[0] == commit]
    value = statistics.median(values)
    return value / 1e6 if column == 4 else value
print(f"\n{dep} dependency:\n\n| measure | {base} (base) | {head} (head) | head / base |")
print("|---|---|---|---|")
for column, name in enumerate(names):
    a, b = median(base, column), median(head, column)
    ratio = f"{b / a:.2f}" if a > 0 else "n/a"
    shown = (lambda v: f"{v:,.0f}") if column == 5 else (lambda v: f"{v:.1f}")
    print(f"| {name} | {shown(a)} | {shown(b)} | {ratio} |")
EOF
