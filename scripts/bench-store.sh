#!/usr/bin/env bash
# The artifact store's throughput against plain INSERTs (issue 30, item 5): the bench
# crates/store/benches/throughput.rs, release build, on a PostgreSQL server it starts from the
# machine's installation (see tests/support/postgres.rs). REPS (default 5), SINGLES (default
# 2000 single-document puts a repetition) and BATCH (default 100000) tune it; the table it prints
# goes to docs/performance.md.
#   scripts/bench-store.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec cargo bench --quiet -p jerry-contracts-store --bench throughput
