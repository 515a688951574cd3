"""The known-bug registry (specs/known/*.yaml): malformed records are reported precisely, the real registry loads, every
draft it cites exists, and every record explains something (a spec entry names it, or it has surface items or a fuzz
pattern): a record nothing uses is stale."""
from pathlib import Path

import pytest

from copysuite.known import registry
from copysuite.known.registry import RegistryError
from copysuite.spec.load import load_specs
from copysuite.strategies.space import EXECUTIONS

ROOT = Path(__file__).resolve().parents[2]
GOOD = """bug:
  evidence: https://github.com/pytorch/pytorch/issues/1
  torch: ">=2.0"
  executions: [compile.aot_eager]
  note: what it is
"""

MALFORMED = {
    "not_yaml": ("bug: [\n", None, "not valid YAML"),
    "missing_evidence": (GOOD.replace("  evidence: https://github.com/pytorch/pytorch/issues/1\n", ""), "bug",
                         "'evidence' is a required property"),
    "evidence_not_a_reference": (GOOD.replace("https://github.com/pytorch/pytorch/issues/1", "issue 1"), "bug",
                                 "does not match"),
    "unknown_field": (GOOD + "  colour: red\n", "bug", "Additional properties"),
    "names_a_record": (GOOD + "  record: other\n", "bug", "Additional properties"),
    "bad_range": (GOOD.replace('">=2.0"', '"2.0+"'), "bug", "not a PEP 440 specifier"),
    "bad_regex": (GOOD + "  observed: '(unclosed'\n", "bug", "bad regular expression"),
    "bad_fuzz_regex": (GOOD + "  fuzz: {kinds: '(unclosed'}\n", "bug", "bad regular expression"),
    "by_design_from_a_draft": (GOOD.replace("https://github.com/pytorch/pytorch/issues/1",
                                            "docs/upstream-reports/some_draft.py") + "  by_design: true\n", "bug",
                               "needs documentation or a maintainer's decision"),
    "order_dependent_without_a_draft": (GOOD + "  order_dependent: true\n", "bug", "needs a draft"),
    "unknown_execution": (GOOD.replace("[compile.aot_eager]", "[compile.warp]"), "bug",
                          f"'compile.warp' is not one of {list(EXECUTIONS)}"),
    "surface_cell_not_a_surface_id": (GOOD + "  surface: [{cells: [clone], clause: no_shared_memory}]\n", "bug",
                                      "does not match"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_record_is_reported_precisely(tmp_path, name):
    text, record, message = MALFORMED[name]
    (tmp_path / "bad.yaml").write_text(text)
    with pytest.raises(RegistryError) as info:
        registry.load(tmp_path)
    assert info.value.file == "specs/known/bad.yaml"
    assert info.value.record == record, str(info.value)
    assert message in info.value.message, str(info.value)


def test_a_record_is_defined_once(tmp_path):
    for name in "ab":
        (tmp_path / f"{name}.yaml").write_text(GOOD)
    with pytest.raises(RegistryError, match="duplicate record, first defined in specs/known/a.yaml"):
        registry.load(tmp_path)


def test_the_registry_loads_and_its_drafts_exist():
    records = registry.load()
    assert records, "specs/known/*.yaml holds no record"
    missing = {name: d for name, r in records.items() for d in r.drafts if not (ROOT / d).is_file()}
    assert not missing, f"records citing drafts that do not exist: {missing}"


def test_every_record_explains_something():
    named = {d.record for e in load_specs().entries for d in e.diverges}
    unused = [name for name, r in registry.load().items() if name not in named and not r.surface and not r.fuzz]
    assert not unused, f"records no spec entry names and with no surface items or fuzz pattern (stale?): {unused}"
