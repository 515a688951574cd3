"""Selecting cells with --spec-entry / --invariant / --device: exact, and a selection that names nothing is a usage
error (pytest exit 4) with the reason, never a crash or an empty run."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from copysuite.checks import REGISTRY
from copysuite.plan import SelectionError, plan_cells
from copysuite.specs import load_specs
from strategies.devices import device_skip_reason

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = load_specs(checks=REGISTRY).entries


def test_an_exact_selection_plans_exactly_its_cells():
    cells = plan_cells(ENTRIES, REGISTRY, entry_ids=["clone:dense"], check_names=["strides"], devices=["cpu"])
    assert [str(c.id) for c in cells] == ["clone:dense-strides-cpu"]
    keyed = plan_cells(ENTRIES, REGISTRY, check_names=["shares_storage[b]"], devices=["cpu"])
    assert [str(c.id) for c in keyed] == ["detach.write_through_alias-shares_storage[b]-cpu"]


@pytest.mark.parametrize("selection, message", [
    (dict(check_names=["shares_storag"]), "no check 'shares_storag'"),
    (dict(devices=["tpu"]), "no device 'tpu'"),
    (dict(entry_ids=["clonez"]), "no spec entry 'clonez'"),
    (dict(entry_ids=["cpu:from_device"], devices=["meta"]), "the selection matches no cell"),
])
def test_a_selection_that_names_nothing_is_refused(selection, message):
    with pytest.raises(SelectionError, match=message):
        plan_cells(ENTRIES, REGISTRY, **selection)


def test_the_refusal_is_a_usage_error_in_a_pytest_session():
    proc = subprocess.run([sys.executable, "-m", "pytest", "tests/test_conformance.py", "--co", "-q", "-p",
                           "no:xdist", "--invariant", "shares_storag"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 4 and "no check 'shares_storag'" in proc.stderr, proc.stdout + proc.stderr


def test_cells_that_cannot_run_here_are_listed_not_collected(tmp_path):
    """Without CUDA and MPS, their cells are not pytest items; the outcome JSON lists them as skipped with the reason,
    together with the cells of the same (entry, check) that ran, and the summary counts them."""
    out = tmp_path / "outcome.json"
    proc = subprocess.run([sys.executable, "-m", "copysuite", "run", "-q", "-p", "no:xdist", "--spec-entry", "clone",
                           "--invariant", "shares_storage", "--outcome-json", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cells = {c["id"]: c for c in json.loads(out.read_text())["cells"]}
    assert set(cells) == {f"clone-shares_storage-{d}" for d in ("cpu", "meta", "cuda", "mps")}
    for device, name in (("cuda", "CUDA"), ("mps", "MPS")):
        if device_skip_reason(device):
            assert cells[f"clone-shares_storage-{device}"]["skip_reason"] == f"no {name} device"
            assert f"not collected: 1 cells: no {name} device" in proc.stdout
    ran = 4 - sum(bool(device_skip_reason(d)) for d in ("cuda", "mps"))
    assert f"{ran} passed in" in proc.stdout and "skipped" not in proc.stdout.splitlines()[-1], proc.stdout
