#!/usr/bin/env python3
"""Cross-check bulwark's move generation against Fairy-Stockfish on positions reached by play.

Plays `--games` random games of a variant both engines know (pyffish, Fairy-Stockfish's own
rules, picks the moves), and at every `--every`-th ply compares the perft count at `--depth`
of `bulwark perft` with Fairy-Stockfish's `go perft`. Prints each position that differs, with
both counts, and exits 1 if any does. A quick way to find a rule the variant file states
differently from Fairy-Stockfish; the counts locked in `tests/perft/` are chosen from its
output.

  python3 scripts/crosscheck.py --variant atomic --games 20 --depth 2
  python3 scripts/crosscheck.py --variant shogi --bulwark-variant variants/shogi.toml

Fairy-Stockfish: the binary named by `--fsf` or FAIRY_STOCKFISH (boards above 8x8 need the
large-board build).
"""

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

import pyffish as sf

ROOT = Path(__file__).resolve().parent.parent


def fsf_perft(binary, variant, fen, depth):
    script = (f"uci\nsetoption name UCI_Variant value {variant}\nposition fen {fen}\n"
              f"go perft {depth}\nisready\nquit\n")
    out = subprocess.run([binary], input=script, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Nodes searched"):
            return int(line.split(":")[1])
    raise RuntimeError(f"no perft answer from Fairy-Stockfish for {fen}")


def bulwark_perft(binary, variant, fen, depth):
    out = subprocess.run([binary, "perft", "--jobs", "1", "--depth", str(depth),
                          "--position", fen, variant], capture_output=True, text=True)
    if out.returncode != 0:
        return f"error: {out.stderr.strip()}"
    return int(out.stdout.split()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", required=True, help="Fairy-Stockfish's name of the variant")
    ap.add_argument("--bulwark-variant", help="bulwark's variant (default: the same name)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--plies", type=int, default=80, help="longest game")
    ap.add_argument("--every", type=int, default=7, help="compare every n-th ply")
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--greedy", type=float, default=0.0,
                    help="chance of picking a capture when there is one (reaches endings sooner)")
    ap.add_argument("--bulwark", default=str(ROOT / "target/release/bulwark"))
    ap.add_argument("--fsf", default=os.environ.get("FAIRY_STOCKFISH", "fairy-stockfish"))
    args = ap.parse_args()
    ours = args.bulwark_variant or args.variant
    rng = random.Random(args.seed)
    start = sf.start_fen(args.variant)
    checked, differ = 0, 0
    for _ in range(args.games):
        moves = []
        for ply in range(args.plies):
            legal = sf.legal_moves(args.variant, start, moves)
            if not legal:
                break
            if ply % args.every == 0:
                fen = sf.get_fen(args.variant, start, moves)
                a = bulwark_perft(args.bulwark, ours, fen, args.depth)
                b = fsf_perft(args.fsf, args.variant, fen, args.depth)
                checked += 1
                if a != b:
                    differ += 1
                    print(f"{fen}: bulwark {a}, Fairy-Stockfish {b}")
            if args.greedy and rng.random() < args.greedy:
                fen = sf.get_fen(args.variant, start, moves)
                captures = [m for m in legal if "x" in sf.get_san(args.variant, fen, m)]
                legal = captures or legal
            moves.append(rng.choice(legal))
    print(f"{checked} positions at depth {args.depth}, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
