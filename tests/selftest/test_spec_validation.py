"""Malformed specs: each one must stop loading with an error naming the file, the entry and the key."""
import pytest

from copysuite.invariants import REGISTRY
from copysuite.specs import SCHEMA, SPEC_DIR, SpecError, load_all

GOOD = """
entries:
  - id: {id}
    call: [clone]
    expect: {shares_storage: false}
"""

MALFORMED = {
    "bad_yaml": ("entries: [\n  - id: x\n", None, None, "not valid YAML"),
    "empty_file": ("", None, None, "empty spec file"),
    "not_a_mapping": ("- 1\n- 2\n", None, None, "a spec file is a mapping"),
    "unknown_top_key": ("entries: []\nextra: 1\n", None, None, ""),
    "unknown_invariant": (GOOD.replace("shares_storage", "shares_memory"), "op", "expect", "unknown invariant"),
    "unknown_entry_key": (GOOD + "    colour: red\n", "op", None, "unknown key"),
    "wrong_type": (GOOD.replace("false}", "[1, 2]}"), "op", "expect.shares_storage", ""),
    "bad_literal": (GOOD.replace("false}", "maybe}"), "op", "expect.shares_storage", "takes one of"),
    "unknown_op_attribute": (GOOD.replace("[clone]", "[clonez]"), "op", "call.0", "unknown op attribute 'clonez'"),
    "unknown_function": (GOOD.replace("[clone]", "[{function: torch.no_such_fn}]"), "op", "call.0",
                         "unknown function"),
    "bad_version_range": (GOOD + "    applies: {torch: '>=two'}\n", "op", "applies.torch", "bad torch version range"),
    "unknown_predicate": (GOOD.replace("{shares_storage: false}",
                                       "{shares_storage: {if: [sunny], then: true, else: false}}"),
                          "op", "expect.shares_storage.if", "unknown predicate 'sunny'"),
    "bad_predicate_argument": (GOOD.replace("{shares_storage: false}",
                                            "{shares_storage: {if: ['dtype:float65'], then: true, else: false}}"),
                               "op", "expect.shares_storage.if", "dtype: takes one of"),
    "contradictory_gates": (GOOD.replace("{shares_storage: false}", """
      shares_storage:
        versions:
          - {torch: ">=2.0", value: true, evidence: "https://example.org/a"}
          - {torch: ">=2.10", value: false, evidence: "https://example.org/b"}"""), "op",
                            "expect.shares_storage.versions", "contradictory gates"),
    "gate_without_evidence": (GOOD.replace("{shares_storage: false}", """
      shares_storage:
        versions:
          - {torch: ">=2.0", value: true}"""), "op", "expect.shares_storage.versions.0",
                              "'evidence' is a required property"),
    "unknown_dtype": (GOOD + "    applies: {dtypes: [float33]}\n", "op", "applies.dtypes", "unknown dtype"),
    "bad_exception": (GOOD.replace("{shares_storage: false}", "{raises: {type: Oops}}"), "op", "expect.raises",
                      "unknown BaseException type 'Oops'"),
    "bad_regex": (GOOD.replace("{shares_storage: false}", "{raises: {type: RuntimeError, match: '('}}"), "op",
                  "expect.raises", "bad regular expression"),
    "empty_ndim_range": (GOOD + "    applies: {ndim: [3, 1]}\n", "op", "applies.ndim", "empty range"),
    "bad_argument_mapping": (GOOD.replace("[clone]", "[{method: to, args: [{colour: red}]}]"), "op", "call.0.args.0",
                             "an argument mapping has one key"),
    "infeasible_kinds": (GOOD + "    applies: {dtypes: [int64], kinds: [nonleaf]}\n", "op", "applies",
                         "no kind can be drawn"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_spec_is_reported_precisely(tmp_path, name):
    text, entry, key, message = MALFORMED[name]
    (tmp_path / "bad.yaml").write_text(text.replace("{id}", "op"))
    with pytest.raises(SpecError) as info:
        load_all(REGISTRY, tmp_path)
    err = info.value
    assert err.file == "specs/bad.yaml"
    assert err.entry == entry, str(err)
    if key is not None:
        assert err.key == key, str(err)
    assert message in err.message, str(err)
    assert str(err).startswith("specs/bad.yaml")


def test_duplicate_ids_across_files(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD.replace("{id}", "op"))
    (tmp_path / "b.yaml").write_text(GOOD.replace("{id}", "op"))
    with pytest.raises(SpecError, match=r"specs/b.yaml: entry 'op': id: duplicate id, first defined in specs/a.yaml"):
        load_all(REGISTRY, tmp_path)


def test_no_spec_files(tmp_path):
    with pytest.raises(SpecError, match="no spec files"):
        load_all(REGISTRY, tmp_path)


def test_schema_knows_exactly_the_registered_invariants():
    assert set(SCHEMA["$defs"]["expect"]["propertyNames"]["enum"]) == set(REGISTRY)


def test_the_real_specs_load_and_cover_every_seed():
    entries = load_all(REGISTRY, SPEC_DIR)
    assert len({e.id for e in entries}) == len(entries)
    seeds = {s for e in entries for s in e.seeds}
    assert seeds == {"000", "001", "002", "003"}


def test_bad_spec_stops_collection(tmp_path):
    """A bad spec file makes pytest exit with a usage error naming the file (checked in a subprocess)."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    work = tmp_path / "suite"
    shutil.copytree(root, work, ignore=shutil.ignore_patterns(".venv", ".git", ".tox", "__pycache__", "results"))
    (work / "specs" / "zz_bad.yaml").write_text(GOOD.replace("{id}", "op").replace("[clone]", "[clonez]"))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "tests/test_conformance.py", "--co"], cwd=work,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "specs/zz_bad.yaml: entry 'op': call.0: unknown op attribute 'clonez'" in proc.stderr
