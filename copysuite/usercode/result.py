"""What `copysuite.compare` returns: data (each difference with its field, both values and its verdict), a readable
`str`, and `check()`, which raises an AssertionError carrying the reproductions where a difference is new."""
from __future__ import annotations

import dataclasses

NEW = "new"


@dataclasses.dataclass(frozen=True)
class Difference:
    execution: str
    field: str            # copysuite.fuzz.signature's name: `section|subject|attribute`
    eager: object         # the value eagerly
    value: object         # the value under the execution
    verdict: str          # "new", "known" or "by design"
    names: tuple = ()     # the records (known) or the rule (by design)
    evidence: tuple = ()
    candidates: tuple = ()   # records that would explain it if the function ran one of their ops

    def line(self) -> str:
        why = {NEW: "NEW", "known": f"known: {', '.join(self.names)}",
               "by design": f"by design: {', '.join(self.names)}"}[self.verdict]
        names = ", ".join(c.split(" (")[0] for c in self.candidates[:6])
        more = f" and {len(self.candidates) - 6} more" if len(self.candidates) > 6 else ""
        hint = f" (known if the function runs the ops of a record: {names}{more})" if self.candidates else ""
        return f"{self.field}: eager {self.eager!r}, {self.execution} {self.value!r}  [{why}]{hint}"


@dataclasses.dataclass
class Comparison:
    target: str                    # what was compared: `module.qualname`, or a module's class
    executions: tuple              # the executions that ran
    differences: list              # [Difference], after pruning consequences
    reproductions: dict            # {execution: standalone Python} where anything differs but by design
    skipped: dict = dataclasses.field(default_factory=dict)   # {execution: why it could not run here}
    limits: tuple = ()             # what the reproductions cannot rebuild (copysuite.usercode.reproduction)

    @property
    def new(self) -> list:
        return [d for d in self.differences if d.verdict == NEW]

    def __str__(self) -> str:
        lines = [f"copysuite compare: {self.target}, eager against {', '.join(self.executions) or 'nothing'}"]
        for execution in self.executions:
            found = [d for d in self.differences if d.execution == execution]
            counts = {v: sum(d.verdict == v for d in found) for v in (NEW, "known", "by design")}
            lines.append(f"  {execution}: " + (", ".join(f"{n} {v}" for v, n in counts.items() if n) or "same"))
            lines += [f"    {d.line()}" for d in found]
        lines += [f"  {execution}: skipped: {why}" for execution, why in self.skipped.items()]
        lines += [f"  note: {limit}" for limit in self.limits]
        return "\n".join(lines)

    def check(self) -> Comparison:
        """Raise an AssertionError with every new difference and its executions' reproductions; else return self."""
        if not self.new:
            return self
        executions = list(dict.fromkeys(d.execution for d in self.new))
        text = [str(self), ""]
        for execution in executions:
            text += [f"--- reproduction under {execution} (save it as a file and run it alone):",
                     self.reproductions[execution], ""]
        raise AssertionError("\n".join(text))
