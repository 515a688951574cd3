"""Malformed specs and programs: each one must stop loading with an error naming the file, the entry and the key."""
import pytest

from copysuite.plan import bind
from copysuite.judge.checks import REGISTRY
from copysuite.plan.cells import plan_cells
from copysuite.plugin.command import main as copysuite_run
from copysuite.known import registry
from copysuite.spec.load import SPEC_DIR, SpecError, load_specs
from copysuite.strategies.space import EXECUTIONS

GOOD = """
entries:
  - id: {id}
    call: source.clone()
    expect: {shares_storage: false}
"""


def program(text, inputs=""):
    body = "\n".join("      " + line for line in text.splitlines())
    return f"entries:\n  - id: op\n{inputs}    program: |\n{body}\n    expect: {{shares_storage: false}}\n"


def gated(*gates):
    """GOOD with its expectation given by version gates (YAML flow mappings)."""
    lines = "".join(f"\n          - {g}" for g in gates)
    return GOOD.replace("{shares_storage: false}", f"\n      shares_storage:\n        versions:{lines}")


# a record of the registry (specs/known/) with no default expectations: an entry naming it must say which it breaks
RECORD = "meta_fake_tensor_rewrap"


MALFORMED = {
    "bad_yaml": ("entries: [\n  - id: x\n", None, None, "not valid YAML"),
    "empty_file": ("", None, None, "empty spec file"),
    "not_a_mapping": ("- 1\n- 2\n", None, None, "a spec file is a mapping"),
    "unknown_top_key": ("entries: [{id: op, call: source}]\nextra: 1\n", None, None, "unknown key"),
    "unknown_check": (GOOD.replace("shares_storage", "shares_memory"), "op", "expect.shares_memory",
                      "unknown check 'shares_memory' (the checks: autograd_view, backward_sees_write,"),
    "not_a_check_name": (GOOD.replace("shares_storage", "Shares-Storage"), "op", "expect",
                         "'Shares-Storage' is not a check's name"),
    "unknown_execution": (GOOD + "    applies: {executions: [eager, compile.warp]}\n", "op", "applies.executions.1",
                          f"'compile.warp' is not one of {list(EXECUTIONS)}"),
    "divergence_of_an_unknown_execution": (GOOD + f"    diverges: [{{record: {RECORD}, expect: [shares_storage], "
                                           "executions: [compile.warp]}]\n", "op", "diverges.0.executions.0",
                                           f"'compile.warp' is not one of {list(EXECUTIONS)}"),
    "unknown_entry_key": (GOOD + "    colour: red\n", "op", None, "unknown key"),
    "id_with_a_dash": (GOOD.replace("{id}", "clone-fast"), "clone-fast", "id", "does not match"),
    "wrong_type": (GOOD.replace("false}", "[1, 2]}"), "op", "expect.shares_storage",
                   "is not valid under any of the given schemas"),
    "gate_gap": (gated('{torch: "<2.0", value: true, evidence: "https://example.org/a"}',
                       '{torch: ">=2.10", value: false, evidence: "https://example.org/b"}'), "op",
                 "expect.shares_storage.versions", "no gate covers torch 2.0.1"),
    "grad_check_of_a_derived_input": (program("result = b", "    inputs: {b: source.detach()}\n").replace(
        "{shares_storage: false}", "{'grad_to_source[b]': none}"), "op", "expect.grad_to_source[b]",
        "requires grad"),
    "bad_literal": (GOOD.replace("false}", "maybe}"), "op", "expect.shares_storage", "takes one of"),
    "bad_nested_literal": (GOOD.replace("false}", "{if: [nonempty], then: maybe, else: false}}"), "op",
                           "expect.shares_storage.then", "takes one of"),
    "unknown_tensor_attribute": (GOOD.replace("source.clone()", "source.clonez()"), "op", "call",
                                 "unknown attribute 'clonez'"),
    "unknown_torch_name": (GOOD.replace("source.clone()", "torch.no_such_fn(source)"), "op", "call",
                           "unknown name torch.no_such_fn"),
    "bad_version_range": (GOOD + "    applies: {torch: '>=two'}\n", "op", "applies.torch", "bad torch version range"),
    "unknown_predicate": (GOOD.replace("{shares_storage: false}",
                                       "{shares_storage: {if: [sunny], then: true, else: false}}"),
                          "op", "expect.shares_storage.if", "unknown predicate 'sunny'"),
    "bad_predicate_argument": (GOOD.replace("{shares_storage: false}",
                                            "{shares_storage: {if: ['dtype:float65'], then: true, else: false}}"),
                               "op", "expect.shares_storage.if", "dtype: takes one of"),
    "contradictory_gates": (gated('{torch: ">=2.0", value: true, evidence: "https://example.org/a"}',
                                  '{torch: ">=2.10", value: false, evidence: "https://example.org/b"}'), "op",
                            "expect.shares_storage.versions", "contradictory gates"),
    "gate_without_evidence": (gated('{torch: ">=2.0", value: true}'), "op", "expect.shares_storage.versions.0",
                              "'evidence' is a required property"),
    "unknown_dtype": (GOOD + "    applies: {dtypes: [float33]}\n", "op", "applies.dtypes", "unknown dtype"),
    "bad_exception": (GOOD.replace("{shares_storage: false}", "{raises: {type: Oops}}"), "op", "expect.raises",
                      "unknown BaseException type 'Oops'"),
    "bad_regex": (GOOD.replace("{shares_storage: false}", "{raises: {type: RuntimeError, match: '('}}"), "op",
                  "expect.raises", "bad regular expression"),
    "empty_ndim_range": (GOOD + "    applies: {ndim: [3, 1]}\n", "op", "applies.ndim", "empty range"),
    "infeasible_kinds": (GOOD + "    applies: {dtypes: [int64], kinds: [nonleaf]}\n", "op", "applies",
                         "no kind can be drawn"),
    # ---- programs ----
    "call_and_program": (GOOD.replace("    expect:", "    program: 'result = source'\n    expect:"), "op", None,
                         "either `call`"),
    "call_is_not_one_expression": (GOOD.replace("source.clone()", "'x = source'"), "op", "call", "not valid Python"),
    "syntax_error": (program("a = source.clone(\nresult = a"), "op", "program", "not valid Python (line 1"),
    "forbidden_name": (program("os.system('true')\nresult = source"), "op", "program",
                       "line 1: name 'os' is not allowed"),
    "forbidden_node": (program("import os\nresult = source"), "op", "program", "Import is not allowed"),
    "private_attribute": (program("result = source.__class__"), "op", "program", "attribute '__class__'"),
    "program_without_result": (program("x = source.clone()"), "op", "program", "ends with `result = ...`"),
    "result_not_last": (program("result = source\nx = 1"), "op", "program", "ends with `result = ...`"),
    "input_uses_unknown_name": (program("result = a", "    inputs: {a: 'other[1:]'}\n"), "op", "inputs.a",
                                "name 'other' is not allowed"),
    "input_shadows_a_module": (program("result = torch", "    inputs: {torch: source}\n"), "op", "inputs.torch",
                               "cannot name an input"),
    "check_of_unknown_input": (GOOD.replace("{shares_storage: false}", "{'shares_storage[b]': false}"), "op",
                               "expect.shares_storage[b]", "no input or program variable named 'b'"),
    "before_check_of_a_variable": (program("copied = source.clone()\nresult = copied").replace(
        "{shares_storage: false}", "{'source_untouched[copied]': true}"), "op", "expect.source_untouched[copied]",
        "'copied' is a variable of the program"),
    "first_call_reads_an_unbound_name": (program("result = b", "    inputs: {b: 'source[1:]'}\n    first_call: "
                                         "{b: 'w[1:]'}\n"), "op", "first_call.b", "name 'w' is not allowed"),
    "first_call_out_of_argument_order": (program("result = b", "    inputs: {b: 'source[1:]'}\n    first_call: "
                                          "{b: 'w[1:]', source: '(w := source.clone())'}\n"), "op",
                                         "first_call.b", "in the order of the function's arguments"),
    "walrus_outside_first_call": (program("result = (w := source)"), "op", "program", "NamedExpr is not allowed"),
    # ---- known-bug records named across files ----
    "unknown_record": (GOOD + "    diverges: [{record: nope, expect: [shares_storage]}]\n", "op", "diverges[0].record",
                       "no record named 'nope'"),
    "record_missing_fields": (GOOD + f"    diverges: [{{record: {RECORD}}}]\n", "op", "diverges[0]",
                              "['expect'] missing"),
    "divergence_without_record": (GOOD + "    diverges: [{expect: [shares_storage]}]\n", "op", "diverges.0",
                                  "'record' is a required property"),
    "divergence_with_its_own_evidence": (GOOD + f"    diverges: [{{record: {RECORD}, expect: [shares_storage], "
                                         "evidence: 'https://github.com/pytorch/pytorch/issues/1'}]\n", "op",
                                         "diverges.0", "unknown key"),
    "raises_of_an_input": (program("result = a", "    inputs: {a: source}\n").replace(
        "{shares_storage: false}", "{'raises[a]': null}"), "op", "expect.raises[a]", "about the call"),
}


