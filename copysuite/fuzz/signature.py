"""The copy-semantics signature of one call: what a caller can observe of it, as a flat dict of plain data.

A field is named `section|subject|attribute`: `call||raises`; `out|t2|stride`; `pair|out:t2~in:a|shares_storage`;
`in|a|version_moved`; then what a caller does next, each on a fresh call: `write|t2|reaches:in:a` (an in-place
write to an output), `backward|leaf_a|grad`, `grad|t3~t2|value` (torch.autograd.grad of one output's sum with
respect to another). Its kind (`kind()`) drops the subject: what dedup and the model match. Values are rounded
lists (nan spelled), so that two signatures compare with `==` and print as JSON. How far a version counter moves is
not part of it (the specs leave it open): only whether it moved.
"""
from __future__ import annotations

import math

import torch

MAX_VALUES = 64


def kind(field: str) -> str:
    section, subject, attribute = field.split("|")
    if section == "write" and attribute.startswith("reaches:"):
        attribute = "reaches:" + attribute.split(":")[1]
    if section == "pair":
        attribute = "~".join(part.split(":")[0] for part in subject.split("~")) + "." + attribute
    return f"{section}.{attribute}"


def values(t) -> object:
    """A tensor's first elements as rounded Python numbers (nan and inf spelled), or why they cannot be read."""
    try:
        flat = t.detach().reshape(-1)[:MAX_VALUES]
        if flat.is_complex():
            flat = torch.view_as_real(flat.resolve_conj()).reshape(-1)
        return [_number(v) for v in flat.tolist()]
    except Exception as exc:  # noqa: BLE001 - a tensor whose memory cannot be read (resized away): that is data
        return f"unreadable: {type(exc).__name__}"


def _number(v):
    if isinstance(v, float):
        return repr(v) if not math.isfinite(v) else round(v, 4)
    return v


def storage_key(t):
    try:
        return t.untyped_storage().data_ptr() or None
    except Exception:  # noqa: BLE001 - no storage (a subclass, a functional wrapper): shares nothing we can see
        return None


def tensor_fields(prefix: str, t, named: list, own: str) -> dict:
    """dtype, geometry, values, autograd state and whose view `t` (output `own`) is (`named`: [(name, object)] to
    look it up: an input or output, the base of one, or an intermediate)."""
    if not isinstance(t, torch.Tensor):
        return {f"{prefix}|type": type(t).__name__}
    base = t._base if t._is_view() else None
    whose = None if base is None else next((n for n, o in named if o is base), None)
    if base is not None and whose is None:
        whose = next((f"base of {n}" for n, o in named if isinstance(o, torch.Tensor) and n != f"out:{own}"
                      and o._is_view() and o._base is base), "an intermediate")
    return {f"{prefix}|dtype": str(t.dtype), f"{prefix}|shape": list(t.shape), f"{prefix}|stride": list(t.stride()),
            f"{prefix}|offset": t.storage_offset(), f"{prefix}|values": values(t), f"{prefix}|is_view": t._is_view(),
            f"{prefix}|view_of": whose, f"{prefix}|requires_grad": t.requires_grad,
            f"{prefix}|is_leaf": read(lambda: t.is_leaf), f"{prefix}|grad_fn": read(lambda: t.grad_fn is not None)}


def read(attribute):
    """An attribute that may raise (grad_fn of a view whose base was written in another grad mode)."""
    try:
        return attribute()
    except Exception as exc:  # noqa: BLE001 - autograd refusing to answer is an observation
        return f"raises {type(exc).__name__}"


def before(inputs: list) -> dict:
    """What the call is compared against: each input's version counter and values before it."""
    return {name: (getattr(t, "_version", None), values(t)) for name, t in inputs if isinstance(t, torch.Tensor)}


def observe_call(inputs: list, outputs: list, prior: dict, error) -> dict:
    """The signature of the call itself (`inputs`, `outputs`: [(name, object)]; `prior`: before())."""
    fields = {"call||raises": type(error).__name__ if error is not None else None}
    if error is not None:
        return fields
    named = [(f"in:{n}", t) for n, t in inputs] + [(f"out:{n}", t) for n, t in outputs]
    for name, t in outputs:
        fields.update(tensor_fields(f"out|{name}", t, named, name))
    for i, (n1, o1) in enumerate(named):
        for n2, o2 in named[i + 1:]:
            if n1.startswith("in:") and n2.startswith("in:"):
                continue  # the inputs are the same objects on both sides
            if isinstance(o1, torch.Tensor) and isinstance(o2, torch.Tensor):
                fields[f"pair|{n1}~{n2}|same_object"] = o1 is o2
                fields[f"pair|{n1}~{n2}|shares_storage"] = storage_key(o1) is not None and (
                    storage_key(o1) == storage_key(o2))
    for name, t in inputs:
        if name not in prior:
            continue
        version = prior[name][0]
        fields[f"in|{name}|version_moved"] = getattr(t, "_version", None) != version
        fields[f"in|{name}|values"] = values(t)
        fields[f"in|{name}|geometry"] = [list(t.shape), list(t.stride()), t.storage_offset()]
        fields[f"in|{name}|requires_grad"] = t.requires_grad
    return fields


