"""One process's search: draw programs from a seed, judge each, then reduce the first program of each verdict key
that this process claims, within the run's time bound; the result is the report as plain data (docs/fuzz.md).

The time bound covers the whole run. The search stops early enough to leave the reduction its time: the estimated
cost of reducing the keys found so far (keys x attempts x the mean seconds of a program), at most SHRINK_SHARE of
the run. The reduction shares what is left among the keys still to reduce, so that no key takes the time of the
others; a key whose time ends is reported as reduced so far (`shrink.stopped`: "time"). A run stopped by a signal or
by its hard time bound (copysuite.fuzz.interrupt) reports what it has: the programs run, and every key found,
reduced or not.
"""
from __future__ import annotations

import faulthandler
import os
import platform
import sys
import tempfile
import time

import torch
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from copysuite.fuzz import differential, generate, merge, program_data, reproduction, shrink
from copysuite.fuzz.interrupt import Interrupted

PROGRESS_SECONDS = 10.0
SHRINK_SHARE = 0.25     # of a run's minutes, the most the search leaves to the reduction
# --vocabulary: the hand-written table, or the surface's ops (the surface scope they come from) beside it
VOCABULARIES = {"default": None, "surface": "all", "surface.sample": "sample"}


class _Done(Exception):
    """The search has run its programs or its minutes."""


def versions() -> str:
    return f"torch {torch.__version__}, python {platform.python_version()} ({sys.platform})"


