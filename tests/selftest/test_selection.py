"""Selecting cells with --spec-entry / --invariant / --device: exact, and a selection that names nothing is a usage
error (pytest exit 4) with the reason, never a crash or an empty run."""
import subprocess
import sys
from pathlib import Path

import pytest

from copysuite.checks import REGISTRY
from copysuite.plan import SelectionError, plan_cells
from copysuite.specs import load_specs

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
