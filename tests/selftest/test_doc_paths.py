"""Every repository path the guides and the code's comments name exists (docs/developing.md, Rules of the house).

Where: docs/*.md, and the comments and docstrings of the Python modules of copysuite/, tests/, strategies/,
benchmarks/ and tools/ (with the comments of tools/*.sh). docs/notes.md is left out: it is the measurement history,
and history names files that were removed since (it says so where it does).

What counts as a path: a word that starts with one of the repository's top-level folders and a slash (TOPS), not
inside a longer path or an address (`pytorch/docs/...` is torch's, not ours); trailing punctuation and Markdown's
bold are dropped. Then:
- `{a,b}` stands for each alternative, each checked;
- a glob (`*`, `?`, `[...]`) must match at least one path;
- a placeholder, `<name>` or one of PLACEHOLDERS in capitals (`results/surface/torch-VERSION.json`), stands for any
  name: the folders before it must exist;
- results/ is where commands write, git-ignored but for the folders of committed runs that .gitignore names
  (`!results/matrix/`): a glob in those folders cites committed runs and must match; any other path under results/
  names a command's output and is not checked;
- PENDING names paths another branch adds, each with why it is named before it exists.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOPS = ("copysuite", "specs", "docs", "tests", "strategies", "tools", "results", "benchmarks", ".ci", ".github")
CODE = ("copysuite", "tests", "strategies", "benchmarks", "tools")
HISTORY = ("docs/notes.md",)
PLACEHOLDERS = ("NAME", "VERSION", "PATH", "DIR", "FILE", "ID")
OUTPUTS = "results/"


def committed_outputs(root: Path) -> tuple:
    """The folders under results/ that hold committed runs: the `!results/.../` lines of .gitignore."""
    ignore = root / ".gitignore"
    lines = ignore.read_text().splitlines() if ignore.exists() else []
    return tuple(line[1:] for line in lines if line.startswith("!" + OUTPUTS) and line.endswith("/"))

PENDING: dict = {}

_TOP = "|".join(re.escape(t) for t in TOPS)
PATH = re.compile(rf"(?<![\w./~-])((?:{_TOP})/(?:[\w.*?<>\[\]/-]|\{{[^{{}}\s]*\}})*)")
_PLACEHOLDER = re.compile(r"<[^<>/]+>|\b(?:%s)\b" % "|".join(PLACEHOLDERS))


def named(text: str):
    """(line offset, path) of every path named in `text`, as written less trailing punctuation."""
    for number, line in enumerate(text.splitlines()):
        for match in PATH.finditer(line):
            path = match.group(1).rstrip(".,:;").removesuffix("**").rstrip(".,:;")   # Markdown's bold ends with **
            while path.endswith((")", "]")) and path.count(path[-1]) > path.count("(" if path[-1] == ")" else "["):
                path = path[:-1].rstrip(".,:;")
            yield number, path


def expanded(path: str) -> list:
    """`{a,b}` written out: one path per alternative."""
    match = re.search(r"\{([^{}]*)\}", path)
    if not match:
        return [path]
    return [p for alt in match.group(1).split(",")
            for p in expanded(path[:match.start()] + alt + path[match.end():])]


def problem(path: str, root: Path = ROOT) -> str | None:
    """None when `path` is named rightly (the rules above), else what is wrong."""
    if path in PENDING:
        return None
    for one in expanded(path):
        glob = any(c in one for c in "*?[")
        placeholder = _PLACEHOLDER.search(one)
        if one.startswith(OUTPUTS) and not (glob and one.startswith(committed_outputs(root))):
            continue
        if placeholder:
            fixed = one[:placeholder.start()].rpartition("/")[0]
            if not (root / fixed).is_dir():
                return f"{fixed}/ (before the placeholder) does not exist"
        elif glob:
            if not any(root.glob(one.rstrip("/"))):
                return "the glob matches nothing"
        elif not (root / one).exists() or (one.endswith("/") and not (root / one).is_dir()):
            return "does not exist"
    return None


def comments_and_docstrings(path: Path):
    """(line, text) of every comment and docstring of a Python module, or every comment line of a shell script."""
    text = path.read_text()
    if path.suffix != ".py":
        return [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith("#")]
    found = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(text).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                found.append((first.lineno, first.value.value))
    return found


def sources(root: Path = ROOT):
    """(file, first line, text) of every place whose paths must exist."""
    for doc in sorted((root / "docs").glob("*.md")):
        if str(doc.relative_to(root)) not in HISTORY:
            yield doc, 1, doc.read_text()
    for top in CODE:
        for path in sorted((root / top).rglob("*")):
            rel = path.relative_to(root)
            if rel.parts[:2] == ("copysuite", "strategies") or "__pycache__" in rel.parts or not path.is_file():
                continue   # the link to strategies/ is read once, as strategies/
            if path.suffix in (".py", ".sh"):
                for line, text in comments_and_docstrings(path):
                    yield path, line, text


def broken(root: Path = ROOT) -> list:
    """`file:line: path: what is wrong` for every path named wrongly."""
    found = []
    for path, first, text in sources(root):
        for offset, named_path in named(text):
            why = problem(named_path, root)
            if why:
                found.append(f"{path.relative_to(root)}:{first + offset}: {named_path}: {why}")
    return found


def test_every_named_path_exists():
    found = broken()
    assert not found, "paths named in the guides or in comments that are not in the repository:\n" + "\n".join(found)


def test_a_missing_path_is_found(tmp_path):
    """The check can fail: a fake guide and a fake module naming a missing file, a glob that matches nothing and a
    missing folder before a placeholder, beside paths that are named rightly."""
    (tmp_path / "docs").mkdir()
    (tmp_path / ".gitignore").write_text("results/*\n!results/matrix/\n")
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "copies.yaml").write_text("")
    (tmp_path / "copysuite").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(
        "See specs/copies.yaml, every specs/*.yaml, specs/NAME and `results/outcome.json` (written by a run).\n"
        "But docs/gone.md, specs/*.json and\nthe folder of tools/VERSION/x.sh are not there.\n"
        "A run writes results/bench/charts/*.png; the matrix reads the committed results/matrix/run-*.json.\n")
    (tmp_path / "copysuite" / "mod.py").write_text('"""Reads specs/{copies,views}.yaml."""\n# why: docs/guide.md\n')
    assert broken(tmp_path) == [
        "docs/guide.md:2: docs/gone.md: does not exist",
        "docs/guide.md:2: specs/*.json: the glob matches nothing",
        "docs/guide.md:3: tools/VERSION/x.sh: tools/ (before the placeholder) does not exist",
        "docs/guide.md:4: results/matrix/run-*.json: the glob matches nothing",
        "copysuite/mod.py:1: specs/{copies,views}.yaml: does not exist",
    ]


def test_what_counts_as_a_path():
    text = ("an address https://github.com/pytorch/pytorch/blob/main/docs/source/x.md, torch's torch/_dynamo/exc.py, "
            "a module copysuite.run.storage, and (docs/using.md). Then results/gpu/<gpu>-torch<version>/ ends it.")
    assert [p for _, p in named(text)] == ["docs/using.md", "results/gpu/<gpu>-torch<version>/"]
    assert [p for _, p in named("the page **docs/reports/known.md**, every **specs/*.yaml**.")] == [
        "docs/reports/known.md", "specs/*.yaml"]
    assert expanded("docs/reports/matrix.{md,html}") == ["docs/reports/matrix.md", "docs/reports/matrix.html"]
