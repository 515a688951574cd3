"""`python -m copysuite checks`: every check a spec's `expect` can name, from the registry itself
(copysuite/judge/checks/), as a Markdown table: its kind (the module that defines it), the plain values and symbols
a spec may write, and what it observes (its definition, the docstring), with why only eager can answer it where so.

    python -m copysuite checks                       # the table on standard output
    python -m copysuite checks --output checks.md
"""
from __future__ import annotations

import argparse
import sys

from copysuite.judge.checks import REGISTRY
from copysuite.report import output


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def table(registry=REGISTRY) -> str:
    rows = ["| check | kind | what a spec may write | what it observes |", "|---|---|---|---|"]
    for name, check in registry.items():
        kind = check.observe.__module__.rpartition(".")[2]
        doc = check.doc + (f" Judged eagerly only: {check.eager_only}." if check.eager_only else "")
        rows.append(f"| `{name}` | {kind} | {_cell(check.values)} | {_cell(doc)} |")
    return "\n".join(rows) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m copysuite checks", description=__doc__.splitlines()[0])
    ap.add_argument("--output", help="write Markdown here (default: stdout)")
    args = ap.parse_args(argv)
    return output.emit(table(), args.output)


if __name__ == "__main__":
    sys.exit(main())
