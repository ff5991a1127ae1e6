#!/usr/bin/env python3
"""Perft speed of bulwark against references, all measured in one run on this machine.

    scripts/speed.py [--base COMMIT] [--repeat N] [--no-fairy-stockfish] [--memory-only]
                     [--search-only]

What it runs (CPU time, user + system, of each process; the best of --repeat runs; every
count compared):

- bulwark at HEAD (the working tree) and at --base (default: the commit before the speed
  work), both release builds, the base in target/speed/base (a git worktree): the before/after
  ratio of every perft below;
- Fairy-Stockfish, when it can: the binaries named by FAIRY_STOCKFISH (a standard build) and
  FAIRY_STOCKFISH_LARGE (built with largeboards=yes all=yes, for xiangqi); else built from the
  source in FSF_SRC (a checkout of github.com/fairy-stockfish/Fairy-Stockfish) with
  `make -j2 build ARCH=x86-64-modern`; else cloned from GitHub. Without it, its columns say
  "not run". It runs one ply deeper than bulwark so that its start-up (0.1-0.3 s) hardly counts:
  the ratio is of time per node;
- shakmaty (a dedicated chess move generator, the in-process reference of the criterion
  benchmarks) through `examples/shakmaty_perft.rs`, for chess.

Perft runs on one thread (`bulwark perft --jobs 1`).

Then the search's speed: nodes per CPU second of `bulwark uci` and of Fairy-Stockfish (its
classical evaluation, `Use NNUE` off, so that neither loads a network), each from the same
positions to a depth that takes it about a second or more, one thread, Hash 16 MB. The node
counts are each engine's own (both count quiescence nodes); the depths differ, the rate is
what is compared. Each engine's start-up (the CPU time of a search to depth 1) is subtracted. `--search-only` runs just that table.

Then the peak resident size (from the kernel's rusage of each process) of perft at two depths
and of a search (`bulwark uci`, `go depth N`, Hash 16 MB) at two depths, beside
Fairy-Stockfish's search: neither should grow with depth beyond the fixed-size transposition
table. `--memory-only` runs just that table.
"""

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "speed"
DEFAULT_BASE = "7b82e90"  # main before any speed work of issue 13 (Border Wars landed)

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
XIANGQI_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
CROWDED = (ROOT / "tests" / "positions" / "crowded-midgame.txt").read_text().strip()
CHECKS_MID = "rnb2bnr/ppk2ppp/8/q3p3/4P1Q1/8/PPPP1PPP/RNB1K1NR w KQ - 1+3 2 6"
RK_START = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
ATOMIC_MID = "r1bqk1nr/pppp1p1p/n2b2p1/4p1N1/1P1PPP2/8/P1P3PP/RNBQKB1R w KQkq - 2 9"
SHATRANJ_START = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
COURIER_START = "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"
GRAND_START = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"

# (label, variant, position or None, depth, Fairy-Stockfish: (build, UCI variant, FEN) or None,
#  shakmaty FEN or None)
ZH_MID = "5B~2/1k6/2n3r1/6q1/5p1n/2B2b1n/p1KP4/8[QRPPPPrrbbnpppppppp] b - - 0 61"

SHOGI_MID = "2s+N1kg2/l7l/nPg2p2n/4p3p/3pPPr1s/2BPR2pP/PKB3+p1L/L2S2S1G/1G5N1[PPpppp] w - - 0 54"
MINISHOGI_START = "rbsgk/4p/5/P4/KGSBR[-] w 0 1"
JANGGI_MID = "2ba1ab2/2r2k3/1cnc2n2/2p2ppp1/p7r/2P2P1NP/P5P2/RCN4C1/3K5/2BAA1B1R w - - 40 21"
# The chessprogramming wiki's first Chess960 perft position (tests/perft/chess960.perft).
CHESS960_FIRST = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
HORDE_START = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"

