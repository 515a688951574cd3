"""The code a spec entry runs: a Python expression (`call`) or a few statements ending in `result = ...`
(`program`), over named inputs derived from the generated `source` (imports no torch).

The text is checked when the spec loads, by walking its syntax tree against an allow-list of node kinds and names,
and that same text is what a failure prints and what runs: there is no other representation of a call.

    call: source.clone()                     runs `result = source.clone()`
    inputs: {a: source, b: "source[1:]"}     runs `a = source` and `b = source[1:]` before the program
    program: |
      a.add_(1)
      result = b.view(-1)

A program (or an input) that names `tmp_file` gets a fresh path to a file that does not exist yet, in a new temporary
directory: the harness runs and prints `TMP_FILE_LINE` before the inputs, and removes the directory once the program
has run (`remove_tmp_file`). torch.load(mmap=True) needs a file on disk; nothing else in a program touches the disk.
"""
from __future__ import annotations

import ast
import functools
import importlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from types import CodeType

# The names a program may use besides its inputs and its own variables: modules (as `name: module`) and builtins.
MODULES = {"torch": "torch", "np": "numpy", "copy": "copy", "pickle": "pickle", "io": "io"}
BUILTINS = ("tuple", "list", "dict", "range", "reversed", "len", "slice", "float", "int", "bool", "complex",
            "isinstance", "id")
# Attributes starting with "_" are refused (torch internals change between releases), except these (`__future__`:
# torch.__future__, a documented module of switches, https://docs.pytorch.org/docs/stable/future_mod.html).
PRIVATE_ATTRIBUTES = ("_base", "_version", "__future__")
NODES = (
    ast.Module, ast.Expression, ast.Expr, ast.Assign, ast.AugAssign, ast.With, ast.withitem, ast.Name, ast.Load,
    ast.Store, ast.Constant, ast.Attribute, ast.Call, ast.keyword, ast.Starred, ast.Subscript, ast.Slice, ast.Tuple,
    ast.List, ast.Dict, ast.ListComp, ast.comprehension, ast.UnaryOp, ast.UAdd, ast.USub, ast.Not, ast.BinOp,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult, ast.Compare, ast.Eq,
    ast.NotEq, ast.Is, ast.IsNot, ast.Lt, ast.Gt, ast.LtE, ast.GtE,
)
SOURCE = "source"
RESULT = "result"
TMP_FILE = "tmp_file"   # a fresh file path, bound when a program names it (the first input after `source`)
TMP_FILE_LINE = "tmp_file = os.path.join(tempfile.mkdtemp(prefix='copysuite-'), 'file')"
_TMP_FILE_CODE = compile(TMP_FILE_LINE, "<tmp_file>", "exec")


class ProgramError(Exception):
    """What is wrong with a call, a program or an input; `key` says which (call, program, inputs.NAME)."""

    def __init__(self, key: str, message: str):
        self.key, self.message = key, message
        super().__init__(f"{key}: {message}")


