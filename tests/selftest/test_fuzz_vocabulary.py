"""The surface vocabulary of the fuzzer (copysuite/fuzz/surface_vocabulary.py): a seed draws the same programs from
it, each op prints as Python a program runs, an out= form writes its first operand; and, opt-in (COPYSUITE_FUZZ=1:
building it from every OpInfo sample takes a minute or two, and the fixed-seed run compiles), every op the surface
checks is in it or left out with its reason, and a short fixed-seed compiled run with it finds only known
differences."""
import json
import os
import re

import pytest
import torch

from copysuite.fuzz import command, generate, surface_ops, surface_vocabulary, vocabulary_report
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.run.executions import EXECUTORS
from tests.selftest.drawn import drawn_programs

EXECUTION, PROGRAMS = "compile.aot_eager", 40
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): building from every OpInfo sample "
                                   "takes minutes")
# why an op may be left out (copysuite.fuzz.surface_vocabulary, copysuite.fuzz.surface_ops): each a reason a
# program cannot hold the op, not a difference it would show
REASONS = re.compile(r"its input is no dense tensor|its values differ between two calls|refuses every probe input "
                     r"and its own|returns a \w+.*, no tensor a program holds|no sample: |an argument of type|"
                     r"\d tensor operands|a \S+ tensor argument|no call to add out= to|"
                     r"views memory past the end of its storage|its argument must be fresh|"
                     r"its result holds memory it never wrote")


@pytest.fixture(scope="module")
def sample():
    return surface_vocabulary.vocabulary_of("sample")


def drawn(vocabulary, count: int, at: int = 0) -> list[str]:
    return [program.text() for program in drawn_programs(generate.programs(vocabulary=vocabulary), count, at)]


def test_a_seed_draws_the_same_programs_from_the_surface_vocabulary(sample):
    first = drawn(sample, 30)
    assert first == drawn(sample, 30)
    assert first != drawn(sample, 30, at=1)
    # surface ops are drawn, and the hand-written table's beside them
    ops = {s.op for at in (0, 1, 2) for s in statements(sample, 30, at)}
    assert any(op.startswith("surface.") for op in ops) and any(not op.startswith("surface.") for op in ops)


def statements(vocabulary, count, at):
    return [statement for program in drawn_programs(generate.programs(vocabulary=vocabulary), count, at)
            for statement in program.statements]


def test_every_surface_op_prints_as_python_a_program_runs(sample):
    """Each op's statement is valid Python over the program's variables, and a float32 (3, 4) input runs it where its
    probe did (a template that no longer matches its probe would fail here)."""
    for op in sample.ops:
        if not op.name.startswith("surface."):
            continue
        args = ("a", "b", "c", "a")[:op.arity]
        lines = Statement("t1", op.name, args).lines()
        compile("\n".join(lines), op.name, "exec")
        assert all("\0" not in line for line in lines), op


def test_an_out_form_writes_its_first_operand(sample):
    out = [op for op in sample.ops if op.name.startswith("surface.out:add/")]
    assert out and "out={x}" in out[0].template
    program = Program((Input("a", shape=(3, 4)), Input("b", shape=(3, 4))), (Statement("t1", out[0].name, ("a", "b")),),
                      ("t1",))
    ns = {"torch": torch}
    exec("\n".join(program.input_lines() + program.lines()), ns)  # noqa: S102 - the program's own text
    assert ns["t1"] is ns["a"]


def test_the_cached_vocabulary_is_the_built_one(sample, tmp_path, monkeypatch):
    """Built again, the same ops as the fixture's (built in another process, or read from the cache: probes that
    agree by chance on memory left over would not); written to the cache and read back, the same vocabulary."""
    from copysuite.fuzz import vocabulary_cache
    monkeypatch.setenv("COPYSUITE_CACHE_DIR", str(tmp_path))
    written = vocabulary_cache.cached("sample", surface_vocabulary.build, surface_vocabulary.assemble)
    read = vocabulary_cache.cached("sample", lambda scope: pytest.fail("built again"), surface_vocabulary.assemble)
    assert written.ops == sample.ops
    assert (read.ops, read.groups, read.left_out, read.weights) == \
        (written.ops, written.groups, written.left_out, written.weights)


@pytest.mark.skipif(getattr(torch.utils, "deterministic", None) is None,
                    reason="torch.utils.deterministic (the fill of uninitialized memory) is new in 2.1")
def test_memory_never_written_is_left_out_whatever_two_calls_show(monkeypatch):
    """A resize_ that grows returns memory it never wrote; two plain calls may agree on it (memory fresh from the
    system reads zeros both times). With that check made to agree, the fill of uninitialized memory leaves it out."""
    from copysuite.surface.cells import planned_calls
    monkeypatch.setattr(surface_vocabulary, "same", lambda a, b: True)
    call = next(c for c in planned_calls("sample") if c.op == "resize_" and c.cls == "inplace")
    assert "never wrote" in surface_vocabulary.probe(surface_vocabulary.forms_of(call), call)


