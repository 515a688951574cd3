"""A generated program, as data that prints as Python, and the Hypothesis strategy that draws it.

A program is a function of 1 to 3 inputs made of 1 to 8 statements (`copysuite.fuzz.vocabulary`), each binding a new
variable from the inputs and earlier variables, and returning some of its variables and inputs. An input is fresh
(the suite's dtypes, placements and grad kinds: strategies.space) or an alias of an earlier one (the same tensor,
an overlapping view, a detached alias). The program is called in a grad mode (enabled or no_grad). Two shapes of
how a caller goes on may be drawn with it: `between`, a write to an input between two calls of the function (the
second call is the one judged), and `after`, a write to an input after the call and before backward.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from copysuite.fuzz import shape_ops, state, subclasses
from copysuite.fuzz.vocabulary import AFTER_WRITES, BETWEEN_WRITES, OPS
from copysuite.strategies.cases import geometry
from copysuite.strategies.space import GRAD_KINDS, affected_dims, kind_fits, placement_fits

DTYPES = ("float32", "float64", "int64", "complex64", "bool")
KINDS = ("plain", "leaf_requires_grad", "nonleaf", "parameter_frozen", "parameter")
PLACEMENTS = ("contiguous", "offset", "transposed", "strided", "expanded")
ALIASES = ("{a}", "{a}[1:]", "{a}[:1]", "{a}.transpose(0, -1)", "{a}.detach()", "{a}.view(-1)", "{a}[...]",
           "TwoTensor({a}, {a})")   # a wrapper subclass holding the input twice (torch.testing._internal)
MODES = ("enabled", "no_grad")
DUAL_DTYPES = ("float32", "float64", "complex64")   # what forward-mode AD gives a tangent
NAMES = "abc"


@dataclass(frozen=True)
class Input:
    name: str
    dtype: str = "float32"
    shape: tuple = (2, 3)
    placement: str = "contiguous"
    kind: str = "plain"
    alias: str | None = None   # an expression over an earlier input: this input is that alias of it
    strided: tuple | None = None   # (base numel, stride, offset) in place of the placement's (an alias's own)

    def lines(self) -> list[str]:
        """The lines that bind this input (and `leaf_NAME`, the leaf a non-leaf input is computed from)."""
        if self.alias is not None:
            return [f"{self.name} = {self.alias}"]
        dims = affected_dims(self.shape, self.placement)
        base_numel, stride, offset = self.strided or geometry(self.shape, self.placement, dims[0] if dims else 0)
        made = f"torch.arange({base_numel}).to(torch.{self.dtype})"
        if self.placement == "contiguous":   # a tensor of its own, not a view of the arange
            made = f"torch.arange({base_numel}).reshape({self.shape!r}).to(torch.{self.dtype}, copy=True)"
        if self.kind == "nonleaf":
            lines, made = [f"leaf_{self.name} = {made}.requires_grad_()"], f"(leaf_{self.name} * 1)"
        else:
            lines = []
        if self.placement != "contiguous":
            made = f"{made}.as_strided({self.shape!r}, {stride!r}, {offset})"
        if self.kind == "leaf_requires_grad":
            made += ".requires_grad_()"
        elif self.kind == "parameter":
            made = f"torch.nn.Parameter({made})"
        elif self.kind == "parameter_frozen":
            made = f"torch.nn.Parameter({made}, requires_grad=False)"
        return lines + [f"{self.name} = {made}"]

    @property
    def leaf(self) -> str | None:
        """The name of the leaf that gradients reach through this input, if it needs grad."""
        if self.alias is not None or self.kind not in GRAD_KINDS:
            return None
        return f"leaf_{self.name}" if self.kind == "nonleaf" else self.name


@dataclass(frozen=True)
class Statement:
    out: str
    op: str
    args: tuple

    def lines(self) -> list[str]:
        return shape_ops.BY_NAME[self.op].render(self.out, self.args)


@dataclass(frozen=True)
class Program:
    inputs: tuple
    statements: tuple
    returns: tuple
    mode: str = "enabled"
    between: tuple = ()   # (form of vocabulary.BETWEEN_WRITES, input): called, that runs, called again
    after: tuple = ()     # (form of vocabulary.AFTER_WRITES, input): written after the call, before backward
    forward: bool = False  # also called with its floating inputs made dual tensors (forward-mode AD)
    state: bool = False    # run as the forward of a module holding a parameter and buffers (copysuite.fuzz.state)

    @property
    def arg_names(self) -> tuple:
        """What the program is called with."""
        return tuple(i.name for i in self.inputs)

    @property
    def input_names(self) -> tuple:
        """What is observed as an input of the call: the arguments, then the module's state."""
        return self.arg_names + (state.NAMES if self.state else ())

    @property
    def leaves(self) -> tuple:
        return tuple(i.leaf for i in self.inputs if i.leaf) + ((state.LEAF,) if self.state else ())

    @property
    def ops(self) -> tuple:
        return tuple(sorted({s.op for s in self.statements}))

    @property
    def wraps_subclass(self) -> bool:
        """Whether an input is a wrapper subclass holding an earlier one (`TwoTensor(a, a)`; the `subclasses`
        shape's, copysuite.fuzz.subclasses)."""
        return any(subclasses.wraps(i.alias) for i in self.inputs)

    def input_lines(self) -> list[str]:
        lines = [line for i in self.inputs for line in i.lines()]
        made = subclasses.imports(lines) + shape_ops.prelude(self.ops) + lines
        return made + (state.INPUT_LINES if self.state else [])

    def lines(self) -> list[str]:
        return [line for s in self.statements for line in s.lines()]

    def between_lines(self) -> list[str]:
        """What runs between the two calls (none: the function is called once)."""
        if not self.between:
            return []
        form, name = self.between
        return BETWEEN_WRITES[form].format(a=name).splitlines()

    def after_lines(self) -> list[str]:
        """The write after the call, before backward (none: backward follows the call directly)."""
        if not self.after:
            return []
        form, name = self.after
        return ["with torch.no_grad():", f"    {AFTER_WRITES[form].format(a=name)}"]

    @property
    def outputs(self) -> str:
        return ", ".join(self.returns)

    def forward_lines(self, call: list[str]) -> list[str]:
        """`call` (the call lines) within a forward-mode AD level, each fresh floating input made a dual tensor
        whose tangent is ones, and the outputs' tangents read into `tangents` there."""
        if not self.forward:
            return []
        fwad = "torch.autograd.forward_ad"
        duals = [f"    {i.name} = {fwad}.make_dual({i.name}, torch.ones_like({i.name}))" for i in self.inputs
                 if i.alias is None and i.dtype in DUAL_DTYPES]
        tangents = f"    tangents = [{fwad}.unpack_dual(t).tangent for t in ({self.outputs},)]"
        return [f"with {fwad}.dual_level():", *duals, *[f"    {line}" for line in call], tangents]

    # what copysuite.run.executions.Executor asks of a program besides the above
    first_call = ()
    filename = "<copysuite fuzz>"

    def text(self) -> str:
        """The program as Python: its inputs, then the function."""
        body = [f"    {line}" for line in self.lines()] + [f"    return {self.outputs}"]
        mode = [] if self.mode == "enabled" else [f"# called under torch.{self.mode}()"]
        shapes = ["# called twice; between the calls:", *[f"#   {x}" for x in self.between_lines()]] if self.between \
            else []
        shapes += ["# after the call, before backward:", *[f"#   {x}" for x in self.after_lines()]] if self.after \
            else []
        shapes += ["# also called with its floating inputs dual (forward-mode AD), tangents compared"] if self.forward \
            else []
        shapes += [f"# runs as the forward of a module holding {', '.join(state.NAMES)} (self.NAME)"] if self.state \
            else []
        return "\n".join(self.input_lines() + mode + shapes + [f"def program({', '.join(self.arg_names)}):",
                                                              *body])

    def without_statement(self, index: int) -> Program | None:
        """This program without statement `index` and every later statement that reads what it bound (directly or
        not); None when nothing would be returned."""
        gone = {self.statements[index].out}
        kept = []
        for k, s in enumerate(self.statements):
            if k == index or gone & set(s.args):
                gone.add(s.out)
            else:
                kept.append(s)
        returns = tuple(r for r in self.returns if r not in gone)
        return replace(self, statements=tuple(kept), returns=returns) if returns else None