CASES = [
    ("chess start", "chess", None, 5, ("std", "chess", CHESS_START), CHESS_START),
    ("chess Kiwipete", "chess", KIWIPETE, 4, ("std", "chess", KIWIPETE), KIWIPETE),
    ("xiangqi start", "xiangqi", None, 4, ("large", "xiangqi", XIANGQI_START), None),
    # Fairy-Stockfish plays it as chess with `UCI_Chess960` on (the "960" marks that).
    ("Chess960 position 1", "chess960", CHESS960_FIRST, 5,
     ("std", "chess960", CHESS960_FIRST), None),
    # Games of the generality issue that Fairy-Stockfish plays (its positions, its FEN).
    ("three-check mid-game", "3check", CHECKS_MID, 4, ("std", "3check", CHECKS_MID), None),
    ("racing kings start", "racingkings", RK_START, 4, ("std", "racingkings", RK_START), None),
    ("extinction start", "extinction", None, 4, ("std", "extinction", CHESS_START), None),
    ("atomic mid-game", "atomic", ATOMIC_MID, 4, ("std", "atomic", ATOMIC_MID), None),
    ("shatranj start", "shatranj", None, 5, ("std", "shatranj", SHATRANJ_START), None),
    ("courier start", "courier", None, 4, ("large", "courier", COURIER_START), None),
    ("grand chess start", "grand", None, 3, ("large", "grand", GRAND_START), None),
    ("crazyhouse mid-game", "crazyhouse", ZH_MID, 3, ("std", "crazyhouse", ZH_MID), None),
    ("shogi mid-game", "shogi", SHOGI_MID, 3, ("large", "shogi", SHOGI_MID), None),
    ("minishogi start", "minishogi", None, 5, ("std", "minishogi", MINISHOGI_START), None),
    ("horde start", "horde", None, 6, ("std", "horde", HORDE_START), None),
    ("janggi mid-game", "janggi", JANGGI_MID, 3, ("large", "janggi", JANGGI_MID), None),
    ("draughts start", "draughts", None, 8, None, None),
    ("Bollwerk 178 start", "bollwerk178", None, 2, None, None),
    ("Bollwerk 178 crowded mid-game", "bollwerk178", CROWDED, 2, None, None),
    ("Waterloo start", "waterloo", None, 4, None, None),
    ("Border Wars start", "border-wars", None, 4, None, None),
]


def cpu_run(cmd, stdin=None):
    """Runs a command; returns (stdout, CPU seconds of the child). It runs outside the
    checkout, so that each bulwark build reads the variants built into it, not the checkout's
    `variants/` (which an older build may not read)."""
    WORK.mkdir(parents=True, exist_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True,
                         cwd=WORK).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, cpu


def run_process(cmd, stdin=None, until=None):
    """Runs a command outside the checkout; returns (stdout, its CPU seconds, its peak resident
    size in MB), both from the kernel's rusage of that process. With `until`, standard input
    stays open until a line starting with it has been read, then `quit` is sent (a search
    answers `bestmove` when done; an engine may stop searching when its input closes)."""
    WORK.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=WORK)
    lines = []
    if stdin:
        proc.stdin.write(stdin)
        proc.stdin.flush()
    if until:
        for line in proc.stdout:
            lines.append(line)
            if line.startswith(until):
                break
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    proc.stdin.close()
    lines.append(proc.stdout.read())
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)}: exit {os.waitstatus_to_exitcode(status)}")
    # ru_maxrss is in kilobytes on Linux.
    return "".join(lines), usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def peak_rss(cmd, stdin=None, until=None):
    """[`run_process`]'s output and peak resident size in MB."""
    out, _, mb = run_process(cmd, stdin, until)
    return out, mb


def search_run(cmd, script):
    """A UCI engine on `script` until it answers `bestmove`: (output, CPU seconds, MB)."""
    return run_process(cmd, script, until="bestmove")


