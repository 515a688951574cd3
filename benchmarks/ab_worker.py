"""One process of the A/B speed gate (`python -m copysuite bench ab`): time every spec op on a float32 CPU source of
each size, one intra-op thread, and print {"OP@2^EXP": [seconds per call, one per round]} as JSON on stdout.

    python -m benchmarks.ab_worker --exponents 10,20 --rounds 9 --round-seconds 0.002 [--ops 'clone@2^20,...']

BENCH_INJECT_SLOWDOWN=1.1 makes every timed op 1.1x slower (a busy wait after it): the gate's self-test only.
"""
from __future__ import annotations

import argparse
import json
import time
import warnings

import torch

from benchmarks import grid
from benchmarks.spec_ops import bound, load_spec_ops, source_ndim
from benchmarks.timing import SLOWDOWN, slowed


def rounds_of(call, rounds: int, round_seconds: float) -> list[float]:
    """Seconds per call in each of `rounds` rounds, each repeating the call for at least `round_seconds`."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            call()
        if time.perf_counter() - start >= round_seconds:
            break
        n *= 2
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(n):
            call()
        out.append((time.perf_counter() - start) / n)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exponents", default="10,20")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--round-seconds", type=float, default=0.002)
    parser.add_argument("--ops", default=None, help="time only these OP@2^EXP, comma-separated (the gate's re-timing)")
    args = parser.parse_args(argv)
    only = set(args.ops.split(",")) if args.ops else None
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")
    timings = {}
    for op in load_spec_ops():
        entry, _ = op.pick("float32", "cpu")
        if entry is None:
            continue
        ndim = source_ndim(entry)
        for exp in map(int, args.exponents.split(",")):
            if ndim == 0 and exp > 0:
                continue
            name = f"{entry.id}@2^{exp}"
            if only is not None and name not in only:
                continue
            call = bound(entry, grid.make_source(2 ** exp, torch.float32, "cpu", ndim))
            try:
                call()
            except Exception:  # noqa: BLE001, S112 - an op the spec expects to raise here is not timed
                continue
            timings[name] = rounds_of(slowed(call, SLOWDOWN, always=True), args.rounds, args.round_seconds)
    print(json.dumps(timings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
