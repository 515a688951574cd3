"""The matrix regenerated at one commit (tools/matrix.sh, copysuite/report/regenerate.py), with a stand-in for the
release's interpreter that writes a hand-made outcome file: one compressed file per release and execution with the
run's sidecar, a second regeneration replacing the release's folder instead of merging with it, and the jobs of the
scheduled workflow assembled into one folder per release."""
import gzip
import json
import os
import subprocess
import sys

import pytest

from copysuite.gpu import source
from copysuite.report import regenerate
from tests.selftest.test_reports import HELD, doc

STAND_IN = f"""#!{sys.executable}
import json, sys
args = sys.argv[1:]
execution, out = args[args.index("--execution") + 1], args[args.index("--outcome-json") + 1]
cells = [{{**c, "id": c["id"].replace("-eager", "-" + execution), "execution": execution}} for c in {HELD!r}]
doc = {{**{doc("2.13.0", [])!r}, "cells": cells, "machine": "stand-in, 2 cores",
       "checkout": {{"commit": "0123456789abcdef", "modified": False}}}}
open(out, "w").write(json.dumps(doc))
sys.exit(1 if "--fail" in args else 0)
"""


@pytest.fixture
def python(tmp_path):
    path = tmp_path / "python"
    path.write_text(STAND_IN)
    path.chmod(0o755)
    return str(path)


def regenerate_release(python, out, *executions, extra=()):
    argv = ["-e", "torch213", "--python", python, "--out", str(out), "--no-report", "--cells-only"]
    argv += [a for e in executions for a in ("--execution", e)]
    return regenerate.main([*argv, "--", *extra])


def test_the_releases_are_toxs_full_label():
    assert regenerate.full_label(regenerate.ROOT / "tox.ini")[0] == "torch1131"
    assert "torch213" in regenerate.full_label(regenerate.ROOT / "tox.ini")


def test_one_file_per_execution_and_a_second_run_replaces_the_release(tmp_path, python, monkeypatch):
    monkeypatch.setenv("COPYSUITE_RUN", "first")
    out = tmp_path / "matrix"
    assert regenerate_release(python, out, "eager", "export") == 0
    release = out / "torch213"
    assert sorted(p.name for p in release.iterdir()) == ["eager.json.gz", "export.json.gz", source.FILE]
    written = json.loads(gzip.decompress((release / "export.json.gz").read_bytes()))
    assert {c["execution"] for c in written["cells"]} == {"export"}
    side = source.read(release)
    assert side["run"] == "first" and side["machine"] == "stand-in, 2 cores"
    assert [s["name"] for s in side["steps"]] == ["eager", "export"] and side["environment"]["tox_env"] == "torch213"
    monkeypatch.setenv("COPYSUITE_RUN", "second")
    assert regenerate_release(python, out, "eager", extra=["--fail"]) == 0, "failed cells are results"
    assert sorted(p.name for p in release.iterdir()) == ["eager.json.gz", source.FILE], "export is not kept"
    assert source.read(release)["run"] == "second"
    assert [p.name for p in out.iterdir()] == ["torch213"], "no staging folder is left"


def test_the_jobs_of_the_workflow_are_assembled_into_one_folder_per_release(tmp_path, python, monkeypatch):
    monkeypatch.setenv("COPYSUITE_RUN", "ci")
    for execution in ("eager", "compile.eager"):
        assert regenerate_release(python, tmp_path / "jobs" / execution, execution) == 0
    out = tmp_path / "matrix"
    assert regenerate.main(["--collect", *(str(p) for p in (tmp_path / "jobs").iterdir()), "--out", str(out),
                            "--no-report"]) == 0
    release = out / "torch213"
    assert sorted(p.name for p in release.iterdir()) == ["compile.eager.json.gz", "eager.json.gz", source.FILE]
    assert sorted(s["name"] for s in source.read(release)["steps"]) == ["compile.eager", "eager"]
    other = tmp_path / "jobs" / "eager" / "torch213"
    source.write(other, {**source.read(other), "commit": "fedcba9"})
    with pytest.raises(SystemExit, match="different commits"):
        regenerate.main(["--collect", *(str(p) for p in (tmp_path / "jobs").iterdir()), "--out", str(out),
                         "--no-report"])


def test_the_regeneration_imports_no_torch():
    """It drives the releases' interpreters and never needs torch itself (it runs in the project's .venv)."""
    code = "import sys; sys.modules['torch'] = None; from copysuite.report import regenerate; regenerate.options([])"
    assert subprocess.run([sys.executable, "-c", code], cwd=regenerate.ROOT).returncode == 0


def test_the_scheduled_workflow_runs_every_release_under_every_execution(tmp_path):
    """.github/workflows/matrix.yml names its jobs' releases itself: they must stay tox's label `full`, or the
    workflow's page would lack columns without saying so. Its executions are a job's output, which its command reads
    from copysuite.strategies.space.EXECUTIONS: the command, run here as the workflow runs it, must give them all."""
    import yaml
    from copysuite.strategies.space import EXECUTIONS

    workflow = yaml.safe_load((regenerate.ROOT / ".github" / "workflows" / "matrix.yml").read_text())
    axes = workflow["jobs"]["cpu"]["strategy"]["matrix"]
    assert axes["env"] == regenerate.full_label(regenerate.ROOT / "tox.ini")
    assert axes["execution"] == "${{ fromJSON(needs.executions.outputs.names) }}"
    read = next(s for s in workflow["jobs"]["executions"]["steps"] if s.get("id") == "read")
    output = tmp_path / "github_output"
    python = tmp_path / "bin"
    python.mkdir()
    (python / "python3").symlink_to(sys.executable)   # the workflow's python3 is any Python: space.py needs none
    subprocess.run(["bash", "-c", read["run"]], cwd=regenerate.ROOT, check=True,
                   env={**os.environ, "GITHUB_OUTPUT": str(output), "PATH": f"{python}:{os.environ['PATH']}"})
    name, _, value = output.read_text().strip().partition("=")
    assert name == "names" and tuple(json.loads(value)) == EXECUTIONS
