"""Surface records under torch.compile on the releases besides 2.13 (the default sample on 2.2.2 to 2.14.1, the
sweep's cells where they ran), added to copysuite.surface.known's; and `records()`, the lookup over all of them.
"""
from __future__ import annotations

from dataclasses import replace

from copysuite.surface import known
from copysuite.surface.known import DOCS, DRAFT, INDUCTOR, UNTAGGED, Known, same_as

AOT = ("compile.aot_eager",)
IND = ("compile.inductor",)
RECORDS = list(known.RECORDS)


def records(entry: str, execution: str, version: str, sources=None) -> list:
    """The records of a cell; `sources`, those of its calls (copysuite.surface.inputs.Call.source), where known."""
    return [k for k in RECORDS if k.applies(entry, execution, version)
            and (not k.input or sources is None or any(s.startswith(k.input) for s in sources))]


# ---- compile.aot_eager, the default sample on 2.2.2 to 2.14.1 (1.13 and 2.0 skip: no torch.compile there) ----
for sample_range in (">=2.2,<2.13", ">=2.14,<2.15"):
    RECORDS += [same_as(entry, sample_range, "compile.aot_eager") for entry in (
        "surface.inplace:requires_grad_", "surface.alias:lift_fresh", "surface.inplace:polygamma_")]
# the sweep's alias and in-place cells under aot_eager on 2.14.1 fail as on 2.13, and as eagerly on 2.14
RECORDS += [same_as(f"surface.inplace:logical_{op}_", ">=2.14,<2.15", "compile.aot_eager")
            for op in ("and", "or", "xor", "not")]
RECORDS.append(replace(next(k for k in known.RECORDS if k.entry == "surface.inplace:shallow_copy_data_"), executions=AOT))
# the sweep's out= and functional cells under aot_eager on 2.13.0: as eagerly, and empty outs not resized
SWEEP_213 = [f"surface.functional:{op}" for op in (
    "_native_batch_norm_legit atleast_1d atleast_2d atleast_3d batch_norm broadcast_tensors cartesian_prod "
    "conj_physical data dequantize histogramdd lift meshgrid native_batch_norm to_dense to_dense_backward "
    "to_mkldnn_backward type_as unsafe_chunk unsafe_split").split()]
SWEEP_213 += ["surface.out:native_batch_norm", "surface.out:split_with_sizes_copy"]
RECORDS += [replace(same_as("surface.out:_foreach_*", ">=2.13,<2.14", AOT[0]), entry=f"surface.out:_foreach_{op}") for op in (
    "abs acos add addcdiv addcmul asin atan ceil clamp_max clamp_min clone cos cosh div erf erfc exp expm1 floor frac "
    "lerp lgamma log log10 log1p log2 max maximum minimum mul neg norm pow reciprocal round rsqrt sigmoid sign sin sinh "
    "sqrt sub tan tanh trunc").split()]   # the other out= foreach ops (copy, powsum, zero) hold compiled
RECORDS += [same_as(entry, ">=2.13,<2.14", "compile.aot_eager") for entry in SWEEP_213]
EMPTY_OUT = DRAFT + ("surface_out_resize_aot_eager.py (closest: pytorch/pytorch PR 192863, open: dynamo's out= resize "
                     "check runs only for an argument spelled `out`)")
RECORDS += [Known(f"surface.out:{op}", "resizes_empty_out", AOT, ">=2.13,<2.14", EMPTY_OUT) for op in (
    "aminmax binary_cross_entropy binomial cummax cummin frexp geqrf histogram kthvalue linalg_cholesky_ex linalg_eig "
    "linalg_eigh linalg_inv_ex linalg_ldl_factor linalg_ldl_factor_ex linalg_lu linalg_lu_factor linalg_lu_factor_ex "
    "linalg_qr linalg_slogdet linalg_solve_ex linalg_svd lu_unpack max min mode qr sort svd topk triangular_solve"
).split()]
# slice_inverse is registered from 2.3 or 2.4 (2.2.2 has no such op)
RECORDS += [same_as("surface.alias:slice_inverse", r, "compile.aot_eager") for r in (">=2.4,<2.13", ">=2.14,<2.15")]
RECORDS.append(Known("surface.alias:align_to", "call", AOT, ">=2.2,<2.13", "pytorch/pytorch PR 120779, \"[dynamo] "
                     "Graph break when faking named tensors\": \"torch.compile doesn't support named tensors\" (the "
                     "fake-tensor call of align_to fails, before that PR as after it)", by_design=True))
# what fails only on the older releases, each with the change that made later ones hold
SPARSE_STORAGE = ("pytorch/pytorch PR 118192 (2.3): \"merge_view_inputs() shouldn't be looking at storage of sparse "
                  "tensors\", \"In has_metadata_mutation() only check StorageWeakRef if the result is going to be "
                  "used\" (on 2.2.2 AOTAutograd's has_metadata_mutation raises \"Cannot access storage of "
                  "SparseTensorImpl\" on a sparse input); reproduction: docs/upstream-reports/sparse_input_aot_222.py")
RECORDS += [Known(f"surface.alias:{op}", "call", AOT, ">=2.2,<2.3", SPARSE_STORAGE)
            for op in ("_indices", "_values", "indices", "values", "coalesce")]
RECORDS.append(Known("surface.alias:_nested_view_from_buffer", "call", AOT, ">=2.2,<2.3", "on 2.2.2 the fake tensor "
                     "runs _nested_view_from_buffer's kernel on fake nested sizes, which trips its internal assert "
                     "(\"The number of elements in the buffer must equal the nested tensor size\"); 2.4's "
                     "torch/_subclasses/fake_impls.py refuses the op (\"torch.compile does not support strided "
                     "NestedTensor\", pytorch/pytorch issue 126025), so dynamo runs it eagerly. The change's PR not "
                     "found; 2.3 is not in the matrix"))
