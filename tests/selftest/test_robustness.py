"""An op that raises, hangs or kills the interpreter must not cost the results of the others.

One conformance run in a subprocess under pytest-xdist with three sabotaged torch methods (tests/selftest/
chaos_plugin.py): the outcome JSON must list every test of the selection, the untouched ops holding (as they do in
the conformance run), and the hanging and crashing tests as named casualties. Opt-in (COPYSUITE_RUNS=1, a step of
.ci/run), which keeps the test command near a minute.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from copysuite.plugin import CELLS

pytestmark = [
    pytest.mark.timeout(900),  # two whole pytest runs in subprocesses, on a possibly busy machine
    pytest.mark.skipif(os.environ.get("COPYSUITE_RUNS") != "1",
                       reason="opt-in (COPYSUITE_RUNS=1, a step of .ci/run): two whole pytest runs in subprocesses"),
]

ROOT = Path(__file__).resolve().parents[2]
CHAOS = {"new_tensor": "raise", "tolist": "hang", "numpy": "crash"}
SURVIVORS = ("detach", "data")


def node_ids(entry, limit=None):
    ids = [f"tests/test_conformance.py::test_check[{c.id}]" for c in CELLS if c.entry.id == entry
           and c.device == "cpu"]
    return ids[:limit]


def run(tmp_path, name, chaos, ids, workers):
    """A pytest run of `ids` with `chaos` (none: ""), in a process of its own; under xdist when `workers`."""
    out = tmp_path / f"{name}.json"
    env = {**os.environ, "HYPOTHESIS_PROFILE": "dev", "COPYSUITE_CHAOS": chaos}
    # --execution eager: every selected cell is eager, and without compiled cells in the plan no process of the run
    # (the controller and each worker, started anew after every casualty) imports dynamo
    # --spec-entry: each of its processes plans and collects only these entries' cells, not the whole suite's
    entries = [f"--spec-entry={e}" for e in (*SURVIVORS, *CHAOS)]
    # --assert=plain: conformance cells only (no assert statements), in up to four processes that would each
    # rewrite the plugin packages' modules (copysuite.plugin.command)
    xdist = ["-n", str(workers)] if workers else ["-p", "no:xdist"]
    cmd = [sys.executable, "-m", "pytest", "-q", "--assert=plain", *xdist,
           "-p", "tests.selftest.chaos_plugin", "--execution", "eager", *entries, "--outcome-json", str(out), *ids]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.exists(), f"no outcome JSON from {' '.join(cmd)}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc, json.loads(out.read_text())


def ran(doc, entry):
    """The selected (CPU) cells of `entry`; the outcome also lists their CUDA and MPS siblings, as not run here."""
    return [r for r in doc["cells"] if r["entry"] == entry and r["device"] == "cpu"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(the sabotaged run, the cell ids it selected). One test of each sabotaged op: each hang or crash costs a worker
    and its replacement's start-up; one xdist worker is enough to show that the run survives them."""
    tmp = tmp_path_factory.mktemp("chaos")
    ids = [i for op in SURVIVORS for i in node_ids(op, limit=8)] + [i for op in CHAOS for i in node_ids(op, limit=1)]
    chaos = ",".join(f"{how}:{op}" for op, how in CHAOS.items())
    return run(tmp, "sabotaged", chaos, ids, workers=1), {i.split("[", 1)[1][:-1] for i in ids}


def test_sabotaged_run_fails_but_keeps_every_result(runs):
    (proc, doc), selected = runs
    assert proc.returncode == 1, f"expected pytest to report failures, exit {proc.returncode}\n{proc.stdout[-3000:]}"
    listed = {r["id"] for op in (*SURVIVORS, *CHAOS) for r in ran(doc, op)}
    assert listed == selected, f"the outcome JSON lost or gained tests: {sorted(listed ^ selected)}"


def test_untouched_ops_hold(runs):
    """The ops nobody sabotaged hold as they do without sabotage (the conformance run shows that they hold)."""
    (_, doc), _ = runs
    rows = [r for op in SURVIVORS for r in ran(doc, op)]
    assert rows and all(r["outcome"] == "passed" for r in rows), [r for r in rows if r["outcome"] != "passed"]


def test_unexpected_exception_is_an_ordinary_failure_naming_it(runs):
    (_, doc), _ = runs
    rows = ran(doc, "new_tensor")
    assert rows and all(r["outcome"] == "failed" and r["failure"]["observed"][0] == "RuntimeError"
                        and "injected failure in Tensor.new_tensor" in r["failure"]["observed"][1] for r in rows), rows


@pytest.mark.parametrize("op", ["tolist", "numpy"])
def test_hang_and_crash_are_named_casualties(runs, op):
    (_, doc), _ = runs
    rows = ran(doc, op)
    assert rows and all(r["outcome"] == "failed" and r["failure"]["kind"] == "crashed" for r in rows), rows
    assert {r["id"] for r in rows} <= {c["cell"] for c in doc["casualties"]}, doc["casualties"]
