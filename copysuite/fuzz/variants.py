"""The executions users run beyond the suite's table (copysuite.run.executions), for the fuzzer: torch.export's two
tracers named explicitly (`export.strict`, `export.nonstrict`; the table's `export` is non-strict, the default),
export followed by `run_decompositions()` (`export.decomposed`), and torch.compile with `fullgraph=True` beside
the default the fuzzer calls (`fullgraph=False`).

Each varies one execution of the table (`base`) and is judged by that execution's rules and records, beside the rule
of its own (`RULES`): with fullgraph=True, and under strict export, dynamo refuses what it cannot capture, which
the documentation says it does. `executor(name)` answers for the table's executions and these alike.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass

import torch

from copysuite.run.executions import EXECUTORS


@dataclass(frozen=True)
class Variant:
    name: str
    base: str                     # the execution of the table it varies: its rules and records judge it
    strict: bool | None = None    # export: `strict=` given explicitly
    decompose: bool = False       # export: run_decompositions() (the core ATen decompositions) before module()
    fullgraph: bool = False       # torch.compile(fullgraph=...)

    @property
    def compiled(self) -> bool:
        return EXECUTORS[self.base].compiled

    def skip_reason(self, device: str | None = None) -> str | None:
        reason = EXECUTORS[self.base].skip_reason(device)
        if reason:
            return f"{self.name}: {reason}"
        export = getattr(getattr(torch, "export", None), "export", None)
        if self.strict is not None and "strict" not in inspect.signature(export).parameters:
            return f"{self.name}: torch.export.export has no strict= on torch {torch.__version__}"
        if self.decompose and not hasattr(getattr(torch.export, "ExportedProgram", None), "run_decompositions"):
            return f"{self.name}: ExportedProgram.run_decompositions() is missing on torch {torch.__version__}"
        return None

    def define_lines(self, program, fullgraph: bool = False) -> list[str]:
        return EXECUTORS[self.base].define_lines(program, fullgraph=self.fullgraph)

    def call_lines(self, program) -> list[str]:
        lines = EXECUTORS[self.base].call_lines(program)
        if EXECUTORS[self.base].transform != "export":
            return lines
        args = ", ".join(program.input_names)
        packed = f"({args},)" if len(program.input_names) == 1 else f"({args})"
        strict = "" if self.strict is None else f", strict={self.strict}"
        decompose = ".run_decompositions()" if self.decompose else ""
        # the base's first line exports; the rest call what it made
        return [f"program = torch.export.export(Program(), {packed}{strict}){decompose}.module()", *lines[1:]]


VARIANTS = {v.name: v for v in (
    Variant("export.strict", "export", strict=True),
    Variant("export.nonstrict", "export", strict=False),
    Variant("export.decomposed", "export", decompose=True),
    Variant("compile.eager.fullgraph", "compile.eager", fullgraph=True),
    Variant("compile.aot_eager.fullgraph", "compile.aot_eager", fullgraph=True),
    Variant("compile.inductor.fullgraph", "compile.inductor", fullgraph=True),
)}
NAMES = (*(e for e in EXECUTORS if e != "eager"), *VARIANTS)


def executor(name: str):
    """The table's executor or a variant: define_lines, call_lines, compiled, skip_reason."""
    return VARIANTS.get(name) or EXECUTORS[name]


def base(name: str) -> str:
    """The execution whose rules and records judge `name`."""
    return VARIANTS[name].base if name in VARIANTS else name


@dataclass(frozen=True)
class Rule:
    name: str
    executions: tuple
    why: str
    evidence: str


RULES = (
    Rule("dynamo_refuses_whole_graph", ("compile.eager.fullgraph", "compile.aot_eager.fullgraph",
                                       "compile.inductor.fullgraph", "export.strict"),
         "with fullgraph=True a graph break is an error, and strict export traces with dynamo, which refuses what "
         "it cannot capture (dynamo's Unsupported) where eager, and the default fullgraph=False, run it",
         "torch.compile's docstring, fullgraph (\"if there are graph breaks, then this will raise an error\"); "
         "torch.export.export's docstring, strict (\"TorchDynamo has limited Python feature coverage, thus you may "
         "experience more errors\")"),
)


def allowed(field: str, eager, other, run, execution: str) -> str | None:
    """The name of the variant's own rule that allows this difference, or None."""
    refused = (field == "call||raises" and eager is None and other is not None
               and "Unsupported" in run.other.error_classes)
    return next((r.name for r in RULES if execution in r.executions and refused), None)
