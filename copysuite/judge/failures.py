"""A conformance failure as data: what was expected and observed, on which input, by which program, with the
reproduction that ran. The message is rendered from these fields; the outcome JSON stores the fields themselves, so
the gate, the matrix and the fault campaign read them instead of parsing text (imports no torch)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

FAILURE_KINDS = (          # the outcome JSON's failure "kind" (copysuite/outcome/outcome.schema.json)
    "mismatch",             # the check observed a value other than the expected one
    "call_raised",          # the call raised where the spec expects it to succeed
    "observation_failed",   # the check itself could not observe (an exception while judging)
    "error",                # the test failed otherwise (a health check, an error in the harness): no fields
    "crashed",              # the worker process died while running it (pytest-xdist): no fields
    "stale_divergence",     # a known divergence (a spec's `diverges`) no longer reproduces: no fields
)


def to_data(value):
    """A JSON-safe form of an expected or observed value (tuples become lists, anything else its repr)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    return repr(value)


@dataclass(eq=False)  # compared and hashed by identity, like any exception
class ConformanceFailure(AssertionError):
    cell: str               # the cell id, ENTRY-CHECK-DEVICE-EXECUTION (copysuite.plan.cell_id)
    entry: str
    check: str              # the expectation's key, e.g. shares_storage or shares_storage[b]
    kind: str               # mismatch, call_raised or observation_failed (FAILURE_KINDS)
    expected: object
    observed: object
    detail: str | None
    input: str              # how the input was built, in words
    program: str            # the text that ran, with its grad mode
    versions: str           # torch, numpy, python
    evidence: list          # the version gates behind the expectation
    spec: str               # where the expectation is written
    reproduction: str       # Python that rebuilds the input and runs the program
    compiled_before: list = field(default_factory=list)   # inputs that compiled the same function first (run.history)

    def __post_init__(self):
        super().__init__(self.message())

    def headline(self) -> str:
        return f"{self.entry} / {self.check}: expected {self.expected!r}, observed {self.observed!r}"

    def message(self) -> str:
        parts = [self.headline(), f"  versions: {self.versions}", f"  input:    {self.input}",
                 f"  call:     {self.program}"]
        if self.detail:
            parts.append(f"  detail:   {self.detail}")
        if self.kind == "call_raised":
            parts.append("  (the spec expects no error for this input)")
        if self.evidence:
            parts.append("  version gates: " + "; ".join(self.evidence))
        if self.compiled_before:
            shown = "; ".join(self.compiled_before[-3:])
            parts.append(f"  compiled before: the same compiled function first compiled for "
                         f"{len(self.compiled_before)} "
                         f"other inputs (the reproduction compiles it afresh; if it holds there, run the cell alone: "
                         f"-p no:xdist -k '{self.cell}'); the last: {shown}")
        parts += [f"  spec:     {self.spec}", "  reproduce:", self.reproduction]
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.message()

    def as_dict(self) -> dict:
        return {k: to_data(v) for k, v in asdict(self).items()}


def find(exc):
    """The ConformanceFailure behind an exception pytest saw (Hypothesis may group several), or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ConformanceFailure):
            return exc
        for inner in getattr(exc, "exceptions", ()):
            found = find(inner)
            if found:
                return found
        exc = exc.__cause__ or exc.__context__
    return None