def observe_write(index: int, inputs: list, outputs: list) -> dict:
    """Write to output `index` in place (add 1; logical_not for bool) and see what it reached, or how it failed."""
    name, t = outputs[index]
    if not isinstance(t, torch.Tensor):
        return {}
    others = [(f"in:{n}", o) for n, o in inputs] + [(f"out:{n}", o) for k, (n, o) in enumerate(outputs) if k != index]
    old = {n: values(o) for n, o in others if isinstance(o, torch.Tensor)}
    try:
        t.logical_not_() if t.dtype == torch.bool else t.add_(1)
    except Exception as exc:  # noqa: BLE001 - refusing the write is an observation
        return {f"write|{name}|raises": type(exc).__name__}
    fields = {f"write|{name}|raises": None}
    for n, o in others:
        if n in old:
            fields[f"write|{name}|reaches:{n}"] = values(o) != old[n]
    return fields


def differentiable(t) -> bool:
    return isinstance(t, torch.Tensor) and t.requires_grad and t.is_floating_point()


def loss(outputs):
    """What backward starts from: the sum of every output that requires grad, a complex one through its absolute
    value (backward needs a real scalar). A finding's reproduction prints this function as it is."""
    return sum(t.abs().sum() if t.is_complex() else t.sum() for _, t in outputs
               if isinstance(t, torch.Tensor) and t.requires_grad)


def observe_backward(outputs: list, leaves: list, section: str = "backward") -> dict:
    """backward() of the loss of every output that requires grad (`loss`); then each leaf's gradient."""
    if not any(isinstance(t, torch.Tensor) and t.requires_grad for _, t in outputs):
        return {}
    try:
        loss(outputs).backward()
    except Exception as exc:  # noqa: BLE001 - a backward that fails is an observation
        return {f"{section}||raises": type(exc).__name__}
    fields = {f"{section}||raises": None}
    for name, leaf in leaves:
        fields[f"{section}|{name}|grad"] = None if leaf.grad is None else values(leaf.grad)
    return fields


def observe_after(write_error, outputs: list, leaves: list) -> dict:
    """After a write to an input that followed the call (the program's `after`, which raised `write_error` or
    not): that write refused, or the backward that comes next (`after|...`, as observe_backward): autograd refuses
    it where the program saved the written input for backward, eager as compiled."""
    if write_error is not None:
        return {"after_write||raises": type(write_error).__name__}
    return {"after_write||raises": None, **observe_backward(outputs, leaves, "after")}


def observe_grads(outputs: list) -> dict:
    """torch.autograd.grad of each output's sum with respect to each other output (the first three that require
    grad): does one depend on the other through the graph?"""
    fields = {}
    grads = [(n, t) for n, t in outputs if differentiable(t)][:3]
    for n1, t1 in grads:
        for n2, t2 in grads:
            if t1 is t2:
                continue
            try:
                (g,) = torch.autograd.grad(t1.sum(), t2, allow_unused=True, retain_graph=True)
                fields[f"grad|{n1}~{n2}|value"] = None if g is None else values(g)
            except Exception as exc:  # noqa: BLE001 - an error of autograd is an observation
                fields[f"grad|{n1}~{n2}|value"] = f"raises {type(exc).__name__}"
    return fields


def differences(eager: dict, other: dict) -> dict:
    """{field: [eager's, the other's]} for every field that differs or that only one side has."""
    return {f: [eager.get(f, "absent"), other.get(f, "absent")] for f in sorted(set(eager) | set(other))
            if eager.get(f, "absent") != other.get(f, "absent")}


def observe_forward(names: tuple, tangents: list, error) -> dict:
    """The call with its floating inputs dual (Program.forward): whether it raised, and each output's tangent."""
    if error is not None:
        return {"forward||raises": type(error).__name__}
    fields = {"forward||raises": None}
    for name, tangent in zip(names, tangents):
        fields[f"forward|{name}|tangent"] = None if tangent is None else values(tangent)
    return fields
