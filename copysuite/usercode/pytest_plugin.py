"""The `copysuite_compare` pytest fixture: `def test_model(copysuite_compare): copysuite_compare(model, x)` compares
the call eagerly and under the executions (copysuite.compare) and fails the test, with the reproductions, where a
difference is new. Installed, pytest loads it through the `pytest11` entry point; in a checkout, name it with
`-p copysuite.usercode.pytest_plugin` or import the fixture into a conftest. It imports torch only when used."""
from __future__ import annotations

import pytest


@pytest.fixture
def copysuite_compare():
    """compare(fn, *args, executions=..., **kwargs), checked: returns the Comparison, or fails the test on a new
    difference (each with its verdict, and a standalone reproduction per execution)."""
    from copysuite.usercode.api import compare

    def checked(fn, *args, **kwargs):
        return compare(fn, *args, **kwargs).check()
    return checked
