"""The known upstream bugs the fuzzer meets under torch.func.functionalize, each a `Record` (copysuite.fuzz.record).

functionalize wraps each input, runs the program on the wrappers, returns each output's functional value unwrapped
and copies an input's new value back into it (torch/_functorch/eager_transforms.py; the docstring's "copying the new
data back to the inputs"). Most records below are consequences of that design that upstream lists as open or never
reported; none is a rule of copysuite.fuzz.model because no documentation promises them.
"""
from __future__ import annotations

from copysuite.fuzz.record import GH, WRITES, Record
from copysuite.fuzz.vocabulary import INPLACE_VIEWS, OUT_FORMS, WRITES_FROM

METADATA = tuple(op.name for op in INPLACE_VIEWS)

FUNCTIONALIZE = (
    Record("functionalize_identity", ("functionalize",),
           r"pair\.(in|out)~out\.(same_object|shares_storage)|out\.(is_view|view_of|offset|stride)|write\.reaches:.*",
           GH + "pull/172836", "functionalize returns each output's unwrapped functional value and copies an input's "
           "mutation back into it separately: an output that is, or views, an input the program wrote comes back as "
           "a new tensor in memory of its own (its own strides and offset, not a view, writes to it reach nothing "
           "else); PR 172836 listed keeping the identity and dropped it", written_input_alias=True,
           entry="compiled.mutates_input"),
    Record("functionalize_aliased_inputs", ("functionalize",), r".*", "https://github.com/pytorch/functorch/issues/950",
           "functionalize wraps each input on its own: inputs that alias one another (the same tensor twice, a view "
           "and its base) are not seen as aliased, so a write through one is not replayed into the other's value "
           "(functorch issue 950, open)", aliased=True),
    Record("functionalize_autograd_state", ("functionalize",), r"call\.raises|in\.(requires_grad|version_moved)",
           "https://github.com/pytorch/functorch/issues/667", "functionalize's wrappers keep an autograd state of "
           "their own: detach_() of an input view is not refused (eager: \"Can't detach views in-place\"), and "
           "detach_() of an input reaches the caller only as a write copied back (its version moves, it still "
           "requires grad, and a leaf that requires grad refuses the copy); resize_() of a tensor that requires "
           "grad is not refused", ops=("detach_", "resize_")),
    Record("functionalize_hidden_write_copied_back", ("functionalize",), r"in\.version_moved", GH + "pull/95980",
           "a write autograd does not see (through `x.data`) is copied back into the input with copy_ under grad "
           "mode, which moves its version counter: PR 95980 made AOTAutograd's copy-back of such writes invisible "
           "to autograd, not functionalize's", ops=("data",), entry="generated.write_through_data"),
    Record("functionalize_input_metadata_mutation", ("functionalize",),
           r"in\.(geometry|values|version_moved|requires_grad)|out\.(values|requires_grad|grad_fn|is_leaf)|backward\..*"
           r"|pair\.in~out\.(shares_storage|same_object)|write\.reaches:.*",
           "docs/upstream-reports/functionalize_input_metadata_mutation.py", "a metadata change of an input (an "
           "in-place view op) is propagated back only where it changes the input's sizes; otherwise the new value "
           "is copy_'d into the unchanged input: a transpose_ of a square input keeps the caller's strides and copies "
           "the input's own transpose into itself, overlapping (wrong values, silently), and a no-op resize_ moves "
           "the version counter; `.data =` and set_() of an input with the same sizes are copied in the same way "
           "(so the input joins the graph of what it was set to) "
           "(torch/csrc/functorch/init.cpp, _propagate_functional_input_mutation)",
           ops=(*METADATA, "data_assign", "set_")),
    Record("functionalize_input_resize_refused", ("functionalize",), r"call\.raises",
           "docs/upstream-reports/functionalize_input_metadata_mutation.py", "an in-place view op that changes the "
           "byte size of an input that requires grad (as_strided_ to fewer elements) is copied back with resize_(), "
           "which autograd refuses for a tensor that requires grad; eagerly the op itself is allowed",
           ops=("as_strided_", "resize_", "data_assign", *OUT_FORMS),
           message="cannot resize variables that require grad"),
    Record("functionalize_input_metadata_out_of_bounds", ("functionalize",), r"call\.raises",
           "docs/upstream-reports/functionalize_input_metadata_mutation.py", "an in-place view op that changes the "
           "sizes of an input whose elements overlap (an expand()) is copied back with as_strided_() to the strides "
           "of the functional value, which do not fit the input's storage (closest: issue 153861, the copy-back of "
           "a stride-0 input losing its write)", ops=METADATA, message=r"setStorage: .* out of bounds"),
    Record("functionalize_as_strided_base_storage", ("functionalize",), r"out\.values", GH + "issues/120585",
           "as_strided() of a written input that reaches memory outside it (back to the start of its storage) reads "
           "the functional value's own storage, not the input's base: it sees the write where eager sees the base "
           "(issue 120585, open: functionalization of as_strided disregards the base's storage)",
           ops=("as_strided_storage_start",)),
    Record("functionalize_data_is_the_value", ("functionalize",),
           r"pair\.(in|out)~out\.(same_object|shares_storage)|out\.(is_view|view_of|shape|stride)|write\.reaches:.*",
           "docs/upstream-reports/functionalize_data_is_the_value.py", "`x.data`, `y.data = x` and `y.set_(x)` of "
           "functional tensors share x's functional value, and functionalize returns each output as its value: an "
           "output that is `a.data` of an input nothing wrote comes back as the input object itself, `x.data` of an "
           "intermediate as the same object as x, and views of x as views of it", ops=("data", "data_assign", "set_")),
    Record("functionalize_overlap_unchecked", ("functionalize",), r"call\.raises", GH + "issues/162151",
           "a write into a tensor whose elements overlap (an expand()), or whose source partly overlaps it, which eager "
           "refuses, is functionalized into "
           "an out-of-place op and runs, so the program fails later or not at all (issue 162151, open: the "
           "snapshot semantics of functionalized writes)", ops=WRITES,
           eager_message="more than one element of the written-to tensor refers to a single memory location|"
           "some elements of the input tensor and the written-to tensor refer to a single memory location"),
    Record("functionalize_cast_check_lost", ("functionalize",), r"call\.raises", GH + "issues/137213",
           "an in-place or out= op whose result type cannot be cast to the written tensor's dtype (bool.mul_(2), a "
           "complex result into a float out=), which eager refuses, is functionalized into the functional op and a "
           "copy_, which casts: it runs (issue 137213, open: the out= form; the in-place form has a meta check "
           "since PR 77125 that torch.func.functionalize does not reach)", ops=WRITES,
           eager_message="can't be cast to the desired output type|Found dtype .* but expected"),
    Record("functionalize_autograd_checks_skipped", ("functionalize",), r"call\.raises",
           "https://github.com/pytorch/functorch/issues/667", "a write that autograd refuses eagerly for a tensor "
           "that requires grad (into one of the views a multi-view op such as split returned; an out= that requires "
           "grad; an in-place view op on a view of a leaf that requires grad) runs: functionalize's wrappers keep "
           "an autograd state of their own", ops=(*WRITES, *METADATA, "set_", "data_assign"),
           eager_message="returns multiple views|don't support automatic differentiation|leaf Variable"),
    Record("functionalize_copy_back_into_grad_leaf", ("functionalize",), r"call\.raises", GH + "pull/95980",
           "an input that requires grad, written through an alias autograd does not track (detach(), a dtype view, "
           "`.data =`), is written back with copy_ under grad mode, which autograd refuses for a leaf: PR 95980 "
           "fixed the same copy-back for AOTAutograd (issue 95167), not for torch.func.functionalize",
           ops=(*WRITES, "data_assign"), message="a leaf Variable that requires grad is being used in an in-place"),
    Record("functionalize_transpose_copied_onto_itself", ("functionalize",), r"call\.raises",
           "docs/upstream-reports/functionalize_input_metadata_mutation.py", "transpose_ of a square input: its "
           "functional value, a transposed view of the input's own memory, is copy_'d back into the input, and "
           "copy_ refuses the partial overlap (where the overlap is not detected, the values come out wrong: "
           "record functionalize_input_metadata_mutation)", ops=("transpose_",),
           message="some elements of the input tensor and the written-to tensor refer to a single memory location"),
    Record("functionalize_frozen_storage", ("functionalize",), r"call\.raises", GH + "issues/127571",
           "a write after set_() onto an intermediate is refused: functionalization froze the storage (issue 127571, "
           "open, is the same refusal after _to_copy; PR 88141 added the freezing)", ops=("set_",),
           message="cannot mutate tensors with frozen storage"),
    Record("functionalize_complex_zero_no_derivative", ("functionalize",), r"call\.raises",
           "docs/upstream-reports/functionalize_complex_zero.py", "zero_() of a complex tensor that requires grad "
           "is functionalized into aten.zero, whose derivative formula refuses complex outputs; eager's zero_ runs",
           ops=("zero_",), message="zero does not support automatic differentiation for outputs with complex dtype"),
    Record("functionalize_written_strides_view", ("functionalize",), r"call\.raises", GH + "issues/133512",
           "a dtype view of a strided tensor written in place, which eager refuses (its last stride is not 1), "
           "works: the written tensor took the contiguous strides of its new functional value (issue 133512)",
           ops=WRITES, eager_message="must be 1 to view"),
    Record("functionalize_overlapping_write_snapshot", ("functionalize",),
           r"in\.values|out\.(values|stride|view_of)|pair\.in~out\.shares_storage|write\.reaches:.*",
           GH + "issues/162151", "a write whose source is its destination seen through other strides "
           "(`torch.mul(a, 2, out=a.t())`), which eager neither refuses nor orders (later elements read earlier "
           "results), is computed from a snapshot of the source (issue 162151, open: snapshot semantics)",
           ops=WRITES_FROM),
    Record("functionalize_written_strides", ("functionalize",), r"out\.(stride|offset|is_view|view_of)|in\.geometry",
           GH + "issues/133512", "a tensor written in place takes the strides of its new functional value (the "
           "out-of-place op's result, contiguous), so what reads it next sees other strides: a reshape() that is a "
           "copy eagerly is a view, a view of it has other strides (issue 133512, open, for AOTAutograd)",
           ops=WRITES),
    Record("functionalize_views_of_resized_base", ("functionalize",), r"out\.(shape|stride|values|offset)",
           "docs/upstream-reports/functionalize_views_of_resized_base.py", "a view of a tensor that an out= op then "
           "resizes is regenerated from the resized value: it takes the new size (eager's view keeps its own, over "
           "the old memory); the documented limit is resize_() of a view, not of a base with views",
           ops=(*OUT_FORMS, "resize_")),
    Record("functionalize_autograd", ("functionalize",),
           r"out\.(requires_grad|grad_fn|is_leaf)|backward\..*|grad\.value|write\.raises",
           "https://github.com/pytorch/functorch/issues/667",
           "functionalize works on wrapper tensors whose autograd state is their own: outputs are cut from the graph",
           entry="compiled.mutates_input"),
)
