"""The suite's one command line: `python -m copysuite COMMAND [options]`.

    run        the conformance run against the installed torch (pytest options pass through, e.g. -n auto,
               --outcome-json PATH, --spec-entry ID)
    gate       compare two outcome files (current torch vs candidate): the upgrade gate
    matrix     the conformance matrix (Markdown, HTML) from outcome files
    changelog  the change log of copy semantics, from the version gates in the specs
    bench      time the spec ops and the seed articles' idioms (pooled processes), then charts and the claims report
    fuzz       generated programs, eager against one execution (docs/fuzz.md)

`gate`, `matrix` and `changelog` never import torch: they run where torch is absent.
"""
from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "run": "copysuite.run",
    "gate": "copysuite.gate",
    "matrix": "copysuite.matrix",
    "changelog": "copysuite.changelog",
    "bench": "copysuite.bench.command",
    "fuzz": "copysuite.fuzz.command",
}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    command, rest = argv[0], argv[1:]
    module = importlib.import_module(COMMANDS[command])
    return module.main(rest)


if __name__ == "__main__":
    sys.exit(main())
