"""The known upstream bugs the fuzzer meets under torch.compile's executions (AOTAutograd, inductor, dynamo), each a
`Record` (copysuite.fuzz.record); those of torch.func.functionalize are in records_functionalize.py, those of
torch.export in records_export.py. `RECORDS` is all of them, in the order a verdict names them."""
from __future__ import annotations

from copysuite.fuzz.record import AOT, DYNAMO, GH, INDUCTOR, Record
from copysuite.fuzz.records_export import EXPORT
from copysuite.fuzz.records_functionalize import FUNCTIONALIZE
from copysuite.fuzz.vocabulary import WRITES_FROM

RECORDS = (
    Record("synthetic_base_identity", AOT,
           r"pair\.(in~out|out~out)\.same_object|out\.(grad_fn|is_leaf|is_view|view_of)|write\.raises|backward\.grad",
           GH + "pull/115279",
           "aliased inputs are merged into a synthetic base, and an output that was one of them comes back as a new "
           "view of it: an equal alias, not the object passed", aliased=True, entry="compiled.overlapping_views"),
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
    Record("inplace_view_of_intermediate_returned_as_view", (*AOT, "functionalize"),
           r"out\.(is_view|view_of)|write\.raises|grad\.value|pair\.out~out\.same_object",
           GH + "issues/90507", "an intermediate changed by an in-place view op (transpose_, squeeze_, unsqueeze_, "
           "as_strided_, resize_) is not a view in eager but comes back as a view of another intermediate, which "
           "refuses in-place writes: functionalization replays the op as a view op (issue 90507, open; PR 186561, "
           "closed, tried to hide it in AOTAutograd)",
           ops=("transpose_", "squeeze_", "unsqueeze_", "as_strided_", "resize_")),
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
    Record("write_back_into_overlapping_input", (*AOT, "functionalize"), r"call\.raises", GH + "issues/165409",
           "an in-place op on an input whose elements overlap (expand()) that eager accepts (fill_, zero_): the "
           "compiled function fails copying the result back into the input (issue 165409, open: the same refusal "
           "for an overlapping intermediate)", message="more than one element of the written-to tensor",
           entry="generated.fill_expanded_input"),
    Record("partial_overlap_accepted", AOT, r"call\.raises", GH + "issues/162151",
           "a write whose source partially overlaps its destination (`x.copy_(x.t())`, `torch.add(x.t(), 1, out=x)`), "
           "which eager refuses, is functionalized into an out-of-place op on a snapshot and runs (issue 162151, "
           "open; PR 185149, closed, not in 2.14.1, has functional copy run eager's partial-overlap check)",
           ops=WRITES_FROM,
           entry="generated.copy_from_own_transpose"),
    Record("inplace_view_op_on_input_alias_version", (*AOT, "functionalize"), r"in\.version_moved",
           "docs/upstream-reports/detach_metadata_change_version.py", "an in-place view op (transpose_, "
           "unsqueeze_, squeeze_, as_strided_, set_) on an alias of an input made inside the function (detach(), a "
           "view, a dtype view) moves the input's version counter eagerly, not under functionalization (AOTAutograd "
           "or torch.func.functionalize)", ops=("transpose_", "squeeze_", "unsqueeze_", "as_strided_", "set_")),
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
    Record("inductor_complex_reshape_view", INDUCTOR, r"out\.(is_view|view_of)|write\.raises",
           "docs/upstream-reports/inductor_complex_reshape_view.py", "reshape() of a non-contiguous complex tensor "
           "copies eagerly but comes out of inductor as a view of an intermediate (its complex fallback runs the "
           "reshape that inductor's passes made of _unsafe_view on the copy), so a write to it is refused where the "
           "input requires grad (closest: PR 103919, issue 90507)", ops=("reshape",)),
    Record("fake_tensor_cache_drops_offset", (*DYNAMO, "export"), r"call\.raises",
           "docs/upstream-reports/fake_tensor_cache_storage_offset.py", "FakeTensor's dispatch cache rebuilds a "
           "cached non-view output without its storage offset, so a wrapper subclass that runs slice_scatter once "
           "per inner tensor of an input at an offset fails its offsets check when compiled or exported, also "
           "where eager raises another error (a src of the wrong size) (closest: issue 159151, PR 180822)",
           subclass=True, message=r"storage_offset\(\) == b\.storage_offset\(\)"),
    *FUNCTIONALIZE,
    *EXPORT,
)
