"""Optional measurement: the 5 tensor-copy idioms of article 000 over 2**0 ... 2**14, timed twice by perfplot (as
the article did) and twice by our pytest-benchmark suite (benchmarks.run: 3 fresh processes that start together
and time in turns, rounds pooled), alternately, perfplot first; prints the wall times and how well each tool's two
runs agree (each perfplot run in a fresh process too).

    .venv/bin/pip install -r requirements-bench.txt     # perfplot is listed there for this script only
    .venv/bin/python -m benchmarks.perfplot_compare [--out results/bench/perfplot]

What it shows: whether our grid takes no more wall time than perfplot needs for it, and whether our medians agree within
5% between two runs for sizes of 64 KiB and more (float32: 2**14 elements). perfplot's own two runs (its minimum, a
fresh process each) are shown beside ours as the machine's reference; docs/benchmarks.md has what limits both.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import perfplot
import torch

from benchmarks.idioms import IDIOMS, TENSOR

ROOT = Path(__file__).resolve().parents[1]

COPIES = [i for i in IDIOMS if i.group == TENSOR]
N_RANGE = [2 ** k for k in range(15)]
MIN_BYTES = 64 * 1024


def perfplot_grid(json_path: Path):
    """In a process of its own (--perfplot-json): perfplot.bench over the grid; its time and timings to json_path."""
    start = time.perf_counter()
    out = perfplot.bench(setup=lambda n: torch.randn(n), kernels=[i.fn for i in COPIES],
                         labels=[i.label for i in COPIES], n_range=N_RANGE, equality_check=None,
                         show_progress=False)
    json_path.write_text(json.dumps({"bench_s": time.perf_counter() - start,
                                     "timings_s": [list(map(float, row)) for row in out.timings_s]}))


def run_perfplot(json_path: Path) -> tuple[float, dict]:
    """perfplot in a fresh process, like each of our runs: (the process's wall time, what perfplot_grid wrote)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "benchmarks.perfplot_compare", f"--perfplot-json={json_path}"], cwd=ROOT,
                   check=True)
    return time.perf_counter() - start, json.loads(json_path.read_text())


def run_ours(json_path: Path, processes: int, max_time: float) -> float:
    cmd = [sys.executable, "-m", "benchmarks.run", f"--processes={processes}", f"--max-time={max_time}",
           f"--json={json_path}", "benchmarks/test_article_idioms.py",
           f"--bench-idiom-group={TENSOR}", "--bench-idiom-max-exp=14", "--bench-exponents=0", "--bench-no-memory",
           "--bench-threads=1"]  # one intra-op thread: with two, one idiom's median moved 40-60% between runs
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def our_medians(json_path: Path) -> dict[tuple[str, int], float]:
    doc = json.loads(json_path.read_text())
    return {(b["extra_info"]["op"], b["extra_info"]["numel"]): b["stats"]["median"]
            for b in doc["benchmarks"] if b["extra_info"]["device"] == "cpu"}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="results/bench/perfplot")
    parser.add_argument("--processes", type=int, default=3, help="fresh processes per run of ours (default 3)")
    # 0.03: our two runs agree as well as at 0.05 (3.8-4.7% against 4.1-4.8% at 64 KiB, in alternating runs of both,
    # docs/benchmarks.md) in 0.8x perfplot.bench's time where 0.05 took 1.0x
    parser.add_argument("--max-time", type=float, default=0.03,
                        help="seconds per benchmark over all processes (default 0.03)")
    parser.add_argument("--perfplot-json", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.perfplot_json:
        return perfplot_grid(Path(args.perfplot_json))
    out = ROOT / args.out
    out.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {os.getloadavg()}")
    # alternately, perfplot then ours, twice: a drift of the host moves both sides of a pair
    (pp_wall, pp), wall1 = run_perfplot(out / "perfplot1.json"), run_ours(out / "ours1.json", args.processes,
                                                                          args.max_time)
    (pp_wall2, pp2), wall2 = run_perfplot(out / "perfplot2.json"), run_ours(out / "ours2.json", args.processes,
                                                                            args.max_time)
    perfplot_wall, perfplot_wall2, walls = pp["bench_s"], pp2["bench_s"], [wall1, wall2]
    print(f"load average after: {os.getloadavg()}")
    print(f"perfplot, two fresh processes: perfplot.bench {perfplot_wall:.1f} s and {perfplot_wall2:.1f} s "
          f"(whole process, with Python and torch start-up: {pp_wall:.1f} s and {pp_wall2:.1f} s)")
    print(f"ours, two runs of {args.processes} fresh processes each (whole command): {walls[0]:.1f} s and "
          f"{walls[1]:.1f} s; ratio to perfplot.bench alone {walls[0] / perfplot_wall:.2f}, "
          f"{walls[1] / perfplot_wall2:.2f} (limit 2.00); to perfplot's whole process "
          f"{walls[0] / pp_wall:.2f}, {walls[1] / pp_wall2:.2f}")
    first, second = our_medians(out / "ours1.json"), our_medians(out / "ours2.json")
    print("\n| idiom | n | run 1 median | run 2 median | difference | perfplot run 1 (min) | run 2 | difference |")
    print("|---|---|---|---|---|---|---|---|")
    worst = worst_pp = 0.0
    for k, idiom in enumerate(COPIES):
        for j, n in enumerate(N_RANGE):
            a, b = first[(idiom.label, n)], second[(idiom.label, n)]
            diff = abs(a - b) / min(a, b)
            if n * 4 >= MIN_BYTES:
                p1, p2 = pp["timings_s"][k][j], pp2["timings_s"][k][j]
                diff_pp = abs(p1 - p2) / min(p1, p2)
                worst, worst_pp = max(worst, diff), max(worst_pp, diff_pp)
                print(f"| {idiom.label} | 2**{j} | {a * 1e6:.2f} us | {b * 1e6:.2f} us | {100 * diff:.1f}% | "
                      f"{p1 * 1e6:.2f} us | {p2 * 1e6:.2f} us | {100 * diff_pp:.1f}% |")
    print(f"\nlargest difference between our two runs at >= 64 KiB: {100 * worst:.1f}% (limit 5%); "
          f"between perfplot's two runs: {100 * worst_pp:.1f}%")
    (out / "summary.json").write_text(json.dumps({
        "perfplot_bench_s": [perfplot_wall, perfplot_wall2], "perfplot_process_s": [pp_wall, pp_wall2],
        "ours_wall_s": walls, "processes": args.processes,
        "max_time": args.max_time, "max_median_diff_64k": worst, "perfplot_max_min_diff_64k": worst_pp,
        "load_avg_after": os.getloadavg()}))


if __name__ == "__main__":
    main()
