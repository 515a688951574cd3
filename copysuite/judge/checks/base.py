"""What a check is: it observes one fact of a run (a RunResult: one program on one generated input) and compares it
with the spec's expected value.

A check owns everything about its values: which plain values a spec may write (`literal_problem`), which symbolic
ones it understands (`symbols`, e.g. `same`), and how an expected value is compared with an observation
(`agrees`). Nothing outside a check branches on its name.
"""
from __future__ import annotations

import builtins
import importlib
import json
import operator
import re
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from copysuite.strategies.space import KINDS


class Observed(NamedTuple):
    value: object
    detail: str | None = None   # what a reader needs besides the value (what was written, which storage, ...)


@dataclass(frozen=True)
class Check:
    name: str
    doc: str
    observe: Callable                       # RunResult -> Observed
    accepts: Callable                       # a plain spec value -> None, or what is wrong with it
    agrees: Callable = operator.eq          # (expected, observed value) -> bool
    symbols: dict = field(default_factory=dict)   # symbolic spec value -> (RunResult -> the value it stands for)
    kinds: tuple = KINDS                    # source kinds the check can judge
    needs_data: bool = False                # meaningless on meta tensors (no memory to read or write), or
                                            # torch cannot answer it there (is_set_to has no Meta kernel)
    about_call: bool = False                # judges the call (raises, warns), not the result against one input
    judges_failing_calls: bool = False      # also judged on inputs where the spec expects the call to raise
    disturbs: bool = False                  # writes into the result or runs backward: the run is spent after it
    eager_only: str | None = None           # why only eager can answer it (evidence): not planned compiled
    judges_variables: bool = False          # can judge a variable the program assigns, as the program left it
    # ((code, value), ...): what the check observes when `code` (a call, or a program ending `result = ...`) runs
    # eagerly on the self-tests' input (tests/selftest/cases.py: a 2x3 float32 leaf that requires grad, values 0 ...
    # 5), a value as a spec writes it; at least two different observations (tests/selftest/test_checks.py)
    examples: tuple = ()

    def literal_problem(self, value) -> str | None:
        if isinstance(value, str) and value in self.symbols:
            return None
        return self.accepts(value)

    @property
    def values(self) -> str:
        """What a spec may write, in words: the plain values, then the symbols."""
        symbols = ", ".join(f"`{name}`" for name in self.symbols)
        return "; ".join(filter(None, (self.accepts.says, symbols and f"symbols: {symbols}")))

    def expected_value(self, expected, run):
        """The value a spec's expectation stands for in this run (`same` is the input's own value)."""
        symbol = self.symbols.get(expected) if isinstance(expected, str) else None
        return symbol(run) if symbol else expected


REGISTRY: dict[str, Check] = {}


def check(name, *, accepts, **kw):
    """Decorator: register `observe` (its docstring is the check's doc) as the check `name`."""
    def register(observe):
        REGISTRY[name] = Check(name=name, doc=(observe.__doc__ or "").strip(), observe=observe, accepts=accepts,
                               **kw)
        return observe
    return register


# ---- what a spec may write: each `accepts` says it in words (`says`), for `python -m copysuite checks` -------------
def says(words):
    """Decorator: `words` describe the plain values an `accepts` function allows."""
    def describe(accepts):
        accepts.says = words
        return accepts
    return describe


def one_of(*allowed):
    @says(", ".join(f"`{v if isinstance(v, str) else json.dumps(v)}`" for v in allowed))   # as YAML writes them
    def accepts(value):
        return None if value in allowed else f"takes one of {list(allowed)}, got {value!r}"
    return accepts


BOOLEAN = one_of(True, False)


@says("a name, `null`")
def text_or_null(value):
    return None if value is None or isinstance(value, str) else f"takes a name or null, got {value!r}"


@says("a name")
def text(value):
    return None if isinstance(value, str) else f"takes a name, got {value!r}"


@says("")
def symbols_only(value):
    return f"takes only a symbolic value here, got {value!r}"


# Modules whose own exception classes a spec may name as `module.Class` (torch.load refuses what its weights-only
# unpickler does not allow with pickle.UnpicklingError, not a builtin); compared by the class's name.
ERROR_MODULES = ("pickle",)


def error_class(name: str):
    """The exception class a spec names: a builtin (`RuntimeError`), or `module.Class` of ERROR_MODULES."""
    module, _, attr = name.rpartition(".")
    if not module:
        return getattr(builtins, name, None)
    return getattr(importlib.import_module(module), attr, None) if module in ERROR_MODULES else None


def error_spec(base):
    """null, or {type: a builtin subclass of base (or `pickle.UnpicklingError`), match: a regular expression}."""
    @says("`null`, `{type, match}`")
    def accepts(value):
        if value is None:
            return None
        if not (isinstance(value, dict) and "type" in value):
            return f"expects null or {{type, match}}, got {value!r}"
        cls = error_class(value["type"])
        if not (isinstance(cls, type) and issubclass(cls, base)):
            return f"unknown {base.__name__} type {value['type']!r}"
        try:
            re.compile(value.get("match", ""))
        except re.error as exc:
            return f"bad regular expression {value['match']!r}: {exc}"
        return None
    return accepts


# ---- how an expectation is compared -------------------------------------------------------------------------------
def error_matches(expected, observed) -> bool:
    """`observed` is None or (type name, message); for warnings a list of those, one of which must match. A
    `module.Class` type matches by the class's name (an observation records `type(exc).__name__`)."""
    if isinstance(observed, list):
        if expected is None:
            return not observed
        return any(error_matches(expected, w) for w in observed)
    if expected is None or observed is None:
        return expected is None and observed is None
    type_name, message = observed
    return (type_name == expected["type"].rpartition(".")[2]
            and re.search(expected.get("match", ""), message, re.S) is not None)
