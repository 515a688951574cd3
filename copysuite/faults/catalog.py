"""A catalog of semantic faults: small patches of torch's Python-visible behaviour, applied inside one test process.

Each fault breaks one promise the specs state (clone copies, detach aliases, numpy() shares memory, ...), the way a
regression in torch would: it replaces a `torch.Tensor` method or property, or a `torch` function, for the rest of
the process. Nothing on disk changes. `tests/selftest/fault_plugin.py` applies one fault to a whole conformance
session, and `tests/selftest/test_faults.py` checks that the suite then fails on the invariant one would expect.

Every replacement calls only the originals captured below, at import, so one fault never routes through another
patched attribute; the harness captures its own instruments the same way (copysuite/storage.py).
"""
from __future__ import annotations

import weakref
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch

# ---- the originals, captured before any fault is applied ----------------------------------------------------------
_T = torch.Tensor
_clone = _T.clone
_detach = _T.detach
_view = _T.view
_view_as = _T.view_as
_reshape = _T.reshape
_contiguous = _T.contiguous
_numpy = _T.numpy
_cpu = _T.cpu
_to = _T.to
_new_tensor = _T.new_tensor
_conj = _T.conj
_narrow = _T.narrow
_zero_ = _T.zero_
_requires_grad_ = _T.requires_grad_
_register_hook = _T.register_hook
_deepcopy = _T.__deepcopy__
_neg_view = torch._neg_view
_data = vars(getattr(torch._C, "TensorBase", None) or torch._C._TensorBase)["data"]  # the C getset behind .data
_from_numpy = torch.from_numpy
_as_tensor = torch.as_tensor
_asarray = torch.asarray
_is_grad_enabled = torch.is_grad_enabled
_no_grad = torch.no_grad
_inference_mode = torch.inference_mode
_copy_ = _T.copy_


def _write_same_values(t):
    """Bump t's version counter by an in-place write of its own values (releases before 2.1 have neither
    torch.autograd.graph.increment_version nor torch._C._increment_version)."""
    with _no_grad():
        _copy_(t, t)


_increment_version = getattr(getattr(torch.autograd, "graph", None), "increment_version", None) or getattr(
    torch._C, "_increment_version", None) or _write_same_values


def _bump_version(t):
    """What an in-place write does to t's version counter. An inference tensor has none: nothing to bump (2.6.0's
    increment_version does nothing there, 2.2.2 and 2.4.1 raise)."""
    if not t.is_inference():
        _increment_version(t)


_MISSING = object()


@dataclass(frozen=True)
class Fault:
    name: str
    description: str
    patch: object                          # () -> [(owner, attribute name, replacement)]
    ops: tuple                             # spec entry ids the conformance run is narrowed to
    expected: tuple                        # ((op id, invariant), ...): each of these must fail under the fault
    examples: int | None = None            # Hypothesis examples per test, when the default is not enough
    notes: str = ""
    # Where the harness itself (copysuite/, strategies/) calls what this fault patches, as "path:function", and
    # why that is harmless. The fault plugin records every such call during a session, and tests/selftest/
    # test_faults.py checks that none happens outside this list.
    harness_contact: tuple = ()
    contact_note: str = ""

    def targets(self):
        """[(owner, attribute name)] this fault replaces."""
        return [(owner, attr) for owner, attr, _ in self.patch()]

    def apply(self, wrap=None):
        """Install the patch; returns a function that undoes it. `wrap(attr, value)` may wrap each replacement."""
        saved = []
        for owner, attr, value in self.patch():
            saved.append((owner, attr, vars(owner).get(attr, _MISSING)))
            setattr(owner, attr, wrap(attr, value) if wrap else value)

        def undo():
            for owner, attr, old in reversed(saved):
                if old is _MISSING:
                    delattr(owner, attr)
                else:
                    setattr(owner, attr, old)
        return undo

    @contextmanager
    def applied(self):
        undo = self.apply()
        try:
            yield self
        finally:
            undo()


CATALOG: list[Fault] = []


def fault(name, description, ops, expected, **kw):
    """Decorator: the decorated function returns the [(owner, attr, replacement)] of the fault."""
    def register(fn):
        CATALOG.append(Fault(name=name, description=description, patch=fn, ops=tuple(ops),
                             expected=tuple(tuple(e) for e in expected), **kw))
        return fn
    return register


def by_name(name) -> Fault:
    for f in CATALOG:
        if f.name == name:
            return f
    raise KeyError(f"no fault named {name!r}; known: {', '.join(f.name for f in CATALOG)}")


# ---- helpers --------------------------------------------------------------------------------------------------------
def _copying(real):
    """`real`, except that where it returns its first argument itself, a copy of it is returned."""
    def patched(first, *args, **kwargs):
        out = real(first, *args, **kwargs)
        return _clone(out) if out is first else out
    return patched


