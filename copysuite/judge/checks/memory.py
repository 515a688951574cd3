"""Checks on memory and identity: what the result is, whether it is or shares the input, whether writes reach the
input, whether the call changed the input, and whether the values are the input's."""
from __future__ import annotations

import numpy as np
import torch

from copysuite.run import probes, storage
from copysuite.judge.checks.base import BOOLEAN, Observed, check, one_of, says
from copysuite.strategies.space import KINDS, dtype_class

NOT_INFERENCE = tuple(k for k in KINDS if k != "inference")


@check("result_type", accepts=one_of("tensor", "parameter", "ndarray", "list", "scalar", "storage", "none"),
       examples=(("source.detach().numpy()", "ndarray"), ("source.tolist()", "list"), ("source.clone()", "tensor"),
                 ("source.detach()[1:].storage()", "storage")))
def result_type(run):
    """What kind of object the op returns (`storage`: a torch.UntypedStorage or a TypedStorage)."""
    r = run.result
    if isinstance(r, storage.STORAGE_TYPES):
        return Observed("storage", type(r).__name__)
    if isinstance(r, torch.nn.Parameter):
        return Observed("parameter")
    if isinstance(r, torch.Tensor):
        return Observed("tensor")
    if isinstance(r, np.ndarray):
        return Observed("ndarray")
    if isinstance(r, list):
        return Observed("list")
    if r is None:
        return Observed("none")
    return Observed("scalar", type(r).__name__)


PYTHON_TYPE_OF_CLASS = {"bool": "bool", "integer": "int", "float": "float", "float8": "float", "complex": "complex"}


def _python_type_of(dtype) -> str:
    """The Python number type a tensor of `dtype` converts its elements to (Tensor.item: "a standard Python number")."""
    return PYTHON_TYPE_OF_CLASS[dtype_class(str(dtype).replace("torch.", ""))]


def _python_types(r) -> str:
    """The Python type of a scalar result; for a (nested) list, of its elements ("none" when it holds none), the
    names joined by `|` when they differ."""
    if not isinstance(r, list):
        return type(r).__name__
    names, stack = set(), [r]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
        else:
            names.add(type(x).__name__)
    return "|".join(sorted(names)) or "none"


@check("python_type", accepts=one_of("bool", "int", "float", "complex", "str", "none"),
       symbols={"of_dtype": lambda run: _python_type_of(run.subject.dtype)},
       examples=(("source.tolist()", "float"), ("source[0, 0].item()", "float"), ("source.long().tolist()", "int"),
                 ("source.bool()[0, 0].item()", "bool"), ("source.cfloat().tolist()", "complex"),
                 ("source[:0].tolist()", "none"), ("[1, [2.0]]", "float|int"), ("source.type()", "str"),
                 ("source.tolist()", "of_dtype")))
def python_type(run):
    """The Python type of a scalar result, or of every element of a list result (`of_dtype`: bool, int, float or
    complex, as the input's dtype converts; `str`: a string, such as Tensor.type()'s name; `none`: a list with no
    elements)."""
    return Observed(_python_types(run.result))


@says("a text")
def _key_text(value):
    return None if isinstance(value, str) else f"takes the keys as one text, joined by ', ', got {value!r}"


@check("keys", accepts=_key_text, examples=(
    ("torch.nn.Linear(1, 1).state_dict()", "weight, bias"), ("{}", ""), ("source.clone()", None)))
def keys(run):
    """The keys of a dict result (a state_dict), in order, joined by ', ' (`''`: no keys)."""
    r = run.result
    if not isinstance(r, dict):
        return Observed(None, f"result is a {type(r).__name__}, not a dict")
    return Observed(", ".join(map(str, r)))


@check("same_object", accepts=BOOLEAN, judges_variables=True, examples=(("source", True), ("source.detach()", False)))
def same_object(run):
    """The result is the input object itself (`result is source`)."""
    same = run.result is run.subject
    return Observed(same, "result is the input object" if same else
                    f"result is another {type(run.result).__name__} object; "
                    f"{storage.relation(run.subject, run.result)}")


@check("shares_storage", accepts=BOOLEAN, judges_variables=True, examples=(
    ("source.detach()", True), ("source.detach().clone()", False), ("source.detach()[1:, 1:]", True),  # an offset
    ("source.detach().numpy()", True), ("source.detach().numpy().copy()", False)))
def shares_storage(run):
    """The result lives in the input's storage (same storage object, or overlapping memory)."""
    return Observed(storage.shares_storage(run.subject, run.result), storage.relation(run.subject, run.result))


@check("same_storage", accepts=BOOLEAN, examples=(
    ("source.detach()[1:]", True), ("source.detach()[1:].storage()", True), ("source.detach().clone()", False),
    ("torch.empty(1).set_(source.detach().storage(), 0, (1,), (1,))", True)))
