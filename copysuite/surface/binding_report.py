"""`python -m copysuite surface --bindings`: the public bindings of the installed torch that return an alias or
write in place (copysuite.surface.bindings), per class: how many, which the binding cells check (each call judged
eagerly through the binding; a class counts as checked when some call of it applied), and why the others are not;
with the listed bindings out of scope and why.
"""
from __future__ import annotations

from copysuite.surface import binding_calls, bindings
from copysuite.surface.binding_cells import CLASS, BindingCell, BindingJudge, planned
from copysuite.surface.checks import NotApplicable

PYTHON = "python_defined"   # not a class: the bindings of every class that are implemented in Python


def served(binding, call) -> str:
    """The binding's class a call checks."""
    if "dunder" in binding.classes and call.call in binding_calls.dunder_texts(binding):
        return "dunder"
    return "inplace_flag" if "inplace=True" in call.call else call.cls


def no_call(binding, cls: str, scope: str) -> str:
    if scope == "sample":
        return "not in the default sample (--scope all: every call the operator surface plans for its aten op)"
    if cls == "out" and binding.is_method:
        return "a method takes no out="
    return (f"no call of aten::{binding.aten} ({cls}) that the surface plans has a shape this can rewrite as a call "
            "of the binding (copysuite/surface/binding_calls.py), or none is planned (docs/surface.md: the "
            "operator surface's unchecked names)")


def judged(scope: str) -> tuple:
    """({(binding name, class)}: checked, {(binding name, class): why every call was refused})."""
    checked, refused = set(), {}
    for binding, calls in planned(scope):
        for call in calls:
            cell = BindingCell(binding.name, CLASS, "eager", (call,), binding=binding)
            cls = served(binding, call)
            try:
                BindingJudge(call, str(cell.id), "eager", cell.inplace_view_of(call), binding).judge()
            except NotApplicable as exc:
                refused.setdefault((binding.name, cls), str(exc)[:160])
                continue
            except AssertionError:
                pass   # judged (and failed: the conformance run reports it)
            checked.add((binding.name, cls))
    return checked, refused


def report(scope: str = "all", run: bool = True) -> dict:
    import torch
    scoped = bindings.in_scope()
    if run:
        checked, refused = judged(scope)
    else:
        checked = {(b.name, served(b, c)) for b, calls in planned(scope) for c in calls}
        refused = {}
    classes = {}
    for cls in (*bindings.CLASSES, PYTHON):
        members = [b for b in scoped if (cls in b.classes if cls != PYTHON else b.python)]
        done = sorted(b.name for b in members if any((b.name, c) in checked for c in b.classes
                                                     if cls == PYTHON or c == cls))
        unchecked = {}
        for b in members:
            if b.name in done:
                continue
            key = (b.name, cls if cls != PYTHON else b.classes[0])
            unchecked[b.name] = (f"every call refused: {refused[key]}" if key in refused
                                 else no_call(b, key[1], scope))
        classes[cls] = {"total": len(members), "checked": done, "unchecked": unchecked}
    out = {b.name: bindings.out_of_scope(b) for b in bindings.derived() if not b.classes}
    return {"torch": torch.__version__, "scope": scope, "listed": len(bindings.derived()), "in_scope": len(scoped),
            "classes": classes, "out_of_scope": out}


def markdown(rep: dict) -> str:
    lines = [f"| class | bindings | checked | unchecked | (torch {rep['torch']}, scope {rep['scope']}) |",
             "|---|---|---|---|---|"]
    for cls, rec in rep["classes"].items():
        label = "Python-defined (of all classes)" if cls == PYTHON else cls
        lines.append(f"| {label} | {rec['total']} | {len(rec['checked'])} | {len(rec['unchecked'])} | |")
    unmatched = sum(1 for why in rep["out_of_scope"].values() if why.startswith("no aten op"))
    lines.append(f"\n{rep['listed']} bindings listed, {rep['in_scope']} in scope (a binding can be in several "
                 f"classes); out of scope: {len(rep['out_of_scope']) - unmatched} matched to a functional aten op, "
                 f"{unmatched} with no aten op of their name.")
    return "\n".join(lines) + "\n"