def search_nodes(out):
    """The node count of the last `info` line that has one."""
    counts = re.findall(r"^info .*?\bnodes (\d+)", out, re.M)
    if not counts:
        sys.exit("a search printed no node count")
    return int(counts[-1])


# (label, variant, `position` argument, bulwark's depth, Fairy-Stockfish's build and depth):
# each depth takes its engine about a second on the machine of 2026-12-06 (bulwark 0.8-0.9 s,
# Fairy-Stockfish 0.8-1.2 s of search after its start-up). The depths before (bulwark 9, 7, 7;
# Fairy-Stockfish 16, 14, 14) took 0.15-0.35 s, where the start-up's subtraction weighed on
# the rate: Fairy-Stockfish's Kiwipete row ranged from 1.09 to 1.89 million nodes a second
# between runs.
SEARCHES = [
    ("chess start", "chess", "startpos", 10, ("std", 17)),
    ("chess Kiwipete", "chess", f"fen {KIWIPETE}", 8, ("std", 17)),
    ("xiangqi start", "xiangqi", "startpos", 8, ("large", 14)),
]


def search_speed(head, fsf, repeat):
    """Nodes per CPU second of the searches, the best of `repeat` runs each."""
    print("\n| search | bulwark | Fairy-Stockfish (classical) | bulwark nps / FS nps |")
    print("|---|---|---|---|")
    for label, variant, position, depth, (build, fs_depth) in SEARCHES:
        def rate(cmd, setup, d):
            # Start-up (tables, the evaluation's set-up) is the same CPU time as a search to
            # depth 1, which is subtracted: what remains is the search.
            least = lambda script: min(search_run(cmd, script)[1] for _ in range(repeat))
            start = least(setup + "go depth 1\n")
            best_rate, nodes, cpu = 0.0, 0, 0.0
            for _ in range(repeat):
                out, t, _ = search_run(cmd, setup + f"go depth {d}\n")
                n = search_nodes(out)
                if n / max(t - start, 1e-3) > best_rate:
                    best_rate, nodes, cpu = n / max(t - start, 1e-3), n, t - start
            return best_rate, nodes, cpu
        head_setup = (f"uci\nsetoption name UCI_Variant value {variant}\n"
                      f"setoption name Hash value 16\nisready\nposition {position}\n")
        r, n, t = rate([str(head), "uci"], head_setup, depth)
        row = [f"{label}, go depth {depth} (FS {fs_depth})",
               f"{r:,.0f} nps ({n:,} nodes, {t:.2f} s)"]
        if fsf.get(build):
            fs_setup = (f"uci\nsetoption name UCI_Variant value {variant}\n"
                        f"setoption name Use NNUE value false\nsetoption name Threads value 1\n"
                        f"setoption name Hash value 16\nisready\nposition {position}\n")
            fr, fn, ft = rate([fsf[build]], fs_setup, fs_depth)
            row += [f"{fr:,.0f} nps ({fn:,} nodes, {ft:.2f} s)", f"{r / fr:.2f}"]
        else:
            row += ["not run", "-"]
        print("| " + " | ".join(row) + " |")


