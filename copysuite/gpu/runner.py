"""`python -m copysuite gpu` (tools/gpu.sh): the whole suite on one CUDA device, into a folder the matrix reads.

Runs copysuite.gpu.plan's steps (eager conformance with the seed scenarios, the article idioms' CUDA benchmarks with
peak GPU memory, every transform and compiled execution over every entry) within a time budget, each in its own
process with COPYSUITE_REQUIRE=cuda (a missing GPU is an error there, never a run of skips). A step that outruns its
share gets SIGINT, which lets pytest write the cells it judged, and is recorded as partial; then the outcome files are
gzip-compressed and the folder's run.json sidecar (copysuite.gpu.source) records the machine, the environment
(torch, CUDA, GPU name), every step's command, time and exit status, and the partial executions.

    tools/gpu.sh                      # results/gpu/<gpu>-torch<version>-<date>/
    tools/gpu.sh --dry-run            # the plan and its time shares; refuses where there is no CUDA device
    tools/gpu.sh --steps compile.inductor,compile.inductor.dynamic --budget 400   # some steps, their own budget
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from copysuite.gpu import plan, source

NO_CUDA_EXIT = 3
ROOT = Path(__file__).resolve().parents[2]   # the steps name test files relative to the checkout
GRACE_S = 60   # after SIGINT: time for pytest to finish its session and write the outcome file


def environment(python: str) -> dict:
    proc = subprocess.run([python, "-m", "copysuite.gpu.environment"], capture_output=True, text=True, timeout=300,
                          check=False, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"could not read the environment (torch import failed?):\n{proc.stderr}")
    return json.loads(proc.stdout)


def run_name(env: dict) -> str:
    gpu = re.sub(r"[^a-z0-9]+", "-", (env["cuda_device"] or "cpu").lower()).strip("-")
    return f"{gpu}-torch{env['torch'].replace('+', '-')}-{datetime.now(timezone.utc):%Y-%m-%d}"


def run_step(step, python, folder: Path, allowed_s: int, grace_s: float = GRACE_S) -> dict:
    """Run one step with its log beside it; SIGINT at `allowed_s`, SIGKILL after the grace. Its summary for run.json."""
    start = time.monotonic()
    with open(folder / f"{step.name}.log", "w") as log:
        # the step's last argument is the file it writes: given here inside the run's folder
        proc = subprocess.Popen([python, *step.argv[:-1], str(folder / step.writes)], stdout=log, cwd=ROOT,
                                stderr=subprocess.STDOUT, start_new_session=True)
        cut = False
        try:
            proc.wait(timeout=allowed_s)
        except subprocess.TimeoutExpired:
            cut = True
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    wrote = (folder / step.writes).is_file()
    summary = {"name": step.name, "command": " ".join(["python", *step.argv]), "allowed_s": allowed_s,
              "seconds": round(time.monotonic() - start, 1), "exit": proc.returncode, "wrote": wrote}
    if cut:
        summary["partial"] = (f"stopped at its time budget ({allowed_s} s)" if wrote else
                             f"stopped at its time budget ({allowed_s} s) before writing its results")
    return summary


def compress(folder: Path) -> list[str]:
    """Each result JSON as .json.gz (committable: results/gpu/ keeps only these and run.json)."""
    names = []
    for f in sorted(folder.glob("*.json")):
        if f.name != source.FILE:
            (folder / f"{f.name}.gz").write_bytes(gzip.compress(f.read_bytes(), mtime=0))
            f.unlink()
            names.append(f"{f.name}.gz")
    return names


def describe_plan(steps, budget_s) -> str:
    """Each step with the least time it gets (what is left when every step before it ran its full share)."""
    lines, left = [], float(budget_s)
    for i, step in enumerate(steps):
        share = plan.allowance(steps, i, left)
        lines.append(f"  {step.name:26s} at least {share:4d} s: python {' '.join(step.argv)}")
        left -= share
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m copysuite gpu", description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="the run's folder (default: results/gpu/<gpu>-torch<version>-<date>)")
    ap.add_argument("--budget", type=int, default=plan.BUDGET_S, help="seconds for the whole run")
    ap.add_argument("--workers", type=int, default=os.cpu_count(), help="pytest-xdist workers per step")
    ap.add_argument("--steps", help="run only these steps (comma-separated names, in the plan's order; default: all)")
    ap.add_argument("--dry-run", action="store_true", help="print the plan and its time shares, run nothing")
    args = ap.parse_args(argv)
    steps = plan.steps(args.workers)
    if args.steps:
        wanted = args.steps.split(",")
        unknown = sorted(set(wanted) - {s.name for s in steps})
        if unknown:
            ap.error(f"unknown steps {unknown}; the plan's steps: {', '.join(s.name for s in steps)}")
        steps = [s for s in steps if s.name in wanted]
    env = environment(sys.executable)
    print(f"GPU run plan ({args.budget} s, {args.workers} workers, per-test timeout {plan.TEST_TIMEOUT_S} s):")
    print(describe_plan(steps, args.budget))
    if env["no_cuda"]:
        print(f"{env['no_cuda']}: nothing run (this command needs one CUDA device)", file=sys.stderr)
        return NO_CUDA_EXIT
    if args.dry_run:
        print(f"dry run: would run on {env['cuda_device']} (torch {env['torch']}, CUDA {env['cuda']})")
        return 0
    folder = Path(args.out or ROOT / "results" / "gpu" / run_name(env)).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    os.environ.update(COPYSUITE_REQUIRE="cuda", HYPOTHESIS_PROFILE=os.environ.get("HYPOTHESIS_PROFILE", "ci"),
                      # inductor otherwise starts a pool of one compile process per core in every xdist worker:
                      # 16 workers x 16 processes, each importing torch, exhaust a GPU machine's memory
                      TORCHINDUCTOR_COMPILE_THREADS=os.environ.get("TORCHINDUCTOR_COMPILE_THREADS", "1"))
    summaries, start = [], time.monotonic()
    for i, step in enumerate(steps):
        share = plan.allowance(steps, i, args.budget - (time.monotonic() - start))
        summaries.append(run_step(step, sys.executable, folder, share))
        print(f"{step.name}: exit {summaries[-1]['exit']} in {summaries[-1]['seconds']} s"
              + (f" (partial: {summaries[-1]['partial']})" if "partial" in summaries[-1] else ""), flush=True)
    files = compress(folder)
    partial = {s.execution: r["partial"] for s, r in zip(steps, summaries) if "partial" in r and s.execution}
    source.write(folder, {"format": source.FORMAT, "run": folder.name, "commit": env.pop("commit"),
                          "machine": f"{env['cuda_device']}, {env['cores']} cores", "environment": env,
                          "partial": partial, "steps": summaries, "files": files})
    print(f"wrote {folder} ({len(files)} result files, {round(time.monotonic() - start)} s); the matrix reads it: "
          f"python -m copysuite matrix results/matrix results/gpu --markdown ...")
    return 1 if any(r["exit"] not in (0, 1) or "partial" in r for r in summaries) else 0
