"""The one place a conformance cell's id is built and read back: `ENTRY-CHECK-DEVICE-EXECUTION` (imports no torch).

A cell is one (spec entry, check, device, execution); CHECK is the expectation's key, `shares_storage` or
`shares_storage[b]` for an input other than `source`; EXECUTION is `eager` or a torch.compile backend
(`compile.aot_eager`, copysuite.strategies.space.EXECUTIONS). Entry ids hold no `-` (specs/schema.json), so the id
splits from the right. Every character is one pytest's `-k` accepts: `pytest -k 'clone:dense-strides-cpu-eager'` selects
that cell's test.
"""
from __future__ import annotations

from dataclasses import dataclass

TEST_NAME = "test_check"
OLD_TEST_NAMES = ("test_invariant",)   # the name in outcome files written before the rename: still read
SURFACE_TEST_NAME = "test_surface"   # the operator surface's cells (copysuite.surface)


@dataclass(frozen=True, order=True)
class CellId:
    entry: str
    check: str
    device: str
    execution: str = "eager"

    def __str__(self) -> str:
        return f"{self.entry}-{self.check}-{self.device}-{self.execution}"

    @classmethod
    def parse(cls, text: str) -> CellId:
        entry, check, device, execution = text.rsplit("-", 3)
        return cls(entry, check, device, execution)

    @classmethod
    def from_nodeid(cls, nodeid: str) -> "CellId | None":
        """The cell of a conformance test's node id (`...::test_check[ID]`), None for any other test."""
        names = (TEST_NAME, SURFACE_TEST_NAME, *OLD_TEST_NAMES)
        marker = next((f"::{name}[" for name in names if f"::{name}[" in nodeid), None)
        if marker is None or not nodeid.endswith("]"):
            return None
        try:
            return cls.parse(nodeid.split(marker, 1)[1][:-1])
        except ValueError:  # some other test of that name, whose parameters are not a cell id
            return None

    def as_dict(self) -> dict:
        return {"id": str(self), "entry": self.entry, "check": self.check, "device": self.device,
                "execution": self.execution}

    @classmethod
    def from_dict(cls, fields: dict) -> CellId:
        return cls(fields["entry"], fields["check"], fields["device"], fields["execution"])
