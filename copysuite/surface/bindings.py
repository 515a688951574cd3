"""The public Python bindings of the installed torch that return an alias or write in place, derived from torch's own
lists and matched by name to the aten op whose schema states the contract (copysuite.surface.classify).

Where the list comes from (no hand-kept list of bindings):
    torch.overrides.get_overridable_functions()   every public function and Tensor method or property that
                                                  __torch_function__ reaches: torch.*, torch.nn.functional.*,
                                                  torch.linalg.*, torch.fft.*, torch.special.*, Tensor.*
    torch.overrides.get_ignored_functions()       the public Tensor methods it leaves out (Tensor.__iter__,
                                                  Tensor.unflatten, ...)
    vars(torch.Tensor)                            the methods torch/_tensor.py defines in Python
    torch.overrides.get_testing_overrides()       each one's signature: whether it takes `out=` or `inplace=`

A binding's classes:
    alias         its name (Tensor.T: numpy_T, Tensor.H: matrix_H) is an aten alias op: torch.split, Tensor.unbind
    inplace       its name is an aten in-place op: Tensor.add_, torch.relu_, Tensor.__iadd__
    out           a function whose signature takes out= and whose name is an aten op with an out= overload
    inplace_flag  a function whose signature takes inplace= (torch.nn.functional.relu: its `NAME_` op, where aten
                  has one, is the contract's source; the contract is the in-place one either way)
    dunder        a Tensor protocol method with a documented sharing rule and no aten schema: DUNDERS
A binding is Python-defined when its implementation is a Python function (torch/_tensor.py, torch/functional.py,
torch/nn/functional.py): what the dispatcher never sees.
"""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass

import torch
import torch.overrides

from copysuite.surface.classify import classified

CLASSES = ("alias", "inplace", "out", "inplace_flag", "dunder")

# the Tensor properties whose aten op has another name (the rest match by name: mT, mH, real, imag)
RENAMED = {"T": "numpy_T", "H": "matrix_H"}
# an augmented assignment `x OP= y` (Tensor.__iOP__) is the in-place op `OP_` where aten has no `__iOP__` of its own
AUGMENTED = {"truediv": "div", "idiv": "div", "div": "div", "floordiv": "floor_divide", "mod": "remainder"}
# the namespaces whose functions are aten's `NAMESPACE_NAME` ops (torch.linalg.det: aten::linalg_det)
PREFIXED = {"torch.linalg": "linalg", "torch.fft": "fft", "torch.special": "special"}

# the protocol methods a user reaches through Python syntax or a library, with the rule their documentation states
DUNDERS = {
    "__getitem__": "basic indexing returns a view of self; advanced indexing a copy "
                   "(https://pytorch.org/docs/stable/tensor_view.html)",
    "__iter__": "each item is self[i], a view of self (torch/_tensor.py: iter(self.unbind(0)))",
    "__array__": "NumPy's view of a CPU tensor shares its memory (https://pytorch.org/docs/stable/generated/"
                 "torch.Tensor.numpy.html: \"changes to one will be reflected in the other\")",
    "__dlpack__": "the capsule exports self's memory without a copy "
                  "(https://pytorch.org/docs/stable/dlpack.html)",
    "__deepcopy__": "a copy sharing no memory with self (Python's copy module: a deep copy)",
    "__setitem__": "writes self in place and moves its version counter "
                   "(https://pytorch.org/docs/stable/tensor_view.html)",
}

# namespaces of get_overridable_functions() and the public prefix their bindings are called by
PREFIXES = {"torch": "torch", "torch.functional": "torch", "torch.nn.functional": "torch.nn.functional",
            "torch.linalg": "torch.linalg", "torch.fft": "torch.fft", "torch.special": "torch.special",
            "Tensor": "Tensor"}


@dataclass(frozen=True)
class Binding:
    name: str            # as a user writes it: torch.split, Tensor.split, Tensor.T, torch.nn.functional.relu
    aten: str            # the aten op name it is matched to ("" where there is none)
    classes: tuple       # of CLASSES
    python: bool         # implemented in Python
    obj: object = None   # the function, method or property

    @property
    def short(self) -> str:
        return self.name.rpartition(".")[2]

    @property
    def is_method(self) -> bool:
        return self.name.startswith("Tensor.")

    @property
    def is_property(self) -> bool:
        return self.is_method and isinstance(inspect.getattr_static(torch.Tensor, self.short, None),
                                             (property, type(torch.Tensor.T)))