@dataclass(frozen=True)
class Program:
    text: str                            # the statements, the last one `result = ...`
    inputs: tuple = ()                   # ((name, expression over source), ...), in order
    filename: str = "<spec>"             # what tracebacks name, e.g. "<specs/copies.yaml: clone>"
    key: str = "program"                 # where the text sits in the spec: "call" or "program"
    first_call: tuple = ()               # ((input name, expression over source), ...): a compiled function is
                                         # first called on these instead (the others as bound), then judged
    returns: tuple = ()                  # variables a compiled or transformed function returns beside `result`
                                         # (those the entry's checks judge: `with_returned`)
    code: CodeType = field(default=None, repr=False, compare=False)
    input_code: CodeType = field(default=None, repr=False, compare=False)
    tree: ast.Module = field(default=None, repr=False, compare=False)
    input_trees: tuple = field(default=(), repr=False, compare=False)   # (ast.Expression, ...) of the inputs
    first_call_trees: tuple = field(default=(), repr=False, compare=False)
    tmp_file: bool = False               # the program or an input names `tmp_file` (TMP_FILE_LINE binds it)

    @property
    def input_names(self) -> tuple:
        return (SOURCE,) + ((TMP_FILE,) if self.tmp_file else ()) + tuple(name for name, _ in self.inputs)

    @functools.cached_property
    def variables(self) -> tuple:
        """The names the program itself assigns, besides `result` and the inputs (sorted); read once per program
        (plan_cells asks for every cell)."""
        stored = {n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        local = {n.id for c in ast.walk(self.tree) if isinstance(c, ast.comprehension) for n in ast.walk(c.target)
                 if isinstance(n, ast.Name)}  # a comprehension's own names do not outlive it
        return tuple(sorted(stored - local - {RESULT} - set(self.input_names)))

    def with_returned(self, names) -> "Program":
        """This program, returning the given variables of its own beside `result` when it runs as a function
        (compiled or transformed): `return result, a, b` and `result, a, b = program(...)`. A function keeps its
        variables to itself; returned, the checks that name them judge them as the program left them, and the
        function has several outputs that alias one another (what a compiler must keep apart or together)."""
        names = tuple(sorted(set(names) & set(self.variables)))
        return self if names == self.returns else replace(self, returns=names)

    def first_call_args(self) -> str:
        """The arguments of the first call (`first_call`): its expression for each input it names, the input itself
        for the others: `source, source.clone(), source.clone()`."""
        given = dict(self.first_call)
        return ", ".join(given.get(name, name) for name in self.input_names)

    @property
    def outputs(self) -> str:
        """What the function returns and its call unpacks: `result`, or `result, a, b`."""
        return ", ".join((RESULT, *self.returns))

    def input_lines(self) -> list[str]:
        return ([TMP_FILE_LINE] if self.tmp_file else []) + input_text(self.inputs).splitlines()

    def lines(self) -> list[str]:
        return self.text.splitlines()

    def modules_used(self) -> list[str]:
        """`import` lines for the modules the inputs and the program name (torch always: the input needs it)."""
        trees = (self.tree, *self.input_trees, *self.first_call_trees)
        used = {n.id for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Name)}
        lines = ["import torch"] + (["import os", "import tempfile"] if self.tmp_file else [])
        for name, module in MODULES.items():
            if name in used and name != "torch":
                lines.append(f"import {module}" + (f" as {name}" if name != module else ""))
        return lines

    def bind(self, namespace: dict) -> None:
        """Add the inputs to a namespace that holds `source` (runs `input_lines()`: TMP_FILE_LINE first, with os and
        tempfile, which the program itself cannot name)."""
        if self.tmp_file:
            scratch = {"os": os, "tempfile": tempfile}
            exec(_TMP_FILE_CODE, scratch)  # noqa: S102 - TMP_FILE_LINE, printed in every reproduction
            namespace[TMP_FILE] = scratch[TMP_FILE]
        exec(self.input_code, namespace)  # noqa: S102 - the spec's own text, checked at load and printed on failure

    def run(self, namespace: dict):
        """Run the program (its `text`) in a namespace that holds the inputs; returns `result`."""
        exec(self.code, namespace)  # noqa: S102 - the spec's own text, checked at load and printed on failure
        return namespace[RESULT]

    @functools.cached_property
    def attributes(self) -> tuple:
        """(dotted name, kind, key) of the attributes the program and its inputs reach: kind "module" for
        `torch.asarray`, a path from a module; kind "value" for an attribute of an input or of what an expression
        on an input gave (`numpy` in `source.detach().numpy()`). Attributes of the program's own variables are not
        listed: their type is open. `key` says where: "call", "program", "inputs.NAME" or "first_call.NAME". (Read
        once per program: every session checks every entry's names.)"""
        trees = ([(self.key, self.tree)] + [(f"inputs.{n}", t) for (n, _), t in zip(self.inputs, self.input_trees)]
                 + [(f"first_call.{n}", t) for (n, _), t in zip(self.first_call, self.first_call_trees)])
        return tuple((*found, key) for key, tree in trees for node in ast.walk(tree)
                     if isinstance(node, ast.Attribute) and (found := _classify(node, set(self.input_names))))


def namespace() -> dict:
    """A fresh namespace with the modules a program may name."""
    return {name: importlib.import_module(module) for name, module in MODULES.items()}


def remove_tmp_file(namespace: dict) -> None:
    """Remove the directory TMP_FILE_LINE made for this namespace, if it made one. What the program loaded from the
    file stays readable: a file mapped into memory (torch.load(mmap=True)) outlives its name on POSIX systems."""
    path = namespace.get(TMP_FILE)
    if isinstance(path, str):
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)


