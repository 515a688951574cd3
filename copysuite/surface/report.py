"""`python -m copysuite surface`: the operator surface of the installed torch, per class.

    python -m copysuite surface [--scope all] [--json PATH] [--markdown PATH] [--plan-only] [--schemas PATH]

How many op names each class has, which the planned cells check, and why the others are not.

Each planned call is judged eagerly, and a name counts as checked when some call applied to it (the op accepted
the input): the planned cells check its contract on at least one input. With --plan-only, a name counts when the
plan holds a call for it, judged or not (faster, an upper bound).
"""
from __future__ import annotations

import argparse
import json
import sys

from copysuite.surface import builders
from copysuite.surface.cells import SCOPES, classified, planned_calls
from copysuite.surface.checks import Judge, NotApplicable
from copysuite.surface.classify import CLASSES, by_class


def reason(name: str, cls: str, scope: str) -> str:
    if name in builders.UNCHECKED:
        return builders.UNCHECKED[name]
    if cls == "other_mutation":
        return "no contract: it writes an argument other than self or out= (checked by no class)"
    if scope == "sample":
        return "not in the default sample (--scope all adds the release's OpInfo samples)"
    if name.startswith("_") and not name.startswith("_foreach_"):
        return "private, and no OpInfo of this release reaches it"
    return ("no OpInfo of this release reaches it, no hand-written call, and its schema asks for arguments other "
            "than tensors and numbers (copysuite/surface/generated.py makes no call)")


def surface(scope: str = "all", run: bool = True) -> dict:
    import torch
    names = by_class(classified())
    checked = {c: set() for c in CLASSES}
    refused = {}
    for call in planned_calls(scope):
        if call.cls not in names or call.op not in names[call.cls]:
            continue
        if run:
            try:
                Judge(call, f"surface.{call.cls}:{call.op}-contract-cpu-eager").judge()
            except NotApplicable as exc:
                refused.setdefault((call.cls, call.op), str(exc)[:120])
                continue
            except AssertionError:
                pass   # judged: its contract was checked (and failed: the conformance run reports it)
        checked[call.cls].add(call.op)
    classes = {}
    for cls in CLASSES:
        unchecked = {n: (f"every sample refused: {refused[(cls, n)]}" if (cls, n) in refused else reason(n, cls, scope))
                     for n in names[cls] if n not in checked[cls]}
        classes[cls] = {"total": len(names[cls]), "checked": sorted(checked[cls]), "unchecked": unchecked}
    return {"torch": torch.__version__, "classes": classes}


def markdown(report: dict) -> str:
    lines = [f"| class | op names | checked | unchecked | (torch {report['torch']}) |", "|---|---|---|---|---|"]
    for cls, rec in report["classes"].items():
        lines.append(f"| {cls} | {rec['total']} | {len(rec['checked'])} | {len(rec['unchecked'])} | |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m copysuite surface", description=__doc__.splitlines()[0])
    parser.add_argument("--scope", choices=SCOPES, default="all")
    parser.add_argument("--plan-only", action="store_true", help="count planned calls without judging them")
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--markdown", metavar="PATH")
    parser.add_argument("--schemas", metavar="PATH", help="also write every overload's class and schema (the change "
                        "log compares them between releases); gzip when PATH ends in .gz; alone, nothing is judged")
    parser.add_argument("--bindings", action="store_true", help="the public Python bindings instead of the aten ops "
                        "(copysuite/surface/bindings.py): per class, which the binding cells check")
    args = parser.parse_args(argv)
    if args.bindings:
        from copysuite.surface import binding_report
        return write(binding_report.report(args.scope, not args.plan_only), binding_report.markdown, args)
    if args.schemas:
        from copysuite.surface import schemas
        schemas.write(args.schemas)
        print(f"wrote {args.schemas}")
        if not (args.json or args.markdown):
            return 0
    return write(surface(args.scope, not args.plan_only), markdown, args)


def write(report: dict, render, args) -> int:
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(render(report))
    sys.stdout.write(render(report))
    return 0
