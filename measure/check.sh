#!/usr/bin/env bash
# Read + replay benchmark, run by hand (not in CI): `pdndb check` over the
# Open Checkers Archive (22,621 games), best of 5 runs, on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
oca=../shared/corpus/english/OCA_2.0.pdn
[ -f "$oca" ] || { echo "the OCA archive is not present at $oca" >&2; exit 2; }
best=""
for _ in 1 2 3 4 5; do
    t0=$(date +%s%N)
    target/release/pdndb check "$oca" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
bytes=$(stat -c %s "$oca")
awk -v ms="$best" -v bytes="$bytes" 'BEGIN {
    printf "check OCA_2.0.pdn: 22621 games in %.3f s: %.0f games/s, %.1f MB/s\n", ms / 1000, 22621 / (ms / 1000), bytes / 1e6 / (ms / 1000)
}'