def public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def listed() -> dict:
    """{public name: the object} of every binding torch lists (overridable, and the ignored Tensor methods)."""
    found = {}
    for namespace, fns in torch.overrides.get_overridable_functions().items():
        label = getattr(namespace, "__name__", str(namespace))
        prefix = PREFIXES.get(label)
        if prefix is None:     # a Tensor property: its own namespace, named after it
            if not hasattr(torch.Tensor, label):
                continue
            prefix, fns = "Tensor", [inspect.getattr_static(torch.Tensor, label)]
        owner = torch.Tensor if prefix == "Tensor" else namespace
        names = {id(getattr(owner, n, None)): n for n in dir(owner)} if label in PREFIXES else {}
        for fn in fns:
            # a function's public name is the attribute it is reached by (torch.linalg.det's __name__ is linalg_det)
            name = label if prefix == "Tensor" and label != "Tensor" else names.get(id(fn), getattr(fn, "__name__", ""))
            if name and public(name):
                found.setdefault(f"{prefix}.{name}", fn)
    for fn in torch.overrides.get_ignored_functions():
        qual = getattr(fn, "__qualname__", "")
        owner, _, name = qual.rpartition(".")
        if owner in ("Tensor", "TensorBase") and public(name) and hasattr(torch.Tensor, name):
            found.setdefault(f"Tensor.{name}", fn)
    for name, fn in vars(torch.Tensor).items():   # torch/_tensor.py's own methods (Tensor.__ipow__, ...)
        if inspect.isfunction(fn) and public(name):
            found.setdefault(f"Tensor.{name}", fn)
    return found


REQUIRED = inspect.Parameter.empty


def parameters(fn) -> tuple:
    """((name, default), ...) of the signature torch's testing overrides give for `fn` (empty when it has none);
    REQUIRED where there is no default."""
    lam = testing().get(fn)
    try:
        params = inspect.signature(lam).parameters.values() if lam is not None else ()
    except (TypeError, ValueError):
        return ()
    return tuple((p.name, p.default) for p in params)


def signature(fn) -> tuple:
    return tuple(name for name, _ in parameters(fn))


@functools.cache
def testing() -> dict:
    return torch.overrides.get_testing_overrides()


def python_defined(obj) -> bool:
    fn = getattr(obj, "fget", obj)
    return inspect.isfunction(inspect.unwrap(fn)) if callable(fn) else False


def match(name: str, obj) -> Binding:
    ops = classified()
    namespace, _, short = name.rpartition(".")
    aten = RENAMED.get(short, short) if namespace == "Tensor" else short
    if namespace in PREFIXED:
        aten = f"{PREFIXED[namespace]}_{short}"
    if namespace == "Tensor" and short.startswith("__i") and aten not in ops:
        stem = short[3:-2]
        aten = f"{AUGMENTED.get(stem, stem)}_"
    op = ops.get(aten)
    # torch.nn.functional's names are its own (F.unfold is im2col, not aten::unfold): only its inplace= flag counts
    have = op.classes if op is not None and namespace != "torch.nn.functional" else ()
    params = signature(obj)
    classes = []
    if "alias" in have:
        classes.append("alias")
    if "inplace" in have:
        classes.append("inplace")
    if "out" in have and "out" in params and not name.startswith("Tensor."):
        classes.append("out")
    if "inplace" in params and namespace != "Tensor":
        classes.append("inplace_flag")
        aten = aten if op is not None and f"{aten}_" not in ops else f"{aten}_"
        aten = aten if aten in ops else ""
    if name.startswith("Tensor.") and short in DUNDERS:
        classes.append("dunder")
    return Binding(name, aten if aten in ops else "", tuple(c for c in CLASSES if c in classes),
                   python_defined(obj), obj)


@functools.cache
def derived() -> tuple:
    """Every listed binding, matched (in scope or not), sorted by name."""
    return tuple(match(name, obj) for name, obj in sorted(listed().items()))


def in_scope() -> tuple:
    """The bindings that return an alias or write in place."""
    return tuple(b for b in derived() if b.classes)


def out_of_scope(b: Binding) -> str:
    """Why a listed binding has no binding cell."""
    if not b.aten:
        return "no aten op of that name, and no documented dunder rule"
    return f"aten::{b.aten} is {', '.join(classified()[b.aten].classes)}: neither an alias nor a write"
