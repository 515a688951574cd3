"""The outcome as text: the table per entry printed after a run, and the line that sums up the compiled executions'
cost."""
from __future__ import annotations

from collections import Counter, defaultdict


def compile_line(compiled: dict) -> str:
    """One line: what the compiled executions cost (graphs compiled, graph breaks, seconds in compiling calls)."""
    total = Counter()
    for by in compiled.values():
        for c in by.values():
            total.update(c)
    return (f"compiled: {total['calls']} calls of {sum(len(b) for b in compiled.values())} compiled "
            f"(entry, execution) pairs; {total['compiles']} graphs compiled, {total['graph_breaks']} graph "
            f"breaks, {total['compile_seconds']:.1f} s in calls that compiled (per entry: the outcome JSON)")


def table(cells: dict) -> list[str]:
    """Per entry: held, failed, diverged (a known upstream bug reproduced) and skipped cells, with notes."""
    per_entry = defaultdict(lambda: {"passed": 0, "failed": 0, "diverged": 0, "skipped": 0, "reasons": set(),
                                     "failed_checks": [], "known": set()})
    for rec in cells.values():
        row = per_entry[rec["entry"]]
        row[rec["outcome"]] += 1
        if rec["outcome"] == "skipped":
            row["reasons"].add(rec["skip_reason"])
        if rec["outcome"] == "diverged":
            row["known"].add(f"known: {rec['divergence']}")
        if rec["outcome"] == "failed":
            where = rec["device"] if rec["execution"] == "eager" else f"{rec['device']} {rec['execution']}"
            row["failed_checks"].append(f"{rec['check']}[{where}]")
    width = max(len(e) for e in per_entry)
    lines = [f"{'entry':<{width}}  held  failed  diverged  skipped  notes"]
    for eid in sorted(per_entry):
        row = per_entry[eid]
        notes = (["FAILED: " + ", ".join(sorted(row["failed_checks"]))] if row["failed_checks"] else []) + (
            ["; ".join(sorted(row["known"]))] if row["known"] else []) + (
            ["skipped: " + "; ".join(sorted(row["reasons"]))] if row["reasons"] else [])
        lines.append(f"{eid:<{width}}  {row['passed']:>4}  {row['failed']:>6}  {row['diverged']:>8}  "
                     f"{row['skipped']:>7}  " + " | ".join(notes))
    total = {k: sum(r[k] for r in per_entry.values()) for k in ("passed", "failed", "diverged", "skipped")}
    lines.append(f"{'total':<{width}}  {total['passed']:>4}  {total['failed']:>6}  {total['diverged']:>8}  "
                 f"{total['skipped']:>7}")
    return lines
