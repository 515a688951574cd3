"""Which differences between eager and an execution are by design, which are known upstream bugs, which are new.

A difference (a field of copysuite.fuzz.signature that differs) is first pruned of its consequences (once the call
raises on one side, every other field of that side is absent; once a write raises, what it reached is absent).
What remains is dropped where a RULE says the difference is by design (each with its evidence), then matched
against RECORDS (copysuite.fuzz.record: the fuzz patterns of the known-bug registry, specs/known/*.yaml): known
upstream bugs, each citing its issue, fix or draft. A program whose every remaining difference a record explains is
`known`; one with any other difference is `new`. The RULES stay here: each is a test over the run (which side raised,
what the other output is, the error's text) rather than a pattern, and cites the source or documentation that makes
the difference by design.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import torch
try:  # torch 1.13 has no torch._functorch (functorch was a package of its own): no AOT execution, no donated buffer
    import torch._functorch.config as functorch_config
except ImportError:
    functorch_config = None

from copysuite.fuzz.record import RECORDS
from copysuite.fuzz.signature import kind
from copysuite.fuzz.vocabulary import OUT_FORMS
from copysuite.strategies.space import AOT_EXECUTIONS


@dataclass(frozen=True)
class Rule:
    name: str
    why: str
    evidence: str

    def allows(self, field: str, eager, other, run) -> bool:
        return RULE_TESTS[self.name](field, eager, other, run)


RULES = (
    Rule("both_raise", "when eager raises, the execution must raise too, but may re-raise it as a class of its "
         "own that is an instance of eager's (dynamo's TorchRuntimeError is a RuntimeError: a caller's `except "
         "RuntimeError` catches both; docs/writing-specs.md, Executions)", "torch/_dynamo/exc.py (TorchRuntimeError)"),
    Rule("intermediate_base_not_a_view", "an output that is a view of an intermediate (neither an input nor another "
         "output, possibly the base of another output too) comes back from AOTAutograd as a tensor of its own, not "
         "a view: where no other output aliases it, or where it or its base does not require grad, the aliasing is "
         "hidden (aten._unsafe_view) so that the intermediate need not be an output of the graph",
         "torch/_functorch/_aot_autograd/collect_metadata_analysis.py, Note [Intermediate Bases Optimization] and "
         "OutputType.non_alias"),
    Rule("stride_of_size_one_dims", "the stride of a dim of size 0 or 1 is never used to address an element, so "
         "compilers leave it unspecified (torch's own is_contiguous() skips those dims)",
         "c10/core/Contiguity.h, _compute_contiguous (size-1 dims are skipped)"),
    Rule("no_derivative_fails_at_compile", "AOTAutograd traces the backward when it compiles: an op with no "
         "derivative (set_ on a tensor that requires grad) fails the compiled call, where eager fails at backward",
         "torch/_functorch/_aot_autograd/graph_capture_wrappers.py, create_joint (the forward and backward are traced "
         "together when compiling)"),
    Rule("saved_tensor_written_fails_at_compile", "AOTAutograd traces the backward when it compiles: where the program "
         "writes in place a tensor its backward reads (`a.atan2_(a)`, `a.mul_(a)` on a tensor that requires grad), "
         "autograd's version check refuses the traced backward and the compiled call fails, where eager's call runs "
         "and its backward fails (a first call that required grad compiled the backward of a judged call without one)",
         "https://github.com/pytorch/torchdynamo/issues/1962 (a maintainer: the compile "
         "stack traces the forward and backward into a joint graph when the forward is called, so eager's backward "
         "error shows at the call; closed as no real error); graph_capture_wrappers.py, create_joint"),
    Rule("outputs_are_siblings", "the compiled region is one autograd node (AOTAutograd's CompiledFunction, a "
         "torch.autograd.Function): its outputs are siblings, so autograd.grad of one output with respect to another "
         "that is not its view finds no path (None) where eager's graph went through it",
         "torch/_functorch/_aot_autograd/runtime_wrappers.py, class CompiledFunction(torch.autograd.Function)"),
    Rule("offset_in_fresh_storage", "the storage offset of an output that shares memory with no input (on both "
         "sides; other outputs in that memory keep their places relative to it) addresses nothing a caller can "
         "reach: eager's scatter ops copy the input's whole "
         "storage span and keep its offset (clone_preserve_strides), a compiler allocates just the elements; the "
         "documentation promises only \"a tensor with fresh storage\"",
         "aten/src/ATen/native/TensorShape.cpp, Note [*_scatter ops preserve strides]; "
         "https://docs.pytorch.org/docs/stable/generated/torch.select_scatter.html"),
    Rule("as_strided_view_chain_banned", "a write through a chain of views of which a later one is an as_strided "
         "(an input made by as_strided, then viewed) is refused when compiling: as_strided does not compose, so "
         "functionalization cannot replay the write, and the error says the program is banned in compile",
         "aten/src/ATen/FunctionalStorageImpl.cpp, FunctionalStorageImpl::add_update (\"banned in compile\", "
         "https://github.com/pytorch/pytorch/issues/104505)"),
    Rule("alias_regenerated_detached", "an output that aliases an input that requires grad, but does not require "
         "grad itself (a view of a non-differentiable dtype view), is regenerated from the input outside the graph "
         "and detached: the same memory, no longer an autograd view",
         "torch/_functorch/_aot_autograd/functional_utils.py, gen_alias_from_base (patch_requires_grad detaches "
         "an alias whose base requires grad and whose target does not)"),
    Rule("functionalize_resize_of_view", "resize_() of a view, which an out= op does when its out is a view of "
         "another shape, is unsupported by functionalize: the resized view cannot be replayed into its base (the "
         "slice_scatter that writes it back refuses the new size)",
         "torch.func.functionalize's docstring, failure mode (3): \"functionalize will only work on programs that "
         "use resize_() as long as the tensor being resized is not a view\""),
    Rule("functorch_refuses_requires_grad", "requires_grad_() (and retain_grad()) inside a function that a "
         "torch.func transform runs is refused by design: torch.func computes gradients with its own transforms",
         "aten/src/ATen/functorch/DynamicLayer.cpp, FuncTorchTLS::checkSupportsInplaceRequiresGrad (\"This is "
         "unsupported, please attempt to use the functorch transforms\")"),
    Rule("non_standard_bool_bytes", "a byte other than 0 or 1 written into bool memory through an integer dtype "
         "view is a non-standard bool, which reads as True and has no other value: torch's own copies of a bool "
         "tensor (clone, copy_, to) write it back as 1, and so does a compiled write-back of the bool input, so an "
         "integer view of that memory may read 1 where eager's reads the byte written",
         "https://github.com/pytorch/pytorch/issues/54789 (kernels assume 0 or 1; test_ops.py's "
         "test_non_standard_bool_values, skipped under UBSAN as \"undefined behavior\", requires only that they "
         "read as True)"),
    Rule("donated_buffers_refuse_retain_graph", "AOTAutograd compiles the backward at its first call and, where "
         "that call keeps no graph, donates its saved buffers: a later autograd.grad through the same compiled "
         "backward with retain_graph=True is refused (\"compiled with non-empty donated buffers\"; "
         "torch._functorch.config.donated_buffer switches it off)",
         "https://github.com/pytorch/pytorch/pull/130580 (the donated buffer, raising when the graph is kept), "
         "https://github.com/pytorch/pytorch/pull/139669 (on by default)"),
    # export
    Rule("requires_grad_not_traced", "export traces the tensor computation into a graph of ATen ops, and the "
         "exported module runs that graph: requires_grad_() (on an input or on another name for it) is no ATen op "
         "(a manual binding that never reaches the dispatcher), so nothing replays it, and the caller's tensors and "
         "the outputs keep the requires_grad the graph gives them, with what follows from it (a write to a leaf, "
         "backward, autograd.grad, and a call that autograd refuses, e.g. resize_ of a tensor that requires grad)",
         "torch/export/__init__.py, export() (\"a traced graph representing only the Tensor computation\"); "
         "aten/src/ATen/native/native_functions.yaml, requires_grad_ (manual_cpp_binding)"),
    Rule("export_specializes_to_shapes", "the exported module is specialized to the shapes of the inputs it was "
         "exported for: called again after a write between the calls changed an input's shape (transpose_ of a "
         "non-square input), its guards refuse the input (\"Guard failed\"), where eager runs",
         "https://docs.pytorch.org/docs/stable/export.html, Expressing Dynamism (\"specializing the exported program "
         "to those dimensions. One consequence of this is that at runtime, the program won't work on inputs with "
         "different shapes, even if they're valid in eager mode\")"),
)

# what a tensor's requires_grad decides: its own flags, a write to it, backward and autograd.grad through it
AUTOGRAD_STATE = r"(in|out)\.requires_grad|out\.(grad_fn|is_leaf)|write\.raises|backward\..*|grad\.value"

RULE_TESTS = {
    "both_raise": lambda field, eager, other, run: _both_raise(field, eager, other, run),
    "intermediate_base_not_a_view": lambda field, eager, other, run: _intermediate_view(field, run),
    "stride_of_size_one_dims": lambda field, eager, other, run: _unused_strides(field, eager, other, run),
    "no_derivative_fails_at_compile": lambda field, eager, other, run: _backward_at_compile(
        field, eager, run, ("derivative for", "not implemented")),
    "saved_tensor_written_fails_at_compile": lambda field, eager, other, run: _backward_at_compile(
        field, eager, run, ("modified by an inplace operation",)),
    "outputs_are_siblings": lambda field, eager, other, run: _siblings(field, eager, other, run),
    "offset_in_fresh_storage": lambda field, eager, other, run: _fresh_offset(field, run),
    "as_strided_view_chain_banned": lambda field, eager, other, run: (
        field == "call||raises" and eager is None and run.execution in AOT_EXECUTIONS
        and "as_strided() is non-compositional" in (run.other.error or "")),
    "alias_regenerated_detached": lambda field, eager, other, run: _detached_alias(field, run),
    "functionalize_resize_of_view": lambda field, eager, other, run: (
        field == "call||raises" and eager is None and run.execution == "functionalize"
        and bool({"resize_", *OUT_FORMS} & set(run.program.ops))
        and "expected src to have a size equal to the slice of self" in (run.other.error or "")),
    "functorch_refuses_requires_grad": lambda field, eager, other, run: (
        field == "call||raises" and run.execution == "functionalize"
        and "inside of a function being transformed by a functorch transform" in (run.other.error or "")),
    "non_standard_bool_bytes": lambda field, eager, other, run: _bool_bytes(field, eager, other, run),
    "donated_buffers_refuse_retain_graph": lambda field, eager, other, run: (
        field.startswith("grad|") and other == "raises RuntimeError" and not str(eager).startswith("raises")
        and run.execution in AOT_EXECUTIONS and getattr(functorch_config, "donated_buffer", False)
        and run.other.signature.get("backward||raises", "absent") is None),
    # export
    "requires_grad_not_traced": lambda field, eager, other, run: (
        run.execution == "export" and bool({"requires_grad_", "requires_grad_false"} & set(run.program.ops))
        and (re.fullmatch(AUTOGRAD_STATE, kind(field)) is not None
             or (field == "call||raises" and eager is None and re.search(r"requires? grad", run.other.error or "")))),
    "export_specializes_to_shapes": lambda field, eager, other, run: (
        field == "call||raises" and eager is None and run.execution == "export" and bool(run.program.between)
        and "Guard failed" in (run.other.error or "")),
}


def _both_raise(field: str, eager, other, run) -> bool:
    return (kind(field).endswith(".raises") and bool(eager and other) and "absent" not in (eager, other)
            and (field != "call||raises" or eager in run.other.error_classes))


def _bool_bytes(field: str, eager, other, run) -> bool:
    section, subject, attribute = field.split("|")
    if section != "out" or attribute != "values" or "view_uint8" not in run.program.ops:
        return False
    if run.eager.signature.get(f"out|{subject}|dtype") != "torch.uint8" or not any(
            i.alias is None and i.dtype == "bool" for i in run.program.inputs):
        return False
    # only what writing a non-standard bool back as a bool does: each byte other than 0 or 1 read as 1
    return (isinstance(eager, list) and isinstance(other, list) and len(eager) == len(other)
            and all(e == o or (o == 1 and e not in (0, 1)) for e, o in zip(eager, other)))


def _intermediate_view(field: str, run) -> bool:
    section, subject, attribute = field.split("|")
    if section != "out" or attribute not in ("is_view", "view_of") or run.execution not in AOT_EXECUTIONS:
        return False
    whose = str(run.eager.signature.get(f"out|{subject}|view_of"))
    # "base of out:X": the base it shares with another output, which no input is (inputs are named first)
    return ((whose == "an intermediate" or whose.startswith("base of out:"))
            and run.other.signature.get(f"out|{subject}|is_view") is False)


def _unused_strides(field: str, eager, other, run) -> bool:
    section, subject, attribute = field.split("|")
    shape = run.eager.signature.get(f"out|{subject}|shape")
    if section != "out" or attribute != "stride" or shape != run.other.signature.get(f"out|{subject}|shape"):
        return False
    return all(a == b or size <= 1 for a, b, size in zip(eager, other, shape))


def _backward_at_compile(field: str, eager, run, words: tuple) -> bool:
    """The compiled call failed with autograd's error (every one of `words`) where eager's call ran and eager's
    backward failed, or where the first of two calls required grad and the judged one does not (`between`
    requires_grad_off): the first call's compile traced the backward that eager never runs."""
    backward_failed = run.eager.signature.get("backward||raises") is not None or \
        run.program.between[:1] == ("requires_grad_off",)
    return (field == "call||raises" and eager is None and run.execution in AOT_EXECUTIONS and backward_failed
            and all(w in (run.other.error or "") for w in words))


