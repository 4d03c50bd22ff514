#!/usr/bin/env bash
# Same answers from two builds, run by hand (not in CI): imports an archive
# with a reference binary and with this tree's, then compares what the
# commands answer (show --json of sampled games, export, games --json,
# players --json, report --json, stats --json without its byte count) and
# prints each database's bytes per table. Exits 1 at the first difference.
#
#   measure/same-answers-tables.sh REFERENCE_BINARY ARCHIVE.pdn
#   measure/same-answers-tables.sh /work/main/target/release/pdndb OCA_2.0.pdn
set -euo pipefail
cd "$(dirname "$0")/.."
reference=$1
archive=$2
cargo build --release --quiet
new=$PWD/target/release/pdndb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

answers() { # binary, database, output folder
    local bin=$1 db=$2 out=$3
    mkdir -p "$out"
    "$bin" --db "$db" import --quiet --json "$archive" |
        python3 -c 'import json,sys; s=json.load(sys.stdin); s.pop("seconds"); s.pop("database", None); print(json.dumps(s))' >"$out/import"
    "$bin" --db "$db" stats --json |
        python3 -c 'import json,sys; s=json.load(sys.stdin); s.pop("bytes"); print(json.dumps(s))' >"$out/stats"
    "$bin" --db "$db" export >"$out/export"
    "$bin" --db "$db" games --json --limit 0 >"$out/games"
    "$bin" --db "$db" games --json --limit 0 --sort date >"$out/games-by-date"
    "$bin" --db "$db" players --json >"$out/players"
    "$bin" --db "$db" report --json --status ok,ambiguous,illegal,unreadable,unsupported >"$out/report"
    local games
    games=$(wc -l <"$out/games")
    for id in $(python3 -c "n=$games; print(' '.join(str(1 + k * max(n // 200, 1)) for k in range(min(n, 200))))"); do
        "$bin" --db "$db" show "$id" --json >>"$out/show"
        "$bin" --db "$db" show "$id" >>"$out/show"
    done
}

answers "$reference" "$work/reference.sqlite" "$work/reference"
answers "$new" "$work/new.sqlite" "$work/new"
status=0
for what in import stats export games games-by-date players report show; do
    if cmp -s "$work/reference/$what" "$work/new/$what"; then
        echo "same: $what ($(wc -c <"$work/new/$what") bytes)"
    else
        echo "DIFFERENT: $what"
        diff "$work/reference/$what" "$work/new/$what" | head -20
        status=1
    fi
done
for db in reference new; do
    positions=$("$new" --db "$work/$db.sqlite" stats --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["positions"])')
    python3 - "$work/$db.sqlite" "$db" "$positions" <<'EOF'
import os, sqlite3, sys
path, name, positions = sys.argv[1], sys.argv[2], int(sys.argv[3])
c = sqlite3.connect(path)
size = os.path.getsize(path) + (os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0)
print(f"{name}: {size / 1e6:.2f} MB, {size / max(positions, 1):.2f} B per indexed position ({positions} positions)")
for table, bytes_ in c.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 14"):
    print(f"  {table:24s} {bytes_ / 1e6:8.3f} MB {bytes_ / max(positions, 1):6.2f} B/pos")
EOF
done
exit $status
