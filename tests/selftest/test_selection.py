"""Selecting cells with --spec-entry / --invariant / --device: exact, and a selection that names nothing is a usage
error (pytest exit 4) with the reason, never a crash or an empty run."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def collect(*args):
    return subprocess.run([sys.executable, "-m", "pytest", "tests/test_conformance.py", "--co", "-q", "-p", "no:xdist",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_an_exact_selection_collects_exactly_its_cells():
    proc = collect("--spec-entry", "clone:dense", "--invariant", "strides", "--device", "cpu")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[0] == "tests/test_conformance.py::test_invariant[clone:dense-strides-cpu]"
    assert "1 test collected" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["--invariant", "shares_storag"], "no check 'shares_storag'"),
    (["--device", "tpu"], "no device 'tpu'"),
    (["--spec-entry", "clonez"], "no spec entry 'clonez'"),
    (["--spec-entry", "cpu:from_device", "--device", "meta"], "the selection matches no cell"),
])
def test_a_selection_that_names_nothing_is_a_usage_error(args, message):
    proc = collect(*args)
    assert proc.returncode == 4 and message in proc.stderr, proc.stdout + proc.stderr