_DTYPE = st.sampled_from(DTYPES)
_KIND = st.sampled_from(KINDS)
_PLACEMENT = st.sampled_from(PLACEMENTS)
_ALIAS = st.sampled_from(ALIASES)
_SHAPE = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)
_OP_KINDS = tuple(dict.fromkeys(op.kind for op in OPS))
_OPS_OF = {kind: st.sampled_from([op for op in OPS if op.kind == kind]) for kind in _OP_KINDS}
# a write between two calls in about one program of four, so that most programs still end at the call; a write
# after it in most of the programs where it can matter (below)
_BETWEEN = st.sampled_from((*(None,) * 12, *BETWEEN_WRITES))
_AFTER = st.sampled_from((None, *AFTER_WRITES))


@st.composite
def inputs(draw, index: int, earlier: tuple, aliases=_ALIAS):
    name = NAMES[index]
    if earlier and draw(st.booleans()):
        return Input(name, alias=draw(aliases).format(a=draw(st.sampled_from(earlier))))
    kind = draw(_KIND)
    dtype = draw(_DTYPE.filter(lambda d: kind_fits(kind, d)))
    shape = draw(_SHAPE)
    placement = draw(_PLACEMENT.filter(lambda p: placement_fits(p, shape)))
    return Input(name, dtype=dtype, shape=shape, placement=placement, kind=kind)


