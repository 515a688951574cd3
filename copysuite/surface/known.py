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


COMPILED = ("compile.eager", "compile.aot_eager", "compile.aot_eager.dynamic", "compile.inductor",
            "compile.inductor.dynamic")

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


# ---- torch 2.6 to 2.12: the whole eager sweep on 2.6.0, 2.8.0, 2.10.0 and 2.12.1 ----
# Every eager record above failed the same way on each of them (ranges start where it was observed); what differs:
# the named-tensor op align_tensors (registered up to 2.12, gone by 2.13) returns views of its inputs, and
# unbind_copy's out= form writes outs that require grad before 2.8, as split_with_sizes_copy's still does.
ALIGN = ("surface.functional:align_tensors", "no_shared_memory", ALIASES, False)
UNBIND_COPY = (DRAFT + "surface_copy_out_grad.py (2.6.0 writes them; from 2.8.0 at::native::unbind_copy_int_out "
               "itself raises the error)")
RECORDS += [Known(entry, clause, ("eager",), ">=2.6,<2.13", evidence, by_design)
            for entry, clause, evidence, by_design in EAGER + [ALIGN]]
RECORDS.append(Known("surface.out:unbind_copy", "refuses_grad_out", ("eager",), ">=2.6,<2.8", UNBIND_COPY))


def records(entry: str, execution: str, version: str) -> list:
    return [k for k in RECORDS if k.applies(entry, execution, version)]
