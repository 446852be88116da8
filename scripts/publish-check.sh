#!/usr/bin/env bash
# Every publishable crate of the workspace packages, and builds from its own package, in
# dependency order (pointer, fingerprint, codegen, the library, schema-tools, the command line): what
# `cargo publish` would upload, checked without uploading. The crates not meant for crates.io
# (the conformance corpus, the Python package) say `publish = false` and are left out.
#   scripts/publish-check.sh            verify: build each package from its .crate file
#   scripts/publish-check.sh --quick    package only (no build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

verify=()
if [ "${1:-}" = "--quick" ]; then
    verify=(--no-verify)
fi
# --workspace publishes in dependency order, each package verified against the packages of the
# ones before it (a local registry overlay), so crates not on crates.io yet are fine.
#
# Each run builds in a target directory of its own, removed at the end. cargo unpacks the
# overlay's packages under $CARGO_HOME/registry/src/<hash of the overlay's path>/ and reuses what
# it finds there: with one fixed target directory, a second run verified the first run's
# sources (stale generated code failed to build). A fresh path is a fresh overlay; what cargo
# unpacked for it stays in $CARGO_HOME (a few MB a run), which this script does not touch.
mkdir -p target
build=$(mktemp -d "$PWD/target/publish-check.XXXXXX")
trap 'rm -rf "$build"' EXIT
CARGO_TARGET_DIR=$build cargo publish --workspace --dry-run --locked "${verify[@]}"