def search(execution: str, *, seed: int = 0, programs: int | None = None, minutes: float | None = None,
           caches: str = "off", shrink_attempts: int = shrink.MAX_ATTEMPTS, progress=None,
           deadline: float | None = None, claim=None, stopper=None, vocabulary: str = "default",
           journal=None, inherited=()) -> dict:
    """Run the search and the reduction; returns the report. `deadline` (time.monotonic()) ends the whole run, by
    default `minutes` from now; `claim(key)` says whether this process reduces a verdict key (False: another
    process of the campaign has it); `stopper` (interrupt.Stopper) names what interrupted the run; `vocabulary`:
    the ops drawn, `default` (the hand-written table) or `surface` (copysuite.fuzz.surface_vocabulary);
    `journal` (copysuite.fuzz.journal.Journal) is told of each program before it runs and of each key and finding,
    so that a campaign keeps what a process found when it dies; `inherited` ([key, program, seed] of
    copysuite.fuzz.journal.unreduced): keys a dead process of this worker claimed and did not reduce,
    which this process judges again and reduces as its own (a key whose program no longer gives it stays the dead
    process's, unreduced)."""
    differential.configure(caches)
    # a process killed by a memory error (SIGSEGV, SIGABRT: surface runs met both) prints the Python line it was
    # running, the program's statement among them, instead of dying with an exit code alone (to stderr, unless a
    # campaign's journal has it write to its own file)
    if not faulthandler.is_enabled():
        faulthandler.enable()
    drawing = drawn_from(vocabulary)   # built before the clock starts: programs per second are the search's
    if caches == "on" and not os.environ.get("TORCHINDUCTOR_CACHE_DIR"):
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="copysuite-fuzz-cache-")
    limit = programs if programs is not None else 10 ** 9
    start = last = time.monotonic()
    if deadline is None and minutes is not None:
        deadline = start + 60 * minutes
    counts = {"programs": 0, "invalid": 0, "same": 0, "by_design": 0, "known": 0, "new": 0}
    first = {}          # verdict key -> (program, run, verdict) of its first program, for the keys this process has
    others = set()      # verdict keys another process claimed
    handed = {"keys": len(inherited), "judged_again_the_same": 0}
    drew = {}           # verdict key -> the seed that drew its program, where another process's seed did
    for key, kept, its_seed in inherited:   # claimed already, by the dead process
        program = program_data.program(kept)
        run, judged = shrink.verdict(program, execution, caches)
        if judged is not None and tuple(judged.key) == tuple(key) and tuple(key) not in first:
            handed["judged_again_the_same"] += 1
            first[tuple(key)] = (program, run, judged)
            drew[tuple(key)] = its_seed
            if journal is not None:
                journal.found(judged.key, finding(shrink.Reduction(program, run, judged, 0, "died"), program,
                                                  execution, caches, its_seed))

    def reserve(now: float) -> float:
        """Seconds to leave the reduction of the keys found so far."""
        per_program = (now - start) / max(counts["programs"], 1)
        return min(SHRINK_SHARE * (deadline - start), len(first) * shrink_attempts * per_program)

    @hypothesis_seed(seed)
    @settings(max_examples=limit, database=None, phases=[Phase.generate], deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(generate.programs(vocabulary=drawing))
    def one(program):
        nonlocal last
        if stopper is not None:
            stopper.check()
        now = time.monotonic()
        if counts["programs"] >= limit or (deadline is not None and now > deadline - reserve(now)):
            raise _Done
        if journal is not None:
            journal.running(program, counts, now - start)
        counts["programs"] += 1
        run, judged = shrink.verdict(program, execution, caches)
        if judged is None:
            counts["invalid"] += 1
            return
        counts[judged.status] += 1
        if judged.status in ("known", "new") and judged.key not in first and judged.key not in others:
            if claim is None or claim(judged.key):
                first[judged.key] = (program, run, judged)
                if journal is not None:
                    journal.found(judged.key, finding(shrink.Reduction(program, run, judged, 0, "died"), program,
                                                      execution, caches, seed))
            else:
                others.add(judged.key)
        if progress and time.monotonic() - last > PROGRESS_SECONDS:
            last = time.monotonic()
            rate = counts["programs"] / (last - start)
            progress(f"{counts['programs']} programs, {rate:.1f}/s; diverged: {counts['known']} known, "
                     f"{counts['new']} new ({len(first)} keys); by design {counts['by_design']}")

    interrupted = None

    def stop(reason: str) -> None:
        """From here on no program runs: what is left (the report) must not be cut."""
        nonlocal interrupted
        interrupted = interrupted or reason
        if stopper is not None:
            stopper.disarm()

    try:
        one()
    except _Done:
        pass
    except Interrupted as why:
        stop(str(why))
    searched = time.monotonic() - start
    if journal is not None:
        journal.searched(counts, searched)
    findings = {}
    for index, (key, (program, run, judged)) in enumerate(first.items()):
        left = len(first) - index
        key_deadline = None if deadline is None else time.monotonic() + (deadline - time.monotonic()) / left
        reduced = shrink.Reduction(program, run, judged, 0, "interrupted")
        if stopper is not None and stopper.reason:
            stop(stopper.reason)
        if not interrupted:
            if journal is not None:
                journal.reducing(key)
            try:
                reduced = shrink.minimize(program, execution, caches, key, shrink_attempts, deadline=key_deadline,
                                          start=(run, judged), check=stopper.check if stopper else None)
            except Interrupted as why:    # between two candidates
                stop(str(why))
            if reduced.stopped == "interrupted":
                stop((stopper.reason if stopper else None) or "interrupted")
        try:
            fkey = add_finding(findings, reduced, program, execution, caches, drew.get(key, seed))
        except Interrupted as why:        # a signal that came before stop(): nothing can raise again
            stop(str(why))
            fkey = add_finding(findings, reduced, program, execution, caches, drew.get(key, seed))
        if journal is not None:
            journal.reduced(key, findings[fkey])
    if stopper is not None:
        stopper.disarm()
    report = {"execution": execution, "seed": seed, "caches": caches, "versions": versions(),
              "torch": torch.__version__, "counts": counts, "search_seconds": round(searched, 1),
              "programs_per_second": round(counts["programs"] / searched, 2) if searched else None,
              "vocabulary": vocabulary,
              "total_seconds": round(time.monotonic() - start, 1), "interrupted": interrupted,
              "keys_claimed_elsewhere": len(others),
              **({"inherited_keys": handed} if inherited else {}),
              "findings": sorted(findings.values(), key=lambda f: (f["status"] != "new", f["key"]))}
    report["statements_per_finding"] = merge.statements(report["findings"])
    return report


def drawn_from(vocabulary: str):
    """The ops a program draws from: None for the hand-written table, else the surface vocabulary (built in this
    process, its ops known to the statements that name them)."""
    if VOCABULARIES[vocabulary] is None:
        return None
    from copysuite.fuzz import surface_vocabulary
    return surface_vocabulary.vocabulary_of(VOCABULARIES[vocabulary])


def add_finding(findings: dict, reduced, original, execution: str, caches: str, seed: int) -> tuple:
    """Add one reduced program to `findings` (by finding key), or count it where its finding is already there;
    returns its finding key."""
    fkey = shrink.finding_key(reduced.verdict, reduced.program)
    if fkey in findings:
        findings[fkey]["programs_with_key"] += 1
    else:
        findings[fkey] = finding(reduced, original, execution, caches, seed)
    return fkey


def finding(reduced, original, execution: str, caches: str, seed: int) -> dict:
    """A reduced program (shrink.Reduction) as a finding of the report."""
    small, run, judged = reduced.program, reduced.run, reduced.verdict
    fkey = shrink.finding_key(judged, small)
    return {
        "key": list(fkey), "status": judged.status, "records": list(judged.records),
        "unexplained": list(judged.unexplained), "ops": list(small.ops),
        "differences": judged.differences, "allowed": judged.allowed,
        "eager_error": run.eager.error, "error": run.other.error, "program": small.text(),
        "program_data": program_data.data(small),
        "original": original.text(), "statements": len(small.statements),
        "original_statements": len(original.statements), "seed": seed,
        "shrink_attempts": reduced.attempts, "shrink_stopped": reduced.stopped, "programs_with_key": 1,
        "reproduction": reproduction.script(run, execution, caches, judged.differences)}
