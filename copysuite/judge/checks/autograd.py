"""Checks on autograd: view tracking, what autograd sees of a write, requires_grad, is_leaf, grad_fn, retained and
accumulated gradients, and the gradient that reaches the input."""
from __future__ import annotations

import torch

from copysuite.run import probes, storage
from copysuite.judge.checks.base import BOOLEAN, Observed, check, one_of, text_or_null
from copysuite.strategies.space import GRAD_KINDS

# Captured before any test can patch torch (see copysuite/run/storage.py).
_is_view = torch.Tensor._is_view
_autograd_grad = torch.autograd.grad
_backward = torch.Tensor.backward
_ones_like = torch.ones_like
_mul = torch.Tensor.mul
_sum = torch.Tensor.sum
_real = torch.real

LEAF_GRAD_KINDS = ("leaf_requires_grad", "parameter")


def _real_loss(t):
    s = _sum(t)
    return _real(s) if s.is_complex() else s


def _grad_fn_name(t):
    fn = getattr(t, "grad_fn", None)
    return None if fn is None else type(fn).__name__  # what repr(tensor) prints, e.g. CloneBackward0


def _grad_reaches(expected, observed) -> bool:
    """`reaches` stands for either kind of gradient that gets through: ones or partial."""
    return observed in ("ones", "partial") if expected == "reaches" else expected == observed


@check("autograd_view", accepts=BOOLEAN, examples=(("source.view(6)", True), ("source.detach()", False)))
def autograd_view(run):
    """Autograd records the result as a view of the input (`result._base` is the input or the input's base)."""
    r, src = run.result, run.subject
    if r is src:
        return Observed(False, "the result is the input itself")
    if not isinstance(r, torch.Tensor) or not _is_view(r):
        return Observed(False,
                        "result._is_view() is False" if isinstance(r, torch.Tensor) else "result is not a tensor")
    ok = r._base is (src._base if _is_view(src) else src)
    return Observed(ok, f"result._base is {'the input' + chr(39) + 's base' if ok else 'some other tensor'}")


@check("backward_sees_write", accepts=BOOLEAN, kinds=GRAD_KINDS, needs_data=True, disturbs=True,
       examples=(("source.detach()", True), ("source.data", False)))
def backward_sees_write(run):
    """After an in-place write to the result, backward through a graph that saved the input (built just before the
    write) raises the "modified by an inplace operation" error: autograd saw the write. Any other error is an
    observation that failed, not a "no"."""
    loss = _real_loss(_mul(run.subject, run.subject))  # mul saves the input for backward
    how = probes.write_into(run.result)
    if how is None:
        return Observed(False, "nothing to write")
    try:
        _backward(loss)
    except RuntimeError as exc:
        if "modified by an inplace operation" not in str(exc):
            raise
        return Observed(True, f"wrote {how}; backward raised: {exc}")
    return Observed(False, f"wrote {how}; backward ran without error")


@check("requires_grad", accepts=BOOLEAN, examples=(("source.clone()", True), ("source.detach()", False)))
def requires_grad(run):
    """result.requires_grad."""
    return Observed(bool(getattr(run.result, "requires_grad", False)))


@check("is_leaf", accepts=BOOLEAN, examples=(("source.detach()", True), ("source.clone()", False)))
def is_leaf(run):
    """result.is_leaf."""
    return Observed(run.result.is_leaf, f"grad_fn={run.result.grad_fn}")


COMPILED_GRAD_FN = ("a compiled graph's outputs have its own backward node (AOTAutograd's CompiledFunction, "
                    "https://github.com/pytorch/pytorch/blob/main/torch/_functorch/_aot_autograd/runtime_wrappers.py),"
                    " never eager's op-named node; requires_grad and is_leaf judge whether there is one")


@check("grad_fn", accepts=text_or_null, symbols={"same": lambda run: _grad_fn_name(run.subject)},
       eager_only=COMPILED_GRAD_FN, examples=(("source.clone()", "CloneBackward0"), ("source.detach()", None)))
def grad_fn(run):
    """The name of result.grad_fn's node (null when it has none)."""
    return Observed(_grad_fn_name(run.result))


@check("retains_grad", accepts=BOOLEAN, examples=(
    ("result = source * 2\nresult.retain_grad()\nresult = result", True), ("source.clone()", False)))
def retains_grad(run):
    """result.retains_grad: backward will populate .grad on this (non-leaf) tensor."""
    return Observed(bool(getattr(run.result, "retains_grad", False)))


@check("grad_to_source", accepts=one_of("none", "ones", "partial", "reaches"), agrees=_grad_reaches,
       kinds=GRAD_KINDS, needs_data=True, disturbs=True,
       examples=(("source.clone()", "ones"), ("source[0]", "partial"), ("source.detach()", "none"),
                 ("source[0]", "reaches")))
def grad_to_source(run):
    """Backpropagating ones from the result reaches the input: none, ones (identity-like), or partial (some
    elements, or some more than once). A spec may say `reaches` for "ones or partial"."""
    r = run.result
    if not isinstance(r, torch.Tensor) or not r.requires_grad:
        return Observed("none", "result does not require grad")
    if r is not run.subject and r.grad_fn is None:
        return Observed("none", "result requires grad but has no grad_fn (made outside grad mode)")
    (g,) = _autograd_grad(r, run.subject, grad_outputs=_ones_like(r), allow_unused=True)
    if g is None:
        return Observed("none", "autograd.grad returned None for the input")
    ones = storage.values_equal(storage.host_copy(g), storage.full_like_values(g, 1))
    return Observed("ones" if ones else "partial")


@check("grad_accumulates", accepts=one_of("accumulates", "none", "overwrites"), kinds=LEAF_GRAD_KINDS,
       needs_data=True, disturbs=True, examples=(("source.clone()", "accumulates"), ("source.detach()", "none")))
def grad_accumulates(run):
    """Two backward calls through the result add their gradients into the input's .grad."""
    r = run.result
    if not isinstance(r, torch.Tensor) or not r.requires_grad:
        return Observed("none", "result does not require grad")
    loss = _real_loss(r)
    _backward(loss, retain_graph=True)
    if run.subject.grad is None:
        return Observed("none", "input.grad is None after backward")
    first = storage.host_copy(run.subject.grad)
    _backward(loss)
    second = storage.host_copy(run.subject.grad)
    return Observed("accumulates" if storage.values_equal(second, storage.host_copy(first * 2)) else "overwrites")