def _writable_part(t):
    """`t` with every broadcast (stride 0) dim narrowed to one element, so that an in-place write is allowed."""
    for d, (size, st) in enumerate(zip(t.shape, t.stride())):
        if st == 0 and size > 1:
            t = _narrow(t, d, 0, 1)
    return t


def _write_context(t):
    return _inference_mode() if t.is_inference() else _no_grad()


_OTHER_DTYPE = {
    "bool": torch.uint8, "int64": torch.int32, "float64": torch.float32, "complex64": torch.complex128,
    "complex128": torch.complex64, "complex32": torch.complex64,
}


def _other_dtype(dtype):
    name = str(dtype).replace("torch.", "")
    if name in _OTHER_DTYPE:
        return _OTHER_DTYPE[name]
    if dtype.is_floating_point:
        return torch.float64
    return torch.int64  # every other integer dtype


class _ScaledClone(torch.autograd.Function):
    """clone() whose backward doubles the gradient. Its graph node is named CloneBackward0, like the real one, so
    that only the gradient's values give it away."""

    @staticmethod
    def forward(ctx, x, memory_format):
        return _clone(x, memory_format=memory_format)

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None


_ScaledClone._backward_cls.__name__ = _ScaledClone._backward_cls.__qualname__ = "CloneBackward0"


# ---- clone ----------------------------------------------------------------------------------------------------------
@fault("clone_shares_storage", "clone() returns an alias of its source (a view) instead of a copy",
       ops=["clone"], expected=[("clone", "shares_storage"), ("clone", "writes_through")])
def _():
    def clone(self, *args, **kwargs):
        return _view_as(self, self)
    return [(_T, "clone", clone)]


@fault("clone_loses_graph", "clone() returns a detached copy: no grad_fn, no gradient back to the source",
       ops=["clone", "clone(grad_source)"],
       expected=[("clone(grad_source)", "requires_grad"), ("clone(grad_source)", "grad_fn"),
                 ("clone(grad_source)", "is_leaf"), ("clone", "grad_to_source")],
       notes="`clone` catches it by requires_grad and grad_fn only when it draws a source that requires grad in "
             "grad mode, which it did in 0 of 3 random runs at 4 examples: hence the spec entry clone(grad_source)")
def _():
    def clone(self, *args, **kwargs):
        return _detach(_clone(self, *args, **kwargs))
    return [(_T, "clone", clone)]


@fault("clone_grad_scaled", "the gradient through clone() is doubled (a torch.autograd.Function whose node is "
       "still named CloneBackward0)", ops=["clone"], expected=[("clone", "grad_to_source")])
def _():
    def clone(self, *args, memory_format=torch.preserve_format):
        return _ScaledClone.apply(self, memory_format)
    return [(_T, "clone", clone)]


@fault("clone_grad_overwrites", "backward through clone() overwrites the source's .grad instead of accumulating "
       "into it (a hook on the source clears .grad first)", ops=["clone"],
       expected=[("clone", "grad_accumulates")])
def _():
    def clone(self, *args, **kwargs):
        out = _clone(self, *args, **kwargs)
        if self.is_leaf and self.requires_grad and _is_grad_enabled():
            ref = weakref.ref(self)

            def forget_grad(grad):
                src = ref()
                if src is not None:
                    src.grad = None
                return grad
            _register_hook(self, forget_grad)
        return out
    return [(_T, "clone", clone)]


@fault("clone_strides_contiguous", "clone() ignores torch.preserve_format: every copy is C-contiguous",
       ops=["clone(dense)"], expected=[("clone(dense)", "strides")],
       notes="`clone` and `clone(preserve_format)` state the same strides, but draw a transposed source in few "
             "examples: the fault went unnoticed there at 10 examples, hence the spec entry clone(dense)")
def _():
    def clone(self, *, memory_format=torch.preserve_format):
        if memory_format == torch.preserve_format:
            memory_format = torch.contiguous_format
        return _clone(self, memory_format=memory_format)
    return [(_T, "clone", clone)]


@fault("clone_keeps_lazy_bits", "clone() carries a lazy conjugate or negative bit over to the copy instead of "
       "materializing it (same values, bit still set)", ops=["clone(lazy_bits)"],
       expected=[("clone(lazy_bits)", "is_conj"), ("clone(lazy_bits)", "is_neg")],
       notes="`clone` catches it too, at 25 examples (it draws a conjugate bit only with the few complex dtypes): "
             "hence the spec entry clone(lazy_bits)")
def _():
    def clone(self, *args, **kwargs):
        if self.is_conj():
            return _conj(_clone(_conj(self), *args, **kwargs))
        if self.is_neg():
            return _neg_view(_clone(_neg_view(self), *args, **kwargs))
        return _clone(self, *args, **kwargs)
    return [(_T, "clone", clone)]


