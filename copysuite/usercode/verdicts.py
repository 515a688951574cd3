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


def explain(field: str, eager, other, run, execution: str) -> Explained:
    """The verdict on one differing field of `run` (a copysuite.fuzz.differential.Run)."""
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
