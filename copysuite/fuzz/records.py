"""Known upstream bugs the fuzzer meets, as patterns over a run's differences, each citing its issue or fix (the
evidence) and, where the suite checks it, the spec entry (`entry`) whose record is the same bug.

A record explains one differing field when the execution and the installed torch are its own, the field's kind
matches `kinds` (a regular expression), and, where given, the program uses one of `ops`, has aliased inputs
(`aliased`), and the execution's exception matches `message`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import torch
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from copysuite.fuzz.signature import kind

AOT = ("compile.aot_eager", "compile.aot_eager.dynamic", "compile.inductor", "compile.inductor.dynamic")
INDUCTOR = ("compile.inductor", "compile.inductor.dynamic")
DYNAMO = ("compile.eager", *AOT)
EXPORT = ("export",)
TORCH = Version(Version(torch.__version__).base_version)


@dataclass(frozen=True)
class Record:
    name: str
    executions: tuple
    kinds: str
    evidence: str
    note: str
    torch: str = ">=2.0"
    ops: tuple = ()
    aliased: bool = False
    message: str = ""
    entry: str = ""
    caches: bool = False   # only what the compile caches alone produce (differential.run's `uncached`)
    subclass: bool = False  # only programs with an input that a wrapper subclass holds aliased (TwoTensor(a, a))
    alias: str = ""         # only programs with an aliased input whose expression matches this (".detach()")
    eager_raises: bool = False  # only where eager's call raised too

    def explains(self, field: str, eager, other, run, execution: str) -> bool:
        if execution not in self.executions or TORCH not in SpecifierSet(self.torch):
            return False
        if self.caches and (run.uncached is None or run.uncached.get(field, "absent") == other):
            return False   # a caches record explains only what the same program compiled without them does not show
        if not re.fullmatch(self.kinds, kind(field)):
            return False
        if self.ops and not set(self.ops) & set(run.program.ops):
            return False
        if self.subclass and not any(i.alias and "TwoTensor(" in i.alias for i in run.program.inputs):
            return False
        if self.alias and not any(i.alias and re.search(self.alias, i.alias) for i in run.program.inputs):
            return False
        if self.aliased and not (any(i.alias for i in run.program.inputs) or run.texts.get("warm")):
            return False
        if self.eager_raises and run.eager.error is None:
            return False
        return not self.message or bool(run.other.error and re.search(self.message, run.other.error))


GH = "https://github.com/pytorch/pytorch/"
RECORDS = (
    Record("synthetic_base_identity", AOT,
           r"pair\.(in~out|out~out)\.same_object|out\.(grad_fn|is_leaf|is_view|view_of)|write\.raises|backward\.grad",
           GH + "pull/115279",
           "aliased inputs are merged into a synthetic base, and an output that was one of them comes back as a new "
           "view of it: an equal alias, not the object passed", aliased=True, entry="compiled.overlapping_views"),
    Record("functionalize_identity", ("functionalize",), r"pair\.in~out\.same_object", GH + "pull/172836",
           "functionalize returns the unwrapped value of an output that is a mutated input: a new tensor",
           entry="compiled.mutates_input"),
    Record("functionalize_autograd", ("functionalize",),
           r"out\.(requires_grad|grad_fn|is_leaf)|backward\..*|grad\.value|write\.raises",
           "https://github.com/pytorch/functorch/issues/667",
           "functionalize works on wrapper tensors whose autograd state is their own: outputs are cut from the graph",
           entry="compiled.mutates_input"),
    Record("detach_alias_copied", AOT,
           r"pair\.(out~out|in~out)\.(shares_storage|same_object)|write\.reaches:.*|out\.view_of",
           GH + "issues/191449", "an output that is a detached alias (detach(), .data) of another output or of an "
           "intermediate comes back in memory of its own", ops=("detach", "detach_", "data"),
           entry="compiled.tensor_and_detach"),
    Record("view_of_overlapping_input", AOT, r"call\.raises", GH + "issues/198095",
           "an output view of an input merged into a synthetic base is rebuilt by replaying its ViewMeta sequence on "
           "the base, and the shape comes out wrong", message="incorrect out shape after application of ViewMeta",
           entry="compiled.view_of_overlapping_input"),
    Record("synthetic_base_out_of_bounds", AOT, r"call\.raises", GH + "issues/140171",
           "the mutation of a synthetic base is written back with as_strided_scatter out of the storage's bounds",
           message=r"as_strided_scatter: .* out of bounds", entry="compiled.overlapping_views:parameter"),
    Record("data_assignment_version", AOT, r"in\.version_moved", GH + "issues/139152",
           "dynamo lowers `.data =` to set_() under no_grad, which moves the tensor's version counter",
           torch="<2.14", ops=("data_assign",), entry="compiled.data_assignment"),
    Record("data_assignment_strides", INDUCTOR, r"call\.raises", GH + "issues/191337",
           "inductor asserts an input's strides after `.data =` changed them", ops=("data_assign",),
           message=r"expected size .* stride", entry="compiled.data_assignment"),
    Record("no_grad_view_replayed_with_grad", AOT, r"call\.raises", GH + "issues/158561",
           "a write into a view of an input made under no_grad is replayed with grad mode on, and autograd refuses it",
           message="A view was created in no_grad mode", entry="compiled.copy_into_view_of_input"),
    Record("inductor_noop_returns_input", INDUCTOR, r"pair\.(in|out)~out\.(same_object|shares_storage)"
           r"|write\.(reaches:.*|raises)|out\.(is_view|view_of|grad_fn|is_leaf|requires_grad|stride|offset)"
           r"|in\.version_moved", GH + "issues/197893",
           "inductor replaces `x + 0`, `x * 1`, `x ** 1` by its operand, so the output is the input itself (or its "
           "alias), with the input's strides, offset and requires_grad, and a write to it reaches the input (or "
           "is refused as a write to a leaf that requires grad) (from 2.14)", torch=">=2.14",
           ops=("plus_zero", "times_one", "minus_zero")),
    Record("inductor_clone_under_dtype_view_removed", INDUCTOR,
           r"pair\.in~out\.(same_object|shares_storage)|write\.reaches:.*|in\.(values|version_moved)",
           "docs/upstream-reports/clone_dtype_view_aliases_input_inductor.py", "a clone of an input seen through a "
           "dtype view and a no-op (`** 1`) is removed by inductor: the output lives in the input's memory "
           "(2.8.0 ... 2.14.1; closest: issue 197893)", ops=("pow_one",)),
    Record("resize_on_alias", AOT, r"out\.(shape|stride|values|offset)|pair\..*|write\.reaches:.*",
           GH + "issues/191449", "resize_() on a view or alias inside the compiled function: the other aliases "
           "(here contiguous()'s result, which is the tensor itself) keep the old metadata", ops=("resize_",)),
    Record("data_assignment_on_aliased_inputs", AOT,
           r"in\.(geometry|values|version_moved)|out\.(stride|values|offset|shape)|pair\..*|write\.reaches:.*",
           GH + "issues/94773", "`.data =` on an input that another input (or a view) aliases: the compiled "
           "function rebuilds the aliases from their synthetic base with the old metadata (issue 94773, open, is "
           "`.data =` with a live alias; docs/upstream-reports/data_assign_aliased_input.py)", ops=("data_assign",),
           entry="generated.data_assign_on_aliased_input"),
    Record("aliased_leaf_and_view_mutated", AOT, r"call\.raises", "docs/upstream-reports/aliased_leaf_view_mutation.py",
           "a leaf that requires grad and a view of it passed together, one written without autograd (no_grad, an "
           "integer dtype view): AOTAutograd asserts that aliased inputs are all leaves or none",
           message="any_leaf=True != all_leaf=False", aliased=True),
    Record("inplace_view_of_intermediate_returned_as_view", AOT,
           r"out\.(is_view|view_of)|write\.raises|grad\.value|pair\.out~out\.same_object",
           "docs/upstream-reports/inplace_view_of_intermediate.py", "an intermediate changed by an in-place view op "
           "(transpose_, squeeze_, unsqueeze_, as_strided_) is not a view in eager (issue 47704) but comes back as "
           "a view of another intermediate, which refuses in-place writes",
           ops=("transpose_", "squeeze_", "unsqueeze_", "as_strided_")),
    Record("complex_copy_requires_grad", INDUCTOR, r"out\.(requires_grad|grad_fn|is_leaf)|backward\..*|write\.raises",
           "docs/upstream-reports/complex_copy_requires_grad_inductor.py", "a copy of a complex tensor (to(), "
           "a conversion) comes out of inductor requiring grad under no_grad: the convert_element_type fallback "
           "copies the input's requires_grad", ops=("to_float64", "to_same", "clone", "contiguous", "detach_clone")),
    Record("aliasing_below_subclass", AOT, r".*", GH + "issues/114415",
           "inputs that alias below a wrapper subclass (TwoTensor holding the same tensor twice, or a tensor also "
           "passed on its own) are not seen as aliased by AOTAutograd: a write through one fails its functional "
           "graph check or is lost", subclass=True),
    Record("data_write_version", AOT, r"in\.version_moved", GH + "pull/186185",
           "a write through `x.data` inside the function (hidden from autograd since PR 131403) moves x's version "
           "counter when the compiled graph runs, where eager's `.data` has a counter of its own (PR 186185, closed, "
           "names it: hidden graph-handled mutations still bump the counter; issue 139152)", ops=("data",),
           entry="generated.write_through_data"),
    Record("write_back_into_overlapping_input", AOT, r"call\.raises", GH + "issues/165409",
           "an in-place op on an input whose elements overlap (expand()) that eager accepts (fill_, zero_): the "
           "compiled function fails copying the result back into the input (issue 165409, open: the same refusal "
           "for an overlapping intermediate)", message="more than one element of the written-to tensor",
           entry="generated.fill_expanded_input"),
    Record("partial_overlap_accepted", AOT, r"call\.raises", GH + "issues/162151",
           "a write whose source partially overlaps its destination (`x.copy_(x.t())`, `torch.add(x.t(), 1, out=x)`), "
           "which eager refuses, is functionalized into an out-of-place op on a snapshot and runs (issue 162151, "
           "open; PR 185149, closed, not in 2.14.1, has functional copy run eager's partial-overlap check)",
           ops=("copy_", "setitem_from", "add_from", "out_add", "out_mul", "out_neg"),
           entry="generated.copy_from_own_transpose"),
    Record("inplace_view_op_on_input_alias_version", AOT, r"in\.version_moved",
           "docs/upstream-reports/detach_metadata_change_version.py", "an in-place view op (transpose_, "
           "unsqueeze_, squeeze_, as_strided_) on an alias of an input made inside the function (detach(), a view, "
           "a dtype view) moves the input's version counter eagerly, not under AOTAutograd",
           ops=("transpose_", "squeeze_", "unsqueeze_", "as_strided_")),
    Record("mutated_input_strides_lost", AOT, r"in\.geometry|out\.(stride|offset)|pair\..*|write\.reaches:.*",
           GH + "issues/133512", "an input with strides of its own, written in place and then set_() to itself, "
           "takes the contiguous strides of its functional value: functionalization does not keep the strides of "
           "a mutated input for what reads them next", ops=("set_",), entry="generated.set_to_itself_after_write"),
    Record("set_strides_asserted", INDUCTOR, r"call\.raises", GH + "issues/191337",
           "inductor asserts an input's strides after set_() changed them (the `.data =` assertion of issue 191337)",
           ops=("set_",), message=r"expected size .* stride", entry="generated.set_to_itself_after_write"),
    Record("detached_alias_inputs_version", AOT, r"in\.version_moved",
           "docs/upstream-reports/detached_alias_inputs_version.py", "a tensor and its detach() passed together, "
           "one written: eagerly both share one version counter and it moves; compiled it moves for neither "
           "(closest: issue 135441)", alias=r"\.detach\(\)", entry="detach.write_through_alias"),
    Record("index_put_dtype_mismatch_accepted", INDUCTOR, r"call\.raises",
           "docs/upstream-reports/index_put_dtype_mismatch_inductor.py", "index_put with values of another dtype, "
           "which eager refuses, runs under inductor (its lowering converts the values; closest: issue 150993)",
           ops=("index_put", "index_put_")),
    Record("detach_after_write_lost", AOT, r"in\.requires_grad|out\.(requires_grad|grad_fn|is_leaf)|backward\..*"
           r"|write\.raises", GH + "issues/176854", "detach_() on an input written in place first (or on the "
           "result of out= into it) is lost: the caller's tensor still requires grad (issue 176854, closed, is "
           "detach_() lost on an intermediate)", ops=("detach_",), entry="generated.detach_after_write"),
    Record("requires_grad_off_through_alias_lost", DYNAMO, r"in\.requires_grad|out\.(requires_grad|grad_fn|is_leaf)"
           r"|backward\..*|write\.raises", "docs/upstream-reports/requires_grad_off_through_alias.py",
           "requires_grad_(False) on another name for an input (add_'s result, `to()` of its own dtype) is lost by "
           "dynamo: the caller's tensor still requires grad", ops=("requires_grad_false",)),
    Record("data_read_twice_one_object", DYNAMO, r"pair\.out~out\.same_object",
           "docs/upstream-reports/data_twice_same_object.py", "`a.data` read twice gives one object under dynamo, "
           "two in eager (closest: issue 100348, the same for detach(), fixed)", ops=("data",)),
    Record("write_through_expand_of_input", AOT, r"in\.values|out\.values|write\.reaches:.*", GH + "issues/197448",
           "a write through an expand() of an input made inside the function comes back wrong in the input "
           "(zero_ gives -a): the write is replayed as if each element of the view were its own",
           ops=("expand",), entry="generated.zero_through_expand"),
    Record("unused_op_error_dropped", AOT, r"call\.raises", GH + "issues/160751",
           "an op whose result nothing uses and which raises eagerly (`- 0` on a bool tensor) is dropped from the "
           "AOTAutograd graph, so the compiled call does not raise (issue 160751, open: aot_eager removes ops, "
           "missing their exceptions)", ops=("minus_zero",)),
    Record("non_differentiable_view_input_mutation", AOT, r"call\.raises", GH + "pull/88817",
           "aliased inputs with mixed ._base states (a view and a detached alias of one storage, as a graph break "
           "after an in-place view op on an input passes them), one written: AOTAutograd's assertion left since its "
           "first input-mutation support", message="does not yet handle non-differentiable view input mutations",
           entry="detach.write_through_alias"),
    Record("cache_serves_aliased_graph", INDUCTOR, r".*", GH + "pull/184694",
           "with the FX graph and AOTAutograd caches on, a graph compiled for aliased inputs is served to a new "
           "function (or process) called on inputs that do not alias: the caches' key holds no input aliasing "
           "(PR 184694, closed, added it; docs/upstream-reports/cache_serves_aliased_graph.py)", aliased=True,
           caches=True),
    # export
    Record("export_data_of_written_tensor", EXPORT, r"call\.raises",
           "docs/upstream-reports/export_data_of_written_tensor.py", "`x.data` of a tensor written in place in the "
           "same program (an input: a SymInt \"not tracked with proxy\"; an intermediate: a fake tensor left in the "
           "exported program's constants) fails to export, where eager runs (closest: PR 161589)", ops=("data",),
           message="is not tracked with proxy|fake tensor in the exported program constant"),
    Record("export_data_assignment_lost", EXPORT,
           r"(in|out|pair|write|backward|grad)\..*", "docs/upstream-reports/export_data_assignment_lost.py", "`x.data = y` is not replayed by the exported "
           "module: the caller's x keeps its own memory, geometry and autograd history, and what the program "
           "writes into x after it lands there (closest: issue 94773)", ops=("data_assign",)),
    Record("export_rank_changing_inplace_view_of_input", EXPORT, r"call\.raises",
           "docs/upstream-reports/export_rank_changing_inplace_view_of_input.py", "an in-place view op that changes "
           "an input's rank (unsqueeze_, squeeze_) fails export's shape guards with an IndexError (the same error "
           "under torch.compile: issue 129673, fixed in dynamo; issue 198100, open)",
           ops=("unsqueeze_", "squeeze_", "as_strided_"), message="IndexError: list index out of range"),
    Record("export_copy_into_itself_refused", EXPORT, r"call\.raises",
           "docs/upstream-reports/export_copy_into_itself_expanded.py", "a copy of an expanded tensor into itself "
           "(`x.copy_(x)`, `x[...] = x`, also through `x.to(x.dtype)`, which is x), a no-op eagerly (copy_ returns "
           "at once), fails export's internal-overlap check (closest: issue 165409)", ops=("copy_", "setitem_from"),
           message="more than one element of the written-to tensor"),
    Record("export_view_error_class", EXPORT, r"call\.raises", "docs/upstream-reports/export_view_error_class.py",
           "a view that eager refuses with a RuntimeError (`view(-1)` of incompatible strides) is refused at export "
           "with a ValueError by the Python reference fake tensors run (torch/_refs, _reshape_view_helper; closest: "
           "issue 153303, PR 162809)", message="ValueError: Cannot view a tensor with shape"),
    Record("export_slice_scatter_unchecked_subclass", EXPORT, r"call\.raises",
           "docs/upstream-reports/export_slice_scatter_unchecked_subclass.py", "slice_scatter with a src of the "
           "wrong size, which eager refuses with a RuntimeError, on a wrapper subclass (TwoTensor) of an input at a "
           "storage offset: the fake kernel does not check src's size and the subclass's own assertion fails first",
           subclass=True, message=r"AssertionError: Expected a\.storage_offset\(\) == b\.storage_offset\(\)"),
    Record("export_trace_skips_eager_check", EXPORT, r"call\.raises",
           "docs/upstream-reports/export_trace_skips_eager_check.py", "an op whose eager check export's fake "
           "tracing does not run (clamp_ on a complex tensor; on 2.14 `- 0` on a bool TwoTensor) lets tracing go "
           "on, so a later op's error (IndexError, RuntimeError) is raised instead of eager's NotImplementedError",
           ops=("clamp_", "minus_zero"), eager_raises=True),
)