@fault("clone_changes_dtype", "clone() silently returns another dtype (float32 -> float64, int64 -> int32, ...), "
       "with the same values", ops=["clone"], expected=[("clone", "dtype")])
def _():
    def clone(self, *args, **kwargs):
        out = _clone(self, *args, **kwargs)
        return _to(out, _other_dtype(out.dtype))
    return [(_T, "clone", clone)]


@fault("clone_bumps_source_version", "clone() bumps its source's version counter (as if it had written to it), "
       "values untouched", ops=["clone"], expected=[("clone", "source_untouched")])
def _():
    def clone(self, *args, **kwargs):
        out = _clone(self, *args, **kwargs)
        _bump_version(self)
        return out
    return [(_T, "clone", clone)]


# ---- detach, detach_, .data -----------------------------------------------------------------------------------------
@fault("detach_copies", "detach() returns a copy (new storage, own version counter) instead of an alias",
       ops=["detach"], expected=[("detach", "shares_storage"), ("detach", "writes_through"),
                                 ("detach", "shares_version_counter")])
def _():
    def detach(self):
        return _clone(_detach(self))
    return [(_T, "detach", detach)]


@fault("detach_keeps_requires_grad", "detach() returns an alias that still requires grad (a new leaf)",
       ops=["detach"], expected=[("detach", "requires_grad")])
def _():
    def detach(self):
        out = _detach(self)
        if self.requires_grad:
            _requires_grad_(out)
        return out
    return [(_T, "detach", detach)]


@fault("detach_drops_version_counter", "detach() behaves like .data: same memory, but a version counter of its own, "
       "so autograd no longer sees writes made through it", ops=["detach"],
       expected=[("detach", "shares_version_counter"), ("detach", "backward_sees_write")])
def _():
    def detach(self):
        return _data.__get__(self, type(self))
    return [(_T, "detach", detach)]


@fault("data_shares_version_counter", "`.data` behaves like detach(): it shares the source's version counter",
       ops=["data"], expected=[("data", "shares_version_counter"), ("data", "backward_sees_write")])
def _():
    return [(_T, "data", property(lambda self: _detach(self), lambda self, value: _data.__set__(self, value)))]


@fault("detach__out_of_place", "detach_() does not act in place: it returns a detached alias and leaves the tensor "
       "in the graph", ops=["detach_"], expected=[("detach_", "same_object"), ("detach_", "source_untouched")])
def _():
    def detach_(self):
        return _detach(self)
    return [(_T, "detach_", detach_)]


@fault("retain_grad_noop", "retain_grad() does nothing", ops=["retain_grad"],
       expected=[("retain_grad", "retains_grad"), ("retain_grad", "source_untouched")])
def _():
    def retain_grad(self):
        return None
    return [(_T, "retain_grad", retain_grad)]


# ---- numpy interop --------------------------------------------------------------------------------------------------
@fault("numpy_copies", "Tensor.numpy() returns a copy (same layout) instead of an array over the tensor's memory",
       ops=["numpy"], expected=[("numpy", "shares_storage"), ("numpy", "writes_through")])
def _():
    def numpy(self, *args, **kwargs):
        return _numpy(self, *args, **kwargs).copy(order="K")
    return [(_T, "numpy", numpy)]


@fault("numpy_allows_requires_grad", "Tensor.numpy() accepts a tensor that requires grad (it detaches silently "
       "instead of raising)", ops=["numpy", "numpy(grad_source)", "clone.numpy"],
       expected=[("numpy(grad_source)", "raises")],
       notes="`numpy` and `clone.numpy` draw a source that requires grad in grad mode in few examples (clone.numpy "
             "missed it at 10), hence the spec entry numpy(grad_source)")
def _():
    def numpy(self, *args, **kwargs):
        return _numpy(_detach(self) if self.requires_grad else self, *args, **kwargs)
    return [(_T, "numpy", numpy)]


@fault("from_numpy_copies", "torch.from_numpy() copies the array instead of sharing its memory",
       ops=["numpy.from_numpy"],
       expected=[("numpy.from_numpy", "shares_storage"), ("numpy.from_numpy", "writes_through")])
def _():
    def from_numpy(array):
        return _from_numpy(np.array(array, copy=True, order="K"))
    return [(torch, "from_numpy", from_numpy)]


# ---- devices, views, view-or-copy -----------------------------------------------------------------------------------
@fault("cpu_copies", "cpu() on a CPU tensor returns a copy instead of the tensor itself", ops=["cpu", "detach.cpu"],
       expected=[("cpu", "same_object"), ("cpu", "shares_storage"), ("detach.cpu", "shares_storage")])
