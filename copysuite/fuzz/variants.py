"""The executions users run beyond the suite's table (copysuite.run.executions), for the fuzzer: torch.export's two
tracers named explicitly (`export.strict`, `export.nonstrict`; the table's `export` is non-strict, the default),
export followed by `run_decompositions()` (`export.decomposed`), and torch.compile with `fullgraph=True` beside
the default the fuzzer calls (`fullgraph=False`).

Each varies one execution of the table (`base`) and is judged by that execution's rules and records, beside the
rules of its own (`RULES`): with fullgraph=True, and under strict export, dynamo refuses what it cannot capture, and
run_decompositions() makes the inference IR, which keeps no autograd state, each as the documentation says.
`executor(name)` answers for the table's executions and these alike.
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

import torch

from copysuite.fuzz.record import named_ops
from copysuite.fuzz.signature import kind
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
    Rule("inference_ir_autograd_state", ("export.decomposed",),
         "run_decompositions() turns the exported program into the inference IR, a purely functional graph for "
         "inference; only the training IR that export() returns is meant for eager autograd. What autograd records "
         "(requires_grad, grad_fn, leaves, backward and autograd.grad, forward-mode AD, and a write that autograd "
         "refuses on an output whose requires_grad differs) is not kept, and neither is autograd's view metadata "
         "(`_is_view()`, `_base`, and the creation meta by which autograd refuses a write into one output of a "
         "multi-output view: unbind and split decompose to slices) of an output whose memory sharing with every "
         "input and output is eager's",
         "https://docs.pytorch.org/docs/stable/export.html, \"Export IR: Training vs Inference\" (Training IR: "
         "\"can be used with eager PyTorch Autograd\"; Inference IR, ep.run_decompositions(): \"Purely "
         "functional\", \"Inference deployment\"); Tensor._is_view and _base are autograd's view metadata "
         "(torch/csrc/autograd/variable.h, AutogradMeta::is_view_; DifferentiableViewMeta's CreationMeta "
         "MULTI_OUTPUT_NODE, which PR 194037 names the only thing a select does not give of an unbind output)"),
)

# what autograd records of a run: the fields the inference IR does not keep
AUTOGRAD_STATE = r"(in|out)\.requires_grad|out\.(grad_fn|is_leaf)|backward\..*|grad\.value|forward\..*|after\..*"
# the views whose outputs autograd refuses to write into (CreationMeta MULTI_OUTPUT_NODE)
MULTI_OUTPUT_VIEWS = {"split", "unbind", "surface.alias:chunk", "surface.alias:split", "surface.alias:split_with_sizes",
                      "surface.alias:unbind", "surface.alias:tensor_split"}


def allowed(field: str, eager, other, run, execution: str) -> str | None:
    """The name of the variant's own rule that allows this difference, or None."""
    return next((r.name for r in RULES if execution in r.executions and TESTS[r.name](field, eager, other, run)),
                None)


def _autograd_state(field: str, run) -> bool:
    section, subject, attribute = field.split("|")
    if re.fullmatch(AUTOGRAD_STATE, kind(field)):
        return True
    if section == "write" and attribute == "raises":
        sides = (run.eager.signature, run.other.signature)
        differs = len({s.get(f"out|{subject}|requires_grad") for s in sides}) == 2
        return differs or _multi_output_view_write(subject, run)
    if section == "out" and attribute in ("is_view", "view_of"):
        return _same_sharing(f"out:{subject}", run)
    return False


def _multi_output_view_write(subject: str, run) -> bool:
    """Whether eager refused a write into `subject` that the execution ran, in a program calling a multi-output view,
    the output sharing memory with the same inputs and outputs on both sides (only the creation meta differs)."""
    refused = run.eager.signature.get(f"write|{subject}|raises") and run.other.signature.get(
        f"write|{subject}|raises") is None
    return bool(refused and MULTI_OUTPUT_VIEWS & named_ops(run.program) and _same_sharing(f"out:{subject}", run))


def _same_sharing(name: str, run) -> bool:
    """Whether `name` shares memory with the same inputs and outputs on both sides, and a write to it reaches the
    same ones where neither side's write raised."""
    subject = name.split(":", 1)[1]
    wrote = all(side.signature.get(f"write|{subject}|raises") is None for side in (run.eager, run.other))

    def sharing(signature):
        return {f: v for f, v in signature.items()
                if (f.startswith("pair|") and f.endswith("|shares_storage") and name in f.split("|")[1].split("~"))
                or (wrote and f.startswith(f"write|{subject}|reaches:"))}
    return sharing(run.eager.signature) == sharing(run.other.signature)


TESTS = {
    "dynamo_refuses_whole_graph": lambda field, eager, other, run: (
        field == "call||raises" and eager is None and other is not None
        and "Unsupported" in run.other.error_classes),
    "inference_ir_autograd_state": lambda field, eager, other, run: _autograd_state(field, run),
}
