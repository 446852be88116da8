#!/usr/bin/env bash
# README's test command: the Rust suite of every crate (`cargo test --workspace`), then the
# Python package's suite (scripts/python-test.sh: the wheel built, installed into a fresh virtual
# environment, and tested with pytest), then the Node package's (scripts/node-test.sh: npm ci
# from the lockfile, then Node's test runner). Needs cargo, python3, node and PostgreSQL's server
# binaries (installed below when missing, where the machine can); everything else is
# installed.
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The store's tests (tests/store_sql.rs) start a PostgreSQL server from the machine's
# installation: installed here when it is missing and the machine can (root with apt-get),
# else the run stops, saying so, rather than skipping them.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [[ -z ${JERRY_PG_BIN:-} ]] &&
    ! { command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; }; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "== PostgreSQL is missing: installing Debian's postgresql package"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
    else
        echo "PostgreSQL's server binaries (initdb, pg_ctl) are missing: install PostgreSQL" \
            "(Debian: apt-get install postgresql) or set JERRY_PG_BIN to their directory" >&2
        exit 1
    fi
fi

echo "== rust: cargo test --workspace ($(date -u +%H:%M:%S))"
cargo test --workspace

scripts/python-test.sh

scripts/node-test.sh
