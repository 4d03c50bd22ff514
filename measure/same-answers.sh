#!/usr/bin/env bash
# Imports the same PDN files with two pdndb binaries and compares their
# answers byte for byte: search (--fen and --moves), tree, show and report,
# as JSON, at the start position, at positions of random games at random
# plies, and after the opening moves of random games.
#
#   measure/same-answers.sh OLD_BIN NEW_BIN FILE.pdn...
#
# Environment: POSITIONS (default 300) positions asked about, SEED (default
# 1), WORK (default a temporary folder; the databases are kept there).
# Prints one line per kind of question and the differences found; exits 1
# when any answer differs.
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 OLD_BIN NEW_BIN FILE.pdn..." >&2
    exit 2
fi
old=$1 new=$2
shift 2
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
for side in old new; do
    bin=${!side}
    rm -f "$work/$side.sqlite" "$work/$side.sqlite-wal" "$work/$side.sqlite-shm"
    /usr/bin/time -f "$side import: %e s, %M KiB peak" \
        "$bin" --db "$work/$side.sqlite" import --quiet "$@" >/dev/null
    "$bin" --db "$work/$side.sqlite" stats --json >"$work/$side.stats.json"
done
python3 - "$old" "$new" "$work" "${POSITIONS:-300}" "${SEED:-1}" <<'PY'
import json, random, subprocess, sys
old, new, work, positions, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)

def ask(bin, side, args):
    out = subprocess.run([bin, "--db", f"{work}/{side}.sqlite", *args], capture_output=True)
    return out.returncode, out.stdout

games = json.load(open(f"{work}/old.stats.json"))["games"]
ids = [rng.randint(1, games) for _ in range(positions)]
questions = [("report", ["report", "--json"]), ("tree start", ["tree", "--json"]),
             ("search start", ["search", "--json", "--limit", "100"])]
for gid in ids:
    code, out = ask(old, "old", ["show", str(gid), "--json"])
    if code != 0:
        continue
    game = json.loads(out)
    moves, variant = game.get("moves") or [], game["variant"]
    ply = rng.randint(0, len(moves))
    questions.append((f"show", ["show", str(gid), "--json", "--ply", str(ply)]))
    code, out = ask(old, "old", ["show", str(gid), "--json", "--ply", str(ply)])
    fen = json.loads(out).get("fen") if code == 0 else None
    if fen:
        questions.append(("search --fen", ["search", "--json", "--limit", "100", "--fen", fen, "--variant", variant]))
        questions.append(("tree --fen", ["tree", "--json", "--fen", fen, "--variant", variant]))
    if moves:
        line = " ".join(moves[: rng.randint(1, min(8, len(moves)))])
        questions.append(("search --moves", ["search", "--json", "--limit", "100", "--moves", line, "--variant", variant]))
        questions.append(("tree --moves", ["tree", "--json", "--moves", line, "--variant", variant]))
asked, differ = {}, {}
for kind, args in questions:
    a, b = ask(old, "old", args), ask(new, "new", args)
    asked[kind] = asked.get(kind, 0) + 1
    if a != b:
        differ[kind] = differ.get(kind, 0) + 1
        if differ[kind] <= 3:
            print(f"DIFFERENT: {' '.join(args)}", file=sys.stderr)
for kind in asked:
    print(f"{kind}: {asked[kind]} asked, {differ.get(kind, 0)} different")
for side in ("old", "new"):
    s = json.load(open(f"{work}/{side}.stats.json"))
    print(f"{side}: {s['games']} games, {s['positions']} positions, {s['bytes']} bytes, "
          f"{s['bytes'] / max(s['positions'], 1):.1f} B/position")
sys.exit(1 if differ else 0)
PY
