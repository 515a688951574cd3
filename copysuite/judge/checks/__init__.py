"""The checks a spec's `expect` can name: `REGISTRY` maps each name to its `Check` (copysuite.judge.checks.base), and
is the one list of them: the spec loader refuses any other name, and `python -m copysuite checks` lists them with
the values each takes and what it observes. Each module registers the checks of one kind: call (raises, warns),
memory (identity, storage, writes, versions, values), autograd, attributes (one attribute of the result each), shapes.
"""
from copysuite.judge.checks import attributes, autograd, call, memory, shapes  # noqa: F401 - each registers its checks
from copysuite.judge.checks.base import REGISTRY, Check, Observed

__all__ = ["REGISTRY", "Check", "Observed"]
