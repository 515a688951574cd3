"""One process of the A/B speed gate (`python -m benchmarks ab`), serving timings one op at a time: it prints
{"ops": ["OP@2^EXP", ...]} (every spec op on a float32 CPU source of each size) as one JSON line, then for each op
name read from stdin times that op (one intra-op thread) and prints [seconds per call, one per round] as one JSON
line, or null when the op raises here (the spec expects it to); EOF or "quit" ends it. The gate keeps a base and a
candidate process alive side by side and asks them in turn, op by op, so both sides of an op are timed within
a second of each other.

    python -m benchmarks.ab_worker --exponents 10,20 --rounds 9 --round-seconds 0.002 [--ops 'clone@2^20,...']

BENCH_INJECT_SLOWDOWN=1.1 makes every timed op 1.1x slower (a busy wait closing each round): the gate's self-test
only.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import warnings

import torch

from benchmarks import grid
from benchmarks.spec_ops import bound, load_spec_ops, source_ndim
from benchmarks.timing import SLOWDOWN, repetitions


def rounds_of(call, rounds: int, round_seconds: float, slowdown: float = 1.0) -> list[float]:
    """Seconds per call in each of `rounds` rounds, each repeating the call for at least `round_seconds`. With a
    `slowdown` (BENCH_INJECT_SLOWDOWN, the gate's self-test) each round busy-waits until it has lasted `slowdown`
    times its calls: every op, however short, is then that much slower, loop overhead included (a busy wait after
    each call would slow the shortest ops by only a few percent: the wait's own clock reads cost both sides alike)."""
    n = repetitions(call, round_seconds)
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(n):
            call()
        if slowdown != 1.0:
            until = start + slowdown * (time.perf_counter() - start)
            while time.perf_counter() < until:
                pass
        out.append((time.perf_counter() - start) / n)
    return out


def spec_ops(exponents, only=None) -> dict:
    """name -> (entry, ndim, exponent) of every spec op timed on a float32 CPU source (`only`: these names)."""
    ops = {}
    for op in load_spec_ops():
        entry, _ = op.pick("float32", "cpu")
        if entry is None:
            continue
        ndim = source_ndim(entry)
        for exp in exponents:
            name = f"{entry.id}@2^{exp}"
            if (ndim == 0 and exp > 0) or (only is not None and name not in only):
                continue
            ops[name] = (entry, ndim, exp)
    return ops


def timed(entry, ndim, exp, rounds, round_seconds):
    """The op's rounds on a fresh source, or None when it raises here."""
    call = bound(entry, grid.make_source(2 ** exp, torch.float32, "cpu", ndim))
    try:
        call()
    except Exception:  # noqa: BLE001 - an op the spec expects to raise here is not timed
        return None
    return rounds_of(call, rounds, round_seconds, SLOWDOWN)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exponents", default="10,20")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--round-seconds", type=float, default=0.002)
    parser.add_argument("--ops", default=None, help="serve only these OP@2^EXP, comma-separated (the gate's re-timing)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")
    ops = spec_ops([int(e) for e in args.exponents.split(",")], set(args.ops.split(",")) if args.ops else None)
    print(json.dumps({"ops": sorted(ops)}), flush=True)
    for line in sys.stdin:
        name = line.strip()
        if name == "quit":
            break
        print(json.dumps(timed(*ops[name], args.rounds, args.round_seconds)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