def memory(head, fsf):
    """Peak resident sizes of perft and of a search, each at two depths: neither should grow
    with depth beyond the transposition table's fixed size."""
    rows = []
    for label, variant, depths in [("chess start", "chess", (4, 5)),
                                   ("xiangqi start", "xiangqi", (3, 4)),
                                   ("Bollwerk 178 start", "bollwerk178", (1, 2))]:
        sizes = []
        for d in depths:
            _, mb = peak_rss([str(head), "perft", variant, "--depth", str(d), "--jobs", "1"])
            sizes.append(f"{mb:.1f} MB at depth {d}")
        rows.append([f"perft, {label}", "; ".join(sizes), "-"])
    for label, variant, build, depths in [("chess start", "chess", "std", (6, 9)),
                                          ("xiangqi start", "xiangqi", "large", (5, 7))]:
        sizes, fs_sizes = [], []
        for d in depths:
            script = (f"uci\nsetoption name UCI_Variant value {variant}\n"
                      f"setoption name Hash value 16\nisready\nposition startpos\n"
                      f"go depth {d}\n")
            _, mb = peak_rss([str(head), "uci"], script, until="bestmove")
            sizes.append(f"{mb:.1f} MB at depth {d}")
            if fsf.get(build):
                _, fmb = peak_rss([fsf[build]], script, until="bestmove")
                fs_sizes.append(f"{fmb:.1f} MB at depth {d}")
        rows.append([f"search (Hash 16 MB), {label}", "; ".join(sizes),
                     "; ".join(fs_sizes) or "not run"])
    print("\n| peak resident size | bulwark | Fairy-Stockfish |")
    print("|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


def best(cmd, repeat, parse, stdin=None):
    """The count and the least CPU time over `repeat` runs (the count must not change)."""
    count, least = None, None
    for _ in range(repeat):
        out, cpu = cpu_run(cmd, stdin)
        n = parse(out)
        if count is not None and n != count:
            sys.exit(f"{cmd[0]}: the count changed between runs: {count} then {n}")
        count = n
        least = cpu if least is None else min(least, cpu)
    return count, least


def build_bulwark(base):
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--example", "shakmaty_perft"],
        cwd=ROOT,
        check=True,
    )
    head = ROOT / "target" / "release" / "bulwark"
    tree = WORK / "base"
    if tree.exists():
        subprocess.run(["git", "checkout", "--quiet", "--detach", base], cwd=tree, check=True)
    else:
        WORK.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["git", "worktree", "add", "--quiet", "--detach", str(tree), base], cwd=ROOT, check=True
        )
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--target-dir", str(WORK / "base-target")],
        cwd=tree,
        check=True,
    )
    return head, WORK / "base-target" / "release" / "bulwark"


def fairy_stockfish():
    """Paths of the standard and the large-board builds, or None where none can be had."""
    std, large = os.environ.get("FAIRY_STOCKFISH"), os.environ.get("FAIRY_STOCKFISH_LARGE")
    if std and large:
        return {"std": std, "large": large}
    src = os.environ.get("FSF_SRC")
    if not src:
        clone = WORK / "Fairy-Stockfish"
        if not clone.exists():
            r = subprocess.run(
                ["git", "clone", "--quiet", "--depth", "1",
                 "https://github.com/fairy-stockfish/Fairy-Stockfish", str(clone)],
                capture_output=True,
            )
            if r.returncode != 0:
                print("Fairy-Stockfish: cannot clone it here; its columns are not run",
                      file=sys.stderr)
                return {"std": std, "large": large}
        src = str(clone)
    srcdir = Path(src) / "src" if (Path(src) / "src").is_dir() else Path(src)
    out = {"std": std, "large": large}
    for name, extra in [("std", []), ("large", ["largeboards=yes", "all=yes"])]:
        if out[name]:
            continue
        binary = WORK / f"fairy-stockfish-{name}"
        if not binary.exists():
            subprocess.run(["make", "clean"], cwd=srcdir, capture_output=True)
            r = subprocess.run(["make", "-j2", "build", "ARCH=x86-64-modern"] + extra,
                               cwd=srcdir, capture_output=True)
            if r.returncode != 0:
                print(f"Fairy-Stockfish ({name}): the build failed", file=sys.stderr)
                continue
            WORK.mkdir(parents=True, exist_ok=True)
            shutil.copy(srcdir / "stockfish", binary)
        out[name] = str(binary)
    return out


