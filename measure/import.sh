#!/usr/bin/env bash
# Import benchmark, run by hand (not in CI): imports the Open Checkers
# Archive (when ../shared/corpus is present) and generated archives of
# 20,000 and 200,000 games, then times queries. Prints one table row per
# archive: import time, games/s, positions/s, database bytes per indexed
# position, search latency (rare and common position, median of 20), tree
# latency at the start position (median of 20), peak memory of the import.
#
#   measure/import.sh            # all archives
#   BENCH_SIZES="20000" measure/import.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/pdndb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes=${BENCH_SIZES:-"20000 200000"}

median_ms() { # command... → median wall time of 20 runs, in ms
    local times=()
    for _ in $(seq 20); do
        local t0 t1
        t0=$(date +%s%N)
        "$@" >/dev/null 2>&1
        t1=$(date +%s%N)
        times+=($(( (t1 - t0) / 1000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

row() { # name archive variant common-moves
    local name=$1 archive=$2 variant=$3 common=$4 db="$work/$1.sqlite"
    rm -f "$db"*
    /usr/bin/time -f '%M' -o "$work/mem" "$bin" --db "$db" import --quiet --json "$archive" >"$work/summary"
    local games positions seconds peak bytes rare_fen
    games=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["games"])' "$work/summary")
    positions=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["positions"])' "$work/summary")
    seconds=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$work/summary")
    peak=$(( $(cat "$work/mem") / 1024 ))
    bytes=$(stat -c %s "$db")
    # A rare position: the last position of the last game.
    rare_fen=$("$bin" --db "$db" show "$games" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["fen"])')
    local rare common_ms tree
    rare=$(median_ms "$bin" --db "$db" search --fen "$rare_fen")
    common_ms=$(median_ms "$bin" --db "$db" search --variant "$variant" --moves "$common")
    tree=$(median_ms "$bin" --db "$db" tree --variant "$variant")
    printf '| %-12s | %8d | %7.2f | %9.0f | %11.0f | %5.1f | %9s | %11s | %8s | %6d |\n' \
        "$name" "$games" "$seconds" "$(div "$games" "$seconds")" "$(div "$positions" "$seconds")" \
        "$(div "$bytes" "$positions")" "$rare" "$common_ms" "$tree" "$peak"
}

echo "pdndb import benchmark — $(date -u +%Y-%m-%d), $(nproc) cores, commit $(git rev-parse --short HEAD)"
echo
echo "| archive      |    games | import s |   games/s | positions/s | B/pos | search rare ms | search common ms | tree ms | peak MiB |"
echo "|--------------|---------:|--------:|----------:|------------:|------:|----------:|------------:|--------:|-------:|"
oca=../shared/corpus/english/OCA_2.0.pdn
if [ -f "$oca" ]; then
    row OCA "$oca" english "1. 11-15"
else
    echo "(OCA archive not present: skipped)" >&2
fi
for n in $sizes; do
    "$bin" generate --games "$n" --seed 1 --variant filipino --notation numeric -o "$work/gen$n.pdn"
    row "gen-$n" "$work/gen$n.pdn" filipino "1. 23-18"
done
