#!/usr/bin/env bash
# Screenshots of the HTML problem report of sample-pdn/, taken with headless
# Chromium (Debian: apt-get install -y chromium). Run by hand, not in CI.
#
#   scripts/screenshot-report.sh [OUT_DIR]
#
# Writes to OUT_DIR (default: a new temporary folder):
#   report.html      the page for every problem game of sample-pdn/
#   report.png       the top of that page: summary and the first games
#   dama.html        the page for the ambiguous games only
#   dama.png         the Dama copy of the seed game at position 69, with
#                    its two candidate moves (18-25, 18-8) as arrows
#   dama-69.svg      the same board from `pdndb show --svg`
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-$(mktemp -d)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
    echo "no chromium found (Debian: apt-get install -y chromium)" >&2
    exit 2
fi

cargo build --release --quiet
pdndb=target/release/pdndb
db="$out/sample.sqlite"
rm -f "$db" "$db-wal" "$db-shm"
"$pdndb" --db "$db" import sample-pdn >/dev/null 2>&1
"$pdndb" --db "$db" report --html "$out/report.html" || [ $? -eq 1 ]
"$pdndb" --db "$db" report --status ambiguous --html "$out/dama.html" || [ $? -eq 1 ]
dama="$({ "$pdndb" --db "$db" report --status ambiguous --json || true; } |
    sed -n 's/^{"game":\([0-9]*\),.*seed-dama.*/\1/p' | head -n 1)"
"$pdndb" --db "$db" show "$dama" --ply 69 --svg "$out/dama-69.svg" >/dev/null

shoot() { # PAGE PNG WIDTH,HEIGHT
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size="$3" --screenshot="$2" "file://$1" >/dev/null 2>&1
}
shoot "$out/report.html" "$out/report.png" 1280,1800
shoot "$out/dama.html" "$out/dama.png" 1280,1100
echo "$out"