def bulwark_perft(binary, variant, position, depth, repeat):
    cmd = [str(binary), "perft", variant, "--depth", str(depth), "--json"]
    if position:
        cmd += ["--position", position]
    # One thread; builds from before `--jobs` had only one.
    jobs = subprocess.run([str(binary), "perft", "--help"], capture_output=True, text=True)
    if "--jobs" in jobs.stdout:
        cmd += ["--jobs", "1"]
    return best(cmd, repeat, lambda out: int(re.search(r'"nodes":(\d+)', out).group(1)))


def fsf_perft(binary, uci_variant, fen, depth, repeat):
    # Chess960 is chess with the UCI_Chess960 option on.
    setup = ("setoption name UCI_Chess960 value true\n" if uci_variant == "chess960"
             else f"setoption name UCI_Variant value {uci_variant}\n")
    script = f"{setup}position fen {fen}\ngo perft {depth}\nquit\n"
    parse = lambda out: int(re.search(r"Nodes searched: (\d+)", out).group(1))
    return best([binary], repeat, parse, stdin=script)


def shakmaty_perft(fen, depth, repeat):
    binary = ROOT / "target" / "release" / "examples" / "shakmaty_perft"
    return best([str(binary), fen, str(depth)], repeat, lambda out: int(out.split()[1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default=DEFAULT_BASE)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-fairy-stockfish", action="store_true")
    ap.add_argument("--memory-only", action="store_true",
                    help="only the peak resident sizes (HEAD's release build, no base)")
    ap.add_argument("--search-only", action="store_true",
                    help="only the search speeds (HEAD's release build, no base)")
    args = ap.parse_args()
    fsf = {"std": None, "large": None} if args.no_fairy_stockfish else fairy_stockfish()
    if args.memory_only or args.search_only:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        head = ROOT / "target" / "release" / "bulwark"
        if args.search_only:
            search_speed(head, fsf, args.repeat)
        else:
            memory(head, fsf)
        return
    head, base = build_bulwark(args.base)
    rows = []
    for label, variant, position, depth, fs, sk in CASES:
        n, t_head = bulwark_perft(head, variant, position, depth, args.repeat)
        try:
            n_base, t_base = bulwark_perft(base, variant, position, depth, args.repeat)
        except subprocess.CalledProcessError:
            # A game added after the base: the base cannot load it.
            n_base, t_base = None, None
        if n_base is not None and n_base != n:
            sys.exit(f"{label}: base counts {n_base}, HEAD {n}")
        row = [f"{label}, depth {depth}", f"{n:,}"]
        if t_base is None:
            row += ["not in base", f"{t_head:.2f} s", "-"]
        else:
            row += [f"{t_base:.2f} s", f"{t_head:.2f} s", f"{t_base / t_head:.1f}x"]
        if fs and fsf.get(fs[0]):
            fs_n, fs_t = fsf_perft(fsf[fs[0]], fs[1], fs[2], depth + 1, args.repeat)
            ratio = (t_head / n) / (fs_t / fs_n)
            row += [f"{fs_t:.2f} s for {fs_n:,} (depth {depth + 1})", f"{ratio:.1f}x"]
        else:
            row += ["not run" if fs else "-", "-"]
        if sk:
            sk_n, sk_t = shakmaty_perft(sk, depth, args.repeat)
            if sk_n != n:
                sys.exit(f"{label}: shakmaty counts {sk_n}, bulwark {n}")
            row += [f"{sk_t:.3f} s", f"{t_head / sk_t:.0f}x"]
        else:
            row += ["-", "-"]
        rows.append(row)
        print(" | ".join(row), file=sys.stderr)
    head_rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip()
    print(f"\nbase {args.base}, HEAD {head_rev} (plus any uncommitted changes), "
          f"CPU seconds, best of {args.repeat}, one thread\n")
    print("| perft | nodes | base | HEAD | HEAD faster by | Fairy-Stockfish | "
          "HEAD per node / FS per node | shakmaty | HEAD / shakmaty |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    search_speed(head, fsf, args.repeat)
    memory(head, fsf)


if __name__ == "__main__":
    main()
