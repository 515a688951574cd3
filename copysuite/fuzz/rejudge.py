"""Fuzz reports judged again on this checkout: each finding's reduced program (kept as data,
copysuite.fuzz.program_data) run eagerly and under the report's execution with the installed torch, and judged with
today's rules and records. A report judged before a record existed still says "new" for what the record explains;
triage starts here, so that only what is still new is looked at by hand.

    python -m copysuite fuzz rejudge REPORT... [--json OUT]

The report written (`--json`, one file for one report, else OUT is a folder) is the report with each finding
replaced by its verdict now: status, key, records, unexplained, differences and allowed, and `rejudged`: what it was
(status and key), the torch that judged it, and why a finding was left as it was (its program not kept, its ops not
in this release's vocabulary). Exit status: 1 when a finding is still new, else 0; 2 when a report cannot be read.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

FIELDS = ("status", "key", "records", "unexplained", "differences", "allowed", "eager_error", "error")


def _left(finding: dict, why: str, torch_version: str) -> dict:
    return {**finding, "rejudged": {"was": {"status": finding["status"], "key": finding["key"]}, "torch": torch_version,
                                    "left_as_it_was": why}}


def rejudged_finding(finding: dict, execution: str, caches: str, surface) -> dict:
    """One finding judged again (its program run now), or left as it was with the reason."""
    import torch

    from copysuite.fuzz import program_data, search, shrink
    if "program_data" not in finding:
        return _left(finding, "the report keeps only the program's text (written before programs were kept as data)",
                     torch.__version__)
    program = program_data.program(finding["program_data"])
    missing = program_data.missing_ops(program, surface)
    if missing:
        return _left(finding, f"not in this release's surface vocabulary: {missing}", torch.__version__)
    run, judged = shrink.verdict(program, execution, caches)
    if judged is None:
        return _left(finding, "its inputs cannot be built on this release", torch.__version__)
    now = search.finding(shrink.Reduction(program, run, judged, 0, finding.get("shrink_stopped")), program,
                         execution, caches, finding.get("seed"))
    return {**finding, **{k: now[k] for k in FIELDS}, "reproduction": now["reproduction"],
            "rejudged": {"was": {"status": finding["status"], "key": finding["key"]}, "torch": torch.__version__}}


def rejudge(report: dict) -> dict:
    """The report with every finding judged again with the installed torch and this checkout's records."""
    from copysuite.fuzz import differential, surface_vocabulary
    differential.configure(report.get("caches", "off"))
    needs_surface = any(op.startswith(surface_vocabulary.PREFIX) for f in report["findings"] for op in f["ops"])
    surface = surface_vocabulary.vocabulary_of("all") if needs_surface else None
    findings = [rejudged_finding(f, report["execution"], report.get("caches", "off"), surface)
                for f in report["findings"]]
    return {**report, "findings": sorted(findings, key=lambda f: (f["status"] != "new", f["key"]))}


def line(finding: dict) -> str:
    """What became of one finding."""
    was, why = finding["rejudged"]["was"], finding["rejudged"].get("left_as_it_was")
    what = ", ".join(finding["records"] if finding["status"] == "known" else finding["unexplained"]) or "-"
    head = f"{was['status']:>9s} -> {finding['status']:9s} {what}  [ops {', '.join(finding['ops'])}]"
    return head + (f"  (left as it was: {why})" if why else "")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m copysuite fuzz rejudge", description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", metavar="REPORT")
    parser.add_argument("--json", help="write the re-judged report here (a folder, for more than one report)")
    args = parser.parse_args(argv)
    still_new = 0
    for path in args.reports:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as exc:
            print(f"cannot read {path}: {exc}", file=sys.stderr)
            return 2
        again = rejudge(report)
        print(f"{path}: {report['execution']}, judged with torch {report.get('torch')}, again with "
              f"{again['findings'][0]['rejudged']['torch'] if again['findings'] else '-'}")
        for finding in again["findings"]:
            print("  " + line(finding))
        still_new += sum(f["status"] == "new" for f in again["findings"])
        if args.json:
            out = args.json if len(args.reports) == 1 else os.path.join(args.json, os.path.basename(path))
            os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
            with open(out, "w") as f:
                json.dump(again, f, indent=1)
    print(f"still new: {still_new}")
    return 1 if still_new else 0
