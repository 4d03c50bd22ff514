#!/usr/bin/env bash
# Peak memory of writes that take many games out or hold long tags, run by
# hand (not in CI). Prints one table row per measurement: the peak
# resident memory (`/usr/bin/time`, maximum resident set size) and wall
# time of
#   - remove of a file of 200,000 generated games from a database of
#     222,000 (BENCH_GAMES sets the 200,000; 1000000 for a database of
#     1,022,000);
#   - import of that file changed (other games at the same path), so that
#     its old games leave as the new ones come;
#   - import of 600 games whose White tag is some 1 MB long (under the
#     1 MiB a tag may take), into a new database and into one holding
#     22,000 games, and stats --check on the first;
#   - with BENCH_LINES=1, import of 1,600,000 one-line games, each with an
#     event, players and site of its own (about 150 MB; slow).
#
#   measure/memory-writes.sh                                  # 200,000 games
#   BENCH_GAMES=1000000 measure/memory-writes.sh              # removal at 1M
#   PDNDB="old/pdndb target/release/pdndb" measure/memory-writes.sh  # compare
#   BENCH_WORK=/big/disk measure/memory-writes.sh             # where the files
#                                     # go (about 5 GB at 200,000 games)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PDNDB:-}" ]; then
    cargo build --release --quiet
    PDNDB=target/release/pdndb
fi
read -r -a bins <<<"$PDNDB"
gen=${bins[-1]}
work=$(mktemp -d "${BENCH_WORK:-${TMPDIR:-/tmp}}/pdndb-memory-writes.XXXXXX")
trap 'rm -rf "$work"' EXIT
leaving=${BENCH_GAMES:-200000}

# measure BIN ARGS... → "seconds s, peak MiB" of `BIN ARGS...` (output dropped)
measure() {
    local bin=$1
    shift
    /usr/bin/time -f '%e %M' -o "$work/time" "$bin" "$@" >/dev/null 2>"$work/stderr" || true
    tail -1 "$work/time" | awk '{ printf "%.1f s, %d MiB", $1, $2 / 1024 }'
}

# row LABEL SETUP ARGS...: for each binary, a copy of database SETUP (or a
# new database when SETUP is -), then ARGS measured against it.
row() {
    local label=$1 setup=$2
    shift 2
    local cells=()
    for bin in "${bins[@]}"; do
        rm -f "$work/db.sqlite"*
        [ "$setup" = - ] || cp "$setup" "$work/db.sqlite"
        cells+=("$(measure "$bin" --db "$work/db.sqlite" "$@")")
    done
    printf '| %s |' "$label"
    printf ' %s |' "${cells[@]}"
    echo
}

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f MB", b / 1e6 }'; }

echo "pdndb memory benchmark of writes — $(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)"
echo "binaries: ${bins[*]}"
echo
printf '| case |'; printf ' %s |' "${bins[@]}"; echo
printf '|---|'; printf -- '---:|%.0s' "${bins[@]}"; echo

# A database of 22,000 games plus $leaving in a file of their own.
mkdir -p "$work/in"
"$gen" generate --games 22000 --seed 7 -o "$work/in/kept.pdn"
"$gen" generate --games "$leaving" --seed 3 -o "$work/in/leaving.pdn"
"$gen" --db "$work/base.sqlite" import --quiet "$work/in/kept.pdn" "$work/in/leaving.pdn" >/dev/null
games=$((22000 + leaving))
row "remove $leaving games ($(mb "$work/in/leaving.pdn")) of $games" "$work/base.sqlite" \
    remove "$work/in/leaving.pdn"
"$gen" generate --games "$leaving" --seed 4 -o "$work/in/leaving.pdn"
row "import of those $leaving games changed (replacement) in $games" "$work/base.sqlite" \
    import --quiet "$work/in/leaving.pdn"
rm -f "$work/in/leaving.pdn" "$work/base.sqlite"*
"$gen" --db "$work/kept.sqlite" import --quiet "$work/in/kept.pdn" >/dev/null

tags="$work/tags.pdn"
"$gen" generate --games 600 --seed 11 -o "$work/short.pdn"
python3 - "$work/short.pdn" "$tags" <<'EOF'
import sys
n = 0
with open(sys.argv[1]) as inp, open(sys.argv[2], "w") as out:
    for line in inp:
        if line.startswith('[White "'):
            n += 1
            name = line[len('[White "'):-3]
            # About 1 MB, under the 1 MiB tag cap, another in every game.
            value = "".join(f"{name} {n} {i} " for i in range(80000))[:1_000_000]
            line = f'[White "{value}"]\n'
        out.write(line)
EOF
row "import 600 games with 1 MB White tags ($(mb "$tags")), new database" - import --quiet "$tags"
row "import 600 games with 1 MB White tags, into 22,000 games" "$work/kept.sqlite" import --quiet "$tags"
"$gen" --db "$work/tags.sqlite" import --quiet "$tags" >/dev/null
row "stats --check, 600 games with 1 MB White tags" "$work/tags.sqlite" stats --check
rm -f "$tags" "$work/short.pdn" "$work/tags.sqlite"* "$work/kept.sqlite"*

if [ "${BENCH_LINES:-0}" != 0 ]; then
    lines="$work/lines.pdn"
    python3 - "$lines" <<'EOF'
import sys
with open(sys.argv[1], "w") as out:
    for n in range(1, 1_600_001):
        out.write(f'[Event "Event {n}"][Site "Site {n}"][White "White {n}"][Black "Black {n}"] 1. 11-15 *\n')
EOF
    row "import 1,600,000 one-line games, distinct event/players/site ($(mb "$lines"))" - import --quiet "$lines"
    rm -f "$lines"
fi
