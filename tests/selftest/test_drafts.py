"""The drafts of docs/upstream-reports/ and `python -m copysuite drafts`: every draft ends with the one verdict ending
(read from its source, nothing run), and the runner classifies small fake drafts of each verdict, and of each way a
draft can fail to give one, correctly. No torch is imported: the fake drafts are plain Python."""
from __future__ import annotations

import ast
import json
import re
import sys

import pytest

from copysuite.known import drafts

DRAFTS = sorted(drafts.DRAFTS_DIR.glob("*.py"))
# the three lines every draft ends with (docs/upstream-reports/README.md): a draft runs alone with only torch
# installed, so the ending is repeated in each file rather than imported
ENDING = [
    'verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"',
    'print(f"VERDICT: {verdict}")',
    'sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])',
]


def test_there_are_drafts():
    assert len(DRAFTS) > 40, f"the drafts were not found in {drafts.DRAFTS_DIR}"


@pytest.mark.parametrize("path", DRAFTS, ids=lambda p: p.stem)
def test_draft_ends_with_the_verdict(path):
    source = path.read_text()
    lines = [line for line in source.splitlines() if line.strip()]
    assert lines[-3:] == ENDING, f"{path.name} does not end with the verdict ending of docs/upstream-reports/README.md"
    tree = ast.parse(source)
    assigned = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    assert "reproduces" in assigned, f"{path.name} never sets `reproduces`"
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "sys" in imported
    assert "copysuite" not in imported, f"{path.name} imports copysuite: a draft must run with only torch installed"
    docstring = ast.get_docstring(tree) or ""
    assert re.search(r"\b2\.\d+", docstring), f"{path.name}'s docstring names no torch release it was seen on"


FAKES = {
    "reproduces": ("reproduces = True", "REPRODUCES", 1),
    "fixed": ("reproduces = False", "FIXED", 0),
    "needs_cuda": ("reproduces = None", "NEEDS CUDA", 3),
}


def fake(tmp_path, name, body, ending=True):
    path = tmp_path / f"{name}.py"
    path.write_text("import sys\nprint('what each side did')\n" + body + "\n" + ("\n".join(ENDING) if ending else ""))
    return path


@pytest.mark.parametrize("name", sorted(FAKES))
def test_runner_classifies_each_verdict(tmp_path, name):
    body, verdict, code = FAKES[name]
    record = drafts.run_one(fake(tmp_path, name, body), timeout=30)
    assert (record["verdict"], record["exit_code"], record["why"]) == (verdict, code, "")
    assert record["tail"][-1] == f"VERDICT: {verdict}"


@pytest.mark.parametrize("body, why", [
    ("reproduces = True", "no verdict as the last line (exit status 0)"),               # no ending at all
    ("raise RuntimeError('crash')", "no verdict as the last line (exit status 1)"),     # a crash before the ending
    ("import os\nos.kill(os.getpid(), 9)", "no verdict as the last line (killed by signal 9)"),
])
def test_a_draft_without_a_verdict_is_an_error(tmp_path, body, why):
    record = drafts.run_one(fake(tmp_path, "broken", body, ending=False), timeout=30)
    assert (record["verdict"], record["why"]) == (drafts.ERROR, why)
    assert record["verdict"] not in drafts.VERDICTS


def test_a_verdict_with_the_wrong_exit_status_is_an_error(tmp_path):
    path = fake(tmp_path, "lying", "print('VERDICT: FIXED')\nsys.exit(1)", ending=False)
    record = drafts.run_one(path, timeout=30)
    assert record["verdict"] == drafts.ERROR and "exit status 1" in record["why"]


def test_a_draft_that_hangs_is_an_error(tmp_path):
    record = drafts.run_one(fake(tmp_path, "hangs", "import time\ntime.sleep(30)"), timeout=0.5)
    assert (record["verdict"], record["why"]) == (drafts.ERROR, "timed out")


def test_classify_reads_only_the_last_line():
    assert drafts.classify(1, "VERDICT: REPRODUCES\nlater output\n") == (drafts.ERROR, drafts.classify(1, "x")[1])
    assert drafts.classify(0, "VERDICT: FIXED\n\n") == ("FIXED", "")
    assert drafts.classify(0, "VERDICT: HELD\n")[0] == drafts.ERROR


