"""Faults in the promises of specs/aliasing.yaml that no other topic breaks: the property setters `.grad =`, `.real =`
and `.imag =`. Each replaces the property on torch.Tensor with one whose getter is the original C getset's and whose
setter breaks one promise, the way a regression in torch's setter would."""
from __future__ import annotations

from tests.faults import original
from tests.faults.fault import fault


# the harness's snapshot of a tensor reads .grad: through the fault's getter, which is the original getset's
GRAD_CONTACT = dict(harness_contact=("copysuite/run/probes.py:snapshot",),
                    contact_note="probes.snapshot reads .grad through the patched property, whose getter is the "
                                 "original")


def _property(getset, setter):
    return property(lambda self: getset.__get__(self, type(self)), setter)


@fault("grad_setter_stores_a_copy", "`x.grad = g` stores a copy of g instead of g itself",
       entries=["Tensor.grad:setter"],
       expected=[("Tensor.grad:setter", "same_object[b]"), ("Tensor.grad:setter", "shares_storage[b]")], **GRAD_CONTACT)
def _():
    def store(self, value):
        original.grad.__set__(self, None if value is None else original.clone(value))
    return [(original.T, "grad", _property(original.grad, store))]


@fault("grad_setter_skips_its_checks", "`x.grad = g` of a g of another size is dropped silently instead of refused",
       entries=["Tensor.grad:setter.wrong_size"], expected=[("Tensor.grad:setter.wrong_size", "raises")],
       **GRAD_CONTACT)
def _():
    def store(self, value):
        try:
            original.grad.__set__(self, value)
        except RuntimeError:
            pass
    return [(original.T, "grad", _property(original.grad, store))]


@fault("complex_part_setters_write_a_copy", "`x.real = y` and `x.imag = y` write into a copy of the part, not into x",
       entries=["Tensor.real:setter", "Tensor.imag:setter"],
       expected=[("Tensor.real:setter", "version_bumped"), ("Tensor.real:setter", "source_untouched"),
                 ("Tensor.imag:setter", "version_bumped")])
def _():
    def setter(part):
        def store(self, value):
            original.clone(part.__get__(self, type(self))).copy_(value)
        return store
    return [(original.T, "real", _property(original.real, setter(original.real))),
            (original.T, "imag", _property(original.imag, setter(original.imag)))]


@fault("real_setter_skips_autograd",
       "`x.real = y` writes under no_grad, so a leaf that requires grad no longer refuses it",
       entries=["Tensor.real:setter.leaf"], expected=[("Tensor.real:setter.leaf", "raises")])
def _():
    def store(self, value):
        with original.no_grad():
            original.real.__set__(self, value)
    return [(original.T, "real", _property(original.real, store))]
