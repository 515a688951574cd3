"""`python -m copysuite bench ab --base PYTHON --candidate PYTHON`: the speed gate, judged within one run.

Two environments (say the current torch's venv and the candidate's) are timed in the same run, in fresh processes
that alternate A B, B A, A B ... (`benchmarks/ab_worker.py`: every spec op on a float32 CPU source of each size, one
thread). Each process gives each op the minimum of its rounds; the processes pair up in time order (A with the B
next to it), so that a drift of the host moves both sides of a pair alike; an op is judged by the geometric mean of
its paired ratios B/A, with a Student's t interval over the pairs (a percentile bootstrap over 4 to 6 pairs is far
too narrow: it flagged unchanged ops). An op is a regression when the whole interval lies above --threshold
(default 1.05): the candidate is surely more than 5% slower. An op flagged so is re-timed alone in as many fresh
pairs, and is a regression only when the re-timing flags it again (judged on the new pairs only): with some 200 ops
judged, a burst of the host now and then lifts one op's whole interval (CI, 2026-11-26: clone@2^20 1.435, interval
1.054-1.954, the same torch on both sides), while a real slowdown is there again in the next pairs. Exit 1 when any
op is a regression. Both sides' processes run with
fixed glibc malloc thresholds: with the dynamic mmap threshold a 4 MiB copy took 1.3 to 3x longer in some fresh
processes than in others (page faults on every call), which no pairing cancels.

BENCH_INJECT_SLOWDOWN=1.1 in --candidate-env makes the candidate's every timed call 1.1x slower: the self-test.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FIXED_MALLOC = {k: str(2 ** 28) for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")}
# two-sided Student's t quantiles by degrees of freedom (1 ... 10), for the confidences offered
T_QUANTILE = {0.95: dict(enumerate((12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228), 1)),
              0.99: dict(enumerate((63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169), 1))}


@dataclass
class Verdict:
    op: str
    ratio: float    # geometric mean of the paired ratios candidate / base
    low: float      # Student's t interval over the pairs (confidence given by --confidence)
    high: float
    regression: bool


def run_worker(python: str, env: dict, worker_args: list[str]) -> dict:
    proc = subprocess.run([python, "-m", "benchmarks.ab_worker", *worker_args], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=900, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{python} -m benchmarks.ab_worker failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def collect(base: str, candidate: str, pairs: int, worker_args, env=None, candidate_env=None,
            log=print) -> list[tuple]:
    """[(base timings, candidate timings)] per pair, the order within a pair alternating (AB, BA, AB, ...); `env`
    goes to every process, `candidate_env` to the candidate's too."""
    order = [("base", base, dict(env or {})), ("candidate", candidate, {**(env or {}), **(candidate_env or {})})]
    out = []
    for i in range(pairs):
        got = {}
        for side, python, side_env in (order if i % 2 == 0 else order[::-1]):
            start = time.monotonic()
            got[side] = run_worker(python, side_env, worker_args)
            log(f"pair {i + 1}/{pairs}: {side} process {time.monotonic() - start:.1f} s")
        out.append((got["base"], got["candidate"]))
    return out


def judge(pairs: list[tuple], threshold: float, confidence: float = 0.95, stat=np.min) -> list[Verdict]:
    """Each op both sides timed in every pair: the geometric mean of its paired ratios and a Student's t interval
    over the pairs (a percentile bootstrap over so few pairs is far too narrow: it flagged unchanged ops)."""
    ops = sorted(set.intersection(*(set(a) & set(b) for a, b in pairs)))
    verdicts = []
    for op in ops:
        logs = np.log([stat(b[op]) / stat(a[op]) for a, b in pairs])
        half = T_QUANTILE[confidence][len(logs) - 1] * logs.std(ddof=1) / np.sqrt(len(logs))
        low, high = np.exp(logs.mean() - half), np.exp(logs.mean() + half)
        verdicts.append(Verdict(op, float(np.exp(logs.mean())), float(low), float(high), bool(low > threshold)))
    return verdicts


def confirmed(first: list[Verdict], retimed: list[Verdict]) -> list[Verdict]:
    """The regressions: ops flagged in the first pairs and again when re-timed alone (an op the re-timing did not
    time, e.g. its process failed to, stays flagged)."""
    again = {v.op: v for v in retimed}
    return [again.get(v.op, v) for v in first if v.regression and again.get(v.op, v).regression]


