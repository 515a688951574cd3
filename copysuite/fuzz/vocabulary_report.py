"""`python -m copysuite fuzz vocabulary`: the size of the surface vocabulary (copysuite.fuzz.surface_vocabulary) by
group and by the surface's class, for the installed torch, as text and JSON.

    python -m copysuite fuzz vocabulary [--scope all|sample] [--checked SURFACE.json] [--json PATH]

Per surface class: the op names the surface plans a call for, those with an op in the vocabulary (applying to some
probe input, or refusing them all: argument values eager refuses), and those left out, each with its reason. With
a surface report (`python -m copysuite surface --json`; by default results/surface/torch-VERSION.json of the
installed release, where the checkout has it), the names it counts as checked are compared too: each is in the
vocabulary or left out with its reason.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

NAME = re.compile(r"surface\.(\w+):(\S+)/[0-9a-f]+")


def names_by_class(vocabulary) -> dict:
    """{surface class: {op name: the groups its forms are drawn in}}."""
    found = {}
    for op in vocabulary.ops:
        m = NAME.fullmatch(op.name)
        if m:
            found.setdefault(m.group(1), {}).setdefault(m.group(2), set()).add(op.kind)
    return found


def report(scope: str = "all", checked_path: str | None = None) -> dict:
    import torch

    from copysuite.fuzz import surface_vocabulary, vocabulary_cache
    from copysuite.surface.classify import CLASSES
    vocabulary = vocabulary_cache.cached(scope, surface_vocabulary.build, surface_vocabulary.assemble)
    found = names_by_class(vocabulary)
    left = {}
    for key, why in vocabulary.left_out.items():
        cls, name = key.split(":", 1)
        left.setdefault(cls, {})[name] = why
    checked = {}
    if checked_path and os.path.exists(checked_path):
        with open(checked_path) as f:
            checked = {c: set(rec["checked"]) for c, rec in json.load(f)["classes"].items()}
    classes = {}
    for cls in CLASSES:
        names = found.get(cls, {})
        row = {"planned": len(names) + len(left.get(cls, {})), "in_vocabulary": len(names),
               "refused_only": sorted(n for n, groups in names.items() if groups == {"refused"}),
               "left_out": left.get(cls, {})}
        if checked:
            wanted = checked.get(cls, set())
            row["checked_by_surface"] = len(wanted)
            row["checked_in_vocabulary"] = len(wanted & set(names))
            row["checked_missing"] = sorted(wanted - set(names) - set(left.get(cls, {})))
        classes[cls] = row
    groups = {g: len(ops) for g, ops in vocabulary.groups.items()}
    return {"torch": torch.__version__, "scope": scope, "checked_from": checked_path if checked else None,
            "ops": len(vocabulary.ops), "groups": groups, "weights": vocabulary.weights, "classes": classes}


def text(rep: dict) -> str:
    lines = [f"fuzz vocabulary of torch {rep['torch']} (surface scope {rep['scope']}): {rep['ops']} ops",
             "ops by group (weight): " + ", ".join(f"{g} {n} ({rep['weights'].get(g, 0)})"
                                                   for g, n in rep["groups"].items() if not g.startswith("default."))
             + f"; hand-written {sum(n for g, n in rep['groups'].items() if g.startswith('default.'))}",
             "| class | names planned | in the vocabulary | of them refusing every probe | left out |"
             + (" checked by the surface | of them in the vocabulary |" if rep["checked_from"] else ""),
             "|---|---|---|---|---|" + ("---|---|" if rep["checked_from"] else "")]
    for cls, row in rep["classes"].items():
        line = (f"| {cls} | {row['planned']} | {row['in_vocabulary']} | {len(row['refused_only'])} | "
                f"{len(row['left_out'])} |")
        if rep["checked_from"]:
            line += f" {row['checked_by_surface']} | {row['checked_in_vocabulary']} |"
        lines.append(line)
    reasons = {}
    for row in rep["classes"].values():
        for why in row["left_out"].values():
            short = re.sub(r" \(.*", "", re.sub(r": .*", "", why))
            reasons[short] = reasons.get(short, 0) + 1
    lines.append("left out, by reason: " + "; ".join(f"{n} {r}" for r, n in sorted(reasons.items(),
                                                                                     key=lambda i: -i[1])))
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m copysuite fuzz vocabulary", description=__doc__.splitlines()[0])
    parser.add_argument("--scope", choices=("all", "sample"), default="all",
                        help="the surface calls the ops come from (copysuite.surface.cells.SCOPES)")
    parser.add_argument("--checked", metavar="SURFACE.json", help="a surface report whose checked names to compare "
                        "(default: results/surface/torch-VERSION.json of the installed release, where present)")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    if args.checked is None:
        from importlib import metadata
        args.checked = os.path.join("results", "surface", f"torch-{metadata.version('torch').split('+')[0]}.json")
    rep = report(args.scope, args.checked)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rep, f, indent=1, sort_keys=True)
    sys.stdout.write(text(rep))
    return 1 if any(row.get("checked_missing") for row in rep["classes"].values()) else 0
