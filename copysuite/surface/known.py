"""Surface cells known to fail on some release or execution: upstream bugs and documented design, each with its
evidence. A cell with a record is a strict expected failure (copysuite.conformance): it is reported as diverged when
the named clause fails, and fails when it holds (the record's torch range must end) or fails another way.
"""
from __future__ import annotations

from dataclasses import dataclass

from packaging.specifiers import SpecifierSet
from packaging.version import Version


@dataclass(frozen=True)
class Known:
    entry: str            # the surface cell's entry, surface.CLASS:OP
    clause: str           # the clause that fails
    executions: tuple     # where it fails
    torch: str            # the releases it fails on (a PEP 440 specifier)
    evidence: str
    by_design: bool = False

    fixed_by = ""

    @property
    def observed(self) -> str:
        return f"clause {self.clause}"

    def matches(self, failure) -> bool:
        """The failure is this record's: the same clause fails."""
        return failure.check == self.clause

    def applies(self, entry: str, execution: str, version: str) -> bool:
        release = Version(Version(version).base_version)
        return entry == self.entry and execution in self.executions and release in SpecifierSet(self.torch)


COMPILED = ("compile.eager", "compile.aot_eager", "compile.aot_eager.dynamic", "compile.inductor",
            "compile.inductor.dynamic")

RECORDS = [
    Known("surface.inplace:requires_grad_", "version_bump", ("eager",) + COMPILED, ">=1.0",
          "https://pytorch.org/docs/stable/generated/torch.Tensor.requires_grad_.html: \"sets this tensor's "
          "requires_grad attribute in-place\" (its schema marks self written; a flag, not data: no version bump)",
          by_design=True),
]


def records(entry: str, execution: str, version: str) -> list:
    return [k for k in RECORDS if k.applies(entry, execution, version)]
