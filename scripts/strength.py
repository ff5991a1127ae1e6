#!/usr/bin/env python3
"""bulwark against Fairy-Stockfish over UCI: strength and search speed, measured in one run.

Plays `--games` games of a variant Fairy-Stockfish knows (chess, xiangqi, …) between
`bulwark uci` and Fairy-Stockfish limited with `UCI_LimitStrength`/`UCI_Elo`, at a fixed time
per move, from seeded openings (`--plies` random legal plies), each opening twice with the
colours swapped. The rules of the game (legal moves, mate, repetition, the fifty-move rule) are
judged by pyffish (`pip install pyffish`), Fairy-Stockfish's own rules, so a move bulwark
believes legal and Fairy-Stockfish does not is caught and counted as a loss. Prints bulwark's
score with its 95% interval and the Elo difference it implies, and, with `--nps`, both
engines' nodes per second from the start position over one second (one thread each).

Fairy-Stockfish: the binary named by `--fsf` or FAIRY_STOCKFISH. Boards above 8×8 (xiangqi)
need the large-board build (`make build ARCH=x86-64-modern largeboards=yes all=yes`).

  python3 scripts/strength.py --variant chess --elo 1500 --games 40
  python3 scripts/strength.py --variant xiangqi --elo 1500 --games 40 --fsf fsf-large
"""

import argparse
import math
import os
import random
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyffish as sf

ROOT = Path(__file__).resolve().parent.parent


class Engine:
    def __init__(self, cmd, options):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def best(self, moves, movetime):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {movetime}")
        lines = self.wait("bestmove")
        return lines[-1].split()[1], lines

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def nps_of(lines):
    nps = 0
    for l in lines:
        w = l.split()
        if "nps" in w:
            nps = int(w[w.index("nps") + 1])
    return nps


def play(args, opening, bulwark_white, stats):
    variant = args.variant
    fen = sf.start_fen(variant)
    bw = Engine([args.bulwark, "uci"], [("UCI_Variant", variant)])
    fs = Engine([args.fsf], [("UCI_Variant", variant), ("Threads", 1),
                             ("UCI_LimitStrength", "true"), ("UCI_Elo", args.elo)])
    moves = list(opening)
    result = None  # from bulwark's point of view: 1, 0.5, 0
    reason = ""
    try:
        while result is None:
            legal = sf.legal_moves(variant, fen, moves)
            white_to_move = len(moves) % 2 == 0
            bulwark_to_move = white_to_move == bulwark_white
            if not legal:
                r = sf.game_result(variant, fen, moves)  # for the side to move
                score = 0.5 if r == 0 else (1.0 if r > 0 else 0.0)
                result = score if bulwark_to_move else 1 - score
                reason = "mate" if r != 0 else "stalemate"
                break
            end, r = sf.is_optional_game_end(variant, fen, moves)
            if end:
                score = 0.5 if r == 0 else (1.0 if r > 0 else 0.0)
                result = score if bulwark_to_move else 1 - score
                reason = "repetition or move rule"
                break
            if sf.has_insufficient_material(variant, fen, moves) == (True, True):
                result, reason = 0.5, "insufficient material"
                break
            if len(moves) >= args.max_plies:
                result, reason = 0.5, "adjudicated at the ply limit"
                break
            engine = bw if bulwark_to_move else fs
            move, _ = engine.best(moves, args.movetime)
            if move not in legal:
                who = "bulwark" if bulwark_to_move else "Fairy-Stockfish"
                result = 0.0 if bulwark_to_move else 1.0
                reason = f"{who} played {move}, not legal in Fairy-Stockfish's rules"
                print(f"  ! {reason} after: {' '.join(moves)}", file=sys.stderr)
                break
            moves.append(move)
    finally:
        bw.close()
        fs.close()
    with stats["lock"]:
        stats["games"].append((result, reason, len(moves), bulwark_white))
        n = len(stats["games"])
        s = sum(g[0] for g in stats["games"])
        print(f"  game {n}: bulwark {'white' if bulwark_white else 'black'} scores {result} "
              f"({reason}, {len(moves)} plies); running score {s}/{n}", file=sys.stderr)


def interval(results):
    n = len(results)
    mean = sum(results) / n
    var = sum((r - mean) ** 2 for r in results) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def elo(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--elo", type=int, default=1500)
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--plies", type=int, default=4, help="random plies of each opening")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="games played at once")
    ap.add_argument("--bulwark", default=str(ROOT / "target" / "release" / "bulwark"))
    ap.add_argument("--fsf", default=os.environ.get("FAIRY_STOCKFISH", "fairy-stockfish"))
    ap.add_argument("--nps", action="store_true", help="also measure nodes per second")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    fen = sf.start_fen(args.variant)
    openings = []
    for _ in range((args.games + 1) // 2):
        moves = []
        for _ in range(args.plies):
            legal = sf.legal_moves(args.variant, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        openings.append(moves)
    jobs = []
    for i in range(args.games):
        jobs.append((openings[i // 2], i % 2 == 0))
    stats = {"lock": threading.Lock(), "games": []}
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for f in [ex.submit(play, args, o, w, stats) for o, w in jobs]:
            f.result()
    results = [g[0] for g in stats["games"]]
    mean, lo, hi = interval(results)
    wins = sum(1 for r in results if r == 1)
    draws = sum(1 for r in results if r == 0.5)
    print(f"{args.variant}: bulwark against Fairy-Stockfish UCI_Elo {args.elo}, "
          f"{args.movetime} ms a move, {len(results)} games: +{wins} ={draws} "
          f"-{len(results) - wins - draws}")
    print(f"  score {mean:.3f} (95% interval {lo:.3f} to {hi:.3f}); "
          f"Elo difference {elo(mean):+.0f} ({elo(lo):+.0f} to {elo(hi):+.0f})")
    if args.nps:
        out = {}
        for name, cmd, opts in [("bulwark", [args.bulwark, "uci"], [("UCI_Variant", args.variant)]),
                                ("Fairy-Stockfish", [args.fsf],
                                 [("UCI_Variant", args.variant), ("Threads", 1)])]:
            e = Engine(cmd, opts)
            _, lines = e.best([], 1000)
            e.close()
            out[name] = nps_of(lines)
        print(f"  nodes per second from the start, 1 s, one thread: bulwark {out['bulwark']}, "
              f"Fairy-Stockfish {out['Fairy-Stockfish']} "
              f"(ratio {out['bulwark'] / max(out['Fairy-Stockfish'], 1):.2f})")


if __name__ == "__main__":
    main()
