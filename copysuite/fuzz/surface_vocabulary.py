"""The surface vocabulary: every op the operator surface plans a call for (copysuite.surface.cells.planned_calls),
in its class, as fuzz ops (copysuite.fuzz.vocabulary.Op) beside the hand-written ones, which stay the default.

Each surface call becomes an expression over the program's variables (copysuite.fuzz.surface_ops) and is probed
eagerly on a few inputs of the kinds a program holds (PROBES): where none applies, the op's result is unknown and
the form is left out; where the op's values differ between two calls (a random op, uninitialized memory), eager and
an execution cannot be compared and the form is left out; so is an op whose documented precondition no program's
variable meets (PRECONDITIONS: lift_fresh, whose argument must be fresh). A form that refuses some probes is kept:
a program's variable of that kind makes eager raise, and the execution must raise too. Each (class, op name) keeps up to
MAX_FORMS forms, those that apply to the most probes first, each named `surface.CLASS:OP/HASH` by its template;
every op left out is listed with its reason.

The ops are grouped for drawing (GROUPS: the foreach ops, the `*_copy` ops, the scatter and index ops, then the
surface's own classes), and a program draws a group by WEIGHTS, then an op of it: the hand-written table's classes
weigh one each, so that its ops, each meant for what the specs check, stay a large share of every program.
"""
from __future__ import annotations

import functools
import hashlib
import re
import warnings
from dataclasses import dataclass, field

import torch

from copysuite.fuzz import signature, surface_ops, vocabulary
from copysuite.fuzz.surface_ops import Unrenderable
from copysuite.fuzz.vocabulary import Op
from copysuite.run.storage import untyped_storage

GROUPS = ("alias", "inplace", "out", "functional", "copy", "scatter_index", "foreach", "refused")
WEIGHTS = {"alias": 2, "inplace": 2, "out": 2, "functional": 2, "copy": 1, "scatter_index": 1, "foreach": 1,
           "refused": 1}
DEFAULT_WEIGHT = 1   # each class of the hand-written table (copysuite.fuzz.vocabulary.KINDS)
MAX_FORMS = 3
# inputs of the kinds a program holds ((3, 4) is the surface's own hand-written shape)
PROBES = (("float32", (2, 3)), ("float32", (3, 4)), ("float32", (4,)), ("float32", (2, 3, 4)), ("int64", (2, 3)),
          ("complex64", (2, 3)), ("bool", (2, 2)))
SCATTER_INDEX = re.compile(r"scatter|index|gather|^put_?$|^take|^masked_")
PREFIX = "surface."
# ops whose documented precondition no program's variable meets: a tracer may rely on it, so what they do to an
# input says nothing of copy semantics
PRECONDITIONS = {
    "lift_fresh": "its argument must be fresh, newly allocated by torch.tensor(), and a traced lift_fresh becomes "
                  "lift_fresh_copy (aten/src/ATen/native/native_functions.yaml, the comment above lift_fresh)",
}


def group(cls: str, name: str) -> str:
    if name.startswith("_foreach_"):
        return "foreach"
    if name.rstrip("_").endswith("_copy"):
        return "copy"
    return "scatter_index" if SCATTER_INDEX.search(name) else cls


@dataclass
class Form:
    cls: str
    op: str
    text: str          # the expression with its slots (copysuite.fuzz.surface_ops)
    slots: int
    source: str
    applied: int = 0   # probes it applied to
    result: str = ""   # tensor, sequence or none
    template: str = ""


@dataclass
class Vocabulary:
    scope: str
    ops: tuple                                    # the surface's ops, then the hand-written ones
    groups: dict                                  # group -> its ops (the hand-written classes as default.KIND)
    left_out: dict = field(default_factory=dict)  # "CLASS:OP" -> why no form of it is an op
    weights: dict = field(default_factory=dict)

    @functools.cached_property
    def draw_groups(self) -> tuple:
        """Each group as often as its weight: what a program draws a group from."""
        return tuple(g for g, w in self.weights.items() for _ in range(w) if self.groups.get(g))


def probe_inputs(dtype: str, shape: tuple, slots: int) -> dict:
    n = 1
    for s in shape:
        n *= s
    return {"torch": torch, **{"xyzw"[k]: torch.arange(n).reshape(shape).to(getattr(torch, dtype))
                               for k in range(slots)}}


