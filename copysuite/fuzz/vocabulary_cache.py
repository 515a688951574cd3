"""The surface vocabulary (copysuite.fuzz.surface_vocabulary) kept on disk, so that a run, or each process of a
campaign, does not build it again from every OpInfo sample (a minute or more).

The file is named by the torch release and a hash of the code that builds the vocabulary (the fuzz modules that make
the ops and the surface modules whose calls they are, without docstrings and comments), so that a new release or a
change of that code builds anew.
Its folder: COPYSUITE_CACHE_DIR, else ~/.cache/copysuite; `COPYSUITE_CACHE_DIR=off` turns the cache off. A folder
that cannot be written leaves the vocabulary built in memory only.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import pathlib

import torch

from copysuite.fuzz.vocabulary import Op

PACKAGE = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ("fuzz/surface_ops.py", "fuzz/surface_vocabulary.py", "fuzz/vocabulary.py", "surface/inputs.py",
           "surface/builders.py", "surface/generated.py", "surface/cells.py", "surface/classify.py")


def path(scope: str) -> pathlib.Path | None:
    folder = os.environ.get("COPYSUITE_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "copysuite"))
    if folder == "off":
        return None
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(code((PACKAGE / name).read_text()).encode())
    return pathlib.Path(folder) / f"fuzz-vocabulary-{torch.__version__}-{scope}-{digest.hexdigest()[:16]}.json"


def code(text: str) -> str:
    """A module's code without its docstrings and comments: what builds the vocabulary (a reworded docstring
    builds nothing anew)."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def cached(scope: str, build, assemble):
    """The vocabulary of `scope`: read from its file, else build(scope) and written there."""
    where = path(scope)
    if where is not None and where.exists():
        data = json.loads(where.read_text())
        return assemble(scope, [Op(*row) for row in data["ops"]], data["left_out"])
    built = build(scope)
    if where is not None:
        rows = [[op.name, op.kind, op.template, op.arity] for op in built.ops if op.name.startswith("surface.")]
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            part = where.with_suffix(".part")
            part.write_text(json.dumps({"torch": torch.__version__, "ops": rows, "left_out": built.left_out}))
            os.replace(part, where)
        except OSError:
            pass
    return built
