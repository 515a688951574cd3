"""`python -m copysuite matrix`: the conformance matrix across runs, as Markdown and as one self-contained HTML page.

    python -m copysuite matrix OUTCOMES... --markdown M --html H [--screenshot PNG] [--surface DIR] [--strict]

The Markdown is copysuite.report.matrix's, the page copysuite.report.matrix_page's. `--strict` exits 1 when a column
is not of the newest run's commit and spec set (copysuite.report.provenance), after writing the page that marks it.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path

from copysuite.gpu import source
from copysuite.outcome import format as outcome_format
from copysuite.report import browser, matrix, surface_table
from copysuite.report.matrix_page import page


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m copysuite matrix", description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+", help="outcome JSON files or directories of them")
    ap.add_argument("--markdown", help="write the Markdown matrix here")
    ap.add_argument("--html", help="write the self-contained HTML page here")
    ap.add_argument("--screenshot", metavar="PNG", help="with --html: the page's top in a headless Chromium")
    ap.add_argument("--machine", default=f"{platform.machine()} {platform.system()}, "
                                         f"{os.cpu_count()} cores")
    ap.add_argument("--surface", metavar="DIR", help="also show the operator surface per release, from the "
                    "reports of `python -m copysuite surface --json` in DIR (torch-VERSION.json)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when columns come from different commits or spec "
                    "sets (or from an unrecorded commit, or uncommitted changes): a page of one regeneration")
    args = ap.parse_args(argv)
    if args.screenshot and not args.html:
        ap.error("--screenshot takes a picture of the --html page: give --html too")
    try:
        runs = matrix.load_runs(args.inputs)
    except source.SourceError as exc:
        print(f"invalid run sidecar: {exc}", file=sys.stderr)
        return 2
    if not runs:
        print(f"no outcome JSON ({outcome_format.FORMAT}) found in {args.inputs}", file=sys.stderr)
        return 2
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    surface = surface_table.load_reports(args.surface) if args.surface else ()
    md = matrix.markdown(runs, args.machine, generated, surface)
    html = page(runs, args.machine, generated, surface) if args.html else ""
    for path, text in ((args.markdown, md), (args.html, html)):
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(text)
            print(f"wrote {path}")
    if args.screenshot:
        browser.screenshot(args.html, args.screenshot)
        print(f"wrote {args.screenshot}")
    failed = sum(r["outcome"] == "failed" for d in runs for r in d["cells"])
    print(f"{len(runs)} runs: " + ", ".join(d["torch"] for d in runs) + f"; {failed} failed cells")
    mixed = matrix.column_marks(runs, matrix.columns(runs))
    if mixed:
        print(f"{len(mixed)} columns not of the newest run's commit and spec set:", file=sys.stderr)
        for (i, where), why in mixed.items():
            print(f"  {matrix.release(runs[i])} {where}: {'; '.join(why)}", file=sys.stderr)
    return 1 if args.strict and mixed else 0


if __name__ == "__main__":
    sys.exit(main())
