"""Writes answers.json: the questions the step-11 test asks, each with the
answer of the pdndb binary given as the first argument, run in this folder
on step-11.sqlite (python3 make-answers.py PDNDB)."""
import json, subprocess, sys

pdndb = sys.argv[1]


def ask(args):
    out = subprocess.run([pdndb, "--db", "step-11.sqlite", *args], capture_output=True)
    return out.stdout.decode()


questions = [["report", "--json"], ["tree", "--json"], ["search", "--json"],
             ["tree", "--json", "--variant", "english"], ["search", "--json", "--variant", "english"]]
for game in range(1, 92, 15):
    shown = json.loads(ask(["show", str(game), "--json"]))
    moves = shown.get("moves") or []
    for ply in (0, 3, len(moves) // 2, len(moves)):
        questions.append(["show", str(game), "--json", "--ply", str(ply)])
        fen = json.loads(ask(["show", str(game), "--json", "--ply", str(ply)])).get("fen")
        if fen:
            questions.append(["search", "--json", "--fen", fen, "--variant", shown["variant"]])
            questions.append(["tree", "--json", "--fen", fen, "--variant", shown["variant"]])
    if moves:
        line = " ".join(moves[:4])
        questions.append(["search", "--json", "--moves", line, "--variant", shown["variant"]])
        questions.append(["tree", "--json", "--moves", line, "--variant", shown["variant"]])
answers = [{"args": q, "stdout": ask(q)} for q in questions]
json.dump(answers, open("answers.json", "w"), indent=0)