RECORDS.append(Known("surface.inplace:random_", "call", AOT, ">=2.2,<2.4", "pytorch/pytorch issue 121621, "
                     "\"torch.Tensor.random_ causes invalid syntax\" (reported on 2.2, closed; random_'s argument "
                     "`from` is a Python keyword, written as a keyword argument in generated code: SyntaxError in "
                     "proxy_tensor's wrapped); 2.4.1 compiles it"))
RECORDS.append(Known("surface.inplace:set_", "keeps_shape", AOT, ">=2.2,<2.3", DOCS + "torch.Tensor.set_.html: \"self "
                     "tensor will share the same storage and have the same size and strides as source\""
                     + UNTAGGED.format("115769, 2.3"), by_design=True))
# an out with no element, resized by the op: dynamo compared out's shape with the result's after fake propagation had
# already resized the fake out, so it did not see the resize and traced it (2.2: a guard on out's old rank fails to
# build; 2.4: AOTAutograd's expand fails)
RECORDS += [Known(f"surface.out:{op}", "resizes_empty_out", AOT, ">=2.2,<2.5", "pytorch/pytorch PR 130074 (2.5), "
                  "\"[dynamo][dynamic-shapes] Graph break if out shape changes on out= variants\" (issue 130068): dynamo "
                  "saves out's shape before fake propagation and graph-breaks when the op resizes it; issue 108022 is "
                  "2.1's AssertionError (len(constraint) == t.dim())") for op in ("add", "cat", "mm", "sum")]

# ---- compile.inductor, the default sample on 2.2.2 to 2.14.1: every 2.13 record's cell fails the same way ----
for sample_range in (">=2.2,<2.13", ">=2.14,<2.15"):
    RECORDS += [same_as(entry, sample_range, "compile.inductor") for entry, *_ in INDUCTOR
                if entry != "surface.alias:slice_inverse" or sample_range != ">=2.2,<2.13"]
RECORDS.append(same_as("surface.alias:slice_inverse", ">=2.4,<2.13", "compile.inductor"))
# and as under aot_eager: align_to; on 2.2 the sparse accessors, _nested_view_from_buffer and set_; before 2.5 the
# out= forms with an empty out (cat: from 2.4, below)
RECORDS += [replace(k, executions=IND) for k in list(RECORDS) if k.executions == AOT and (
    k.entry == "surface.alias:align_to" or k.torch == ">=2.2,<2.3"
    or k.clause == "resizes_empty_out" and k.entry != "surface.out:cat")]
RECORDS.append(Known("surface.out:cat", "resizes_empty_out", IND, ">=2.4,<2.5", next(
    k.evidence for k in RECORDS if k.entry == "surface.out:cat" and k.executions == AOT)))
RECORDS.append(Known("surface.out:cat", "returns_out", IND, ">=2.2,<2.3", DRAFT + "surface_cat_out_inductor_222.py "
                     "(silent: out is neither written nor returned; 2.4.1 writes and returns it)"))
RECORDS.append(Known("surface.inplace:random_", "call", IND, ">=2.2,<2.8", "pytorch/pytorch issue 151432, \"[inductor] "
                     "proxy_tensor.py throws SyntaxError when using .random_\" (random_'s argument `from` written as a "
                     "keyword in generated code: proxy_tensor's on 2.2 and 2.6, inductor's output code on 2.4; issue "
                     "121621 is 2.2's), fixed by PR 154645 (2.8)"))
# inference graphs mutate their inputs inside inductor's kernels, without a version bump
RECORDS += [Known(f"surface.inplace:{op}", "version_bump", IND, ">=2.2,<2.5", "pytorch/pytorch PR 131665 (2.5), "
                  "\"AOTDispatcher: properly bump version counter on input mutations in inference graphs\"") for op in (
    "_add_relu_ _index_put_impl_ add_ alpha_dropout_ bernoulli_ cauchy_ clamp_ copy_ div_ dropout_ embedding_renorm_ "
    "exponential_ feature_alpha_dropout_ feature_dropout_ fill_ fill_diagonal_ float_power_ geometric_ index_add_ "
    "index_fill_ lerp_ log_normal_ masked_fill_ mul_ neg_ normal_ put_ relu_ scatter_ sigmoid_ sub_ uniform_ "
    "zero_").split()]
RECORDS += [Known(f"surface.alias:{op}", "call", IND, ">=2.4,<2.5", "2.4.1's dynamo wraps a sparse COO input and "
                  "inductor's lowering of the accessor fails (\"could not find kernel for aten._indices.default\", "
                  "pytorch/pytorch issue 164823: inductor assumes strided tensors); 2.6's dynamo refuses a sparse input "
                  "(\"torch.compile does not support sparse Tensors\", torch/_dynamo/variables/builder.py) and runs "
                  "it eagerly. The change's PR not found; 2.5 is not in the matrix")
            for op in ("_indices", "_values", "indices", "values")]
# found by the same 2.13.0 sweep, each with a draft: outs that are not written, outs that require grad not refused
RECORDS.append(Known("surface.out:linalg_matrix_rank", "writes_out", AOT, ">=2.13,<2.14", DRAFT + "surface_matrix_rank_out_"
                     "aot_eager.py (silent: out keeps its old values; compile.eager holds)"))
RECORDS.append(Known("surface.out:unbind_copy", "refuses_grad_out", AOT, ">=2.13,<2.14", DRAFT + "surface_copy_out_grad.py "
                     "(compiled, unbind_copy's out= form runs without the check its kernel has from 2.8)"))
