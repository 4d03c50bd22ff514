#!/usr/bin/env bash
# Import of games that share their moves, run by hand (not in CI): archives
# of N copies of one game under N different tag sets (as collections of
# result-only records hold), against N ordinary generated games. Prints one
# row per size: import seconds and microseconds per game of each, and
# their ratio (linear import: the same per game at every size).
#
#   measure/same-moves.sh                 # 10k, 20k, 40k, 100k games
#   BENCH_SIZES="10000" measure/same-moves.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=$PWD/target/release/pdndb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes=${BENCH_SIZES:-"10000 20000 40000 100000"}

"$bin" generate --games 1 --seed 1 -o "$work/one.pdn"
moves=$(grep -v '^\[' "$work/one.pdn")

seconds() { # archive → import seconds into a fresh database
    rm -f "$work/db.sqlite"*
    "$bin" --db "$work/db.sqlite" import --quiet --json "$1" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])'
}

echo "| games | same moves s | µs/game | generated s | µs/game | ratio |"
echo "|------:|------------:|--------:|------------:|--------:|------:|"
for n in $sizes; do
    awk -v n="$n" -v moves="$moves" 'BEGIN {
        for (i = 0; i < n; i++)
            printf "[Event \"Club %d\"]\n[White \"Player %d\"]\n[Black \"Other %d\"]\n[Result \"*\"]\n%s\n\n", i / 100, i, i % 97, moves
    }' >"$work/same.pdn"
    "$bin" generate --games "$n" --seed 9 -o "$work/gen.pdn"
    same=$(seconds "$work/same.pdn")
    gen=$(seconds "$work/gen.pdn")
    awk -v n="$n" -v s="$same" -v g="$gen" 'BEGIN {
        printf "| %d | %.2f | %.0f | %.2f | %.0f | %.2f× |\n", n, s, s / n * 1e6, g, g / n * 1e6, s / g
    }'
done