def _siblings(field: str, eager, other, run) -> bool:
    section, subject, _ = field.split("|")
    if section != "grad" or other is not None or eager is None or run.execution not in AOT_EXECUTIONS:
        return False
    of, wrt = subject.split("~")
    return run.eager.signature.get(f"out|{of}|view_of") != f"out:{wrt}"


def _fresh_offset(field: str, run) -> bool:
    section, subject, attribute = field.split("|")
    if section != "out" or attribute != "offset":
        return False
    me = f"out:{subject}"
    partners = set()
    for side in (run.eager, run.other):
        for f, value in side.signature.items():
            pair = f.split("|")[1].split("~") if f.startswith("pair|") and f.endswith("|shares_storage") else ()
            if value is True and me in pair:
                partner = pair[1] if pair[0] == me else pair[0]
                if partner.startswith("in:"):
                    return False
                partners.add(partner.split(":", 1)[1])
    # outputs that share the fresh storage among themselves keep their places relative to one another
    return all(_byte_offset(run.eager, o) - _byte_offset(run.eager, subject)
               == _byte_offset(run.other, o) - _byte_offset(run.other, subject) for o in partners)


def _byte_offset(side, output: str):
    sig = side.signature
    dtype = getattr(torch, str(sig.get(f"out|{output}|dtype", "")).replace("torch.", ""), None)
    if not isinstance(dtype, torch.dtype) or not isinstance(sig.get(f"out|{output}|offset"), int):
        return None
    return sig[f"out|{output}|offset"] * torch.empty(0, dtype=dtype).element_size()