def parse_program(*, call=None, program=None, inputs=None, first_call=None, filename="<spec>") -> Program:
    """A checked Program from an entry's `call` (an expression) or `program` (statements), its `inputs`, and the
    other inputs of a compiled function's first call (`first_call`: expressions over `source` for some inputs)."""
    inputs = tuple((inputs or {}).items())
    known = set(MODULES) | set(BUILTINS) | {SOURCE, TMP_FILE}
    input_trees = []
    for name, expr in inputs:
        if not name.isidentifier() or name in known or name == RESULT:
            raise ProgramError(f"inputs.{name}", f"{name!r} cannot name an input (it is taken, or not a name)")
        if not isinstance(expr, str):
            raise ProgramError(f"inputs.{name}", f"an input is a Python expression over `source`, got {expr!r}")
        input_trees.append(_parse(expr, "eval", f"inputs.{name}"))
        _check(input_trees[-1], known, f"inputs.{name}")
        known.add(name)
    first_call = first_call or {}
    for name, expr in first_call.items():
        if name not in known - set(MODULES) - set(BUILTINS) or not isinstance(expr, str):
            raise ProgramError(f"first_call.{name}", f"names an input (source or one of `inputs`) and gives it a "
                                                     f"Python expression over `source`, got {name!r}: {expr!r}")
    order = [SOURCE, TMP_FILE] + [name for name, _ in inputs]   # the order of the first call's arguments
    listed = list(first_call)
    for name, after in zip(listed, listed[1:]):
        if order.index(name) > order.index(after):
            raise ProgramError(f"first_call.{name}", "lists the inputs in the order of the function's arguments "
                                                     f"({', '.join(n for n in order if n != TMP_FILE)}): a name one "
                                                     f"binds, a later one reads")
    first_trees, first_known = [], set(MODULES) | set(BUILTINS) | {SOURCE}
    for name, expr in first_call.items():
        first_trees.append(_parse(expr, "eval", f"first_call.{name}"))
        _check(first_trees[-1], first_known, f"first_call.{name}", also=(ast.NamedExpr,))
        # `(w := EXPR)` binds w for the arguments after it: one tensor and its views in one call (f(w, w[1:]))
        first_known |= {n.target.id for n in ast.walk(first_trees[-1]) if isinstance(n, ast.NamedExpr)}
    if call is not None:
        _parse(call, "eval", "call")  # one expression, nothing else
        text, key = f"{RESULT} = {call.strip()}", "call"
    else:
        text, key = program.strip("\n"), "program"
    tree = _parse(text, "exec", key)
    last = tree.body[-1] if tree.body else None
    if not (isinstance(last, ast.Assign) and len(last.targets) == 1
            and isinstance(last.targets[0], ast.Name) and last.targets[0].id == RESULT):
        raise ProgramError(key, f"a program ends with `{RESULT} = ...` (the value the checks judge)")
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    _check(tree, known | stored, key)
    if TMP_FILE in stored:
        raise ProgramError(key, f"{TMP_FILE!r} is the harness's fresh file path: a program reads it, never assigns it")
    names = {n.id for t in (tree, *input_trees) for n in ast.walk(t) if isinstance(n, ast.Name)}
    return Program(text=text, inputs=inputs, filename=filename, key=key, tree=tree, input_trees=tuple(input_trees),
                   first_call=tuple(first_call.items()), first_call_trees=tuple(first_trees),
                   tmp_file=TMP_FILE in names,
                   code=compile(tree, filename, "exec"),
                   input_code=compile(input_text(inputs), filename + " inputs", "exec"))


def input_text(inputs) -> str:
    """The lines that bind the inputs, as they are printed and run: `a = source`, `b = source.detach()`."""
    return "\n".join(f"{name} = {expr}" for name, expr in inputs)


def _parse(text: str, mode: str, key: str):
    try:
        return ast.parse(text, mode=mode)
    except SyntaxError as exc:
        where = f"line {exc.lineno}: " if mode == "exec" and exc.lineno else ""
        raise ProgramError(key, f"not valid Python ({where}{exc.msg}): {text!r}") from None


def _check(tree, names: set, key: str, also: tuple = ()) -> None:
    for node in ast.walk(tree):
        line = f"line {node.lineno}: " if hasattr(node, "lineno") and isinstance(tree, ast.Module) else ""
        if not isinstance(node, NODES + also):
            raise ProgramError(key, f"{line}{type(node).__name__} is not allowed in a spec program (allowed: "
                                    f"expressions, assignments, calls, indexing, `with`)")
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in names:
            own = ", ".join(sorted(names - set(MODULES) - set(BUILTINS)))
            raise ProgramError(key, f"{line}name {node.id!r} is not allowed (allowed: the inputs and the "
                                    f"program's own variables {own};"
                                    f" the modules {', '.join(MODULES)}; {', '.join(BUILTINS)})")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and node.attr not in PRIVATE_ATTRIBUTES:
            raise ProgramError(key, f"{line}attribute {node.attr!r} is not allowed (private; allowed: "
                                    f"{', '.join(PRIVATE_ATTRIBUTES)})")


def _classify(node: ast.Attribute, input_names: set):
    """(dotted name, "module") for a pure attribute path from a module, (name, "value") for an attribute of
    something an input expression gives, None otherwise."""
    path, value, pure = [node.attr], node.value, True
    while not isinstance(value, ast.Name):
        if isinstance(value, ast.Attribute):
            if pure:
                path.append(value.attr)
            value = value.value
        elif isinstance(value, (ast.Call, ast.Subscript)):
            pure, value = False, value.func if isinstance(value, ast.Call) else value.value
        else:
            return None
    if value.id in MODULES and pure:
        return ".".join([MODULES[value.id], *reversed(path)]), "module"
    if value.id in input_names:
        return node.attr, "value"
    return None
