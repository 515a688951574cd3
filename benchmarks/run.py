"""Run the benchmarks in several fresh processes and pool their rounds into one pytest-benchmark JSON.

    .venv/bin/python -m benchmarks.run --json results/bench/benchmarks.json [--processes 3] [--max-time 0.1]
                                         [--min-rounds 6] [pytest arguments, default benchmarks]

Why: on this 2-core VM a ~2 us copy keeps a speed of its own for the life of a process (memory and code layout;
docs/benchmarks.md has the measurements). Twelve single-process runs of the same grid differed by 6.5% at the
median pair, up to 48%, so one process cannot give medians that agree within 5% between two runs. pyperf answers
this by spreading a benchmark over worker processes; this does the same with pytest-benchmark: each process gets
1/N of the time budget (--benchmark-max-time = max-time / N, --benchmark-min-rounds = ceil(min-rounds / N)), runs
with --benchmark-save-data, and every statistic of the output is computed by pytest-benchmark's own Stats over the
rounds of all processes. extra_info gains `processes` and `process_medians`; the raw rounds are dropped from the
output unless --keep-data. Peak memory is measured in the first process only (it does not depend on timing).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_benchmark.stats import Stats

from benchmarks import turns

ROOT = Path(__file__).resolve().parents[1]
PLUGIN_ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # no xdist, randomly, hypothesis ... in the benchmark processes


def process_command(python: str, part: Path, max_time: float, min_rounds: int, first: bool, pytest_args) -> list:
    cmd = [python, "-m", "pytest", "-q",
           # the plugins the benchmarks use, named (PLUGIN_ENV stops the rest: 0.2-0.4 s of start-up per process)
           "-p", "pytest_benchmark.plugin", "-p", "pytest_timeout",
           "--assert=plain",  # no assertion rewriting: 0.75 s less start-up per process, and timing asserts nothing
           # benchmarks/conftest.py as the only conftest: the checkout's own loads the conformance plugin, which
           # loads, validates and plans every spec (1.2 s of each process) for a run that collects no cell
           "--noconftest", "-p", "benchmarks.conftest",
           f"--benchmark-max-time={max_time}", f"--benchmark-min-rounds={min_rounds}",
           "--benchmark-save-data", f"--benchmark-json={part}"]
    if not first:
        cmd.append("--bench-no-memory")
    pytest_args = list(pytest_args)
    if not any(a.split("::")[0].startswith(("benchmarks", "./benchmarks")) for a in pytest_args):
        pytest_args.insert(0, "benchmarks")  # options only: without a path pytest would run the test suite
    return cmd + pytest_args


def pooled(parts: list[dict], keep_data: bool = False) -> dict:
    """One pytest-benchmark document whose stats are over the rounds of every part, in the order of the first."""
    merged = {k: v for k, v in parts[0].items() if k != "benchmarks"}
    runs: dict[str, list[dict]] = {}
    for part in parts:
        for bench in part["benchmarks"]:
            runs.setdefault(bench["fullname"], []).append(bench)
    merged["benchmarks"] = []
    for benches in runs.values():
        stats = Stats()
        for bench in benches:
            for duration in bench["stats"]["data"]:
                stats.update(duration)
        out = dict(benches[0])
        out["stats"] = {**stats.as_dict(), "iterations": [b["stats"]["iterations"] for b in benches]}
        if keep_data:
            out["stats"]["data"] = stats.data
        out["extra_info"] = {**benches[0]["extra_info"], "processes": len(benches),
                             "process_medians": [b["stats"]["median"] for b in benches],
                             "load_avg_1min": max(b["extra_info"].get("load_avg_1min", 0.0) for b in benches),
                             "process_load_avg_1min": [b["extra_info"].get("load_avg_1min") for b in benches]}
        merged["benchmarks"].append(out)
    return merged


def run_processes(commands: list[list[str]], parts: list[Path], tmp: Path) -> list[dict] | None:
    """Start every process at once (their torch imports overlap) and let them time one after another
    (benchmarks/turns.py); their output is printed in order once all have ended. The documents they wrote to
    `parts`, or None if one failed (the others are stopped: they would wait for its turn)."""
    procs, logs = [], [tmp / f"log{k}" for k in range(len(commands))]
    for k, (cmd, log) in enumerate(zip(commands, logs)):
        turn = {turns.ENV: turns.Turn(tmp, k, len(commands)).encode()}
        variables = " ".join(f"{name}={value}" for name, value in {**PLUGIN_ENV, **turn}.items())
        print(f"[bench_run] process {k + 1}/{len(commands)}: {variables} {shlex.join(cmd)}", flush=True)
        env = {**os.environ, **PLUGIN_ENV, **turn}
        with open(log, "w") as out:
            procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT))

    def first_failed():
        return next((k for k, p in enumerate(procs) if p.poll() not in (None, 0)), None)
    while first_failed() is None and any(p.poll() is None for p in procs):
        time.sleep(0.05)
    failed = first_failed()
    for p in procs:
        if p.poll() is None:
            p.terminate()
        p.wait()
    for log in logs:
        sys.stdout.write(log.read_text())
    if failed is not None:
        print(f"[bench_run] process {failed + 1} exited {procs[failed].returncode}: the others were stopped, "
              f"no pooled output written", file=sys.stderr)
        return None
    return [json.loads(part.read_text()) for part in parts]

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     allow_abbrev=False)  # never take a pytest option for one of ours
    parser.add_argument("--json", required=True, help="the pooled pytest-benchmark JSON to write")
    parser.add_argument("--processes", type=int, default=int(os.environ.get("BENCH_PROCESSES", "3")),
                        help="fresh pytest processes (default 3; env BENCH_PROCESSES)")
    parser.add_argument("--max-time", type=float, default=float(os.environ.get("BENCH_MAX_TIME", "0.1")),
                        help="seconds per benchmark over all processes (default 0.1; env BENCH_MAX_TIME)")
    parser.add_argument("--min-rounds", type=int, default=6, help="rounds per benchmark over all processes")
    parser.add_argument("--keep-data", action="store_true", help="keep every round's time in the output")
    parser.add_argument("--python", default=sys.executable)
    args, pytest_args = parser.parse_known_args(argv)
    n = max(1, args.processes)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench_run_") as tmp:
        paths = [Path(tmp, f"part{k}.json") for k in range(n)]
        parts = run_processes([process_command(args.python, path, args.max_time / n, math.ceil(args.min_rounds / n),
                                               k == 0, pytest_args) for k, path in enumerate(paths)], paths, Path(tmp))
        if parts is None:
            return 1
    out.write_text(json.dumps(pooled(parts, args.keep_data), indent=1))
    print(f"[bench_run] {len(parts[0]['benchmarks'])} benchmarks, rounds pooled over {n} processes: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