def test_caches_stay_off_unless_the_draft_asks(tmp_path):
    off = fake(tmp_path, "off", "reproduces = False")
    on = fake(tmp_path, "on", 'COMPILE_CACHES = "on"\nreproduces = False')
    assert drafts.environment(off, str(tmp_path))["TORCHINDUCTOR_FX_GRAPH_CACHE"] == "0"
    env = drafts.environment(on, str(tmp_path))
    assert env.get("TORCHINDUCTOR_FX_GRAPH_CACHE") != "0" and env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path)


def test_command_table_json_and_exit_status(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(drafts, "torch_version", lambda python: "fake")   # the subprocess would import torch
    for name, (body, _, _) in FAKES.items():
        fake(tmp_path, name, body)
    out = tmp_path / "out" / "drafts.json"
    assert drafts.main(["--dir", str(tmp_path), "--json", str(out)]) == 0    # a reproduction is no failure
    data = json.loads(out.read_text())
    assert data["torch"] == "fake" and data["python"] == ".".join(map(str, sys.version_info[:3]))
    assert data["counts"] == {"REPRODUCES": 1, "FIXED": 1, "NEEDS CUDA": 1, "ERROR": 0}
    assert {d["name"] for d in data["drafts"]} == set(FAKES)
    assert {"name", "verdict", "exit_code", "seconds", "tail"} <= set(data["drafts"][0])
    fake(tmp_path, "silent", "pass", ending=False)
    assert drafts.main(["--dir", str(tmp_path), "silent", "fixed"]) == 1
    assert "silent  ERROR" in capsys.readouterr().out
    assert drafts.main(["--dir", str(tmp_path), "nonexistent"]) == 2


def run_record(torch, verdicts):
    records = [{"name": n, "verdict": v, "exit_code": drafts.VERDICTS.get(v), "seconds": s, "why": "", "tail": []}
               for n, (v, s) in verdicts.items()]
    return {"torch": torch, "counts": drafts.counts(records), "drafts": records}


def test_markdown_table_from_runs(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(run_record("2.13.0+cpu", {"a": ("REPRODUCES", 1.0), "b": ("FIXED", 1.0)})))
    new.write_text(json.dumps(run_record("2.14.1+cu130", {"a": ("FIXED", 1.0)})))
    table = drafts.markdown([new, old]).splitlines()
    assert table[0] == "| draft | 2.13.0+cpu | 2.14.1+cu130 |"            # releases in order, not argument order
    assert "| `a` | REPRODUCES | FIXED |" in table and "| `b` | FIXED | not run |" in table
    assert "| **reproduces** | 1 | 0 |" in table


def test_quick_subset_leaves_out_the_slow_drafts(tmp_path):
    timings = tmp_path / "run.json"
    timings.write_text(json.dumps(run_record("2.13.0", {"fast": ("FIXED", 3.0), "slow": ("FIXED", 40.0)})))
    paths = [tmp_path / f"{name}.py" for name in ("fast", "slow", "new")]
    kept, left_out = drafts.quick(paths, str(timings), 15)
    assert [p.stem for p in kept] == ["fast", "new"] and left_out == ["slow"]     # a draft not yet timed runs


def test_the_readme_table_is_the_committed_runs():
    """docs/upstream-reports/README.md shows the table `--markdown` makes of results/drafts/*.json, as it stands."""
    runs = sorted((drafts.DRAFTS_DIR.parents[1] / "results" / "drafts").glob("torch-*.json"))
    assert runs, "no committed run of the drafts in results/drafts/"
    assert drafts.markdown(runs) in (drafts.DRAFTS_DIR / "README.md").read_text(), (
        "regenerate the table: python -m copysuite drafts --markdown results/drafts/torch-*.json")
    names = {p.stem for p in DRAFTS}
    for run in runs:
        ran = {d["name"] for d in json.loads(run.read_text())["drafts"]}
        assert ran == names, f"{run.name} is not a run of today's drafts: rerun it ({sorted(ran ^ names)})"
