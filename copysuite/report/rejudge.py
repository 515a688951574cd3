"""Re-judge outcome files with today's specs and known-bug registry (imports no torch): a cell that failed in a run made
before the record that explains it was written is a divergence now, so a failed cell in a report always means new
and untriaged.

A spec cell is explained by a divergence of its entry (a `diverges` item naming a registry record) that covers the
cell's check, execution, device and release and whose observed pattern matches the failure's observed value and
detail, exactly as the run would have judged it (copysuite.spec.divergences.Divergence). A surface cell is explained by
a registry record's surface item naming the cell, its execution and release, with the failing clause. The re-judged
cell keeps what the run observed and says which record explains it (`rejudged`).

A stale cell (failure kind `stale_divergence`: a record claimed the cell, and the run observed the contract hold) whose
release no record covers today held: it turns passed, `rejudged` saying so. One that a record still covers stays
failed: that record's range is what is wrong. Symmetrically, a cell that held in a run made before a record claimed it
turns failed as stale, as a run with today's registry would fail it (strict expected failures): the page must not
show a record's range as right where the run saw the contract hold. Records that are order-dependent (their bug needs
state that earlier programs of the worker left, specs/known/schema.json) claim no held cell: a held cell only they
claim stays held, and a stale one turns passed.

A surface cell whose worker died (failure kind `crashed`) fails the pseudo-clause `crashed`. A held surface cell is
claimed by every item naming it, whatever its clause, except an item narrowed to one `input` (the outcome does not keep
the sources of a cell's calls).
"""
from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from copysuite.known import registry
from copysuite.spec.load import load_specs


@dataclass(frozen=True)
class Observed:
    """What a Divergence matches: the failure's observed value and detail (copysuite.judge.failures names them)."""
    observed: object
    detail: str


def release(version: str) -> Version:
    return Version(Version(version).base_version)


class Judge:
    """Today's specs and registry, loaded once."""

    def __init__(self, entries=None, records=None):
        self.entries = {e.id: e for e in (entries if entries is not None else load_specs().entries)}
        self.records = records if records is not None else registry.load()

    def explain(self, cell: dict, version: str) -> str | None:
        """The name of the record that explains this failed cell on this torch release, or None."""
        failure = cell.get("failure") or {}
        if cell["entry"].startswith("surface."):
            crashed = failure.get("kind") == registry.CRASHED
            clause = registry.CRASHED if crashed else failure.get("check", cell["check"])
            return next((r.name for r in self.records.values() for item in r.surface
                         if item.clause == clause and item.applies(cell["entry"], cell["execution"], version)), None)
        entry = self.entries.get(cell["entry"])
        if entry is None:
            return None
        seen = Observed(failure.get("observed"), failure.get("detail") or "")
        return next((d.record for d in entry.diverges
                     if d.covers(cell["check"], cell["execution"], release(version), cell["device"])
                     and d.matches(seen)), None)

    def claimants(self, cell: dict, version: str) -> list[str]:
        """The records that claim this cell on this torch release, whatever it observed."""
        if cell["entry"].startswith("surface."):
            return [r.name for r in self.records.values() for item in r.surface
                    if not item.input and item.applies(cell["entry"], cell["execution"], version)]
        entry = self.entries.get(cell["entry"])
        if entry is None:
            return []
        return [d.record for d in entry.diverges
                if d.covers(cell["check"], cell["execution"], release(version), cell["device"])]

    def rejudge(self, doc: dict) -> tuple[dict, int]:
        """The document with every failed cell that a record explains now turned diverged, every stale cell no record
        claims now turned passed, and every held cell a record claims now turned failed as stale; and how many
        turned."""
        cells, turned = [], 0
        for cell in doc["cells"]:
            failed = cell["outcome"] == "failed"
            stale = failed and (cell.get("failure") or {}).get("kind") == "stale_divergence"
            name = self.explain(cell, doc["torch"]) if failed and not stale else None
            held = cell["outcome"] == "passed"
            claims = self.claimants(cell, doc["torch"]) if stale or held else []
            # a held cell is stale only for a strict record: an order-dependent one's cells may hold
            strict = [n for n in claims if not self.records[n].order_dependent]
            if name:
                cell, turned = {**cell, "outcome": "diverged", "rejudged": name}, turned + 1
            elif stale and not strict:
                why = "an order-dependent record" if claims else "no record"
                cell, turned = {**cell, "outcome": "passed", "rejudged": f"stale: {why} claims it now"}, turned + 1
            elif held and strict:
                claim = ", ".join(sorted(set(strict)))
                message = (f"a known divergence no longer reproduces on this torch: {claim} claims the cell, and the "
                           "run saw it hold; fixed? then end the record's torch range")
                cell = {**cell, "outcome": "failed", "failure": {"kind": "stale_divergence", "message": message},
                        "rejudged": f"stale: {claim} claims it now"}
                turned += 1
            cells.append(cell)
        return {**doc, "cells": cells}, turned
