"""`python -m copysuite run [pytest options]`: the conformance run against the installed torch.

A pytest session over `copysuite/plugin/conformance.py` with the suite's plugin, so that it works from an installed
package as well as from this checkout: `python -m copysuite run -n auto --outcome-json results/outcome.json`.
"""
from __future__ import annotations

from pathlib import Path

import pytest

# what pytest.ini sets in the checkout, for runs outside it (the command line still overrides each)
SESSION_DEFAULTS = ["-p", "no:cacheprovider", "-p", "no:logging", "-o", "timeout=60", "-o", "timeout_method=thread",
                    "-o", "xfail_strict=true", "-W", "ignore:ComplexHalf support is experimental:UserWarning",
                    *("--assert", "plain")]
# --assert=plain: the conformance module has no assert statement (a cell's failure is its own message), and with
# assertion rewriting pytest rewrites every module of its plugin packages (Hypothesis, xdist, ...) in each process,
# from source where bytecode is not cached (PYTHONDONTWRITEBYTECODE): 0.8 s of CPU per process


def main(argv=None) -> int:
    module = Path(__file__).with_name("conformance.py")
    return int(pytest.main([str(module), "-p", "copysuite.plugin", *SESSION_DEFAULTS, *(argv or [])]))
