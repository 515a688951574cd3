"""Known divergences (a spec's `diverges`): what one is, and how a `diverges` item becomes one: the item names a record
of the known-bug registry (copysuite.known.registry, specs/known/*.yaml), which gives the evidence and the defaults,
and may narrow its executions, devices, expectations and observed pattern. An item's `torch` replaces the record's
range rather than narrowing it (a 2.0 item of a 2.2+ record claims 2.0.1 alone): give the whole range the item means,
`>=2.2,<2.4` and not `<2.4`. Imports no torch.

Errors are DivergenceError(key, message), the key relative to the item; copysuite.spec.load names the file and entry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.specifiers import SpecifierSet

from copysuite.spec import expectations
from copysuite.spec.expectations import ExpectationError
from copysuite.strategies.space import DEVICES

REQUIRED = ("executions", "torch", "expect", "observed", "evidence")


class DivergenceError(Exception):
    def __init__(self, key: str, message: str):
        self.key, self.message = key, message
        super().__init__(f"{key}: {message}")


@dataclass(frozen=True)
class Divergence:
    """A known upstream bug (`diverges` in a spec): under these executions on these torch releases, these
    expectations do not hold, and the failure's observed value (or its detail) matches `observed`, a regular
    expression. The cell is a strict expected failure: it fails when the bug stops reproducing."""
    executions: tuple
    torch: str             # the affected releases, e.g. ">=2.1"
    keys: tuple            # the expectations it breaks: "raises", "shares_storage[b]"
    observed: str
    evidence: str          # the upstream issue (or PR)
    fixed_by: str = ""     # the fix PR, when there is one
    by_design: bool = False   # upstream means it (the evidence says so), rather than a bug awaiting a fix
    note: str = ""
    devices: tuple = DEVICES  # where it shows
    record: str = ""          # its name in the registry
    order_dependent: bool = False   # the record's: a claimed cell that holds passes (specs/known/schema.json)

    def covers(self, key: str, execution: str, version, device: str) -> bool:
        return (key in self.keys and execution in self.executions and device in self.devices
                and version in SpecifierSet(self.torch, prereleases=True))

    def matches(self, failure) -> bool:
        """The failure is this bug: its observed value or detail matches `observed`."""
        return re.search(self.observed, f"{failure.observed!r}\n{failure.detail or ''}", re.S) is not None


def parse(d: dict, expect: dict, records: dict) -> Divergence:
    """One `diverges` item of an entry whose expectations are `expect` (key -> node); `records`: the registry, name ->
    copysuite.known.registry.Record."""
    name = d["record"]
    if name not in records:
        raise DivergenceError("record", f"no record named {name!r} in specs/known/*.yaml: add it there "
                              "(docs/developing.md, 'Add a record') or name an existing one")
    d = {**records[name].spec_fields(), **{k: v for k, v in d.items() if k != "record"}}
    missing = [k for k in REQUIRED if k not in d]
    if missing:
        raise DivergenceError("", f"{missing} missing: give them in the item or in record {name!r}")
    try:
        expectations.torch_range(d["torch"])
    except ExpectationError as exc:
        raise DivergenceError("torch", exc.message) from None
    unknown = [k for k in d["expect"] if k not in expect]
    if unknown:
        raise DivergenceError("expect", f"{unknown} are not expectations of this entry")
    try:
        re.compile(d["observed"])
    except re.error as exc:
        raise DivergenceError("observed", f"bad regular expression: {exc}") from None
    return Divergence(tuple(d["executions"]), d["torch"], tuple(d["expect"]), d["observed"], d["evidence"],
                      d.get("fixed_by", ""), d.get("by_design", False), d.get("note", ""),
                      tuple(d.get("devices", DEVICES)), name, d.get("order_dependent", False))
