"""The operator surface per release: for each class, how many op names the planned cells check of how many the
release's schemas register, from the reports `python -m copysuite surface --json` wrote for each release
(results/surface/torch-VERSION.json; imports no torch). The matrix (Markdown and page) and the README show it.

    >>> markdown([{"torch": "2.13.0", "classes": {"alias": {"total": 76, "checked": ["view"], "unchecked": {}}}}])
    ['| class | 2.13.0 |', '|---|---|', '| alias | 1/76 |']
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from packaging.version import Version

SURFACE_DIR = Path(__file__).resolve().parents[2] / "results" / "surface"
# copysuite.surface.classify.CLASSES, which imports torch (this module does not); a self-test keeps the two equal
CLASSES = ("alias", "inplace", "out", "other_mutation", "functional")


def load_reports(folder=SURFACE_DIR) -> list:
    """The surface reports in folder (torch-VERSION.json), oldest release first."""
    reports = [json.loads(p.read_text()) for p in Path(folder).glob("torch-*.json")]
    return sorted(reports, key=lambda r: Version(r["torch"].split("+")[0]))


def grid(reports) -> tuple:
    """(releases, [(class, ["checked/total" per release])]), the classes in CLASSES' order."""
    releases = [r["torch"].split("+")[0] for r in reports]
    present = {c for r in reports for c in r["classes"]}
    classes = [c for c in CLASSES if c in present] + sorted(present - set(CLASSES))
    rows = []
    for cls in classes:
        cells = []
        for r in reports:
            rec = r["classes"].get(cls)
            cells.append(f"{len(rec['checked'])}/{rec['total']}" if rec else "")
        rows.append((cls, cells))
    return releases, rows


def markdown(reports) -> list:
    releases, rows = grid(reports)
    return (["| class | " + " | ".join(releases) + " |", "|---" * (len(releases) + 1) + "|"]
            + [f"| {cls} | " + " | ".join(cells) + " |" for cls, cells in rows])


def table_html(reports) -> str:
    releases, rows = grid(reports)
    head = "".join(f"<th>{html.escape(r)}</th>" for r in releases)
    body = "".join(f"<tr><td>{html.escape(cls)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
                   for cls, cells in rows)
    return f"<table><thead><tr><th>class</th>{head}</tr></thead><tbody>{body}</tbody></table>"


INTRO = ("Op names per class that the surface cells check, of those the release's own schemas register "
         "(checked/total; `python -m copysuite surface`, docs/surface.md).")
