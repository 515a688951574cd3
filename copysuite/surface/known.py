"""Surface cells known to fail on some release or execution: upstream bugs and documented design, each with its
evidence. A cell with a record is a strict expected failure (copysuite.plugin.conformance): it is reported as diverged when
the named clause fails, and fails when it holds (the record's torch range must end) or fails another way.
"""
from __future__ import annotations

from dataclasses import dataclass

from packaging.specifiers import SpecifierSet
from packaging.version import Version


@dataclass(frozen=True)
class Known:
    entry: str            # the surface cell's entry, surface.CLASS:OP (a trailing * matches any rest)
    clause: str           # the clause that fails
    executions: tuple     # where it fails
    torch: str            # the releases it fails on (a PEP 440 specifier)
    evidence: str
    by_design: bool = False
    input: str = ""       # where only one input fails: the source its call names (an OpInfo sample), judged only where
                          # the cell has that call (the default sample lacks the OpInfo calls of the sweep)

    fixed_by = ""

    @property
    def observed(self) -> str:
        return f"clause {self.clause}"

    def matches(self, failure) -> bool:
        """The failure is this record's: the same clause fails."""
        return failure.check == self.clause

    def applies(self, entry: str, execution: str, version: str) -> bool:
        release = Version(Version(version).base_version)
        same = entry.startswith(self.entry[:-1]) if self.entry.endswith("*") else entry == self.entry
        return same and execution in self.executions and release in SpecifierSet(self.torch)


DOCS = "https://pytorch.org/docs/stable/generated/"
DRAFT = "no upstream issue found (pytorch/pytorch issues searched); reproduction to file: docs/upstream-reports/"

ALIASES = DRAFT + "surface_schema_functional_aliases.py"

# (entry, clause, evidence, by design): on 2.13.0 eagerly
EAGER = [
    ("surface.inplace:requires_grad_", "version_bump", DOCS + "torch.Tensor.requires_grad_.html: \"sets this "
     "tensor's requires_grad attribute in-place\" (its schema marks self written: a flag, not data)", True),
    # the schema says a new tensor; the documentation says the input itself or a view of it
    ("surface.functional:atleast_1d", "no_shared_memory", DOCS + "torch.atleast_1d.html: \"Input tensors with one or "
     "more dimensions are returned as-is.\"", True),
    ("surface.functional:atleast_2d", "no_shared_memory", DOCS + "torch.atleast_2d.html: \"Input tensors with two or "
     "more dimensions are returned as-is.\"", True),
    ("surface.functional:atleast_3d", "no_shared_memory", DOCS + "torch.atleast_3d.html: \"Input tensors with three "
     "or more dimensions are returned as-is.\"", True),
    ("surface.functional:conj_physical", "no_shared_memory", DOCS + "torch.conj_physical.html: a non-complex input is "
     "returned itself", True),
    ("surface.functional:to_dense", "no_shared_memory", DOCS + "torch.Tensor.to_dense.html: \"Creates a strided copy "
     "of self if self is not a strided tensor, otherwise returns self.\"", True),
    ("surface.functional:type_as", "no_shared_memory", DOCS + "torch.Tensor.type_as.html: \"This is a no-op if the "
     "tensor is already of the correct type.\"", True),
    ("surface.functional:broadcast_tensors", "no_shared_memory", DOCS + "torch.broadcast_tensors.html: \"More than "
     "one element of a broadcasted tensor may refer to a single memory location.\"", True),
    ("surface.functional:unsafe_split", "no_shared_memory", DOCS + "torch.unsafe_split.html: works like split "
     "(views) \"but without enforcing the autograd restrictions on inplace modification of the outputs\"", True),
    ("surface.functional:unsafe_chunk", "no_shared_memory", DOCS + "torch.unsafe_chunk.html: works like chunk "
     "(views) without the autograd restrictions", True),
    ("surface.functional:data", "no_shared_memory", "aten::data is Tensor.data: the tensor's own storage", True),
    ("surface.functional:batch_norm", "inputs_untouched", DOCS + "torch.nn.functional.batch_norm.html: in training "
     "the running_mean and running_var arguments are updated", True),
    ("surface.functional:native_batch_norm", "inputs_untouched", "as batch_norm: running statistics", True),
    ("surface.functional:_native_batch_norm_legit", "inputs_untouched", "as batch_norm", True),
    ("surface.out:native_batch_norm", "inputs_untouched", "as batch_norm", True),
    ("surface.out:_native_batch_norm_legit", "inputs_untouched", "as batch_norm", True),
    # undocumented
    ("surface.functional:meshgrid", "no_shared_memory", ALIASES, False),
    ("surface.functional:cartesian_prod", "no_shared_memory", ALIASES, False),
    ("surface.functional:histogramdd", "no_shared_memory", ALIASES, False),
    ("surface.functional:dequantize", "no_shared_memory", ALIASES, False),
    ("surface.functional:lift", "no_shared_memory", ALIASES, False),
    ("surface.functional:to_dense_backward", "no_shared_memory", ALIASES, False),
    ("surface.functional:to_mkldnn_backward", "no_shared_memory", ALIASES, False),
    ("surface.out:binary_cross_entropy", "writes_out", DRAFT + "surface_binary_cross_entropy_out.py (the out= form "
     "returns the first element's loss where the reduction is mean or sum)", False),
    ("surface.out:linear", "no_resize_warning", DRAFT + "surface_linear_out_resize_warning.py", False),
    ("surface.inplace:addbmm_", "keeps_shape", DRAFT + "surface_addbmm_resizes_self.py", False),
    ("surface.out:split_with_sizes_copy", "refuses_grad_out", DRAFT + "surface_copy_out_grad.py (its out= form is "
     "CompositeExplicitAutograd since pytorch/pytorch PR 118512)", False),
    ("surface.out:_foreach_*", "refuses_grad_out", DRAFT + "surface_copy_out_grad.py", False),
    *[(f"surface.inplace:logical_{op}_", "refuses_grad_leaf", DRAFT + "surface_logical_inplace_grad_leaf.py", False)
      for op in ("and", "or", "xor", "not")],
]

