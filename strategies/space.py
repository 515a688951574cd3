"""The vocabulary of a generated input, without torch: source kinds, placements, lazy bits, grad modes, devices,
dtype names and groups, and which of them fit together.

Spec loading, the change log and the report tools read these names where torch may be absent; the strategies
(`copysuite.strategies.cases`) draw from them.
"""
from __future__ import annotations

from typing import NamedTuple

# How the source is made, relative to autograd.
KINDS = (
    "plain",               # a leaf that does not require grad
    "leaf_requires_grad",  # a leaf that requires grad
    "nonleaf",             # the result of an op on a leaf that requires grad
    "parameter",           # torch.nn.Parameter (requires grad)
    "parameter_frozen",    # torch.nn.Parameter(requires_grad=False)
    "inference",           # made under torch.inference_mode()
)
GRAD_KINDS = ("leaf_requires_grad", "nonleaf", "parameter")
# How the source sits in its storage (not torch.layout, which the check `layout` reads).
PLACEMENTS = (
    "contiguous",  # a fresh contiguous tensor, not a view
    "strided",     # a step-2 slice along one dim of a larger buffer
    "transposed",  # the dims of a contiguous buffer reversed (ndim >= 2)
    "expanded",    # one dim broadcast with stride 0
    "offset",      # contiguous, but starting past the beginning of its storage
)
# Lazy bits the source may carry (conj: complex dtypes only; neg: float and complex).
BITS = ("none", "conj", "neg")
# The grad mode the op under test is called in.
MODES = ("enabled", "no_grad", "inference_mode")
DEVICES = ("cpu", "meta", "cuda", "mps")


class Form(NamedTuple):
    """What an execution does, as data: copysuite.run.executions builds its Executor from it."""
    transform: str | None = None  # None: the program as written; "compile", "functionalize" or "export"
    backend: str | None = None    # torch.compile's backend
    dynamic: bool = False         # torch.compile(dynamic=True): shapes are symbolic from the first compile


# How the program runs: as written, compiled by torch.compile with a backend, run through torch.func.functionalize,
# or exported by torch.export and run as the exported module (copysuite.run.executions). The one list of executions:
# the executors, the spec and registry schemas' `executions` (filled in by their loaders), the GPU run's steps and
# the scheduled workflow's jobs are made from it; docs/using.md says what each one is.
FORMS = {
    "eager": Form(),
    "compile.eager": Form("compile", "eager"),
    "compile.aot_eager": Form("compile", "aot_eager"),
    "compile.aot_eager.dynamic": Form("compile", "aot_eager", dynamic=True),
    "compile.inductor": Form("compile", "inductor"),
    "compile.inductor.dynamic": Form("compile", "inductor", dynamic=True),
    "functionalize": Form("functionalize"),
    "export": Form("export"),
}
EXECUTIONS = tuple(FORMS)
COMPILED_EXECUTIONS = tuple(name for name, form in FORMS.items() if form.transform == "compile")
# compiled through AOTAutograd: every torch.compile backend but dynamo's own `eager`
AOT_EXECUTIONS = tuple(name for name in COMPILED_EXECUTIONS if FORMS[name].backend != "eager")
# Function transforms for tensor programs, not for NumPy, Python values, the copy protocols or autograd state
# changes: they apply only to the entries that name them in `applies.executions` (specs/compiled.yaml).
NAMED_ONLY_EXECUTIONS = ("functionalize", "export")
# Devices a torch.compile backend handles only from some release, as data the executors (which skip the cells before
# it, with the evidence as the reason) and the change log share: (backend, device) -> (torch specifier, evidence).
BACKEND_DEVICES = {
    ("inductor", "meta"): (
        ">=2.8",
        "issue 144607, fixed by PR 150137 ('Ignore meta ops in inductor'): before it inductor fails on graphs of "
        "meta tensors ('Device meta not supported' on 2.2; from 2.4, PR 123786, only graphs that need no kernel "
        "compile, others fail with 'Unsupported device type: meta' or an error inside the scheduler)"),
}

# Every dtype a spec may mention, by torch attribute name. A name absent from the installed torch (uint16 before 2.3,
# the float8 family before 2.1, ...) is simply not available, never an error.
ALL_DTYPE_NAMES = (
    "bool",
    "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
    "complex32", "complex64", "complex128",
)
DTYPE_GROUPS = {
    "bool": ("bool",),
    "integer": ("uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"),
    "float": ("float16", "bfloat16", "float32", "float64"),
    "float8": ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"),
    "complex": ("complex32", "complex64", "complex128"),
    # dtypes whose tensors can require grad and on which autograd runs the ops we use (sum, mul, backward)
    "differentiable": ("float16", "bfloat16", "float32", "float64", "complex64", "complex128"),
    # dtypes numpy has an equivalent of (Tensor.numpy() supports exactly these)
    "numpy": ("bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "complex64", "complex128"),
}
DTYPE_GROUPS["all"] = ALL_DTYPE_NAMES
# the everyday set: what most ops are checked on by default (exotic dtypes are opted into per spec entry)
DTYPE_GROUPS["standard"] = DTYPE_GROUPS["bool"] + DTYPE_GROUPS["integer"] + DTYPE_GROUPS["float"] + (
    "complex64", "complex128")
# the classes Hypothesis' statistics count inputs by
DTYPE_CLASSES = ("bool", "integer", "float", "float8", "complex")


def is_known_selector(name: str) -> bool:
    return name in DTYPE_GROUPS or name in ALL_DTYPE_NAMES


def dtype_class(dtype: str) -> str:
    return next(c for c in DTYPE_CLASSES if dtype in DTYPE_GROUPS[c])


def kind_fits(kind: str, dtype: str) -> bool:
    """A source that needs grad only with a dtype autograd runs on."""
    return kind not in GRAD_KINDS or dtype in DTYPE_GROUPS["differentiable"]


def bit_fits(bit: str, dtype: str) -> bool:
    """conj on complex dtypes, neg on float and complex ones, none on all."""
    return bit == "none" or (bit == "conj" and dtype in DTYPE_GROUPS["complex"]) or (
        bit == "neg" and dtype in DTYPE_GROUPS["float"] + DTYPE_GROUPS["complex"])


def feasible(dtypes, kinds) -> bool:
    """Whether some kind can be drawn with some dtype."""
    return any(kind_fits(k, d) for k in kinds for d in dtypes)


def affected_dims(shape, placement: str) -> list[int]:
    """The dims a strided (size >= 2) or expanded (size != 1) placement can act on."""
    return [d for d, side in enumerate(shape) if (side >= 2 if placement == "strided" else side != 1)]


def placement_fits(placement: str, shape) -> bool:
    if placement in ("contiguous", "offset"):
        return True
    if placement == "strided":
        return any(s >= 2 for s in shape)
    if placement == "transposed":
        return len(shape) >= 2 and sum(s > 1 for s in shape) >= 2
    if placement == "expanded":
        return any(s != 1 for s in shape)
    raise ValueError(placement)
