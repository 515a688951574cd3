"""How much benchmark medians move between runs: the numbers behind the speed gate's threshold.

    .venv/bin/python -m benchmarks.noise RUN1.json RUN2.json [...]               # spread between unchanged runs
    .venv/bin/python -m benchmarks.noise RUN1.json ... --baseline BASE.json       # each run's medians / BASE's
    .venv/bin/python -m benchmarks.noise RUN.json --baseline BASE.json --over 40%  # test ids slower than that

For every benchmark timed in all the files: spread = slowest median / fastest median - 1. Printed per size (2**k
elements): how many benchmarks, their median, 95th percentile and largest spread. With --baseline, the ratio of each
run's median to the baseline's instead (an injected 1.5x slowdown should show about 1.5 everywhere).
"""
from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path


def medians(path, stat="median") -> dict[str, tuple[int, float]]:
    doc = json.loads(Path(path).read_text())
    return {b["fullname"]: (int(round(math.log2(b["extra_info"]["numel"]))), b["stats"][stat])
            for b in doc["benchmarks"]}


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def table(by_exp: dict[int, list[float]], title: str, as_ratio: bool) -> list[str]:
    shown = "ratio" if as_ratio else "spread"
    lines = [title, f"| n | benchmarks | min {shown} | median {shown} | p95 {shown} | max {shown} |",
             "|---|---|---|---|---|---|"]
    fmt = (lambda v: f"{v:.3f}") if as_ratio else (lambda v: f"{100 * v:.1f}%")
    for exp, values in sorted(by_exp.items()):
        lines.append(f"| 2**{exp} | {len(values)} | {fmt(min(values))} | {fmt(percentile(values, 0.5))} | "
                     f"{fmt(percentile(values, 0.95))} | {fmt(max(values))} |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="pytest-benchmark JSON files of the same benchmarks")
    parser.add_argument("--baseline", help="print each run's median / this run's median instead of the spread")
    parser.add_argument("--stat", default="median", help="the statistic compared: median (default), min, mean ...")
    parser.add_argument("--over", metavar="PCT", help="with --baseline: only print the test ids slower than the "
                        "baseline by more than PCT (e.g. 40%%), one a line, for re-running them")
    args = parser.parse_args(argv)
    runs = [medians(p, args.stat) for p in args.runs]
    if args.baseline and args.over:
        base, limit = medians(args.baseline, args.stat), 1 + float(args.over.rstrip("%")) / 100
        for run in runs:
            print("\n".join(name for name, (_, value) in run.items() if name in base and value > limit * base[name][1]))
        return
    if args.baseline:
        base = medians(args.baseline, args.stat)
        for path, run in zip(args.runs, runs):
            by_exp = defaultdict(list)
            for name, (exp, med) in run.items():
                if name in base:
                    by_exp[exp].append(med / base[name][1])
            print("\n".join(table(by_exp, f"{path} / {args.baseline}", as_ratio=True)), "\n")
        return
    common = set.intersection(*(set(r) for r in runs))
    by_exp = defaultdict(list)
    for name in common:
        meds = [r[name][1] for r in runs]
        by_exp[runs[0][name][0]].append(max(meds) / min(meds) - 1)
    print("\n".join(table(by_exp, f"spread of {args.stat}s over {len(runs)} runs", as_ratio=False)))


if __name__ == "__main__":
    main()