# the same under aot_eager (the sweep of alias and in-place cells), and what only compiling shows
BOTH = {"surface.inplace:requires_grad_", *(f"surface.inplace:logical_{op}_" for op in ("and", "or", "xor", "not"))}
AOT_EAGER = [
    ("surface.alias:lift_fresh", "is_self", DRAFT + "surface_compile_inplace_alias.py", False),
    ("surface.alias:slice_inverse", "call", DRAFT + "surface_compile_inplace_alias.py",
     False),
    ("surface.inplace:polygamma_", "call", DRAFT + "surface_compile_inplace_alias.py", False),
]

# under inductor (the default sample on 2.13.0): the outputs of a multi-output view of an input that requires grad
# come back as views of no tensor, and what fails under aot_eager fails there too
MULTI_OUTPUT = ("pytorch/pytorch PR 186503 (open): \"AOTAutograd classified differentiable multi-output views of "
                "graph inputs as non-alias outputs\"")
INDUCTOR = [(f"surface.alias:{op}", "is_view", MULTI_OUTPUT, False)
            for op in ("chunk", "split", "split_with_sizes", "unbind")]
INDUCTOR += [r for r in AOT_EAGER] + [r for r in EAGER if r[0] == "surface.inplace:requires_grad_"]

# eagerly: the whole sweep on 2.13.0 and 2.14.1; under aot_eager: the alias and in-place cells on 2.13.0
RECORDS = [Known(entry, clause, ("eager",), ">=2.13,<2.15", evidence, by_design)
           for entry, clause, evidence, by_design in EAGER]
RECORDS += [Known(entry, clause, ("compile.aot_eager",), ">=2.13,<2.14", evidence, by_design)
            for entry, clause, evidence, by_design in EAGER + AOT_EAGER if entry in BOTH or (entry, clause, evidence,
                                                                                          by_design) in AOT_EAGER]
