#!/usr/bin/env bash
# The large-archive run, by hand (not in CI): generates N games of mixed
# variants (40% Filipino, 25% English, 20% Russian, 15% International, each
# its own file and seed; every game its own event), imports them under
# /usr/bin/time (wall time, peak memory), then times the queries a user
# runs, each RUNS times (p50 and p99 in ms, the process started each
# time): tree at the start, search at a common and at a rare position,
# games by player, by event and by date, players, stats, three routes of
# the web API (`pdndb serve`, answered to curl, timed by curl from its
# connection on) and `stats --check` once.
# Prints one Markdown table row; the work directory goes at the end.
#
#   measure/ten-million.sh                      # 10,000,000 games
#   GAMES=200000 RUNS=20 measure/ten-million.sh
#   WORK=/big/disk/run GAMES=1000000 measure/ten-million.sh
#   PDNDB=/path/to/pdndb measure/ten-million.sh   # that binary, not built here
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PDNDB:-}" ]; then
    cargo build --release --quiet
fi
bin=${PDNDB:-$PWD/target/release/pdndb}
games=${GAMES:-10000000}
runs=${RUNS:-50}
port=${PORT:-8791}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
db=$work/db.sqlite

# ms p50/p99 of a list of µs, one a line, e.g. "12.3/15.0".
p50_p99() {
    sort -n | awk '{a[NR]=$1}
        END {p50 = a[int((NR + 1) / 2)]; i = int(NR * 0.99 + 0.999); if (i > NR) i = NR;
             printf "%.1f/%.1f", p50 / 1000, a[i] / 1000}'
}

# ms p50/p99 of RUNS runs of a command, the process started each time.
percentiles() {
    local times=()
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(date +%s%N)
        "$@" >/dev/null 2>&1
        t1=$(date +%s%N)
        times+=($(( (t1 - t0) / 1000 )))
    done
    printf '%s\n' "${times[@]}" | p50_p99
}

# ms p50/p99 of RUNS requests of a URL, each from its connection to the
# last byte of the answer as curl times it: without the start of the
# curl process itself (some 10 ms on an idle machine, many times that on
# a loaded one), which is no part of the server's answer.
request_percentiles() {
    for _ in $(seq "$runs"); do
        curl -sf -o /dev/null -w '%{time_total}\n' "$1" || true
    done | awk '{printf "%d\n", $1 * 1000000}' | p50_p99
}

q() { "$bin" --db "$db" "$@"; }
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }

# The archive: one file per variant, in the shares above.
mkdir -p "$work/pdn"
share() { awk -v n="$games" -v p="$1" 'BEGIN { printf "%d", n * p / 100 }'; }
filipino=$(share 40); english=$(share 25); russian=$(share 20)
international=$(( games - filipino - english - russian ))
for spec in "filipino $filipino 1" "english $english 2" "russian $russian 3" "international $international 4"; do
    set -- $spec
    "$bin" generate --variant "$1" --games "$2" --seed "$3" -o "$work/pdn/$1.pdn" &
done
wait
pdn_bytes=$(du -cb "$work"/pdn/*.pdn | tail -1 | cut -f1)

/usr/bin/time -f '%e %M' -o "$work/time" "$bin" --db "$db" import --quiet --json "$work/pdn" >"$work/summary"
read -r wall peak_kib <"$work/time"
stored=$(field "$work/summary" games)
positions=$(field "$work/summary" positions)
bytes=$(stat -c %s "$db")

# A rare position: the last position of the last game; a player, an event
# and a day of the archive.
rare_fen=$(q show "$stored" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["fen"])')
player=$(q games --limit 1 --offset $(( stored / 2 )) --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["tags"]["White"])')
event="Generated game $(( filipino / 3 + 1 ))"
day=$(q games --limit 1 --offset $(( stored / 3 )) --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["tags"]["Date"])')

tree=$(percentiles q tree --variant filipino)
common=$(percentiles q search --variant filipino --moves "1. 22-18")
rare=$(percentiles q search --fen "$rare_fen")
by_player=$(percentiles q games --player "$player" --limit 50)
by_event=$(percentiles q games --event "$event" --limit 50)
by_date=$(percentiles q games --date "$day..$day" --limit 50)
players=$(percentiles q players --min-games 100)
stats=$(percentiles q stats)

"$bin" --db "$db" serve --port "$port" >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/api/stats" >/dev/null && break
    sleep 0.1
done
curl -sf "http://127.0.0.1:$port/api/stats" >/dev/null || { echo "pdndb serve did not answer on port $port" >&2; exit 1; }
api=http://127.0.0.1:$port/api
enc_event=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$event")
api_stats=$(request_percentiles "$api/stats")
api_tree=$(request_percentiles "$api/tree?variant=filipino")
api_games=$(request_percentiles "$api/games?event=$enc_event&limit=50")
kill "$server"; wait "$server" 2>/dev/null || true; server=

t0=$(date +%s%N)
q stats --check >"$work/check" || { cat "$work/check" >&2; exit 1; }
check_s=$(awk -v t="$(( $(date +%s%N) - t0 ))" 'BEGIN { printf "%.1f", t / 1e9 }')

echo "pdndb large archive — $(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD); ms as p50/p99 of $runs runs"
echo
echo "| games | PDN MB | import s | peak MiB | DB MB | B/pos | tree | search common | search rare | games --player | games --event | games --date | players | stats | API stats | API tree | API games?event | stats --check s |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '| %d | %d | %s | %d | %d | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
    "$stored" $(( pdn_bytes / 1000000 )) "$wall" $(( peak_kib / 1024 )) $(( bytes / 1000000 )) \
    "$(awk -v a="$bytes" -v b="$positions" 'BEGIN { printf "%.2f", a / b }')" \
    "$tree" "$common" "$rare" "$by_player" "$by_event" "$by_date" "$players" "$stats" \
    "$api_stats" "$api_tree" "$api_games" "$check_s"