def gate(base, candidate, pairs, worker_args, threshold, confidence=0.95, stat=np.min, env=None,
         candidate_env=None, retime=True, log=print) -> tuple[list[Verdict], list[Verdict], list[Verdict]]:
    """(verdicts of the first pairs, verdicts of the re-timed flagged ops, regressions)."""
    verdicts = judge(collect(base, candidate, pairs, worker_args, env, candidate_env, log), threshold, confidence, stat)
    flagged = [v.op for v in verdicts if v.regression]
    if not (flagged and retime):
        return verdicts, [], [v for v in verdicts if v.regression]
    log(f"re-timing the {len(flagged)} flagged ops alone in {pairs} fresh pairs: {', '.join(flagged)}")
    retimed = judge(collect(base, candidate, pairs, [*worker_args, "--ops", ",".join(flagged)], env, candidate_env,
                            log), threshold, confidence, stat)
    return verdicts, retimed, confirmed(verdicts, retimed)


def markdown(verdicts, threshold, header: str, retimed=(), regressions=None) -> str:
    regressions = [v for v in verdicts if v.regression] if regressions is None else regressions
    lines = [header, "", f"Regression: the whole interval above {threshold:.2f}, in the first pairs and again when "
             f"re-timed alone. {len(regressions)} of {len(verdicts)} ops regressed "
             f"({sum(v.regression for v in verdicts)} flagged by the first pairs).", ""]
    for title, rows in (("First pairs", verdicts), ("Flagged ops re-timed alone", retimed)):
        if rows:
            lines += [f"## {title}", "", "| op | candidate / base | interval | flagged |", "|---|---|---|---|"]
            lines += [f"| {v.op} | {v.ratio:.3f} | {v.low:.3f} - {v.high:.3f} | {'yes' if v.regression else 'no'} |"
                      for v in sorted(rows, key=lambda v: -v.ratio)]
            lines.append("")
    lines += ["## Regressions", ""] + [f"- {v.op}: {v.ratio:.3f} ({v.low:.3f} - {v.high:.3f})"
                                      for v in regressions] + ([] if regressions else ["none"])
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--base", required=True, help="python of the current environment")
    parser.add_argument("--candidate", required=True, help="python of the candidate environment")
    parser.add_argument("--pairs", type=int, default=6, help="process pairs (default 6, at most 11)")
    parser.add_argument("--threshold", type=float, default=1.05)
    parser.add_argument("--confidence", type=float, choices=sorted(T_QUANTILE), default=0.95)
    parser.add_argument("--candidate-env", action="append", default=[], metavar="NAME=VALUE",
                        help="environment of the candidate's processes only (e.g. BENCH_INJECT_SLOWDOWN=1.1)")
    parser.add_argument("--markdown", default=None, metavar="PATH")
    parser.add_argument("--stat", choices=("median", "min"), default="min", help="of a process's rounds")
    parser.add_argument("--no-retime", action="store_true",
                        help="judge on the first pairs alone (default: flagged ops are re-timed and must be flagged again)")
    parser.add_argument("--dynamic-malloc", action="store_true",
                        help="keep glibc's dynamic mmap threshold (default: fixed thresholds in both sides' processes)")
    args, worker_args = parser.parse_known_args(argv)
    if not 2 <= args.pairs <= 11:
        parser.error("--pairs: from 2 to 11")
    fixed = {} if args.dynamic_malloc else FIXED_MALLOC
    verdicts, retimed, bad = gate(args.base, args.candidate, args.pairs, worker_args, args.threshold, args.confidence,
                                  getattr(np, args.stat), fixed, dict(item.split("=", 1) for item in args.candidate_env),
                                  retime=not args.no_retime)
    worst = max(verdicts, key=lambda v: v.ratio)
    print(f"{len(verdicts)} ops, {args.pairs} process pairs; median ratio "
          f"{float(np.median([v.ratio for v in verdicts])):.3f}; worst {worst.op} {worst.ratio:.3f} "
          f"({worst.low:.3f}-{worst.high:.3f}); highest lower bound {max(v.low for v in verdicts):.3f}")
    for v in retimed:
        print(f"re-timed {v.op}: {v.ratio:.3f} ({v.low:.3f}-{v.high:.3f}) {'flagged again' if v.regression else 'not'}")
    for v in bad:
        print(f"REGRESSION {v.op}: {v.ratio:.3f} ({v.low:.3f}-{v.high:.3f})")
    if args.markdown:
        Path(args.markdown).write_text(markdown(verdicts, args.threshold, f"# Speed gate: {args.candidate} vs {args.base}",
                                                retimed, bad))
    print(f"verdict: {'FAIL' if bad else 'PASS'}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