RECORDS += [Known(entry, clause, ("compile.inductor",), ">=2.13,<2.14", evidence, by_design)
            for entry, clause, evidence, by_design in INDUCTOR]
# new in 2.14: the op behind `t.data = other`, which replaces the tensor's data instead of writing values
RECORDS.append(Known("surface.inplace:shallow_copy_data_", "version_bump", ("eager",), ">=2.14,<2.15",
                     "pytorch/pytorch's shallow_copy_data_ kernel (2.14): it mirrors VariableHooks::set_data \"so that "
                     "calling this op directly enforces the same invariants as eager .data =\" (no version bump)",
                     by_design=True))


# ---- torch 1.13 to 2.4, eagerly (the whole sweep on 1.13.1, 2.0.1, 2.2.2 and 2.4.1) ----------------------------------
def same_as(entry: str, torch_range: str, execution: str = "eager") -> Known:
    """The record of `entry` on 2.13 (EAGER, AOT_EAGER, INDUCTOR), on the releases where its cell fails the same way
    there."""
    clause, evidence, by_design = next((c, e, d) for n, c, e, d in EAGER + AOT_EAGER + INDUCTOR if n == entry)
    return Known(entry, clause, (execution,), torch_range, evidence, by_design)


# where a cell is missing or refuses every input on some release (a record there would fail), its range starts later
OLDER = [same_as(entry, ">=1.13,<2.5") for entry in (
    "surface.inplace:requires_grad_", "surface.functional:atleast_1d", "surface.functional:atleast_2d",
    "surface.functional:atleast_3d", "surface.functional:conj_physical", "surface.functional:to_dense",
    "surface.functional:type_as", "surface.functional:broadcast_tensors", "surface.functional:data",
    "surface.functional:batch_norm", "surface.functional:native_batch_norm", "surface.functional:meshgrid",
    "surface.functional:cartesian_prod", "surface.functional:histogramdd", "surface.functional:dequantize",
    "surface.functional:lift", "surface.functional:to_mkldnn_backward", "surface.out:binary_cross_entropy",
    "surface.out:linear", "surface.inplace:addbmm_", "surface.out:_foreach_*",
    *(f"surface.inplace:logical_{op}_" for op in ("and", "or", "xor", "not")))]
OLDER += [same_as(entry, ">=2.0,<2.5") for entry in (
    "surface.functional:to_dense_backward", "surface.functional:unsafe_split", "surface.out:native_batch_norm",
    "surface.functional:_native_batch_norm_legit", "surface.out:_native_batch_norm_legit")]
OLDER += [same_as("surface.functional:unsafe_chunk", ">=2.2,<2.5"), same_as("surface.out:split_with_sizes_copy", ">=2.4,<2.5")]

UNTAGGED = ("; that release's schema lacks the inplace_view tag, which exempts such a metadata change from the plain "
            "in-place contract (the tag was added by pytorch/pytorch PR {})")