def scribble(seed: int) -> None:
    """Leave freed memory of the small sizes a probe allocates holding a pattern of this seed: an op whose result is
    uninitialized memory (a resize_ that grows) then shows another value on each seed's call."""
    held = [torch.full((n,), float(seed) * 7 + 0.5) for n in range(1, 129)]
    held += [torch.full((n,), seed * 3 + 1, dtype=torch.int64) for n in range(1, 129)]
    del held


def outcome(text: str, slots: int, dtype: str, shape: tuple, seed: int):
    """What the expression returns on one probe (its result), or None where it raises."""
    ns = probe_inputs(dtype, shape, slots)
    code = text
    for k in range(slots):
        code = code.replace(surface_ops.SLOT.format(k), "xyzw"[k])
    torch.manual_seed(seed)
    scribble(seed)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return (eval(code, ns),)   # the op's own printed Python, run as the program would
    except Exception:  # noqa: BLE001 - a probe the op refuses: that is what is measured
        return None


def kind_of(result) -> str | None:
    """tensor, sequence (of tensors, the first bound), none; None for what a program cannot hold (a number, a sparse
    or mkldnn tensor)."""
    if isinstance(result, (tuple, list)) and result and isinstance(result[0], torch.Tensor):
        return "sequence" if result[0].layout == torch.strided else None
    if isinstance(result, torch.Tensor):
        return "tensor" if result.layout == torch.strided else None
    return "none" if result is None else None


def first(result):
    """The result itself, or the first of a sequence of results: what a probe judges."""
    return result[0] if isinstance(result, (tuple, list)) and result else result


def layout(result) -> str:
    return f" ({first(result).layout})" if isinstance(first(result), torch.Tensor) else ""


def same(a, b) -> bool:
    """Whether two results show the same to the fuzzer (copysuite.fuzz.signature.values: what a program compares)."""
    a, b = first(a), first(b)
    return (a.shape, a.dtype, signature.values(a)) == (b.shape, b.dtype, signature.values(b))


def escapes(result) -> bool:
    """The result (its first tensor) views bytes past the end of its storage: a private op that checks no bounds
    (`aten._reshape_alias` with sizes of another input), through which a write corrupts the process's heap."""
    t = first(result)
    if not isinstance(t, torch.Tensor) or t.layout != torch.strided or t.numel() == 0:
        return False
    last = t.storage_offset() + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
    return (last + 1) * t.element_size() > untyped_storage(t).nbytes()


def filled(text: str, slots: int, dtype: str, shape: tuple):
    """What `outcome` gives with torch filling the memory an op allocates and does not write (NaN, or an integer
    type's maximum: torch.utils.deterministic.fill_uninitialized_memory, 2.1 and newer); None where that cannot be
    asked or the op refuses deterministic mode."""
    deterministic = getattr(torch.utils, "deterministic", None)
    if deterministic is None:
        return None
    was = torch.are_deterministic_algorithms_enabled(), deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True)
    deterministic.fill_uninitialized_memory = True
    try:
        return outcome(text, slots, dtype, shape, 0)
    finally:
        torch.use_deterministic_algorithms(was[0])
        deterministic.fill_uninitialized_memory = was[1]


def unwritten(plain, fill) -> bool:
    """The result (its first tensor) holds memory the op never wrote: where the filled call shows the fill, the plain
    call shows something else. Not left to chance, as two plain calls are: memory fresh from the system reads zeros
    on both (a resize_ that grows then passed the two-call check)."""
    a, b = first(plain), first(fill)
    if a.shape != b.shape or a.dtype != b.dtype or a.dtype == torch.bool or a.layout != torch.strided:
        return False
    a, b = unnamed(a), unnamed(b)
    if a.is_floating_point() or a.is_complex():
        return bool((b.isnan() & ~a.isnan()).any())
    return bool(((b == torch.iinfo(b.dtype).max) & (a != b)).any())


def unnamed(t):
    """`t` without dimension names: older releases refuse & (bitwise_and) on named tensors, and the names play no part
    in what unwritten() compares (newer releases have no names at all)."""
    return t.rename(None) if any(getattr(t, "names", None) or ()) else t


