"""docs/INTERPRETING.md defines every field of the outcome JSON in one place: it cannot fall behind the schema
(copysuite/outcome/outcome.schema.json) or the failure's fields (copysuite.judge.failures.ConformanceFailure)."""
import dataclasses
import json
from pathlib import Path

from copysuite.judge.failures import FAILURE_KINDS, ConformanceFailure

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "copysuite" / "outcome" / "outcome.schema.json").read_text())
DOC = ROOT / "docs" / "INTERPRETING.md"


def field_paths(schema: dict, prefix: str = "") -> list[str]:
    """Every field the schema names, as a path: `specs.digest`, `cells[].failure.kind`, `compiled.*.*.calls`
    (`[]`: each item of an array, `*`: each value of an object keyed by names such as entry ids)."""
    join = (lambda name: f"{prefix}.{name}") if prefix else (lambda name: name)
    paths = []
    for name in [*schema.get("properties", {}), *schema.get("required", [])]:
        if join(name) not in paths:
            paths.append(join(name))
    for name, sub in schema.get("properties", {}).items():
        paths += field_paths(sub, join(name))
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        paths += field_paths(extra, f"{prefix}.*")
    if isinstance(schema.get("items"), dict):
        paths += field_paths(schema["items"], f"{prefix}[]")
    for sub in schema.get("oneOf", []):
        paths += field_paths(sub, prefix)
    return list(dict.fromkeys(paths))


def enum_values(schema: dict) -> set:
    found = set(schema.get("enum", []))
    for value in schema.values():
        subs = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
        found |= {v for sub in subs if isinstance(sub, dict) for v in enum_values(sub)}
        if isinstance(value, dict):
            found |= enum_values(value)
    return found


def undocumented(names, text: str) -> list[str]:
    return [name for name in names if f"`{name}`" not in text]


def test_the_walk_finds_the_fields_at_every_depth():
    paths = field_paths(SCHEMA)
    for path in ("format", "specs.entries.*.gates", "session.failed_tests", "casualties[].cell",
                 "compiled.*.*.compile_seconds", "cells[].failure.kind", "cells[].divergence"):
        assert path in paths
    assert {"passed", "diverged", "stale_divergence", "crashed"} <= enum_values(SCHEMA)


def test_every_field_of_the_schema_is_documented():
    missing = undocumented(field_paths(SCHEMA), DOC.read_text())
    assert not missing, f"docs/INTERPRETING.md does not describe these outcome JSON fields: {missing}"


def test_every_outcome_and_failure_kind_is_documented():
    missing = undocumented(sorted(enum_values(SCHEMA)), DOC.read_text())
    assert not missing, f"docs/INTERPRETING.md does not describe these values: {missing}"


def test_every_field_of_a_failure_is_documented():
    fields = [f"cells[].failure.{f.name}" for f in dataclasses.fields(ConformanceFailure)]
    missing = undocumented(fields, DOC.read_text())
    assert not missing, f"docs/INTERPRETING.md does not describe these failure fields: {missing}"


def test_the_schema_and_the_code_name_the_same_failure_kinds():
    failure = SCHEMA["properties"]["cells"]["items"]["properties"]["failure"]["oneOf"][1]
    assert tuple(failure["properties"]["kind"]["enum"]) == FAILURE_KINDS


def test_a_field_missing_from_the_doc_is_caught(tmp_path):
    """The check is not vacuous: a schema with one more field, or a doc with one field's row removed, is caught."""
    text = DOC.read_text()
    grown = json.loads(json.dumps(SCHEMA))
    grown["properties"]["cells"]["items"]["properties"]["rerun_of"] = {"type": "string"}
    assert undocumented(field_paths(grown), text) == ["cells[].rerun_of"]
    shrunk = "\n".join(line for line in text.splitlines() if not line.startswith("| `specs.revision` |"))
    assert undocumented(field_paths(SCHEMA), shrunk) == ["specs.revision"]
