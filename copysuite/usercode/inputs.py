"""The caller's own inputs as Python that rebuilds them from their values: what each side of a comparison runs on
(every side execs the same lines, so each gets fresh tensors and none sees another's writes) and what the
reproduction prints.

Aliasing among the inputs is kept: tensors that share one storage are rebuilt over one fresh storage holding the
whole of the old one's bytes. A view (`_is_view()`) is rebuilt as an `as_strided` view of its rebuilt base (a base
that is not an argument gets a variable of its own), made under no_grad where the view does not require grad though
its base does; a tensor that shares memory without being a view (`detach()`, `.data`) is the first one's
`detach()` (sharing its version counter, as those do) where it has the same dtype and geometry, else a tensor `set_`
onto the fresh storage. A leaf that requires grad requires it again; a parameter is a parameter; a non-leaf gets a
leaf of its own (`leaf_NAME`) that it is copied from, so gradients have somewhere to go. The same object passed
twice is one variable. What no Python text rebuilds (another tensor subclass, a sparse or other non-strided layout,
an object whose repr does not evaluate to it) is deep-copied per side, and the reproduction says so.
"""
from __future__ import annotations

import copy
import dataclasses

import torch

@dataclasses.dataclass(frozen=True)
class Rebuilt:
    """One input tensor the comparison names: `alias` is the expression it is made from where it aliases another
    input (what the fuzzer's records read of an aliased input)."""
    name: str
    alias: str | None = None


@dataclasses.dataclass
class Captured:
    lines: list            # Python that binds every input; `args` and `kwargs` are bound last
    tensors: list          # [Rebuilt] of every tensor input, in argument order
    leaves: list           # the names of the leaves gradients reach (inputs and the hidden leaves of non-leaves)
    opaque: dict           # {name: object} bound by deep copy, not by text (the reproduction cannot print them)

    def build(self) -> tuple:
        """Fresh (args, kwargs, namespace), from the lines (and fresh deep copies of the opaque objects)."""
        ns = {"torch": torch, **{n: copy.deepcopy(o) for n, o in self.opaque.items()}}
        exec(compile("\n".join(self.lines), "<copysuite compare inputs>", "exec"), ns)  # noqa: S102 - the printed text
        return ns["args"], ns["kwargs"], ns


def capture(args: tuple, kwargs: dict) -> Captured:
    """The lines that rebuild `args` and `kwargs` (tensors anywhere in tuples, lists and dicts)."""
    writer = _Writer()
    arg_texts = [writer.value(a, f"arg{i}") for i, a in enumerate(args)]
    kw_texts = [f"{k!r}: {writer.value(v, f'kw_{k}')}" for k, v in kwargs.items()]
    packed = "(" + "".join(t + ", " for t in arg_texts) + ")"
    lines = writer.lines + [f"args = {packed}", "kwargs = {" + ", ".join(kw_texts) + "}"]
    return Captured(lines, writer.tensors, writer.leaves, writer.opaque)


