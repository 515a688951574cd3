"""The operator schemas as data (copysuite.surface.schemas) and the change log's schema changes between releases
(copysuite.report.schema_changes): a committed dump agrees with the installed release's own schemas, and a changed
annotation, class or op name in a dump is a change-log line."""
from __future__ import annotations

import copy
import gzip
import json

import pytest
import torch
from packaging.version import Version

from copysuite.report import schema_changes
from copysuite.report.changelog import main as changelog
from copysuite.surface import classify, schemas

RELEASE = schemas.release()
COMMITTED = schema_changes.SURFACE_DIR / f"schemas-torch-{RELEASE}.json.gz"


@pytest.fixture(scope="module")
def installed():
    return schemas.dump()


def test_annotations_in_order():
    assert schema_changes.annotations("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> "
                                      "Tensor(a!)") == ["a!", "a!"]
    # the overload name `Tensor` is not an annotation
    assert schema_changes.annotations("aten::repeat_interleave.Tensor(Tensor repeats) -> Tensor") == []
    assert schema_changes.annotations("aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> "
                                      "Tensor(a)[]") == ["a->*", "a"]


@pytest.mark.skipif(not COMMITTED.exists(), reason=f"no committed schema dump for torch {RELEASE} in results/surface")
def test_the_committed_dump_is_the_installed_releases(installed):
    with gzip.open(COMMITTED, "rt") as f:
        committed = json.load(f)
    assert schema_changes.changes(committed, installed) == [], (
        f"results/surface/{COMMITTED.name} differs from torch {torch.__version__}'s schemas: regenerate it with "
        f"python -m copysuite surface --schemas {COMMITTED.relative_to(schema_changes.SURFACE_DIR.parents[1])}")


def test_a_changed_schema_is_a_change(installed, monkeypatch):
    """torch made to register transpose.int without its view annotation and add_.Tensor as a functional op: the dump
    of that torch differs from the real one by exactly those two overloads (and the op names they move)."""
    real = classify.schema
    edits = {("transpose", "int"): "aten::transpose.int(Tensor self, int dim0, int dim1) -> Tensor",
             ("add_", "Tensor"): "aten::add_.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"}
    monkeypatch.setattr(classify, "schema", lambda name, overload: torch._C.parse_schema(edits[(name, overload)])
                        if (name, overload) in edits else real(name, overload))
    found = schema_changes.changes(installed, schemas.dump())
    assert [(c["kind"], c["overload"]) for c in found if "overload" in c] == [("class", "add_.Tensor"),
                                                                              ("class", "transpose.int")]
    assert {n for c in found if "names" in c for n in c["names"]} <= {"add_", "transpose"}, found


def test_names_and_annotations_between_two_dumps(installed):
    new = copy.deepcopy(installed)
    new["torch"] = "99.0"
    del new["overloads"]["transpose.int"]
    new["overloads"]["narrow"]["schema"] = new["overloads"]["narrow"]["schema"].replace("Tensor(a)", "Tensor(b)")
    new["overloads"]["zz_new_view"] = {"class": "alias", "schema": "aten::zz_new_view(Tensor(a) self) -> Tensor(a)"}
    found = schema_changes.changes(installed, new)
    assert {"kind": "added", "class": "alias", "names": ["zz_new_view"]} in found
    assert [c["overload"] for c in found if c["kind"] == "annotation"] == ["narrow"]
    lines = [schema_changes.line(c, RELEASE, "99.0") for c in found]
    assert any("`zz_new_view`" in line and "new" in line and f"torch {RELEASE} → 99.0" in line for line in lines)


def test_the_change_log_lists_schema_changes(tmp_path):
    """rrelu_with_noise's schema marks `noise` written from 2.6 on (its out= form becomes other_mutation): a real
    annotation change the committed dumps show."""
    releases = [Version(d["torch"]) for d in schema_changes.load_dumps()]
    if not any(r < Version("2.6") for r in releases) or Version("2.6.0") not in releases:
        pytest.skip("results/surface has no dumps on both sides of 2.6")
    changelog(["--output", str(tmp_path / "c.md")])
    text = (tmp_path / "c.md").read_text()
    section = text.split("## torch 2.6")[1].split("\n## torch")[0]
    assert "schema `aten::rrelu_with_noise.out` changes class: out → other_mutation" in section
