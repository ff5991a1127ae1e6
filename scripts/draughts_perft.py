#!/usr/bin/env python3
"""An independent English draughts perft, written apart from the engine, to check the counts
of `variants/draughts.toml` on positions the published table does not cover (kings, long
chains, the ring capture).

The rules it follows are the file's: men step and jump diagonally forward, kings both ways,
one cell at a time; taking is compulsory and a chain goes on while it can; pieces taken stay
on their cells until the turn ends (no piece is jumped twice, no jump lands on one); a chain
may cross an empty cell again and may end where it started; a man that reaches the far rank
is crowned. A turn is its start, its end and the set of pieces it takes (two paths that take
the same pieces between the same cells are one turn), as in the engine.

Positions are bulwark's position text of the variant (ranks from the eighth, `M`/`K` for the
side that moves first, `m`/`k` for the other, `w` or `b` to move).

  python3 scripts/draughts_perft.py "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w" 6
  python3 scripts/draughts_perft.py --random 20 --depth 5 --seed 1   # compare with bulwark
"""

import argparse
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIAG = [(1, 1), (-1, 1), (1, -1), (-1, -1)]


def parse(text):
    rows, side = text.split()[:2]
    board = {}
    for i, row in enumerate(rows.split("/")):
        rank, f = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = (ch.upper(), 0 if ch.isupper() else 1)
                f += 1
    return board, 0 if side == "w" else 1


def show(board, side):
    rows = []
    for rank in range(7, -1, -1):
        row, gap = "", 0
        for f in range(8):
            p = board.get((f, rank))
            if p is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + (p[0] if p[1] == 0 else p[0].lower())
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows) + (" w" if side == 0 else " b")


def directions(kind, side):
    if kind == "K":
        return DIAG
    return [(1, 1), (-1, 1)] if side == 0 else [(1, -1), (-1, -1)]


def on(c):
    return 0 <= c[0] < 8 and 0 <= c[1] < 8


def turns(board, side):
    """Every legal turn: (start, end, frozenset of taken cells)."""
    found = set()
    for start, (kind, s) in board.items():
        if s != side:
            continue
        dirs = directions(kind, side)

        def chain(cur, taken):
            went = False
            for d in dirs:
                over = (cur[0] + d[0], cur[1] + d[1])
                land = (cur[0] + 2 * d[0], cur[1] + 2 * d[1])
                if not on(land) or over in taken:
                    continue
                victim = board.get(over)
                if victim is None or victim[1] == side:
                    continue
                if land != start and land in board:
                    continue
                went = True
                chain(land, taken | {over})
            if not went and taken:
                found.add((start, cur, frozenset(taken)))

        chain(start, frozenset())
    if found:
        return sorted(found, key=repr)
    steps = set()
    for start, (kind, s) in board.items():
        if s != side:
            continue
        for d in directions(kind, side):
            to = (start[0] + d[0], start[1] + d[1])
            if on(to) and to not in board:
                steps.add((start, to, frozenset()))
    return sorted(steps, key=repr)


def play(board, side, turn):
    start, end, taken = turn
    b = dict(board)
    kind, s = b.pop(start)
    for c in taken:
        del b[c]
    if kind == "M" and end[1] == (7 if side == 0 else 0):
        kind = "K"
    b[end] = (kind, s)
    return b, 1 - side


def perft(board, side, depth):
    ts = turns(board, side)
    if depth == 1:
        return len(ts)
    return sum(perft(*play(board, side, t), depth - 1) for t in ts)


def bulwark(position, depth):
    out = subprocess.run([str(ROOT / "target/release/bulwark"), "perft", "--depth", str(depth),
                          "--position", position, str(ROOT / "variants/draughts.toml")],
                         capture_output=True, text=True, check=True).stdout
    return int(out.split()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("position", nargs="?")
    ap.add_argument("depth", nargs="?", type=int, default=4)
    ap.add_argument("--random", type=int, default=0,
                    help="compare with bulwark on this many positions reached by random play")
    ap.add_argument("--depth", dest="cmp_depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.position:
        board, side = parse(a.position)
        print(perft(board, side, a.depth))
        return 0
    rng = random.Random(a.seed)
    start = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 w"
    bad = 0
    for g in range(a.random):
        board, side = parse(start)
        for ply in range(rng.randrange(20, 90)):
            ts = turns(board, side)
            if not ts:
                break
            board, side = play(board, side, rng.choice(ts))
        text = show(board, side)
        mine, theirs = perft(board, side, a.cmp_depth), bulwark(text, a.cmp_depth)
        kings = sum(1 for p in board.values() if p[0] == "K")
        print(f"{text}  kings {kings}  here {mine}  bulwark {theirs}"
              + ("" if mine == theirs else "  DIFFERS"))
        bad += mine != theirs
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