def probe(form: Form, call) -> str | None:
    """Fill in the form's applied probes, result and template; returns why it is left out, or None."""
    for dtype, shape in PROBES:
        got = outcome(form.text, form.slots, dtype, shape, 0)
        if got is None:
            continue
        kind = kind_of(got[0])
        if kind is None:
            return f"returns a {type(got[0]).__name__}{layout(got[0])}, no tensor a program holds"
        if escapes(got[0]):
            return "views memory past the end of its storage (no bounds check: a write through it corrupts the heap)"
        again = outcome(form.text, form.slots, dtype, shape, 1)   # on each probe: memory left over may agree once
        if kind != "none" and (again is None or not same(got[0], again[0])):
            return "its values differ between two calls (random, or uninitialized memory)"
        fill = filled(form.text, form.slots, dtype, shape) if kind != "none" else None
        if fill is not None and kind_of(fill[0]) == kind and unwritten(got[0], fill[0]):
            return "its result holds memory it never wrote (uninitialized: torch's fill of such memory shows there)"
        form.result = form.result or kind
        form.applied += 1
    if not form.result:   # argument values eager refuses: what the call returns on the surface's own input
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                own = call.evaluate(call.call, call.namespace())
        except Exception as exc:  # noqa: BLE001 - the surface's own input refused too: no form to keep
            return f"refuses every probe input and its own ({type(exc).__name__})"
        form.result = kind_of(own) if call.cls != "out" else "tensor"
        if form.result is None:
            return f"returns a {type(own).__name__}{layout(own)}, no tensor a program holds"
    form.template = surface_ops.template(form.text, form.slots, form.result)
    return None


def forms_of(call) -> Form:
    text, slots = surface_ops.expression(call)
    if call.cls == "out":
        text, slots = surface_ops.as_out_form(text, slots)
    if slots > 4:
        raise Unrenderable(f"{slots} tensor operands (a program's op takes at most 4)")
    return Form(call.cls, call.op, text, slots, call.source)


def build(scope: str = "all") -> Vocabulary:
    """The vocabulary of the calls the surface plans for `scope` (copysuite.surface.cells.SCOPES: all, sample)."""
    from copysuite.surface.cells import planned_calls
    from copysuite.surface.classify import classified
    classes = classified()
    kept, why = {}, {}
    for call in planned_calls(scope):
        if call.op not in classes or call.cls not in classes[call.op].classes:
            continue
        key = f"{call.cls}:{call.op}"
        if call.op in PRECONDITIONS:
            why.setdefault(key, PRECONDITIONS[call.op])
            continue
        try:
            form = forms_of(call)
            reason = probe(form, call)
        except Unrenderable as exc:
            reason = str(exc)
        if reason:
            why.setdefault(key, reason)
            continue
        forms = kept.setdefault(key, {})
        forms.setdefault(form.template, form)
    ops = []
    for key, forms in sorted(kept.items()):
        best = sorted(forms.values(), key=lambda f: -f.applied)[:MAX_FORMS]
        ops += [Op(f"{PREFIX}{key}/{form_id(form.template)}", group(form.cls, form.op) if form.applied else "refused",
                   form.template, max(form.slots, 1)) for form in best]
    return assemble(scope, ops, {k: v for k, v in sorted(why.items()) if k not in kept})


def form_id(template: str) -> str:
    """A form's name within its op: its template's hash, so that one name is one template in every scope and
    release (a statement names its op; the scopes' vocabularies share one table)."""
    return hashlib.sha256(template.encode()).hexdigest()[:8]


def assemble(scope: str, ops: list, left_out: dict) -> Vocabulary:
    """The vocabulary of the surface's `ops` and the hand-written table, grouped and weighed."""
    groups = {g: [] for g in GROUPS}
    for op in ops:
        groups[op.kind].append(op)
    for op in vocabulary.OPS:
        groups.setdefault(f"default.{op.kind}", []).append(op)
    weights = {**WEIGHTS, **{g: DEFAULT_WEIGHT for g in groups if g.startswith("default.")}}
    return Vocabulary(scope, (*ops, *vocabulary.OPS), {g: tuple(o) for g, o in groups.items()}, left_out, weights)


@functools.cache
def vocabulary_of(scope: str = "all") -> Vocabulary:
    """build(scope), once per process (and once per release and code where the cache can be written:
    copysuite.fuzz.vocabulary_cache), its ops registered where a statement looks its op up."""
    from copysuite.fuzz import vocabulary_cache
    built = vocabulary_cache.cached(scope, build, assemble)
    vocabulary.register(built.ops)
    return built
