"""Fuzz reports put together, from the report files only (no torch): the workers of one run into one report of the
single-process format (`combine`), and the reports of a campaign's jobs, across seeds, executions and releases,
into one (`merge`, `python -m copysuite fuzz merge`).

    python -m copysuite fuzz merge REPORT... [--json OUT] [--markdown OUT]

A finding is one per finding key (what differs and the ops of its minimal program) and execution and release; the
programs of every report are summed. Exit status: 1 when any finding is new (no record explains it), else 0; 2 when
a report cannot be read.
"""
from __future__ import annotations

import argparse
import json
import re
import sys

COUNTS = ("programs", "invalid", "same", "by_design", "known", "new")
NOT_REDUCED = ("time", "interrupted", "died")   # a finding's shrink_stopped when its reduction did not end


def statements(findings: list) -> dict:
    """Statements per finding after the reduction (and before it): how minimal the minimal programs are."""
    sizes = [f["statements"] for f in findings if "statements" in f]
    before = [f["original_statements"] for f in findings if "original_statements" in f]
    return {"findings": len(sizes), "mean": round(sum(sizes) / len(sizes), 2) if sizes else None,
            "max": max(sizes, default=None),
            "original_mean": round(sum(before) / len(before), 2) if before else None,
            "not_reduced_to_the_end": sum(f.get("shrink_stopped") in NOT_REDUCED for f in findings)}


def _order(finding: dict) -> tuple:
    return finding["status"] != "new", finding["key"]


def combine(reports: list) -> dict:
    """The reports of one run's workers (one execution, one release) as one report of the single-process format:
    the counts summed, each finding once (the first worker's, with the programs of every worker that has it); a
    finding a dead process left unreduced is left out where another process (its restart) reduced its verdict key."""
    counts = {c: sum(r["counts"][c] for r in reports) for c in COUNTS}
    reduced = {tuple(f["key"][:-1]) for r in reports for f in r["findings"] if f.get("shrink_stopped") != "died"}
    findings = {}
    for report in reports:
        for f in report["findings"]:
            if f.get("shrink_stopped") == "died" and tuple(f["key"][:-1]) in reduced:
                continue
            key = tuple(f["key"])
            if key in findings:
                findings[key]["programs_with_key"] += f["programs_with_key"]
            else:
                findings[key] = dict(f)
    searched = max((r["search_seconds"] for r in reports), default=0)
    found = sorted(findings.values(), key=_order)
    first = reports[0]
    return {"execution": first["execution"], "seed": first["seed"], "caches": first["caches"],
            "versions": first["versions"], "torch": first.get("torch"), "counts": counts,
            "vocabulary": first.get("vocabulary", "default"),
            "search_seconds": searched,
            "programs_per_second": round(counts["programs"] / searched, 2) if searched else None,
            "total_seconds": max(r["total_seconds"] for r in reports),
            "interrupted": next((r["interrupted"] for r in reports if r.get("interrupted")), None),
            "keys_claimed_elsewhere": sum(r.get("keys_claimed_elsewhere") or 0 for r in reports),
            "findings": found, "statements_per_finding": statements(found)}


def release(report: dict) -> str:
    """The torch release a report ran on."""
    if report.get("torch"):
        return report["torch"]
    found = re.match(r"torch (\S+),", report.get("versions", ""))
    return found.group(1) if found else "unknown"