class _Writer:
    def __init__(self):
        self.lines, self.tensors, self.leaves, self.opaque = [], [], [], {}
        self.names = {}      # id(tensor) -> variable
        self.memory = {}     # storage key -> (variable of the storage's first non-view tensor, that tensor)
        self.keep = []       # the objects named, so that their ids stay theirs while writing

    def value(self, v, name: str) -> str:
        if isinstance(v, (tuple, list)) and type(v) in (tuple, list):
            items = [self.value(x, f"{name}_{i}") for i, x in enumerate(v)]
            if isinstance(v, tuple):
                return "(" + "".join(t + ", " for t in items) + ")"
            return "[" + ", ".join(items) + "]"
        if type(v) is dict:
            return "{" + ", ".join(f"{k!r}: {self.value(x, f'{name}_{i}')}" for i, (k, x) in enumerate(v.items())) + "}"
        if isinstance(v, torch.Tensor):
            return self.tensor(v, name, argument=True)
        if _prints(v):
            return repr(v)
        self.opaque[name] = v
        return name

    def tensor(self, t: torch.Tensor, name: str, argument: bool) -> str:
        if id(t) in self.names:
            name = self.names[id(t)]
            if argument:   # the same tensor passed twice: aliased inputs, as the fuzzer's `b = a`
                self.tensors = [Rebuilt(r.name, r.alias or f"{name} (passed again)") if r.name == name else r
                                for r in self.tensors]
            return name
        self.keep.append(t)
        if type(t) not in (torch.Tensor, torch.nn.Parameter) or t.layout != torch.strided:
            self.opaque[name] = t
            self.names[id(t)] = name
            self.tensors.append(Rebuilt(name)) if argument else None
            return name
        alias, no_grad = None, False
        if t._is_view():
            base = self.tensor(t._base, f"base_{name}", argument=False)
            alias = self.view_of(base, t._base, t)
            no_grad = t._base.requires_grad and not t.requires_grad   # a view made under no_grad
            if t.requires_grad and not t._base.requires_grad:   # a view that was made a leaf: requires_grad_()
                alias += ".requires_grad_()"
                self.leaves.append(name)
        else:
            key = _storage_key(t)
            if key in self.memory:
                alias = self.alias_of(*self.memory[key], t)
            else:
                self.lines += self.fresh(t, name)
                self.memory[key] = (name, t)
        if alias is not None:
            self.lines += ["with torch.no_grad():", f"    {name} = {alias}"] if no_grad else [f"{name} = {alias}"]
        self.names[id(t)] = name
        if argument:
            self.tensors.append(Rebuilt(name, alias))
        return name

    def fresh(self, t: torch.Tensor, name: str) -> list:
        """The lines of a tensor that owns a storage no other input owns: its storage's values, then the tensor."""
        storage = t.untyped_storage()
        dtype, device = str(t.dtype), str(t.device)
        whole = storage.nbytes() // t.element_size()
        flat = torch.empty(0, dtype=t.dtype, device=t.device).set_(storage, 0, (whole,), (1,)).detach()
        values = _text(flat.tolist()) if t.device.type != "meta" else None
        memory = f"memory_{name}"
        if values is not None and t.is_contiguous() and t.storage_offset() == 0 and t.numel() == whole and (
                t.grad_fn is None and t.dim()):   # the common case, printed as itself
            made = f"torch.tensor({_text(t.detach().tolist())}, dtype={dtype}, device={device!r})"
            return [f"{name} = {self.autograd(made, t, name)}"]
        lines = [f"{memory} = torch.tensor({values}, dtype={dtype}, device={device!r})" if values is not None else
                 f"{memory} = torch.empty({whole}, dtype={dtype}, device={device!r})"]
        made = f"torch.empty(0, dtype={dtype}, device={device!r}).set_({memory}.untyped_storage(), " \
               f"{t.storage_offset()}, {tuple(t.shape)!r}, {tuple(t.stride())!r})"
        if t.requires_grad and t.grad_fn is not None:   # a non-leaf: copied from a leaf of its own
            leaf = f"leaf_{name}"
            lines += [f"{leaf} = torch.tensor({_text(t.detach().tolist())}, dtype={dtype}, device={device!r})"
                      ".requires_grad_()", f"{name} = {made}", "with torch.enable_grad():",
                      f"    {name}.copy_({leaf})"]
            self.leaves.append(leaf)
            return lines
        return lines + [f"{name} = {self.autograd(made, t, name)}"]

    def autograd(self, made: str, t: torch.Tensor, name: str) -> str:
        """A leaf's expression made a parameter, or made to require grad, as `t` is."""
        if t.requires_grad:
            self.leaves.append(name)
        if isinstance(t, torch.nn.Parameter):
            return f"torch.nn.Parameter({made}, requires_grad={t.requires_grad})"
        return made + (".requires_grad_()" if t.requires_grad else "")

    def view_of(self, base: str, base_t: torch.Tensor, t: torch.Tensor) -> str:
        """An as_strided view of the rebuilt base (through a flat view of the other dtype for a dtype view)."""
        source = base
        if t.dtype != base_t.dtype:
            whole = base_t.untyped_storage().nbytes() // base_t.element_size()
            source = f"{base}.as_strided(({whole},), (1,), 0).view({t.dtype})"
        made = f"{source}.as_strided({tuple(t.shape)!r}, {tuple(t.stride())!r}, {t.storage_offset()})"
        if t.is_conj():
            made += ".conj()"
        if t.is_neg():
            made += "._neg_view()"
        return made

    def alias_of(self, first: str, first_t: torch.Tensor, t: torch.Tensor) -> str:
        """A tensor in another input's storage without being a view: the first one's detach() where it can be."""
        same = (t.dtype, t.shape, t.stride(), t.storage_offset()) == (
            first_t.dtype, first_t.shape, first_t.stride(), first_t.storage_offset())
        if same:
            made = f"{first}.detach()"
        else:
            made = (f"torch.empty(0, dtype={t.dtype}, device={str(t.device)!r}).set_({first}.untyped_storage(), "
                    f"{t.storage_offset()}, {tuple(t.shape)!r}, {tuple(t.stride())!r})")
        if isinstance(t, torch.nn.Parameter):
            return f"torch.nn.Parameter({made}, requires_grad={t.requires_grad})"
        return made + (".requires_grad_()" if t.requires_grad else "")


def _storage_key(t: torch.Tensor):
    storage = t.untyped_storage()
    pointer = storage.data_ptr()
    return (str(t.device), pointer) if pointer else ("unshared", id(t))


def _prints(v) -> bool:
    """Whether repr(v) evaluates to an equal value of the same type (numbers, strings, dtypes, None)."""
    try:
        back = eval(repr(v), {"torch": torch, "inf": float("inf"), "nan": float("nan")})
        return type(back) is type(v) and (back == v or v != v)
    except Exception:  # noqa: BLE001 - a repr that is no Python
        return False


def _text(values) -> str:
    """A list of numbers as Python; inf and nan spelled so that they evaluate without an import."""
    return repr(values).replace("nan", "float('nan')").replace("inf", "float('inf')")
