"""From loaded entries to cells: one (entry, check, device, execution) per stated expectation, device and execution,
each with the inputs it is judged on (a Hypothesis strategy, and its corner cases as explicit examples)."""
from __future__ import annotations

from dataclasses import dataclass

from copysuite.plan import bind
from copysuite.spec import expectations
from copysuite.plan.cell_id import CellId
from copysuite.run.executions import EXECUTORS
from copysuite.spec.load import Entry, split_key
from copysuite.strategies.cases import cases
from copysuite.strategies.corners import corner_cases
from copysuite.strategies.space import DEVICES, EXECUTIONS


class SelectionError(ValueError):
    """A --spec-entry, --check or --device that names nothing, or a selection that matches no cell."""


@dataclass(frozen=True)
class Cell:
    entry: Entry
    check: object          # copysuite.judge.checks.Check
    key: str               # the expectation's key: "shares_storage" or "shares_storage[b]"
    subject: str           # the input the check judges (or a variable of the program)
    device: str
    execution: str = "eager"

    @property
    def id(self) -> CellId:
        return CellId(self.entry.id, self.key, self.device, self.execution)

    def __repr__(self) -> str:  # what pytest shows for the test's parameter
        return f"Cell<{self.id}>"

    @property
    def draws_apart(self) -> bool:
        """Whether the cell sees inputs its entry's other checks do not: a check that also judges failing calls
        (`raises`), of an entry that expects some call to fail (see judgeable)."""
        raises = self.entry.expect.get("raises")
        return (self.check.judges_failing_calls and raises is not None
                and any(p.value is not None for p in expectations.plain_values(raises)))

    def expected(self, case):
        return expectations.resolve(self.entry.expect[self.key], case, bind.TORCH_VERSION)

    def evidence(self) -> list[str]:
        return expectations.evidence(self.entry.expect[self.key])

    def divergences(self) -> list:
        """The known bugs (copysuite.spec.divergences.Divergence) this cell reproduces on the installed torch."""
        return [d for d in self.entry.diverges
                if d.covers(self.key, self.execution, bind.TORCH_VERSION, self.device)]

    def skip_reason(self, *, ask_dynamo: bool = True) -> str | None:
        """Why the cell cannot run here, or None (`ask_dynamo`: see copysuite.run.executions.Executor.skip_reason)."""
        return (bind.skip_reason(self.entry, self.device)
                or EXECUTORS[self.execution].skip_reason(self.device, ask_dynamo=ask_dynamo))

    def space(self) -> dict:
        """The arguments of copysuite.strategies.cases.cases for this cell."""
        a = self.entry.applies
        return dict(dtypes=bind.dtypes(self.entry), kinds=[k for k in a.kinds if k in self.check.kinds],
                    placements=a.placements, modes=a.modes, device=self.device, min_ndim=a.ndim[0],
                    max_ndim=a.ndim[1], nonempty=a.nonempty, bits=a.bits, execution=self.execution)

    def judgeable(self, case) -> bool:
        """The entry's `requires`, and (unless the check judges failing calls) a call the spec expects to succeed."""
        requires = self.entry.applies.requires
        if requires and not requires.holds(case):
            return False
        if self.check.judges_failing_calls or "raises" not in self.entry.expect:
            return True
        return expectations.resolve(self.entry.expect["raises"], case, bind.TORCH_VERSION) is None

    def strategy(self):
        return cases(**self.space()).filter(self.judgeable)

    def corner_cases(self) -> list:
        """One judgeable case for every (kind, grad mode) pair, as explicit examples."""
        return corner_cases(**self.space(), accept=self.judgeable)


DEFAULT_EXECUTIONS = ("eager", "compile.aot_eager")


def default_executions(entry) -> tuple:
    """How an entry is checked when no execution is asked for: eagerly, and compiled with aot_eager when the entry
    (or its file) states its `executions` (the compile-focused programs of specs/compiled.yaml); every entry runs
    compiled when `--execution` asks for it."""
    stated = entry.applies.executions if entry.applies.executions_stated else ("eager",)
    return tuple(e for e in DEFAULT_EXECUTIONS if e in stated)


def plan_cells(entries, checks, *, entry_ids=(), check_names=(), devices=(), executions=()) -> list[Cell]:
    """Every cell of `entries` in the given executions (none given: each entry's default_executions), narrowed to
    the given entry ids, check names (or keys) and devices, if any. Checks that read or write values are not planned
    on meta tensors, which have none; checks that only eager can answer (`Check.eager_only`) are not planned
    compiled. A check of a program's own variable is planned in every execution: a compiled or transformed function
    returns the variables its entry judges beside `result` (programs.Program.with_returned)."""
    known_keys = {key for e in entries for key in e.expect}
    for what, given, known in (("spec entry", entry_ids, {e.id for e in entries}),
                               ("check", check_names, set(checks) | known_keys), ("device", devices, set(DEVICES)),
                               ("execution", executions, set(EXECUTIONS))):
        unknown = sorted(set(given) - known)
        if unknown:
            raise SelectionError(f"no {what} {', '.join(map(repr, unknown))}")
    cells = []
    for entry in entries:
        if entry_ids and entry.id not in entry_ids:
            continue
        wanted = [e for e in entry.applies.executions if e in (executions or default_executions(entry))]
        for key in entry.expect:
            name, subject = split_key(key)
            if check_names and name not in check_names and key not in check_names:
                continue
            check = checks[name]
            for device in entry.applies.devices:
                if (devices and device not in devices) or (device == "meta" and check.needs_data):
                    continue
                for execution in wanted:
                    if execution == "eager" or not check.eager_only:
                        cells.append(Cell(entry, check, key, subject, device, execution))
    if not cells:
        raise SelectionError("the selection matches no cell (an entry checked on other devices, or without "
                             "that check?)")
    return cells
