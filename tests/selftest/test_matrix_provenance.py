"""Where each column of the matrix came from (copysuite/report/provenance.py) on hand-made outcome files: the commit
and spec set per column, a loud heading and a row marker for columns not of the newest run's commit and spec set, in
Markdown and in the page, and `matrix --strict` refusing them."""
import html
import json

import pytest

from copysuite.gpu import source
from copysuite.report import matrix, matrix_command
from tests.selftest.test_reports import HELD, doc

COMMIT = "0123456789abcdef0123456789abcdef01234567"
OTHER = "fedcba9876543210fedcba9876543210fedcba98"


def regenerated(folder, torch, created, commit=COMMIT, digest="specs-1", modified=False, executions=("eager",),
                run="matrix-0123456"):
    """One release of a regeneration: a folder with one outcome file per execution and the run's sidecar."""
    folder.mkdir(parents=True)
    for execution in executions:
        cells = [{**c, "id": c["id"].replace("-eager", f"-{execution}"), "execution": execution} for c in HELD]
        d = {**doc(torch, cells, digest=digest), "created": created, "machine": "test machine, 2 cores",
             "checkout": None if commit is None else {"commit": commit, "modified": modified}}
        (folder / f"{execution}.json").write_text(json.dumps(d))
    source.write(folder, {"format": source.FORMAT, "run": run, "machine": "test machine, 2 cores", "partial": {},
                          "commit": commit and commit[:7]})
    return folder


def build(tmp_path, *extra):
    md, page = tmp_path / "m.md", tmp_path / "m.html"
    code = matrix_command.main([str(tmp_path / "in"), "--markdown", str(md), "--html", str(page), *extra])
    return code, md.read_text(), page.read_text()


def test_one_regeneration_names_its_commit_and_spec_set_and_passes_strict(tmp_path):
    regenerated(tmp_path / "in" / "torch2121", "2.12.1", "2026-11-29T01:00:00+00:00",
                executions=("eager", "compile.aot_eager"))
    regenerated(tmp_path / "in" / "torch213", "2.13.0", "2026-11-29T02:00:00+00:00",
                executions=("eager", "compile.aot_eager"))
    code, md, page = build(tmp_path, "--strict")
    assert code == 0
    assert "Columns not from the newest run's commit" not in md and "id='mixed'" not in page
    assert "| 2.13.0 | test machine, 2 cores | matrix-0123456 | 0123456 | specs-1 | cpu, cpu compile.aot_eager |" in md
    assert "| 2.13.0+cpu |" not in md   # the documents' torch has no local part here
    # the two sessions of one run (one per execution) are summed, not called merged
    assert ("| 2.13.0 | 3.11 | 2.0 | 0123456 | 4 / 0 / 0 | 0 / 0 / 0 | "
            "2 / 0 / 0 / 0 (2 sessions of run matrix-0123456) |" in md)
    assert "<td class='row'>0123456</td><td class='row'>specs-1</td>" in page


@pytest.mark.parametrize("change, why", [
    ({"digest": "specs-2"}, "spec set specs-1, not the newest run's specs-2"),
    ({"commit": OTHER}, "commit 0123456, not the newest run's fedcba9"),
])
def test_a_column_of_another_spec_set_or_commit_is_marked_and_strict_refuses_it(tmp_path, change, why):
    regenerated(tmp_path / "in" / "torch2121", "2.12.1", "2026-11-29T01:00:00+00:00")
    regenerated(tmp_path / "in" / "torch213", "2.13.0", "2026-11-29T02:00:00+00:00", **change)
    code, md, page = build(tmp_path)
    assert code == 0, "without --strict the page is written and the command passes"
    assert "## ⚠ Columns not from the newest run's commit and spec set (1 of 2)" in md
    assert f"| 2.12.1 cpu | {why} |" in md
    assert "| 2.12.1 cpu ⚠ other commit or spec set | 2.13.0 cpu |" in md   # the column's header
    assert md.count(f"| ⚠ {why} |") == 1, "the row of the older run in 'Where the columns come from'"
    assert "<h2 class='mixed' id='mixed'>⚠ Columns not from the newest run" in page
    assert f"<td class='row mixed'>⚠ {html.escape(why)}</td>" in page and "<details open>" in page
    assert build(tmp_path, "--strict")[0] == 1


def test_a_sidecar_short_commit_is_the_same_commit_and_an_unrecorded_or_modified_one_is_marked(tmp_path):
    gpu = regenerated(tmp_path / "in" / "gpu", "2.11.0", "2026-11-29T00:00:00+00:00", commit=None)
    sidecar = json.loads((gpu / source.FILE).read_text())
    source.write(gpu, {**sidecar, "run": "gpu-run", "commit": COMMIT[:7]})   # an older GPU run names it in run.json
    regenerated(tmp_path / "in" / "torch213", "2.13.0", "2026-11-29T02:00:00+00:00")
    assert build(tmp_path, "--strict")[0] == 0, "the sidecar's short commit is the newest run's full one"
    source.write(gpu, {**sidecar, "run": "gpu-run", "commit": None})
    code, md, _ = build(tmp_path, "--strict")
    assert code == 1 and "| 2.11.0 cpu | commit not recorded |" in md
    regenerated(tmp_path / "in" / "torch2121", "2.12.1", "2026-11-29T03:00:00+00:00", modified=True)
    runs = matrix.load_runs([tmp_path / "in"])
    marks = matrix.column_marks(runs, matrix.columns(runs))
    assert marks[(1, "cpu")] == ["uncommitted changes on 0123456"], "the newest run itself: not at a commit"


def test_old_files_without_a_checkout_are_read_and_marked(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "old.json").write_text(json.dumps(doc("2.12.1", HELD)))
    regenerated(tmp_path / "in" / "torch213", "2.13.0", "2026-11-29T02:00:00+00:00")
    code, md, _ = build(tmp_path, "--strict")
    assert code == 1 and "| 2.12.1 cpu | commit not recorded |" in md
    assert "| 2.12.1 | linux | - | not recorded | specs-1 | cpu | old.json | ⚠ commit not recorded |" in md
