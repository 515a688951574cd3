"""The suite's one command line: `python -m copysuite COMMAND [options]`.

    run        the conformance run against the installed torch (pytest options pass through, e.g. -n auto,
               --outcome-json PATH, --spec-entry ID)
    gate       compare two outcome files (current torch vs candidate): the upgrade gate
    matrix     the conformance matrix (Markdown, HTML) from outcome files
    changelog  the change log of copy semantics, from the version gates in the specs and the known-bug registry
    known      the known-bug registry's page (specs/known/ -> docs/reports/known.md)
    checks     every check a spec's `expect` can name: the values it takes and what it observes
    surface    the operator surface of the installed torch: every aten op name by class, and which are checked
    gpu        every execution, the seed scenarios and the CUDA benchmarks on one CUDA device, into results/gpu/
               (tools/gpu.sh; docs/gpu.md)
    fuzz       generated programs, eager against one execution (docs/fuzz.md)
    drafts     every reproduction of docs/upstream-reports/ on the installed torch, each alone: reproduces or fixed
    modules    torch's own nn modules and optimizers through copysuite.compare (docs/using.md)

`gate`, `matrix`, `changelog` and `known` never import torch: they run where torch is absent. The tooling that works
only from a checkout is not a command here: benchmarks and the speed gate (`python -m benchmarks`), fault injection
(`python -m tests.faults report`).
"""
from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "run": "copysuite.plugin.command",
    "gate": "copysuite.report.gate",
    "matrix": "copysuite.report.matrix_command",
    "changelog": "copysuite.report.changelog",
    "known": "copysuite.report.records",
    "checks": "copysuite.judge.checks_command",
    "surface": "copysuite.surface.report",
    "gpu": "copysuite.gpu.runner",
    "fuzz": "copysuite.fuzz.command",
    "drafts": "copysuite.known.drafts",
    "modules": "copysuite.usercode.sweep_command",
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