# the shapes drawn by default; `forward` joins them where COPYSUITE_FUZZ_SHAPES names it (a comma-separated list),
# until the records know what it meets first (functionalize refusing to replay an input's resize under forward AD);
# so do `module` (copysuite.fuzz.state), `subclasses` (copysuite.fuzz.subclasses) and the shapes of ops beside the
# vocabulary (copysuite.fuzz.shape_ops: custom_op, foreach, consumers), which would change every fixed seed's programs
ALL_SHAPES = ("between", "after", "forward", "module", "subclasses", *shape_ops.OPS)
SHAPES = tuple(filter(None, os.environ.get("COPYSUITE_FUZZ_SHAPES", "between,after").replace(" ", "").split(",")))
if set(SHAPES) - set(ALL_SHAPES):
    raise ValueError(f"COPYSUITE_FUZZ_SHAPES: {sorted(set(SHAPES) - set(ALL_SHAPES))} not among {ALL_SHAPES}")


def op_kinds(shapes: tuple) -> dict:
    """{operator class: the strategy of its ops}: the vocabulary's classes, then one class per op shape in `shapes`
    (each drawn as often as a class of the vocabulary); without them, the draws of every seed are as before."""
    extra = {shape: st.sampled_from(shape_ops.OPS[shape]) for shape in shape_ops.OPS if shape in shapes}
    return {**_OPS_OF, **extra}


def draw_op(draw, vocabulary=None, kinds=None):
    """An op: a class, then an op of that class, of `kinds` (op_kinds: the hand-written table of
    copysuite.fuzz.vocabulary and the program shapes' ops), or of `vocabulary`
    (copysuite.fuzz.surface_vocabulary.Vocabulary: its groups drawn by their weights)."""
    if vocabulary is None:
        kinds = _OPS_OF if kinds is None else kinds
        return draw(kinds[draw(st.sampled_from(tuple(kinds)))])
    return draw(st.sampled_from(vocabulary.groups[draw(st.sampled_from(vocabulary.draw_groups))]))


@st.composite
def programs(draw, max_inputs: int = 3, max_statements: int = 8, shapes: tuple | None = None, vocabulary=None):
    """Programs of 1 to `max_inputs` inputs and 1 to `max_statements` statements, with the program shapes named in
    `shapes` (by default SHAPES, read when drawing: a self-test turns them off for a whole search) drawn beside, and
    their ops from `vocabulary` (draw_op); shrinks towards one float32 contiguous plain input, few statements, the
    first ops of each class."""
    shapes = SHAPES if shapes is None else shapes
    given = []
    aliases = st.sampled_from(ALIASES + subclasses.ALIASES) if "subclasses" in shapes else _ALIAS
    for index in range(draw(st.integers(1, max_inputs))):
        given.append(draw(inputs(index, tuple(i.name for i in given), aliases)))
    names = [i.name for i in given]
    module = "module" in shapes and draw(st.booleans())
    names += list(state.NAMES) if module else []
    statements = []
    kinds = op_kinds(shapes)
    for k in range(draw(st.integers(1, max_statements))):
        op = draw_op(draw, vocabulary, kinds)
        args = tuple(draw(st.sampled_from(names[::-1])) for _ in range(op.arity))   # the newest first
        statements.append(Statement(f"t{k + 1}", op.name, args))
        names.append(f"t{k + 1}")
    returned = draw(st.lists(st.sampled_from(names[::-1]), min_size=1, max_size=4, unique=True))
    returns = tuple(n for n in names if n in returned)
    mode = draw(st.sampled_from(MODES))
    inputs_named = [i.name for i in given]
    between = draw(_BETWEEN) if "between" in shapes else None
    between = (between, draw(st.sampled_from(inputs_named))) if between else ()
    # a write after the call matters to backward only where an input requires grad (or aliases one that does), and
    # no backward follows a call under no_grad
    graded = [i.name for i in given if i.leaf or (i.alias and any(g.leaf and g.name in i.alias for g in given))]
    after = draw(_AFTER) if graded and mode == "enabled" and "after" in shapes else None
    after = (after, draw(st.sampled_from(graded))) if after else ()
    dual = any(i.alias is None and i.dtype in DUAL_DTYPES for i in given)
    forward = dual and "forward" in shapes and draw(st.sampled_from((False, False, True)))
    return Program(tuple(given), tuple(statements), returns, mode, between, after, forward, module)
