"""`python -m copysuite fuzz`: generated programs, eager against one execution (docs/fuzz.md).

    python -m copysuite fuzz --execution compile.aot_eager --minutes 10 --seed 0 --json fuzz.json
    python -m copysuite fuzz --execution compile.inductor --programs 150 --seed 0 --require-known

Hypothesis draws the programs from the seed (the same seed, the same programs in the same order: `--programs` makes a
run repeatable, `--minutes` stops wherever the time ends). Every divergence is judged (copysuite.fuzz.model); the
first program of each verdict key is reduced (copysuite.fuzz.shrink) and reported once per finding key, with its
minimal program, expected (eager) vs observed, and a standalone reproduction. Exit status: 0, or 1 with
`--require-known` when a finding is new.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time

import torch
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from copysuite.run.executions import EXECUTORS
from copysuite.fuzz import differential, generate, reproduction, shrink

PROGRESS_SECONDS = 10.0


class _Done(Exception):
    """The search has run its programs or its minutes."""


def search(execution: str, *, seed: int = 0, programs: int | None = None, minutes: float | None = None,
           caches: str = "off", shrink_attempts: int = shrink.MAX_ATTEMPTS, progress=None) -> dict:
    """Run the search; returns the report (plain data, as the JSON file holds it)."""
    differential.configure(caches)
    if caches == "on" and not os.environ.get("TORCHINDUCTOR_CACHE_DIR"):
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="copysuite-fuzz-cache-")
    limit = programs if programs is not None else 10 ** 9
    deadline = None if minutes is None else time.monotonic() + 60 * minutes
    counts = {"programs": 0, "invalid": 0, "same": 0, "by_design": 0, "known": 0, "new": 0}
    first = {}          # verdict key -> (program, verdict) of its first program
    start = last = time.monotonic()

    @hypothesis_seed(seed)
    @settings(max_examples=limit, database=None, phases=[Phase.generate], deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(generate.programs())
    def one(program):
        nonlocal last
        if counts["programs"] >= limit or (deadline is not None and time.monotonic() > deadline):
            raise _Done
        counts["programs"] += 1
        _, judged = shrink.verdict(program, execution, caches)
        if judged is None:
            counts["invalid"] += 1
            return
        counts[judged.status] += 1
        if judged.status in ("known", "new"):
            first.setdefault(judged.key, (program, judged))
        if progress and time.monotonic() - last > PROGRESS_SECONDS:
            last = time.monotonic()
            rate = counts["programs"] / (last - start)
            progress(f"{counts['programs']} programs, {rate:.1f}/s; diverged: {counts['known']} known, "
                     f"{counts['new']} new ({len(first)} keys); by design {counts['by_design']}")

    try:
        one()
    except _Done:
        pass
    searched = time.monotonic() - start
    findings = {}
    for key, (program, judged) in first.items():
        small, run, small_verdict, attempts = shrink.minimize(program, execution, caches, key, shrink_attempts)
        fkey = shrink.finding_key(small_verdict, small)
        if fkey in findings:
            findings[fkey]["programs_with_key"] += 1
            continue
        findings[fkey] = {
            "key": list(fkey), "status": small_verdict.status, "records": list(small_verdict.records),
            "unexplained": list(small_verdict.unexplained), "ops": list(small.ops),
            "differences": small_verdict.differences, "allowed": small_verdict.allowed,
            "eager_error": run.eager.error, "error": run.other.error, "program": small.text(),
            "original": program.text(), "shrink_attempts": attempts, "programs_with_key": 1,
            "reproduction": reproduction.script(run, execution, caches, small_verdict.differences)}
    return {"execution": execution, "seed": seed, "caches": caches, "versions": versions(),
            "counts": counts, "search_seconds": round(searched, 1),
            "programs_per_second": round(counts["programs"] / searched, 2) if searched else None,
            "total_seconds": round(time.monotonic() - start, 1),
            "findings": sorted(findings.values(), key=lambda f: (f["status"] != "new", f["key"]))}


def versions() -> str:
    return f"torch {torch.__version__}, python {platform.python_version()} ({sys.platform})"


def summary(report: dict) -> str:
    c = report["counts"]
    head = (f"{report['execution']} (caches {report['caches']}, seed {report['seed']}; {report['versions']}): "
            f"{c['programs']} programs in {report['search_seconds']} s ({report['programs_per_second']}/s); "
            f"same {c['same']}, by design {c['by_design']}, known {c['known']}, new {c['new']}, "
            f"inputs not built {c['invalid']}")
    lines = [head]
    for f in report["findings"]:
        why = ", ".join(f["records"]) if f["status"] == "known" else ", ".join(f["unexplained"])
        lines.append(f"  {f['status']:5s} {why}  [ops {', '.join(f['ops'])}]")
    for f in report["findings"]:
        if f["status"] == "new":
            lines += ["", f"--- new: {', '.join(f['unexplained'])}", f["program"], "differs:",
                      *[f"  {k}: {v[0]!r} -> {v[1]!r}" for k, v in list(f["differences"].items())[:10]]]
            if f["error"]:
                lines.append(f"  {report['execution']} raised {f['error'].splitlines()[0][:300]}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m copysuite fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--execution", required=True, choices=[e for e in EXECUTORS if e != "eager"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--programs", type=int, help="stop after this many programs (a repeatable run)")
    parser.add_argument("--minutes", type=float, help="stop after this many minutes of search")
    parser.add_argument("--caches", choices=differential.CACHES, default="off",
                        help="inductor's FX graph cache and AOTAutograd's cache: off (as the specs run) or on")
    parser.add_argument("--json", help="write the report here")
    parser.add_argument("--require-known", action="store_true", help="exit 1 when a finding is new")
    parser.add_argument("--shrink-attempts", type=int, default=shrink.MAX_ATTEMPTS)
    args = parser.parse_args(argv)
    if args.programs is None and args.minutes is None:
        parser.error("give --programs N or --minutes M (or both)")
    reason = EXECUTORS[args.execution].skip_reason("cpu")
    if reason:
        print(f"cannot fuzz: {reason}", file=sys.stderr)
        return 2
    report = search(args.execution, seed=args.seed, programs=args.programs, minutes=args.minutes,
                    caches=args.caches, shrink_attempts=args.shrink_attempts,
                    progress=lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    print(summary(report))
    new = [f for f in report["findings"] if f["status"] == "new"]
    return 1 if args.require_known and new else 0