def same_storage(run):
    """The result is backed by exactly the input's whole storage: the same storage object, or the same bytes from
    its first to its last (a storage result is judged as itself, a tensor or array as the storage it lives in)."""
    return Observed(storage.same_storage(run.subject, run.result), storage.relation(run.subject, run.result))


# needs_data: no Meta kernel (NotImplementedError, 1.13-2.14)
@check("is_set_to", accepts=BOOLEAN, needs_data=True, examples=(
    ("source.detach().view_as(source)", True), ("source.detach()[1:]", False), ("source.detach().clone()", False)))
def is_set_to(run):
    """`result.is_set_to(input)`: torch says the result points to exactly the input's memory (the same storage, storage
    offset, sizes and strides). Not judged on meta, where torch has no kernel for it."""
    return Observed(*storage.set_to(run.result, run.subject))


@check("writes_through", accepts=BOOLEAN, needs_data=True, disturbs=True, judges_variables=True,
       examples=(("source.detach()", True), ("source.detach().clone()", False)))
def writes_through(run):
    """Overwriting the result in place changes the input's values (compared just before and after that write, so
    a program that itself writes its inputs is judged by the result's write alone)."""
    values = storage.value_bytes(run.subject)
    how = probes.write_into(run.result)
    if how is None:
        return Observed(False, "nothing to write (not a tensor or array, or not writable)")
    changed = storage.value_bytes(run.subject) != values
    return Observed(changed, f"wrote {how}; input {'changed' if changed else 'unchanged'}")


@check("shares_version_counter", accepts=BOOLEAN, kinds=NOT_INFERENCE, needs_data=True, disturbs=True,
       judges_variables=True, examples=(("source.detach()", True), ("source.data", False)))
def shares_version_counter(run):
    """An in-place write to the result bumps the input's version counter (`_version`)."""
    v0 = run.subject._version
    how = probes.write_into(run.result)
    if how is None:
        return Observed(False, "nothing to write (no elements, or not a tensor)")
    return Observed(run.subject._version != v0, f"wrote {how}; input._version {v0} -> {run.subject._version}")


@check("version_bumped", accepts=BOOLEAN, kinds=NOT_INFERENCE, examples=(
    ("source.detach().zero_()", True), ("source.data.zero_()", False), ("source.clone().zero_()", False)))
def version_bumped(run):
    """The program moved the input's version counter (`_version`): autograd would see that it was written, however
    the write reached it (through an alias, a view, a compiled graph). By how much is not judged."""
    before, after = run.before.get("version"), run.subject._version
    return Observed(after != before, f"input._version {before} -> {after}")


@check("source_untouched", accepts=BOOLEAN, examples=(
    ("source.clone()", True), ("source.requires_grad_(False)", False)))
def source_untouched(run):
    """The op leaves the input as it was: values, requires_grad, is_leaf, grad, version, bits, shape."""
    changes = probes.changes(run.before, run.subject)
    return Observed(not changes, "; ".join(changes) or "nothing changed")


@check("sparse_untouched", accepts=BOOLEAN, needs_data=True)
def sparse_untouched(run):
    """The judged sparse COO input keeps its shape, its number of specified elements, its indices and its values (exact
    bytes) as they were before the program; its version counter is not compared (`version_bumped` judges it)."""
    if "nnz" not in run.before:
        raise TypeError(f"the judged input is not a sparse COO tensor (layout {run.before.get('layout', 'strided')})")
    after = probes.snapshot(run.subject)
    changed = [f"{k}: {run.before[k]!r} -> {after[k]!r}" for k in probes.SPARSE_KEYS if run.before[k] != after[k]]
    return Observed(not changed, "; ".join(changed) or "shape, indices and values as they were")


@check("values_equal", accepts=one_of(True), needs_data=True, examples=(
    ("source.clone()", True), ("source * 2", False), ("source.tolist()", True), ("source.detach().numpy()", True)))
def values_equal(run):
    """The result holds exactly the input's values in the same order (converted to the result's dtype), bit for
    bit, so NaN equals the same NaN."""
    r, src = run.result, run.before_values
    if isinstance(r, (torch.Tensor, np.ndarray)):
        got = storage.as_tensor_values(r, src.dtype)
        want = storage.host_copy(src, got.dtype)
    else:  # a (nested) list or a Python scalar
        want = storage.host_copy(src)
        got = storage.as_tensor_values(r, want.dtype)
    got, want = storage.flat(got), storage.flat(want)  # the shape is the `shape` check's business
    return Observed(storage.values_equal(got, want), f"result {storage.few(got)} vs input {storage.few(want)}")