def test_an_expression_keeps_the_call_and_moves_its_slots_for_out():
    text, slots = surface_ops.as_out_form(f"torch.add({surface_ops.SLOT.format(0)}, 2)", 1)
    assert slots == 2
    assert surface_ops.template(text, slots, "tensor") == "{out} = torch.add({y}, 2, out={x})"
    assert surface_ops.literal(torch.tensor([1, 2])) == "torch.tensor([1, 2], dtype=torch.int64)"
    assert surface_ops.literal(float("nan")) == "float('nan')"


@pytest.fixture(scope="module")
def full():
    return surface_vocabulary.vocabulary_of("all")


@opt_in
@pytest.mark.timeout(1200)   # the fixture builds the vocabulary from every OpInfo sample where no cache has it
def test_the_vocabulary_covers_every_op_the_surface_checks(full):
    """Every op name the surface report of the installed release counts as checked (results/surface/torch-VERSION
    .json) is in the vocabulary, or left out with one of REASONS; dropping an op's forms is caught."""
    path = os.path.join("results", "surface", f"torch-{torch.__version__.split('+')[0]}.json")
    if not os.path.exists(path):
        pytest.skip(f"no surface report of this release ({path}): python -m copysuite surface --json {path}")
    with open(path) as f:
        checked = {c: set(rec["checked"]) for c, rec in json.load(f)["classes"].items()}
    found = vocabulary_report.names_by_class(full)
    missing = {c: sorted(names - set(found.get(c, {})) - {k.split(":", 1)[1] for k in full.left_out
                                                          if k.startswith(c + ":")})
               for c, names in checked.items()}
    assert not any(missing.values()), missing
    assert all(REASONS.search(why) for why in full.left_out.values()), \
        {k: v for k, v in full.left_out.items() if not REASONS.search(v)}
    assert full.groups["refused"], "argument values eager refuses are part of the vocabulary"
    assert all(full.groups[g] for g in surface_vocabulary.GROUPS)
    dropped = surface_vocabulary.Vocabulary(full.scope, tuple(o for o in full.ops if "surface.inplace:add_/" not in
                                                              o.name), full.groups, full.left_out)
    assert "add_" in checked["inplace"] and "add_" not in vocabulary_report.names_by_class(dropped)["inplace"]


@opt_in
@pytest.mark.timeout(1200)
@pytest.mark.skipif(EXECUTORS[EXECUTION].skip_reason() is not None, reason=str(EXECUTORS[EXECUTION].skip_reason()))
def test_a_short_fixed_seed_surface_run_finds_only_known_differences():
    report = command.search(EXECUTION, seed=0, programs=PROGRAMS, vocabulary="surface")
    new = [f for f in report["findings"] if f["status"] == "new"]
    assert report["counts"]["programs"] == PROGRAMS
    assert not new, command.summary(report)


def test_the_cache_key_is_the_code_not_its_docstrings():
    from copysuite.fuzz.vocabulary_cache import code
    one = code('"""A module."""\ndef f():\n    """Its doc."""\n    return 1  # why\n')
    assert one == code('"""Reworded."""\ndef f():\n    """Other words."""\n    return 1\n')
    assert one != code('"""A module."""\ndef f():\n    """Its doc."""\n    return 2\n')


def test_a_view_past_the_end_of_its_storage_is_left_out():
    """aten._reshape_alias checks no bounds: its (12,) view of a 6-element probe would let a program write past the
    storage (the glibc heap corruption that ended surface campaigns); the probe leaves such a form out."""
    x = torch.zeros(2, 3)
    assert surface_vocabulary.escapes(torch.ops.aten._reshape_alias(x, (12,), (1,)))
    assert not surface_vocabulary.escapes(x.view(6)) and not surface_vocabulary.escapes(x[1:].t())
    assert not surface_vocabulary.escapes((x.unbind(0)[1],)) and not surface_vocabulary.escapes(torch.empty(0))



def test_an_op_whose_precondition_no_variable_meets_is_left_out(sample):
    """lift_fresh's argument must be fresh (native_functions.yaml: only torch.tensor() calls it, and a traced
    lift_fresh becomes lift_fresh_copy), which no program's variable is: every tracing execution returns a copy
    where eager returns the argument, so no form of it is drawn."""
    assert not [o.name for o in sample.ops if "lift_fresh" in o.name]
    assert "its argument must be fresh" in sample.left_out["alias:lift_fresh"]
