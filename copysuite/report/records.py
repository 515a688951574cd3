"""The known-bug registry as reports (imports no torch): its page, docs/reports/known.md (every record with its
evidence, releases, executions and devices, and what it explains: spec entries, surface cells, a fuzz pattern), and
the change log's lines where a record begins or ends.

    python -m copysuite known --output docs/reports/known.md
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from packaging.specifiers import SpecifierSet

from copysuite.known import registry
from copysuite.report import output
from copysuite.spec.declared import transitions
from copysuite.spec.load import load_specs
from copysuite.strategies.space import AOT_EXECUTIONS, COMPILED_EXECUTIONS

def uses(entries) -> dict:
    """record name -> [(entry id, the expectations it breaks there, executions, devices, torch range)]."""
    found = defaultdict(list)
    for e in entries:
        for d in e.diverges:
            found[d.record].append((e.id, d.keys, d.executions, d.devices, d.torch))
    return found


def executions_text(executions) -> str:
    ex = tuple(executions)
    if set(ex) == set(COMPILED_EXECUTIONS):
        return "compiled (every backend)"
    if set(ex) == set(AOT_EXECUTIONS):
        return "compiled through AOTAutograd (aot_eager, inductor)"
    return ", ".join(ex)


def _kind(r) -> str:
    kind = "by design" if r.by_design else ("bug, **silent**" if r.silent else "bug")
    # its cells that hold pass rather than fail as stale; its draft is the strict check (specs/known/schema.json)
    return kind + (", order-dependent (its draft is the strict check)" if r.order_dependent else "")


def _explains(r, used) -> list:
    out = []
    if used:
        names = sorted({u[0] for u in used})
        out.append(f"spec entries ({len(names)}): " + ", ".join(f"`{n}`" for n in names))
    if r.surface:
        cells = sorted({c for item in r.surface for c in item.cells})
        out.append(f"surface cells ({len(cells)}): " + ", ".join(f"`{c}`" for c in cells[:12])
                   + (f", ... ({len(cells) - 12} more)" if len(cells) > 12 else ""))
    if r.fuzz:
        out.append(f"fuzz differences of kind `{r.fuzz['kinds']}`"
                   + (f" in programs using {', '.join(r.fuzz['ops'])}" if r.fuzz.get("ops") else "")
                   + (f" or calling {', '.join(r.fuzz['overlapping_ops'])} with two operands of one memory"
                      if r.fuzz.get("overlapping_ops") else "")
                   + (f" under {r.fuzz['variant']} only" if r.fuzz.get("variant") else ""))
    return out


def page(records, entries) -> str:
    used = uses(entries)
    by_file = defaultdict(list)
    for r in records.values():
        by_file[r.file].append(r)
    drafts = sum(1 for r in records.values() if r.drafts and not r.upstream)
    lines = ["# Known bugs and documented differences", "",
             "Generated from the registry `specs/known/*.yaml` by `python -m copysuite known`; do not edit by hand. "
             "Each record is one upstream bug (or a documented design difference) with its evidence; a cell or a fuzz "
             "difference it explains is *diverged*, never *failed*. A record whose only evidence is a draft "
             "(`docs/upstream-reports/`) is a bug nobody has reported upstream yet. How to add one: "
             "docs/developing.md.", "",
             f"{len(records)} records: {sum(r.by_design for r in records.values())} by design, "
             f"{sum(r.silent for r in records.values())} silent bugs, {drafts} with a draft as their only evidence; "
             f"{sum(1 for r in records.values() if used.get(r.name))} explain spec cells, "
             f"{sum(1 for r in records.values() if r.surface)} surface cells, "
             f"{sum(1 for r in records.values() if r.fuzz)} fuzz differences.", ""]
    for file in sorted(by_file):
        lines += [f"## {file}", ""]
        for r in by_file[file]:
            where = f"torch`{r.torch}` · {executions_text(r.executions)}"
            where += f" · on {', '.join(r.devices)}" if r.devices else ""
            evidence = " · ".join([r.evidence, *r.also] + ([f"fixed by {r.fixed_by}"] if r.fixed_by else []))
            lines += [f"### `{r.name}` ({_kind(r)})", "", f"{where}", "", f"Evidence: {evidence}", "",
                      " ".join(r.note.split()), ""]
            lines += [f"- {x}" for x in _explains(r, used.get(r.name))] + [""]
    return "\n".join(lines).rstrip() + "\n"


def changes(records, entries) -> list[tuple]:
    """(release, Markdown line) where each record begins or ends to show: once for the record's own range, and once
    for each narrower range its spec entries give it (naming those entries)."""
    used, items = uses(entries), []
    for r in records.values():
        ranges = defaultdict(list)
        for u in used.get(r.name, ()):
            ranges[u[4]].append(u[0])
        ranges.setdefault(r.torch, [])
        what = "differs by design" if r.by_design else "known bug"
        for torch_range, names in sorted(ranges.items()):
            covers = (lambda v, t=torch_range: v in SpecifierSet(t, prereleases=True))
            if torch_range == r.torch:
                explains = "; ".join(_explains(r, [u for u in used.get(r.name, ()) if u[4] == r.torch]))
            else:
                explains = ", ".join(f"`{n}`" for n in sorted(set(names)))
            for _, cur in transitions([torch_range], covers):
                state = "from this release" if covers(cur) else "no longer, from this release"
                fix = f" · fix: {r.fixed_by}" if r.fixed_by and not covers(cur) else ""
                items.append((cur, f"`{r.name}` {executions_text(r.executions)}: {what} {state} (torch{torch_range})"
                                   f" — evidence: {r.evidence}{fix} — explains {explains or 'nothing yet'} ({r.file})"))
    return items


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m copysuite known", description=__doc__.splitlines()[0])
    ap.add_argument("--output", help="write Markdown here (default: stdout)")
    args = ap.parse_args(argv)
    text = page(registry.load(), load_specs().entries)
    return output.emit(text, args.output)


if __name__ == "__main__":
    sys.exit(main())