def load(directory):
    """What the plugin does at configure: load with the checks, then the names against the installed torch."""
    spec_set = load_specs(directory, REGISTRY)
    for entry in spec_set.entries:
        bind.check_names(entry)
    return spec_set


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_spec_is_reported_precisely(tmp_path, name):
    text, entry, key, message = MALFORMED[name]
    (tmp_path / "bad.yaml").write_text(text.replace("{id}", "op"))
    with pytest.raises(SpecError) as info:
        load(tmp_path)
    err = info.value
    assert err.file == str(tmp_path / "bad.yaml")
    assert err.entry == entry, str(err)
    if key is not None:
        assert err.key == key, str(err)
    assert message in err.message, str(err)
    assert str(err).startswith(str(tmp_path / "bad.yaml"))


def test_an_entry_names_a_registry_record_and_the_fields_it_gives_win(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD.replace("{id}", "first") + f"    diverges: [{{record: {RECORD}, expect: "
                                     "[shares_storage], torch: '<2.2'}]\n")
    (d,) = load(tmp_path).entries[0].diverges
    record = registry.load()[RECORD]
    assert (d.record, d.executions, d.torch, d.keys) == (RECORD, record.executions, "<2.2", ("shares_storage",))
    assert (d.observed, d.evidence, d.devices) == (record.observed, record.evidence, record.devices)


