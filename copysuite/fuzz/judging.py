"""The verdict on one run (copysuite.fuzz.model.judge) for every execution the fuzzer runs and every section the
program shapes add: a variant (copysuite.fuzz.variants) is judged by its base execution's rules and records beside
its own rule; the backward after a write to an input (`after_write`, `after`: copysuite.fuzz.signature.observe_after)
is judged only for what the write changes, so that a difference of backward alone is not counted again.
"""
from __future__ import annotations

import dataclasses

from copysuite.fuzz import model, variants


def pruned(differences: dict) -> dict:
    """model.pruned, and the consequences within the shapes' sections: once the write after the call raised on one
    side, its backward is absent; once that backward raised, its gradients are; and where backward without the
    write already differs, the backward after it is that difference again."""
    kept = model.pruned(differences)
    gone = set()
    if "after_write||raises" in kept:
        gone |= {f for f in kept if f.startswith("after|")}
    if "after||raises" in kept:
        gone |= {f for f in kept if f.startswith("after|") and f != "after||raises"}
    if any(f.startswith("backward|") for f in kept):
        gone |= {f for f in kept if f.startswith("after|")}
    if "forward||raises" in kept:
        gone |= {f for f in kept if f.startswith("forward|") and f != "forward||raises"}
    return {f: v for f, v in kept.items() if f not in gone}


def judge(run, execution: str, differences: dict) -> model.Verdict:
    """The verdict: the variant's own rules first, then the base execution's model on what is left."""
    base = variants.base(execution)
    remaining, own = {}, {}
    for field, (eager, other) in pruned(differences).items():
        rule = variants.allowed(field, eager, other, run, execution)
        if rule:
            own[field] = rule
        else:
            remaining[field] = [eager, other]
    judged_run = dataclasses.replace(run, execution=base, variant=execution) if base != execution else run
    verdict = model.judge(judged_run, base, remaining)
    if own:
        verdict.allowed.update(own)
        if verdict.status == "same":
            verdict.status = "by_design"
    return verdict