OLDER += [
    Known("surface.inplace:resize_as_", "keeps_shape", ("eager",), "<2.1", DOCS + "torch.Tensor.resize_as_.html: "
          "\"Resizes the self tensor to be the same size as the specified tensor\"" + UNTAGGED.format("100786, 2.1"),
          by_design=True),
    Known("surface.inplace:set_", "keeps_shape", ("eager",), "<2.3", DOCS + "torch.Tensor.set_.html: \"self tensor "
          "will share the same storage and have the same size and strides as source\"" + UNTAGGED.format("115769, 2.3"),
          by_design=True),
    Known("surface.alias:_test_autograd_multiple_dispatch_view", "is_view", ("eager",), "<2.1",
          "pytorch/pytorch PR 104149 (2.1): \"Make _test_autograd_multiple_dispatch_view a view operation\" (before "
          "it, its result shares x's storage under a view schema, but is no autograd view and has its own version "
          "counter)"),
    # 1.13's op_db gives adjoint (OpInfo mH) a 0-D sample; later op_dbs do not, nor does the hand-written call
    Known("surface.alias:adjoint", "is_view", ("eager",), "<2.0", "pytorch/pytorch PR 92143 (2.0), \"Deprecate .mT,"
          ".T,.mH,.H on 0D tensors\": on a 0-D input these return the input itself, which is \"not documented\"",
          input="OpInfo mH sample 1 "),
    Known("surface.functional:copy", "no_shared_memory", ("eager",), "<2.0", "pytorch/pytorch PR 76083: the "
          "functional copy (behind functionalization, not in Python) \"decomposes into to and expand\": copy(x, y) "
          "returns y itself where dtype, device and shape match (from 2.0 it clones x, then copies)"),
    Known("surface.functional:align_tensors", "no_shared_memory", ("eager",), ">=1.13,<2.5", "pytorch/pytorch PR "
          "23625: align_tensors aligns each tensor as align_to, which \"returns a view of tensor\" (the schema, "
          "Tensor[] -> Tensor[], has no alias annotation; gone from later releases)"),
    Known("surface.inplace:_foreach_*", "refuses_grad_leaf", ("eager",), "<2.1", "pytorch/pytorch issue 53796, "
          "\"foreach ops in autograd\": the in-place foreach ops had no autograd kernel (no check of a leaf that "
          "requires grad) until PR 96405 (2.1) gave them a grad_fn per tensor"),
    Known("surface.out:unbind_copy", "refuses_grad_out", ("eager",), ">=1.13,<2.5",
          DRAFT + "surface_copy_out_grad.py (before 2.5 unbind_copy's out= form writes outs that require grad too)"),
]
# an out with no element is not resized (the rule: pytorch/pytorch's wiki, Developer FAQ, "How does out= work in
# PyTorch?": "if an out tensor has no elements it will be resized to the shape, stride, and memory format of the
# output of the computation")
OLDER += [Known(f"surface.out:{op}", "resizes_empty_out", ("eager",), "<2.0", "pytorch/pytorch issue 89068, "
                "\"view_copy out= does not reshape zero element tensors\" (the generated {view}_copy out= kernels "
                "copied into out without resizing it; PR 91194 gave the handwritten ones the codegen's resize)")
          for op in ("alias_copy", "detach_copy", "diagonal_copy", "slice_copy", "squeeze_copy", "t_copy")]
OLDER.append(Known("surface.out:normal", "resizes_empty_out", ("eager",), "<2.2", "pytorch/pytorch issue 69386, "
                   "\"Port normal to structured kernel\": normal's out= kernels check out's size against mean or std "
                   "instead of resizing an empty out (normal(Tensor mean, float std, out=) refuses one on 1.13.1 and "
                   "2.0.1, resizes it on 2.2.2; the change's PR not found)"))
RECORDS += OLDER


# ---- torch 2.6 to 2.12: the whole eager sweep on 2.6.0, 2.8.0, 2.10.0 and 2.12.1 ----
# Every eager record above failed the same way on each of them; besides, align_tensors (up to 2.12) returns views,
# and unbind_copy's out= form writes outs that require grad before 2.8, as split_with_sizes_copy's still does.
ALIGN = ("surface.functional:align_tensors", "no_shared_memory", ALIASES, False)
UNBIND_COPY = (DRAFT + "surface_copy_out_grad.py (2.6.0 writes them; from 2.8.0 at::native::unbind_copy_int_out "
               "itself raises the error)")
# 2.5, not in the matrix, is taken in between releases that fail the same way (a record is strict: it would say so)
RECORDS += [Known(entry, clause, ("eager",), ">=2.5,<2.13", evidence, by_design)
            for entry, clause, evidence, by_design in EAGER + [ALIGN]]
RECORDS.append(Known("surface.out:unbind_copy", "refuses_grad_out", ("eager",), ">=2.6,<2.8", UNBIND_COPY))