def test_a_program_with_two_aliased_inputs_loads(tmp_path):
    (tmp_path / "ok.yaml").write_text(program("a.add_(1)\nresult = b.view(-1)", "    inputs: {a: source, b: source}\n")
                                      .replace("{shares_storage: false}", "{'shares_storage[a]': true}"))
    (entry,) = load(tmp_path).entries
    assert entry.program.input_lines() == ["a = source", "b = source"]
    assert entry.program.lines() == ["a.add_(1)", "result = b.view(-1)"]


def test_a_first_call_binds_one_tensor_for_its_later_arguments(tmp_path):
    """`first_call` may bind a name with `:=` in one argument and read it in the later ones: a fresh tensor and a
    view of it, aliased, in one call."""
    (tmp_path / "ok.yaml").write_text(program("result = b", "    inputs: {b: 'source[1:]'}\n    first_call: "
                                              "{source: '(w := source.detach().clone())', b: 'w[1:]'}\n"))
    (entry,) = load(tmp_path).entries
    assert entry.program.first_call_args() == "(w := source.detach().clone()), w[1:]"


def test_a_check_of_a_program_variable_is_planned_compiled_too(tmp_path):
    """A compiled function returns the variables its entry's checks judge beside `result`, so `shares_storage[first]`
    has a compiled cell as well as an eager one; a variable no check names is not returned."""
    (tmp_path / "ok.yaml").write_text(program("first = source.detach()\nunjudged = first * 1\nresult = first[1:]")
                                      .replace("{shares_storage: false}",
                                               "{'shares_storage[first]': true, shares_storage: true}"))
    entries = load(tmp_path).entries
    cells = plan_cells(entries, REGISTRY, executions=("eager", "compile.aot_eager"))
    assert sorted((c.key, c.execution) for c in cells if c.device == "cpu") == [
        ("shares_storage", "compile.aot_eager"), ("shares_storage", "eager"),
        ("shares_storage[first]", "compile.aot_eager"), ("shares_storage[first]", "eager")]
    assert entries[0].program.variables == ("first", "unjudged") and entries[0].program.returns == ("first",)


def test_duplicate_ids_across_files(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD.replace("{id}", "op"))
    (tmp_path / "b.yaml").write_text(GOOD.replace("{id}", "op"))
    with pytest.raises(SpecError, match=r"b.yaml: entry 'op': id: duplicate id, first defined in .*a.yaml"):
        load(tmp_path)


def test_no_spec_files(tmp_path):
    with pytest.raises(SpecError, match="no spec files"):
        load(tmp_path)


def test_the_real_specs_load_and_cover_every_seed():
    entries = load(SPEC_DIR).entries
    assert len({e.id for e in entries}) == len(entries)
    assert {s for e in entries for s in e.seeds} == {"000", "001", "002", "003"}


def test_bad_spec_stops_collection(tmp_path, capsys):
    """A bad spec file makes the session exit with a usage error naming the file. (A session run in this process:
    `python -m copysuite run` is this call.)"""
    (tmp_path / "zz_bad.yaml").write_text(GOOD.replace("{id}", "op").replace("source.clone()", "source.clonez()"))
    code = copysuite_run(["--co", "-q", "-p", "no:xdist", f"--specs={tmp_path}"])
    err = capsys.readouterr().err
    assert code == 4, err
    assert f"{tmp_path / 'zz_bad.yaml'}: entry 'op': call: unknown attribute 'clonez'" in err


def test_a_text_the_xdist_controller_validated_is_not_validated_again(tmp_path, monkeypatch):
    """The controller hands the digests of the texts it validated to each worker
    (copysuite.speed.hooks.pytest_configure_node); a worker validates only a text whose digest it was not given."""
    from types import SimpleNamespace
    from unittest import mock

    from copysuite.speed import hooks as plugin
    from copysuite.spec import load as specs

    (tmp_path / "a.yaml").write_text(GOOD.replace("{id}", "op"))
    monkeypatch.setattr(specs, "VALID", set())
    load_specs(tmp_path, REGISTRY)
    node = SimpleNamespace(workerinput={})
    plugin.pytest_configure_node(node)
    handed = node.workerinput[plugin.VALIDATED_SPECS]
    assert handed == [specs.text_digest(GOOD.replace("{id}", "op"))]
    monkeypatch.setattr(specs, "VALID", set(handed))
    validate = mock.Mock(side_effect=AssertionError("validated again"))
    with mock.patch.object(specs, "VALIDATOR", SimpleNamespace(iter_errors=validate)):
        load_specs(tmp_path, REGISTRY)
        (tmp_path / "a.yaml").write_text(GOOD.replace("{id}", "op2"))
        with pytest.raises(AssertionError, match="validated again"):
            load_specs(tmp_path, REGISTRY)
    assert validate.call_count == 1