def merge(named: list) -> dict:
    """The reports [(name, report)] of a campaign's jobs as one: every run, the programs summed, each finding once
    per (finding key, execution, release) with the reports and seeds that have it."""
    runs, findings = [], {}
    counts = dict.fromkeys(COUNTS, 0)
    for name, report in named:
        torch_release = release(report)
        for c in COUNTS:
            counts[c] += report["counts"].get(c, 0)
        runs.append({"report": name, "execution": report["execution"], "torch": torch_release,
                     "seed": report["seed"], "workers": len({w["worker"] for w in report.get("workers", [])}) or 1,
                     "deaths": len(report.get("deaths", [])),
                     "caches": report.get("caches"), "counts": report["counts"],
                     "search_seconds": report.get("search_seconds"), "cpu_seconds": report.get("cpu_seconds"),
                     "interrupted": report.get("interrupted"),
                     "findings": len(report["findings"])})
        for f in report["findings"]:
            key = (tuple(f["key"]), report["execution"], torch_release)
            if key in findings:
                findings[key]["reports"].append(name)
                findings[key]["seeds"] = sorted(set(findings[key]["seeds"]) | {f.get("seed", report["seed"])})
                findings[key]["programs_with_key"] += f["programs_with_key"]
            else:
                findings[key] = {**f, "execution": report["execution"], "torch": torch_release, "reports": [name],
                                 "seeds": [f.get("seed", report["seed"])]}
    found = sorted(findings.values(), key=lambda f: (*_order(f), f["execution"], f["torch"]))
    return {"runs": runs, "counts": counts, "findings": found,
            "new": sum(f["status"] == "new" for f in found), "known": sum(f["status"] == "known" for f in found),
            "interrupted": [r["report"] for r in runs if r["interrupted"]],
            "statements_per_finding": statements(found)}


def _why(finding: dict) -> str:
    return ", ".join(finding["records"] if finding["status"] == "known" else finding["unexplained"])


def summary(merged: dict) -> str:
    c = merged["counts"]
    lines = [f"{len(merged['runs'])} reports, {c['programs']} programs: same {c['same']}, by design "
             f"{c['by_design']}, known {c['known']}, new {c['new']}; findings {merged['known']} known, "
             f"{merged['new']} new" + (f"; interrupted: {', '.join(merged['interrupted'])}"
                                       if merged["interrupted"] else "")]
    for f in merged["findings"]:
        lines.append(f"  {f['status']:5s} {f['execution']} torch {f['torch']}: {_why(f)}  [ops {', '.join(f['ops'])}]"
                     f"  ({len(f['reports'])} reports)")
    return "\n".join(lines)


def markdown(merged: dict) -> str:
    s = merged["statements_per_finding"]
    lines = ["# Fuzz campaign", "", summary(merged).splitlines()[0], "",
             f"Statements per finding after reduction: mean {s['mean']}, max {s['max']} "
             f"(before: mean {s['original_mean']}; {s['not_reduced_to_the_end']} not reduced to the end).", "",
             "| report | execution | torch | seed | workers | deaths | CPU s | programs | known | new | findings "
             "| interrupted |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['report']} | {r['execution']} | {r['torch']} | {r['seed']} | {r['workers']} | {r['deaths']} | "
              f"{'' if r.get('cpu_seconds') is None else r['cpu_seconds']} | {r['counts']['programs']} | "
              f"{r['counts']['known']} | {r['counts']['new']} | {r['findings']} | "
              f"{r['interrupted'] or ''} |" for r in merged["runs"]]
    lines += ["", "| status | execution | torch | explained by / unexplained | ops | statements | reports |",
              "|---|---|---|---|---|---|---|"]
    lines += [f"| {f['status']} | {f['execution']} | {f['torch']} | {_why(f)} | {', '.join(f['ops'])} | "
              f"{f.get('statements', '')} | {len(f['reports'])} |" for f in merged["findings"]]
    for f in merged["findings"]:
        if f["status"] == "new":
            lines += ["", f"## new under {f['execution']}, torch {f['torch']}: {_why(f)}", "", "```python",
                      f["program"], "```"]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m copysuite fuzz merge", description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", metavar="REPORT", help="the --json reports of fuzz runs")
    parser.add_argument("--json", help="write the merged report here")
    parser.add_argument("--markdown", help="write the merged report as Markdown here")
    args = parser.parse_args(argv)
    named = []
    for path in args.reports:
        try:
            with open(path) as f:
                named.append((path, json.load(f)))
        except (OSError, ValueError) as exc:
            print(f"cannot read {path}: {exc}", file=sys.stderr)
            return 2
    merged = merge(named)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(merged, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(merged))
    print(summary(merged))
    return 1 if merged["new"] else 0
