"""What a fault is: a small patch of torch's Python-visible behaviour (a `torch.Tensor` method or property, a
`torch` function), applied with `unittest.mock.patch.object` inside one test process; nothing on disk changes.

Every replacement calls only the originals captured below, at import, so one fault never routes through another
patched attribute; the harness captures its own instruments the same way (copysuite/storage.py).
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from unittest import mock

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
_double = _T.double
_array = _T.__array__
_item = _T.item
_retain_grad = _T.retain_grad
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


@dataclass(frozen=True)
class Fault:
    name: str
    description: str
    patch: object                          # () -> [(owner, attribute name, replacement)]
    entries: tuple                         # spec entry ids the conformance session is narrowed to
    expected: tuple                        # ((entry id, check), ...): each of these must fail under the fault
    examples: int | None = None            # Hypothesis examples per test, when the default is not enough
    executions: tuple = ()                 # --execution of its session (none: each entry's default executions)
    # Where the harness itself (copysuite/, strategies/) calls what this fault patches, as "path:function", and
    # why that is harmless. The fault plugin records every such call during a session, and tests/selftest/
    # test_faults.py checks that none happens outside this list.
    harness_contact: tuple = ()
    contact_note: str = ""
    # Run by the fault campaign only when asked (COPYSUITE_FAULT_SET=all, copysuite/faults/campaign.py), so that the
    # default test command stays within its time: the promise audit's faults, every one shown caught that way.
    opt_in: bool = False

    def targets(self):
        """[(owner, attribute name)] this fault replaces."""
        return [(owner, attr) for owner, attr, _ in self.patch()]

    @contextmanager
    def applied(self, wrap=None):
        """The fault in place for the `with` block; `wrap(attr, value)` may wrap each replacement."""
        with ExitStack() as stack:
            for owner, attr, value in self.patch():
                stack.enter_context(mock.patch.object(owner, attr, wrap(attr, value) if wrap else value))
            yield self


CATALOG: list[Fault] = []


def fault(name, description, entries, expected, **kw):
    """Decorator: the decorated function returns the [(owner, attr, replacement)] of the fault."""
    def register(fn):
        CATALOG.append(Fault(name=name, description=description, patch=fn, entries=tuple(entries),
                             expected=tuple(tuple(e) for e in expected), **kw))
        return fn
    return register


def opt_in_fault(name, description, entries, expected, **kw):
    """fault(), for a fault the campaign runs only when asked (Fault.opt_in)."""
    return fault(name, description, entries, expected, opt_in=True, **kw)


def by_name(name) -> Fault:
    import copysuite.faults.catalog  # noqa: F401 - registers the faults
    for f in CATALOG:
        if f.name == name:
            return f
    raise KeyError(f"no fault named {name!r}; known: {', '.join(f.name for f in CATALOG)}")


# ---- helpers --------------------------------------------------------------------------------------------------------
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