def _():
    return [(_T, "cpu", _copying(_cpu))]


@fault("view_copies", "Tensor.view() returns a copy (in the graph) instead of a view",
       ops=["view(-1)"], expected=[("view(-1)", "shares_storage"), ("view(-1)", "writes_through"),
                                   ("view(-1)", "autograd_view"), ("view(-1)", "shares_version_counter")])
def _():
    def view(self, *args, **kwargs):
        return _clone(_view(self, *args, **kwargs))
    return [(_T, "view", view)]


@fault("reshape_always_copies", "reshape() copies even when the strides allow a view", ops=["reshape(-1)"],
       expected=[("reshape(-1)", "shares_storage"), ("reshape(-1)", "autograd_view")],
       harness_contact=("copysuite/invariants.py:values_equal", "strategies/cases.py:build"),
       contact_note="values_equal flattens the harness's own fresh CPU copies (`got.reshape(-1)`, "
                    "`want.reshape(-1)`) and Case.build runs `source.copy_(flat.reshape(shape))` to fill the "
                    "input: both only read the reshaped values, so an extra copy changes nothing")
def _():
    def reshape(self, *args, **kwargs):
        return _clone(_reshape(self, *args, **kwargs))
    return [(_T, "reshape", reshape)]


@fault("contiguous_always_copies", "contiguous() copies a tensor that is already contiguous instead of returning it",
       ops=["contiguous"], expected=[("contiguous", "same_object"), ("contiguous", "shares_storage")])
def _():
    return [(_T, "contiguous", _copying(_contiguous))]


# ---- constructors and copies ----------------------------------------------------------------------------------------
@fault("new_tensor_keeps_graph", "x.new_tensor(x) keeps x's graph (it returns x.clone()) instead of a detached leaf",
       ops=["new_tensor", "new_tensor(grad_source)"],
       expected=[("new_tensor(grad_source)", "requires_grad"), ("new_tensor(grad_source)", "grad_fn"),
                 ("new_tensor(grad_source)", "is_leaf"), ("new_tensor", "grad_to_source")],
       notes="`new_tensor` alone caught it only by grad_to_source: at 20 examples it drew no source that requires "
             "grad in grad mode for requires_grad/grad_fn/is_leaf, hence the spec entry new_tensor(grad_source)")
def _():
    def new_tensor(self, data, *args, **kwargs):
        out = _new_tensor(self, data, *args, **kwargs)  # also emits the real warning
        if isinstance(data, torch.Tensor) and not args and not kwargs and data.requires_grad and _is_grad_enabled():
            return _clone(data)
        return out
    return [(_T, "new_tensor", new_tensor)]


@fault("new_tensor_mutates_source", "x.new_tensor(x) 'moves' the data: after copying it zeroes x in place",
       ops=["new_tensor"], expected=[("new_tensor", "source_untouched")])
def _():
    def new_tensor(self, data, *args, **kwargs):
        out = _new_tensor(self, data, *args, **kwargs)
        if isinstance(data, torch.Tensor):
            with _write_context(data):
                _zero_(_writable_part(data))
        return out
    return [(_T, "new_tensor", new_tensor)]


@fault("deepcopy_shares_storage", "copy.deepcopy of a tensor returns an alias of its memory (keeping requires_grad)",
       ops=["copy.deepcopy"], expected=[("copy.deepcopy", "shares_storage"), ("copy.deepcopy", "writes_through")],
       notes="nn.Parameter has its own __deepcopy__, so Parameter sources are not affected")
def _():
    def __deepcopy__(self, memo):
        if not self.is_leaf:
            return _deepcopy(self, memo)  # keeps the real error
        if id(self) in memo:
            return memo[id(self)]
        out = _detach(self)
        if self.requires_grad:
            _requires_grad_(out)
        memo[id(self)] = out
        return out
    return [(_T, "__deepcopy__", __deepcopy__)]


@fault("as_tensor_copies", "torch.as_tensor(t) copies a tensor that already has the requested dtype and device",
       ops=["torch.as_tensor"], expected=[("torch.as_tensor", "same_object"), ("torch.as_tensor", "shares_storage")])
def _():
    return [(torch, "as_tensor", _copying(_as_tensor))]


@fault("asarray_ignores_copy", "torch.asarray(t, copy=True) shares memory (copy=True treated as copy=None)",
       ops=["torch.asarray(copy=True)"],
       expected=[("torch.asarray(copy=True)", "shares_storage"), ("torch.asarray(copy=True)", "same_object")])
def _():
    def asarray(obj, *args, **kwargs):
        if kwargs.get("copy") is True:
            kwargs = {**kwargs, "copy": None}
        return _asarray(obj, *args, **kwargs)
    return [(torch, "asarray", asarray)]
