"""Surface cells known to fail on some release or execution: the `surface` items of the known-bug registry
(copysuite.known.registry, specs/known/*.yaml), upstream bugs and documented design, each with its record's evidence.
A cell with a record is a strict expected failure (copysuite.plugin.conformance): it is reported as diverged when the
named clause fails, and fails when it holds (the item's torch range must end; not for an order-dependent record) or
fails another way. The clause `crashed` names a cell whose worker dies (copysuite.plugin.crashes).

`records(entry, execution, version, sources)` is the lookup: one `Known` per surface item that applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from copysuite.known import registry


@dataclass(frozen=True)
class Known:
    """One surface item of a registry record, as the surface's consumers read it."""
    record: registry.Record
    item: registry.SurfaceItem

    @property
    def cells(self) -> tuple:      # surface cell ids, surface.CLASS:OP (a trailing * matches any rest)
        return self.item.cells

    @property
    def clause(self) -> str:       # the clause that fails
        return self.item.clause

    @property
    def executions(self) -> tuple:
        return self.item.executions

    @property
    def torch(self) -> str:        # the releases it fails on (a PEP 440 specifier)
        return self.item.torch

    @property
    def input(self) -> str:
        """Where only one input fails: the source its call names (an OpInfo sample), judged only where the cell has
        that call (the default sample lacks the OpInfo calls of the sweep)."""
        return self.item.input

    @property
    def by_design(self) -> bool:
        return self.record.by_design

    @property
    def order_dependent(self) -> bool:
        return self.record.order_dependent

    @property
    def fixed_by(self) -> str:
        return self.record.fixed_by

    @property
    def evidence(self) -> str:
        """The record's references, then what the item (or else the record) says."""
        also = f" (also {', '.join(self.record.also)})" if self.record.also else ""
        return f"{self.record.evidence}{also}: {(self.item.note or self.record.note).rstrip('.')}"

    @property
    def observed(self) -> str:
        return f"clause {self.clause}"

    def matches(self, failure) -> bool:
        """The failure is this record's: the same clause fails (`crashed`: copysuite.plugin.crashes)."""
        return failure.check == self.clause

    def applies(self, entry: str, execution: str, version: str) -> bool:
        return self.item.applies(entry, execution, version)


@lru_cache(maxsize=1)
def known() -> tuple:
    """Every surface item of the registry, in registry order."""
    return tuple(Known(r, item) for r in registry.load().values() for item in r.surface)


def records(entry: str, execution: str, version: str, sources=None) -> list:
    """The records of a surface cell, a binding cell (surface.binding:NAME) included; `sources`, those of its calls
    (copysuite.surface.inputs.Call.source), where known."""
    return [k for k in known() if k.applies(entry, execution, version)
            and (not k.input or sources is None or any(s.startswith(k.input) for s in sources))]
