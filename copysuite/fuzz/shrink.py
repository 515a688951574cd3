"""Reduce a program that diverges to a minimal one that diverges the same way (the same verdict key), and tell
findings apart.

Hypothesis draws the programs (copysuite.fuzz.generate) but is not asked to shrink them: a search keeps going past the
first divergence, and one run meets many. The reduction here is greedy and deterministic: drop a statement (and what
reads it), a returned value, an input nothing reads; then make what is left plainer (no write between two calls or after
the call, the grad mode enabled, an alias a fresh input, an input plain, contiguous, float32, smaller); keep each step
that still diverges with the same key, until none does, the attempts run out or the time given to it ends.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from copysuite.fuzz import differential, judging, signature
from copysuite.fuzz.generate import Input, Program
from copysuite.fuzz.interrupt import Interrupted

MAX_ATTEMPTS = 60


def verdict(program: Program, execution: str, caches: str):
    """(run, verdict) of one program, or (None, None) when its inputs cannot be built."""
    try:
        run = differential.run(program, execution, caches)
    except differential.InvalidInputs:
        return None, None
    return run, judging.judge(run, execution, signature.differences(run.eager.signature, run.other.signature))


def _read(program: Program) -> set:
    names = {a for s in program.statements for a in s.args} | set(program.returns)
    names |= {shape[1] for shape in (program.between, program.after) if shape}
    return names | {i.alias.split(".")[0].split("[")[0] for i in program.inputs if i.alias}


def _plainer_inputs(program: Program, index: int):
    i = program.inputs[index]
    if i.alias is not None:
        yield Input(i.name)
        return
    for change in ({"kind": "plain"}, {"placement": "contiguous", "strided": None}, {"dtype": "float32"},
                   {"shape": i.shape[1:]}, {"shape": tuple(min(s, 2) for s in i.shape)},
                   {"shape": tuple(min(s, 1) for s in i.shape)}):
        plainer = replace(i, **change)
        if plainer != i and plainer.shape and not (plainer.dtype != "float32" and plainer.kind != "plain"):
            yield plainer


def candidates(program: Program):
    """Smaller or plainer programs, the biggest cuts first."""
    for k in reversed(range(len(program.statements))):
        smaller = program.without_statement(k)
        if smaller is not None:
            yield smaller
    for r in program.returns:
        if len(program.returns) > 1:
            yield replace(program, returns=tuple(x for x in program.returns if x != r))
    read = _read(program)
    for k, i in enumerate(program.inputs):
        if i.name not in read and len(program.inputs) > 1:
            yield replace(program, inputs=program.inputs[:k] + program.inputs[k + 1:])
    if program.between:
        yield replace(program, between=())
    if program.after:
        yield replace(program, after=())
    if program.mode != "enabled":
        yield replace(program, mode="enabled")
    for k in range(len(program.inputs)):
        for plainer in _plainer_inputs(program, k):
            yield replace(program, inputs=program.inputs[:k] + (plainer,) + program.inputs[k + 1:])


@dataclass
class Reduction:
    program: Program       # the smallest program found that diverges with the key
    run: object            # its copysuite.fuzz.differential.Run
    verdict: object        # its copysuite.fuzz.model.Verdict
    attempts: int
    stopped: str           # "minimal" (no candidate kept the key), "attempts", "time" or "interrupted"


def minimize(program: Program, execution: str, caches: str, key: tuple, max_attempts: int = MAX_ATTEMPTS, *,
             deadline: float | None = None, start: tuple | None = None, check=None) -> Reduction:
    """Reduce `program`, which diverges with `key`, trying at most `max_attempts` candidates and starting none after
    `deadline` (time.monotonic()). `start`: the (run, verdict) of `program` when the caller has it (the search
    does), so that it is not run again. `check()`, called before each candidate, raises interrupt.Interrupted when
    the run is to stop; interrupted, it returns the smallest program so far."""
    best = program
    best_run, best_verdict = start or verdict(program, execution, caches)
    attempts, improved, stopped = 0, True, "minimal"
    try:
        while improved:
            improved = False
            for candidate in candidates(best):
                if attempts >= max_attempts:
                    stopped = "attempts"
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    stopped = "time"
                    break
                if check is not None:
                    check()
                attempts += 1
                run, judged = verdict(candidate, execution, caches)
                if judged is not None and judged.key == key:
                    best, best_run, best_verdict, improved = candidate, run, judged, True
                    break
    except Interrupted:
        stopped = "interrupted"
    return Reduction(best, best_run, best_verdict, attempts, stopped)


def finding_key(judged, program: Program) -> tuple:
    """A finding: what differs (its verdict key) and which ops the minimal program uses."""
    return (*judged.key, "ops:" + ",".join(program.ops))
