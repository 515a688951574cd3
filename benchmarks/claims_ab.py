"""`python -m benchmarks.claims_ab --out claims-ab.json [--device cpu|cuda] [--processes 6] [--exponents 0,7,14]`:
paired timings of the seed articles' idioms, for judging their speed claims (benchmarks/claims.py; the report
reads them with `--claims-ab`). Opt-in, not part of CI or of `python -m benchmarks`.

The speed gate's pairing (benchmarks/ab.py), within one torch: --processes fresh processes, one after another, each with
the gate's fixed malloc thresholds; in each, every idiom of the claims is timed at each size in turn, round by round
(the order rotating and reversing from round to round), and keeps its fastest round. The idioms a claim compares are
thus timed milliseconds apart in the same process, and a drift of the host or a process's own speed moves them alike;
benchmarks/claims.py judges each ratio over the processes with the gate's Student's t interval. One intra-op thread on
the CPU (the gate's setting); on CUDA every call is synchronized, as in benchmarks/timing.py.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

from benchmarks import claims
from benchmarks.ab import FIXED_MALLOC, T_QUANTILE
from benchmarks.timing import repetitions

ROOT = Path(__file__).resolve().parents[1]


def interleaved(calls: dict, rounds: int, round_seconds: float) -> dict:
    """label -> the fastest of `rounds` rounds (seconds per call), the labels timed in turn within each round."""
    reps = {}
    for label, call in calls.items():
        reps[label] = repetitions(call, round_seconds)
    best = dict.fromkeys(calls, float("inf"))
    order = list(calls)
    for r in range(rounds):
        turn = order[r % len(order):] + order[:r % len(order)]
        for label in (turn if r % 2 == 0 else turn[::-1]):
            call, n = calls[label], reps[label]
            start = time.perf_counter()
            for _ in range(n):
                call()
            best[label] = min(best[label], (time.perf_counter() - start) / n)
    return best


def worker(device: str, exponents: list[int], rounds: int, round_seconds: float) -> dict:
    """'label@2^exp' -> seconds per call, for every idiom of the claims `device` can judge."""
    import torch

    from benchmarks import grid
    from benchmarks.timing import synchronized
    from benchmarks.idioms import IDIOMS

    if device == "cpu":
        torch.set_num_threads(1)
    warnings.simplefilter("ignore")   # torch.tensor(t) and new_tensor(t) warn on every call
    wanted = claims.labels(device)
    idioms = [i for i in IDIOMS if i.label in wanted and device in i.devices]
    out = {}
    for exp in exponents:
        calls = {}
        for idiom in idioms:
            source = grid.make_source(2 ** exp, torch.float32, device, requires_grad=idiom.requires_grad)
            calls[f"{idiom.label}@2^{exp}"] = synchronized(lambda f=idiom.fn, s=source: f(s), device)
        out.update(interleaved(calls, rounds, round_seconds))
    return out


def collect(device: str, processes: int, exponents: list[int], rounds: int, round_seconds: float,
            python: str = sys.executable, log=print) -> dict:
    """The paired document: 'label@2^exp' -> [seconds per call in each process]."""
    times: dict[str, list[float]] = {}
    version = None
    for i in range(processes):
        start = time.monotonic()
        cmd = [python, "-m", "benchmarks.claims_ab", "--worker", "--device", device,
               "--exponents", ",".join(map(str, exponents)), "--rounds", str(rounds),
               "--round-seconds", str(round_seconds)]
        done = subprocess.run(cmd, cwd=ROOT, env={**os.environ, **FIXED_MALLOC}, capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        got = json.loads(done.stdout.strip().splitlines()[-1])
        version = got["torch"]
        for label, seconds in got["times"].items():
            times.setdefault(label, []).append(seconds)
        log(f"process {i + 1}/{processes}: {len(got['times'])} timings, {time.monotonic() - start:.1f} s")
    return {"torch": version, "device": device, "processes": processes, "exponents": exponents, "rounds": rounds,
            "round_seconds": round_seconds, "times": times}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--processes", type=int, default=6, help="fresh processes (2 to 11; default 6)")
    parser.add_argument("--exponents", default="0,7,14", help="sizes as exponents of 2 (default 0,7,14: the "
                                                               "articles' grid's ends and middle)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--round-seconds", type=float, default=0.002)
    parser.add_argument("--out", help="where to write the paired timings (JSON)")
    parser.add_argument("--worker", action="store_true", help="one process's timings as one JSON line (internal)")
    args = parser.parse_args(argv)
    exponents = [int(e) for e in args.exponents.split(",")]
    if args.worker:
        import torch

        print(json.dumps({"torch": torch.__version__,
                          "times": worker(args.device, exponents, args.rounds, args.round_seconds)}))
        return 0
    if not 2 <= args.processes <= max(T_QUANTILE[0.95]) + 1:
        parser.error("--processes: from 2 to 11")
    if not args.out:
        parser.error("--out is required")
    doc = collect(args.device, args.processes, exponents, args.rounds, args.round_seconds)
    Path(args.out).write_text(json.dumps(doc, indent=1))
    for claim in claims.CLAIMS:
        print(f"{claim.key}: {claims.judge(claim, doc)[0]}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
