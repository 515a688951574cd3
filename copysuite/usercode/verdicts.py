"""Each difference's verdict, from the fuzzer's model of what differs by design (copysuite.fuzz.model.RULES) and its
records of known upstream bugs (copysuite.fuzz.record.RECORDS, the registry's fuzz patterns), through `explain`
alone: where the rules and records live may change, and this is the one place that reads them.

Consequences are pruned first, as the fuzzer does (copysuite.fuzz.model.pruned: a call that raised on one side has
no other field). A record that names the ops of the program cannot tell whether a caller's function runs them:
it never explains a difference, and where it would if the function ran one of its ops it is a `candidate`.
"""
from __future__ import annotations

import dataclasses

from copysuite.fuzz import model
from copysuite.fuzz.record import RECORDS


@dataclasses.dataclass(frozen=True)
class Explained:
    verdict: str          # "new", "known" or "by design"
    names: tuple          # the records (known) or the rule (by design) that explain it
    evidence: tuple       # each one's evidence: an upstream issue or PR, a draft, a source file
    candidates: tuple = ()  # records that would explain it if the function ran one of their ops


def pruned(differences: dict) -> dict:
    return model.pruned(differences)


# a compiled kernel may sum in another order than eager's: float values that agree to float32's precision are
# the same values (the signature rounds to 4 decimals, and a last digit on either side of a rounding point differs)
REORDERED = "https://docs.pytorch.org/docs/stable/notes/numerical_accuracy.html"


def close(eager, other) -> bool:
    """Whether two lists of values (signature.values) agree within float32 reduction error (rtol 1e-4, atol 2e-4)."""
    if not (isinstance(eager, list) and isinstance(other, list)) or len(eager) != len(other):
        return False
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (*eager, *other))
    return numbers and all(abs(a - b) <= 2e-4 + 1e-4 * max(abs(a), abs(b)) for a, b in zip(eager, other))


def explain(field: str, eager, other, run, execution: str) -> Explained:
    """The verdict on one differing field of `run` (a copysuite.fuzz.differential.Run)."""
    if field.rsplit("|", 1)[1] in ("values", "grad", "value") and close(eager, other):
        return Explained("by design", ("float_reduction_order",), (REORDERED,))
    rule = next((r for r in model.RULES if r.allows(field, eager, other, run)), None)
    if rule is not None:
        return Explained("by design", (rule.name,), (rule.evidence,))
    known = [r for r in RECORDS if r.explains(field, eager, other, run, execution)]
    if known:
        return Explained("known", tuple(r.name for r in known), tuple(r.evidence for r in known))
    candidates = tuple(f"{r.name} ({', '.join(r.ops)})" for r in RECORDS if r.ops and r.explains(
        field, eager, other, dataclasses.replace(run, program=dataclasses.replace(run.program, ops=r.ops)),
        execution))
    return Explained("new", (), (), candidates)
