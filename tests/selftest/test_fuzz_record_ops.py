"""The registry's fuzz patterns name ops that exist: vocabulary ops, named sets, the module sweep's torch functions, or
surface ops of the installed torch or of a committed surface report (specs/known/*.yaml; a misspelt op would make its
record match nothing)."""
import json
from pathlib import Path

import torch


def surface_op(name: str, ops: dict) -> bool:
    """`surface.CLASS:OP` (an op name of that class) or `surface.CLASS` (every op of the class); an op the installed
    torch lacks counts where the committed surface report of another release has it in that class (an op new in a
    release, `shallow_copy_data_` of 2.14, named by a record whose other ops reach older releases)."""
    cls, _, op = name.removeprefix("surface.").partition(":")
    if not op:
        return name.startswith("surface.") and cls in ("alias", "inplace", "out", "functional")
    if op not in ops:
        return name.startswith("surface.") and op in reported_ops(cls)
    return name.startswith("surface.") and cls in ops[op].classes


def reported_ops(cls: str) -> set:
    """The op names of class `cls` in the committed surface reports of every release (results/surface/torch-*.json)."""
    names = set()
    for path in (Path(__file__).resolve().parents[2] / "results" / "surface").glob("torch-*.json"):
        counts = json.loads(path.read_text())["classes"].get(cls, {})
        names.update(op for part in ("checked", "unchecked") for op in counts.get(part, ()))
    return names


def test_every_registry_fuzz_pattern_names_ops_of_the_vocabulary():
    """A fuzz pattern's ops and overlapping_ops (specs/known/*.yaml) are vocabulary ops (or ops of the opt-in program
    shapes, copysuite.fuzz.shape_ops) or named sets of them, or, for the module sweep's
    records (specs/known/modules.yaml, matched against the torch functions a module ran), functions of torch,
    torch.nn.functional or torch.nn.init, or surface ops (`surface.CLASS:OP`, an op name of that class of the installed
    torch, or `surface.CLASS`: copysuite.fuzz.surface_vocabulary): a misspelt op would make its record match
    nothing."""
    from copysuite.fuzz import record, shape_ops, vocabulary
    from copysuite.known import registry
    from copysuite.surface.classify import classified
    patterns = {r.name: r.fuzz for r in registry.load().values() if r.fuzz}
    spaces = (torch, torch.nn.functional, torch.nn.init)
    modules = {r.name for r in registry.load().values() if r.file == "specs/known/modules.yaml"}
    named = {name: (*p.get("ops", ()), *p.get("overlapping_ops", ())) for name, p in patterns.items()}
    unknown = {name: [op for op in named[name] if op not in shape_ops.BY_NAME and op not in record.OP_SETS
                      and not (name in modules and any(hasattr(space, op) for space in spaces))
                      and not surface_op(op, classified())]
               for name, p in patterns.items()}
    assert not {n: ops for n, ops in unknown.items() if ops}, unknown
    assert [r.name for r in record.RECORDS] == list(patterns)
    assert set(record.ops(["@writes"])) >= set(vocabulary.WRITES_FROM) | {op.name for op in vocabulary.INPLACE}
