#!/usr/bin/env bash
# Every publishable crate of the workspace packages, and builds from its own package, in
# dependency order (pointer, codegen, the library, schema-tools, the command line): what
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
cargo publish --workspace --dry-run --locked "${verify[@]}"