def _detached_alias(field: str, run) -> bool:
    section, subject, attribute = field.split("|")
    if section != "out" or attribute not in ("is_view", "view_of") or run.execution not in AOT_EXECUTIONS:
        return False
    sig = run.other.signature
    if sig.get(f"out|{subject}|is_view") is not False or sig.get(f"out|{subject}|requires_grad") is not False:
        return False
    return any(sig.get(f"in|{n}|requires_grad") is True and sig.get(f"pair|in:{n}~out:{subject}|shares_storage")
               for n in run.program.input_names)


@dataclass
class Verdict:
    status: str            # "same", "by_design", "known" or "new"
    differences: dict      # {field: [eager, other]} after pruning and the rules
    allowed: dict          # {field: rule name} dropped by a rule
    records: tuple         # names of the records that explain the known differences
    unexplained: tuple     # field kinds no record explains (sorted)

    @property
    def key(self) -> tuple:
        """What differs, for dedup: the kinds no record explains, or the records and the kinds they explain."""
        return ("new", *self.unexplained) if self.status == "new" else ("known", *self.records)


def pruned(differences: dict) -> dict:
    """The differences without their consequences: a side whose call raised has no other field."""
    if "call||raises" in differences:
        return {"call||raises": differences["call||raises"]}
    raised = {f.split("|")[:2][1] for f, (a, b) in differences.items() if kind(f) == "write.raises"}
    gone = {f for f in differences if f.startswith("write|") and f.split("|")[1] in raised and "reaches" in f}
    if "backward||raises" in differences:
        gone |= {f for f in differences if f.startswith("backward|") and f != "backward||raises"}
    return {f: v for f, v in differences.items() if f not in gone}


def judge(run, execution: str, differences: dict) -> Verdict:
    """The verdict on one run's differences (`differences`: signature.differences of its two sides)."""
    if not differences:
        return Verdict("same", {}, {}, (), ())
    remaining, allowed = {}, {}
    for field, (eager, other) in pruned(differences).items():
        rule = next((r for r in RULES if r.allows(field, eager, other, run)), None)
        if rule:
            allowed[field] = rule.name
        else:
            remaining[field] = [eager, other]
    if not remaining:
        return Verdict("by_design", {}, allowed, (), ())
    matched, unexplained = set(), set()
    for field, (eager, other) in remaining.items():
        names = [r.name for r in RECORDS if r.explains(field, eager, other, run, execution)]
        matched.update(names)
        if not names:
            unexplained.add(kind(field))
    status = "new" if unexplained else "known"
    return Verdict(status, remaining, allowed, tuple(sorted(matched)), tuple(sorted(unexplained)))

