"""`python -m copysuite fuzz`: generated programs, eager against one execution (docs/fuzz.md).

    python -m copysuite fuzz --execution compile.aot_eager --minutes 10 --seed 0 --json fuzz.json
    python -m copysuite fuzz --execution compile.inductor --programs 150 --seed 0 --require-known
    python -m copysuite fuzz --execution functionalize --minutes 20 -n 2 --json fuzz.json
    python -m copysuite fuzz merge REPORT... [--json OUT] [--markdown OUT]
    python -m copysuite fuzz rejudge REPORT... [--json OUT]
    python -m copysuite fuzz --execution compile.aot_eager --programs 40 --vocabulary surface
    python -m copysuite fuzz vocabulary [--scope all|sample] [--json PATH]

Hypothesis draws the programs from the seed (the same seed, the same programs in the same order: `--programs` makes a
run repeatable, `--minutes` stops wherever the time ends). Every divergence is judged (copysuite.fuzz.model); the
first program of each verdict key is reduced (copysuite.fuzz.shrink) and reported once per finding key, with its
minimal program, expected (eager) vs observed, and a standalone reproduction. `--minutes` bounds the whole run, the
reduction included; `-n N` runs N worker processes with one report (copysuite.fuzz.campaign: a worker that torch
kills is named and restarted, and what it found kept), `-n 1` one (`--in-process`: the search in the command's own
process, for a debugger, where a crash ends the run without a report); a run stopped by SIGINT or SIGTERM writes its
report with what it has, marked interrupted. `merge` puts the reports of several runs together
(copysuite.fuzz.merge); `rejudge` runs each finding's program again and judges it with this checkout's records
(copysuite.fuzz.rejudge). `--vocabulary surface` draws the operator surface's ops beside the hand-written ones
(copysuite.fuzz.surface_vocabulary); `vocabulary` reports their number by class (copysuite.fuzz.vocabulary_report).
Exit status: 0, or 1 with `--require-known` when a finding is new.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time

from copysuite.fuzz import campaign, interrupt, merge

MAX_ATTEMPTS = 60   # copysuite.fuzz.shrink.MAX_ATTEMPTS, which imports torch
CACHES = ("off", "on")   # copysuite.fuzz.differential.CACHES, likewise
VOCABULARIES = ("default", "surface", "surface.sample")   # copysuite.fuzz.search.VOCABULARIES, likewise


def search(execution: str, **options) -> dict:
    """One process's search and reduction (copysuite.fuzz.search.search), imported when called: `fuzz merge` needs
    no torch, and main handles the signals before torch is imported."""
    from copysuite.fuzz import search as engine
    return engine.search(execution, **options)


def one_process(execution: str, *, minutes: float | None, started: float | None = None, stopper=None,
                **options) -> dict:
    """The run in this process, stopped by SIGINT, SIGTERM or its time bound (`minutes` from `started`,
    time.monotonic(), by default now) with its report still made. `stopper`: an interrupt.Stopper already
    handling the signals (main's, from before torch was imported), or None for one of its own."""
    own = stopper is None
    stopper = interrupt.Stopper() if own else stopper
    soft, hard = interrupt.bounds(time.monotonic() if started is None else started, minutes)
    with stopper.handling() if own else contextlib.nullcontext():
        stopper.arm(hard)
        try:
            report = search(execution, deadline=soft, stopper=stopper, **options)
        except interrupt.Interrupted as stop:   # before the search began
            report = stopped_report(execution, options, str(stop))
        interrupt.ignore()
    report.update({"seed_derivation": campaign.SEED_DERIVATION, "workers_without_report": [], "deaths": [],
                   "workers": [{"worker": 0, "seed": report["seed"], "programs": report["counts"]["programs"],
                                "counts": report["counts"], "search_seconds": report["search_seconds"],
                                "programs_per_second": report["programs_per_second"],
                                "interrupted": report["interrupted"], "findings": len(report["findings"])}],
                   "programs_per_second_per_worker": report["programs_per_second"]})
    return report


def stopped_report(execution: str, options: dict, reason: str) -> dict:
    """The report of a run stopped before its search began."""
    report = campaign.empty({"execution": execution, **options})
    report.update({"interrupted": reason, "programs_per_second_per_worker": None})
    return report


def summary(report: dict) -> str:
    c = report["counts"]
    workers = report.get("workers") or [{}]
    vocabulary = "" if report.get("vocabulary", "default") == "default" else f"vocabulary {report['vocabulary']}, "
    head = (f"{report['execution']} ({vocabulary}caches {report['caches']}, seed {report['seed']}, {len(workers)} "
            f"process{'es' if len(workers) > 1 else ''}; {report['versions']}): "
            f"{c['programs']} programs in {report['search_seconds']} s ({report['programs_per_second']}/s"
            + (f", {report['cpu_seconds']} CPU s in the workers" if report.get("cpu_seconds") is not None else "")
            + "); "
            f"same {c['same']}, by design {c['by_design']}, known {c['known']}, new {c['new']}, "
            f"inputs not built {c['invalid']}")
    lines = [head]
    if report.get("interrupted"):
        lines.append(f"  interrupted ({report['interrupted']}): the report holds what the run had")
    if len(workers) > 1:
        lines += [f"  worker {w['worker']}" + (f" restart {w['restart']}" if w.get("restart") else "")
                  + f": seed {w['seed']}, {w['programs']} programs ({w['programs_per_second']}/s)"
                  + (" (died)" if w.get("died") else "") for w in workers]
    for d in report.get("deaths", []):
        lines.append(f"  died: worker {d['worker']} restart {d['restart']} by {d['signal'] or d['exitcode']} after "
                     f"{d['programs']} programs, during its {d['during']}, in {d['innermost']}; "
                     + ("restarted" if d["restarted"] else f"not restarted: {d['why_not_restarted']}"))
    sizes = report.get("statements_per_finding")
    if sizes and sizes["findings"]:
        lines.append(f"  statements per finding after reduction: mean {sizes['mean']}, max {sizes['max']} (before: "
                     f"mean {sizes['original_mean']}); {sizes['not_reduced_to_the_end']} not reduced to the end")
    for f in report["findings"]:
        why = ", ".join(f["records"]) if f["status"] == "known" else ", ".join(f["unexplained"])
        cut = f" (reduction stopped: {f['shrink_stopped']})" if f.get("shrink_stopped") in merge.NOT_REDUCED else ""
        lines.append(f"  {f['status']:5s} {why}  [ops {', '.join(f['ops'])}]{cut}")
    for f in report["findings"]:
        if f["status"] == "new":
            lines += ["", f"--- new: {', '.join(f['unexplained'])}", f["program"], "differs:",
                      *[f"  {k}: {v[0]!r} -> {v[1]!r}" for k, v in list(f["differences"].items())[:10]]]
            if f["error"]:
                lines.append(f"  {report['execution']} raised {f['error'].splitlines()[0][:300]}")
    return "\n".join(lines)


def write(report: dict, path: str) -> None:
    """Whole or not at all: a run killed while writing leaves no half report."""
    with open(path + ".part", "w") as f:
        json.dump(report, f, indent=1)
    os.replace(path + ".part", path)


def main(argv=None) -> int:
    started = time.monotonic()   # the time bound counts importing torch too
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["merge"]:
        return merge.main(argv[1:])
    if argv[:1] == ["rejudge"]:
        from copysuite.fuzz import rejudge
        return rejudge.main(argv[1:])
    if argv[:1] == ["vocabulary"]:
        from copysuite.fuzz import vocabulary_report
        return vocabulary_report.main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m copysuite fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--execution", required=True, help="an execution of copysuite.run.executions but eager, or "
                        "a variant of one (copysuite.fuzz.variants: export.strict, export.nonstrict, "
                        "export.decomposed, compile.*.fullgraph)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--programs", type=int, help="stop after this many programs (a repeatable run)")
    parser.add_argument("--minutes", type=float, help="stop the whole run, reduction included, after this many "
                        "minutes")
    parser.add_argument("-n", "--processes", type=int, default=1, help="search in this many processes (one report; "
                        "process i draws from a seed derived from --seed and i)")
    parser.add_argument("--in-process", action="store_true", help="search in this process, not in a worker process "
                        "(for a debugger or a profiler: a crash in torch then ends the run without a report)")
    parser.add_argument("--caches", choices=CACHES, default="off",
                        help="inductor's FX graph cache and AOTAutograd's cache: off (as the specs run) or on")
    parser.add_argument("--json", help="write the report here")
    parser.add_argument("--require-known", action="store_true", help="exit 1 when a finding is new")
    parser.add_argument("--shrink-attempts", type=int, default=MAX_ATTEMPTS)
    parser.add_argument("--vocabulary", choices=VOCABULARIES, default="default",
                        help="the ops drawn: the hand-written table (default), or the operator surface's ops beside "
                        "it (surface: every call the surface plans, which takes a minute or two to build; "
                        "surface.sample: its hand-written calls only)")
    args = parser.parse_args(argv)
    if args.programs is None and args.minutes is None:
        parser.error("give --programs N or --minutes M (or both)")
    if args.processes < 1:
        parser.error("-n takes 1 or more processes")
    if args.in_process and args.processes > 1:
        parser.error("--in-process searches in one process: leave out -n, or give -n 1")
    options = {"seed": args.seed, "programs": args.programs, "minutes": args.minutes, "caches": args.caches,
               "shrink_attempts": args.shrink_attempts, "vocabulary": args.vocabulary,
               "progress": lambda line: print(line, file=sys.stderr, flush=True)}
    load = os.getloadavg()[0]
    stopper = interrupt.Stopper()
    with stopper.handling():   # from here on a signal stops the run and its report is still written
        try:
            from copysuite.fuzz import variants   # torch, which takes seconds to import
            stopper.check()
        except interrupt.Interrupted as stop:
            report = stopped_report(args.execution, {**options, "workers": args.processes}, str(stop))
        else:
            if args.execution not in variants.NAMES:
                parser.error(f"--execution: one of {', '.join(variants.NAMES)}")
            reason = variants.executor(args.execution).skip_reason("cpu")
            if reason:
                print(f"cannot fuzz: {reason}", file=sys.stderr)
                return 2
            if not args.in_process:
                stopper.disarm()   # the parent only waits: campaign.run passes a signal on to the workers
                report = campaign.run(args.execution, workers=args.processes, started=started, **options)
                report["interrupted"] = report["interrupted"] or stopper.reason
            else:
                report = one_process(args.execution, started=started, stopper=stopper, **options)
        interrupt.ignore()
        report["load_average"] = {"start": load, "end": os.getloadavg()[0], "cores": os.cpu_count()}
        if args.json:
            write(report, args.json)
        print(summary(report))
    if report["interrupted"] in ("SIGINT", "SIGTERM"):   # as the shell reports a process the signal ended
        return 128 + getattr(signal, report["interrupted"])
    new = [f for f in report["findings"] if f["status"] == "new"]
    return 1 if args.require_known and new else 0
