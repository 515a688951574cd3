"""What changed in the aliasing contract of torch's operator schemas between releases, from the schema dumps of
`python -m copysuite surface --schemas` (results/surface/schemas-torch-VERSION.json.gz; imports no torch).

For two consecutive dumps, an overload present in both whose class (alias, inplace, out, other_mutation, functional)
or alias annotations (`Tensor(a)`, `Tensor(a!)`, `Tensor(a -> *)`, in the order the schema lists them) differ is a
change of contract; op names that appear or disappear are listed per class. Changes are listed under the newer
release: the first release of the dumps with the new schema.
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from packaging.version import Version

from copysuite.report.surface_table import SURFACE_DIR

ANNOTATION = re.compile(r"Tensor\(([^)]*)\)")


def load_dumps(folder=SURFACE_DIR) -> list:
    """The schema dumps in folder, oldest release first."""
    dumps = []
    for path in sorted(Path(folder).glob("schemas-torch-*.json*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt") as f:
            dumps.append(json.load(f))
    return sorted(dumps, key=lambda d: Version(d["torch"]))


def annotations(schema: str) -> list:
    """The alias annotations of a schema, in order: `add_.Tensor(Tensor(a!) self, ...) -> Tensor(a!)` -> [a!, a!]."""
    arguments = schema[schema.index("("):]   # after the name: an overload may be called `Tensor`
    return [a.replace(" ", "") for a in ANNOTATION.findall(arguments)]


def packet(overload: str) -> str:
    return overload.split(".", 1)[0]


def names_by_class(overloads: dict) -> dict:
    out = {}
    for overload, rec in overloads.items():
        out.setdefault(rec["class"], set()).add(packet(overload))
    return out


def changes(old: dict, new: dict) -> list:
    """Each change from dump old to dump new: {"kind": "class" | "annotation", "overload", "before", "after"} for an
    overload in both, then {"kind": "added" | "removed", "class", "names"} per class for op names."""
    before, after = old["overloads"], new["overloads"]
    found = []
    for overload in sorted(before.keys() & after.keys()):
        b, a = before[overload], after[overload]
        if b["class"] != a["class"]:
            found.append({"kind": "class", "overload": overload, "before": b["schema"], "after": a["schema"],
                          "classes": (b["class"], a["class"])})
        elif annotations(b["schema"]) != annotations(a["schema"]):
            found.append({"kind": "annotation", "overload": overload, "before": b["schema"], "after": a["schema"]})
    old_names, new_names = names_by_class(before), names_by_class(after)
    for cls in sorted(old_names.keys() | new_names.keys()):
        was, now = old_names.get(cls, set()), new_names.get(cls, set())
        for kind, names in (("added", now - was), ("removed", was - now)):
            if names:
                found.append({"kind": kind, "class": cls, "names": sorted(names)})
    return found


def line(change: dict, old: str, new: str) -> str:
    span = f"(schemas of torch {old} → {new})"
    if change["kind"] == "class":
        b, a = change["classes"]
        return (f"schema `aten::{change['overload']}` changes class: {b} → {a}: `{change['before']}` → "
                f"`{change['after']}` {span}")
    if change["kind"] == "annotation":
        return (f"schema `aten::{change['overload']}` changes its alias annotations: `{change['before']}` → "
                f"`{change['after']}` {span}")
    names = ", ".join(f"`{n}`" for n in change["names"])
    verb = "new" if change["kind"] == "added" else "no longer registered"
    count = len(change["names"])
    return f"{count} {change['class']} op name{'s' if count > 1 else ''} {verb}: {names} {span}"


def release_items(folder=SURFACE_DIR) -> list:
    """(release, change-log line) for every schema change between consecutive dumps."""
    dumps = load_dumps(folder)
    items = []
    for old, new in zip(dumps, dumps[1:]):
        release = Version(".".join(new["torch"].split(".")[:2]))   # the series (2.6), as the version gates name it
        items += [(release, line(c, old["torch"], new["torch"])) for c in changes(old, new)]
    return items
