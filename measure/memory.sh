#!/usr/bin/env bash
# Peak memory benchmark, run by hand (not in CI). Prints one table row per
# measurement: the peak resident memory (`/usr/bin/time`, maximum resident
# set size) and wall time of
#   - import of generated archives of about 50 MB, 300 MB and 1.2 GB
#     (Filipino and International games) into a new database;
#   - import of 1,000 English games of 20,000 plies each (two kings going
#     back and forth: legal, and as long as a game may be);
#   - report --html over 100,000 problem games (generated games with an
#     illegal third move);
#   - search --limit 0 (every game at the start position), games --limit 0
#     and export over 200,000 games.
#
#   measure/memory.sh                            # everything (about 1-2 hours)
#   BENCH_IMPORTS="50" measure/memory.sh         # only the 50 MB archives
#   BENCH_QUERIES=0 measure/memory.sh            # imports only
#   PDNDB="old/pdndb target/release/pdndb" measure/memory.sh   # compare binaries
#   BENCH_WORK=/big/disk measure/memory.sh       # where the files go (needs
#                                              # about 6 GB per 1.2 GB archive)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PDNDB:-}" ]; then
    cargo build --release --quiet
    PDNDB=target/release/pdndb
fi
read -r -a bins <<<"$PDNDB"
gen=${bins[-1]}
work=$(mktemp -d "${BENCH_WORK:-${TMPDIR:-/tmp}}/pdndb-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT
imports=${BENCH_IMPORTS:-"50 300 1200"}

# measure NAME BIN ARGS... → "seconds peak-MiB" of `BIN ARGS...` (output dropped)
measure() {
    local bin=$1
    shift
    /usr/bin/time -f '%e %M' -o "$work/time" "$bin" "$@" >/dev/null 2>"$work/stderr" || true
    tail -1 "$work/time" | awk '{ printf "%.1f s, %d MiB", $1, $2 / 1024 }'
}

row() { # label, then one measurement per binary: command arguments after --db
    local label=$1
    shift
    local cells=()
    for bin in "${bins[@]}"; do
        rm -f "$work/db.sqlite"*
        cells+=("$(measure "$bin" --db "$work/db.sqlite" "$@")")
    done
    printf '| %s |' "$label"
    printf ' %s |' "${cells[@]}"
    echo
}

query_row() { # label, database, command arguments
    local label=$1 db=$2
    shift 2
    local cells=()
    for bin in "${bins[@]}"; do
        cells+=("$(measure "$bin" --db "$db" "$@")")
    done
    printf '| %s |' "$label"
    printf ' %s |' "${cells[@]}"
    echo
}

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f MB", b / 1e6 }'; }

echo "pdndb memory benchmark — $(date -u +%Y-%m-%d), $(nproc) cores, commit $(git rev-parse --short HEAD)"
echo "binaries: ${bins[*]}"
echo
printf '| input |'; printf ' %s |' "${bins[@]}"; echo
printf '|---|'; printf -- '---:|%.0s' "${bins[@]}"; echo
for size in $imports; do
    for variant in filipino international; do
        # Games per MB of generated PDN: Filipino about 1,880, International 1,375.
        per_mb=$([ "$variant" = filipino ] && echo 1878 || echo 1374)
        games=$((size * per_mb))
        file="$work/$variant-$size.pdn"
        "$gen" generate --games "$games" --seed 1 --variant "$variant" -o "$file"
        row "import $variant, $games games ($(mb "$file"))" import --quiet "$file"
        rm -f "$file"
    done
done

long="$work/long.pdn"
python3 - "$long" <<'EOF'
import sys
moves = ["32-27", "1-6", "27-32", "6-1"]
with open(sys.argv[1], "w") as out:
    for game in range(1, 1001):
        out.write(f'[Event "Long game {game}"]\n[GameType "21"]\n[FEN "W:WK32:BK1"]\n[Result "*"]\n\n')
        words = []
        for ply in range(20000):
            if ply % 2 == 0:
                words.append(f"{ply // 2 + 1}.")
            words.append(moves[ply % 4])
        out.write(" ".join(words) + " *\n\n")
EOF
row "import 1,000 games of 20,000 plies ($(mb "$long"))" import --quiet "$long"
rm -f "$long"

if [ "${BENCH_QUERIES:-1}" != 0 ]; then
    problems="$work/problems.pdn"
    "$gen" generate --games 100000 --seed 5 -o "$problems"
    # White's third move made illegal in every game.
    sed -i -E 's/(^| )3\. [0-9]+[-x][0-9]+([-x][0-9]+)*/\13. 9-13/' "$problems"
    "$gen" --db "$work/problems.sqlite" import --quiet "$problems" >/dev/null
    query_row "report --html, 100,000 problem games" "$work/problems.sqlite" report --html "$work/report.html"
    query_row "report --json, 100,000 problem games" "$work/problems.sqlite" report --json
    rm -f "$problems" "$work/problems.sqlite"* "$work/report.html"

    games="$work/games.pdn"
    "$gen" generate --games 200000 --seed 3 -o "$games"
    "$gen" --db "$work/games.sqlite" import --quiet "$games" >/dev/null
    rm -f "$games"
    start="W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    query_row "search --limit 0 (200,000 games)" "$work/games.sqlite" search --limit 0 --fen "$start"
    query_row "games --limit 0 --json (200,000 games)" "$work/games.sqlite" games --limit 0 --json
    query_row "export (200,000 games)" "$work/games.sqlite" export
fi
