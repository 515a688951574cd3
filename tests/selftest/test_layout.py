"""The house rules a newcomer relies on, checked on the tree itself: every module under 300 lines, no import cycle
(imports inside functions included), no underscored name imported from another of our modules, the strategies
imported under the package's name only, a docstring for every folder of the package (docs/developing.md), and no merge
conflict marker left in a tracked file."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = ("copysuite", "tests", "benchmarks", "strategies")
MAX_LINES = 300


def modules() -> dict:
    """{dotted name: path} of every Python module in the project (the link copysuite/strategies read once)."""
    found = {}
    for top in OURS:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if rel.parts[:2] == ("copysuite", "strategies"):
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            found["copysuite." + name if top == "strategies" else name] = path
    return found


MODULES = modules()


def imported(path: Path, name: str):
    """(module imported, [names taken from it]) for every import in the module, at any depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names = [a.name for a in node.names]
            submodules = [f"{base}.{n}" for n in names if f"{base}.{n}" in MODULES]
            yield base, [n for n in names if f"{base}.{n}" not in MODULES]
            for sub in submodules:
                yield sub, []


def ours(module: str) -> str | None:
    """The project module an import refers to (its longest known prefix), or None."""
    while module:
        if module in MODULES:
            return module
        module = module.rpartition(".")[0]
    return None


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_is_short(name):
    lines = MODULES[name].read_text().count("\n")
    assert lines <= MAX_LINES, \
        f"{MODULES[name].relative_to(ROOT)} has {lines} lines (at most {MAX_LINES}): split it by job"


def test_no_import_cycle():
    graph = {name: sorted({ours(m) for m, _ in imported(path, name)} - {None, name}) for name, path in MODULES.items()}
    # a package's __init__ is imported with each of its modules: an edge from a module to its own package is not a
    # dependency of the package on the module
    state, stack, cycles = {}, [], []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in graph.get(node, ()):
            if node.startswith(nxt + "."):
                continue
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_no_private_name_imported_across_modules():
    found = [f"{MODULES[name].relative_to(ROOT)}: {n} from {module}"
             for name, path in MODULES.items() for module, names in imported(path, name)
             if ours(module) for n in names if n.startswith("_") and not n.startswith("__")]
    assert not found, "underscored names imported from another module:\n" + "\n".join(found)


def test_strategies_imported_by_the_package_name():
    """Installed, the strategies are copysuite.strategies; a bare `strategies` import works only in the checkout."""
    found = [f"{MODULES[name].relative_to(ROOT)}: {module}" for name, path in MODULES.items()
             for module, _ in imported(path, name) if module == "strategies" or module.startswith("strategies.")]
    assert not found, "imports of the top-level name `strategies`:\n" + "\n".join(found)


@pytest.mark.parametrize("folder", sorted(p.parent.name for p in (ROOT / "copysuite").glob("*/__init__.py")))
def test_every_package_folder_says_what_it_is(folder):
    assert ast.get_docstring(ast.parse((ROOT / "copysuite" / folder / "__init__.py").read_text())), folder


def test_every_package_folder_is_installed():
    """`pip install .` installs the packages pyproject.toml lists, no more: a folder missing there is missing
    installed."""
    import re   # tomllib is 3.11+, and torch 1.13.1 runs on 3.10
    block = re.search(r"^packages = \[(.*?)\]", (ROOT / "pyproject.toml").read_text(), re.S | re.M)[1]
    listed = set(re.findall(r'"([\w.]+)"', block))
    folders = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "copysuite").rglob("__init__.py")}
    assert folders - listed == set(), f"package folders pyproject.toml does not install: {sorted(folders - listed)}"


def test_no_merge_conflict_left_in_a_file():
    """No line of a tracked text file is a merge's conflict marker (a regenerated table can sit beside one unseen)."""
    import subprocess
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    markers = ("<<<<<<< ", ">>>>>>> ")
    left = [f"{name}:{n}" for name in files if name.endswith((".py", ".md", ".yaml", ".json", ".ini", ".toml", ".yml"))
            for n, line in enumerate((ROOT / name).read_text(errors="replace").splitlines(), 1)
            if line.startswith(markers)]
    assert not left, f"merge conflict markers: {left[:10]}"
