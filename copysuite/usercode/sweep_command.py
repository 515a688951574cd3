"""`python -m copysuite modules`: torch's own nn modules (module_db) and optimizers (optim_db) through
`copysuite.compare`, eagerly against each execution, with a summary per module and optimizer (held, recorded, new)
as JSON and Markdown (docs/using.md, "Every nn module and optimizer")."""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

DEFAULT_EXECUTIONS = ("compile.aot_eager", "export")


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m copysuite modules", description=__doc__)
    p.add_argument("--executions", nargs="+", default=list(DEFAULT_EXECUTIONS))
    p.add_argument("--modules", nargs="*", default=None, help="ModuleInfo or class names (nn.Linear, Linear); "
                   "none given: every module; --modules alone: no module")
    p.add_argument("--optimizers", nargs="*", default=None, help="optimizer names; none given: every optimizer; "
                   "--optimizers alone: no optimizer")
    p.add_argument("--samples", type=int, default=1, help="sample inputs per module and mode (default 1)")
    p.add_argument("--modes", nargs="+", default=["train", "eval"], choices=["train", "eval"])
    p.add_argument("--case-timeout", type=float, default=600, help="seconds per case (0: none)")
    p.add_argument("--minutes", type=float, default=0, help="start no case after this many minutes (0: no limit); "
                   "the summary lists the cases not run")
    p.add_argument("--json", help="write the summary here (.gz compresses it)")
    p.add_argument("--markdown", help="write the table here")
    p.add_argument("--rejudge", metavar="JSON", nargs="+", help="no run: judge the cases of earlier --json "
                   "summaries again by today's module records (specs/known/modules.yaml), as one summary")
    p.add_argument("-q", "--quiet", action="store_true", help="no line per case on stderr")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv)
    import torch

    from copysuite.usercode import modules, optimizers, summary
    records = modules.sweep_records()
    if args.rejudge:
        return rejudge(args, records)
    load, start = os.getloadavg()[0], time.monotonic()
    rows = []
    work = []
    if args.modules is None or args.modules:
        work += [("module", c) for c in modules.module_cases(args.modules or (), args.samples, args.modes)]
    if args.optimizers is None or args.optimizers:
        work += [("optimizer", c) for c in optimizers.optimizer_cases(args.optimizers or ())]
    not_run = []
    for what, case in work:
        if args.minutes and time.monotonic() - start > args.minutes * 60:
            not_run.append(f"{what} {case.name} {case.mode}")
            continue
        if what == "module":
            row = modules.run_case(case, args.executions, records, args.case_timeout)
        else:
            row = optimizers.run_case(case, [e for e in args.executions if e != "export"], records,
                                      args.case_timeout)
        rows.append({"kind": what, **row})
        if not args.quiet:
            print(summary.case_line(rows[-1]), file=sys.stderr, flush=True)
    report = summary.build(rows, args.executions, {
        "torch": torch.__version__, "python": sys.version.split()[0], "cores": os.cpu_count(),
        "load_start": round(load, 2), "load_end": round(os.getloadavg()[0], 2),
        "seconds": round(time.monotonic() - start, 1), "samples": args.samples, "modes": args.modes,
        "not_run": not_run,
        "command": "python -m copysuite modules " + " ".join(argv if argv is not None else sys.argv[2:])})
    return write(report, args)


def rejudge(args, records) -> int:
    from copysuite.usercode import modules, summary
    runs = []
    for name in args.rejudge:
        raw = Path(name).read_bytes()
        runs.append(json.loads(gzip.decompress(raw) if name.endswith(".gz") else raw))
    rows = [modules.rejudged(r, records) for run in runs for r in run["cases"]]
    meta = {k: v for k, v in runs[0].items() if k not in ("executions", "counts", "counts_new", "status",
                                                           "differences", "errors", "cases")}
    if len(runs) > 1:   # several runs of one release, put together: their times summed, each run's command kept
        meta.update(seconds=round(sum(r["seconds"] for r in runs), 1), command=[r["command"] for r in runs],
                    not_run=[n for r in runs for n in r.get("not_run", [])],
                    load_end=runs[-1]["load_end"])
    executions = list(dict.fromkeys(e for run in runs for e in run["executions"]))
    return write(summary.build(rows, executions, meta), args)


def write(report: dict, args) -> int:
    from copysuite.usercode import summary
    print(summary.markdown(report))
    if args.json:
        text = json.dumps(report, indent=1)
        path = Path(args.json)
        path.write_bytes(gzip.compress(text.encode())) if path.suffix == ".gz" else path.write_text(text)
    if args.markdown:
        Path(args.markdown).write_text(summary.markdown(report) + "\n")
    return 1 if report["counts_new"] else 0
