"""A finding's program kept as data (copysuite/fuzz/program_data.py) and judged again on another checkout
(copysuite/fuzz/rejudge.py, `python -m copysuite fuzz rejudge`): drawn programs, every program shape among them, come
back equal from their JSON; a report written under a fault injected into torch (functionalize without its copy-back
of input mutations) holds new findings, and judged again without the fault, none is new any more."""
import json
from unittest import mock

import pytest
from hypothesis import given, settings

from copysuite.fuzz import command, generate, program_data, rejudge
from copysuite.fuzz.generate import Input, Program, Statement
from tests.selftest.test_fuzz import FUNCTIONALIZE_PROGRAMS, needs_functionalize


@settings(max_examples=60, deadline=None)
@given(generate.programs(shapes=generate.ALL_SHAPES))
def test_a_drawn_program_comes_back_equal_from_its_json(program):
    back = program_data.program(json.loads(json.dumps(program_data.data(program))))
    assert back == program and back.text() == program.text()


def test_a_strided_alias_and_the_shapes_come_back():
    program = Program((Input("a", "float64", (2, 2), "as_strided", "leaf_requires_grad", strided=(4, (1, 2), 0)),
                       Input("b", alias="a.transpose(0, -1)")),
                      (Statement("t1", "times_two", ("b",)),), ("t1",), after=("zero_", "a"), forward=True)
    assert program_data.program(json.loads(json.dumps(program_data.data(program)))) == program


def test_data_of_another_format_says_what_to_do():
    with pytest.raises(ValueError, match="keeps only the program's text"):
        program_data.program({"inputs": []})
    with pytest.raises(ValueError, match="lacks"):
        program_data.program({**program_data.data(Program((Input("a"),), (), ("a",))), "later_field": 1})


@needs_functionalize
def test_findings_of_a_fault_are_new_and_judged_again_without_it_are_not(tmp_path, capsys):
    import torch._functorch.eager_transforms as transforms
    with mock.patch.object(transforms, "_propagate_functional_input_mutation", lambda unwrapped, wrapped: None):
        report = command.search("functionalize", seed=0, programs=FUNCTIONALIZE_PROGRAMS, shrink_attempts=0)
    new = [f for f in report["findings"] if f["status"] == "new"]
    assert new, command.summary(report)
    assert all(program_data.program(f["program_data"]).text() == f["program"] for f in report["findings"])
    report["findings"].append({**new[0], "key": ["new", "text only"], "program_data": None})
    del report["findings"][-1]["program_data"]
    path = tmp_path / "fault.json"
    path.write_text(json.dumps(report))
    assert rejudge.main([str(path), "--json", str(tmp_path / "again.json")]) == 1   # the text-only one stays new
    again = json.loads((tmp_path / "again.json").read_text())
    still = [f for f in again["findings"] if f["status"] == "new"]
    assert [f["key"] for f in still] == [["new", "text only"]], capsys.readouterr().out
    assert "left_as_it_was" in still[0]["rejudged"]
    turned = [f for f in again["findings"] if f["rejudged"]["was"]["status"] == "new" and f["status"] != "new"]
    assert len(turned) == len(new)
