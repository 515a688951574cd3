"""Test-only pytest plugin: make chosen torch methods misbehave the way a broken build would, to prove the run survives.

    COPYSUITE_CHAOS="raise:tolist,hang:item,crash:numpy" pytest -p tests.selftest.chaos_plugin ...

raise: the method raises an unexpected RuntimeError. hang: it sleeps for an hour (pytest-timeout must end it).
crash: it kills the interpreter with SIGSEGV. The patch is applied in pytest_configure, after the harness has
captured the torch functions it uses itself, so only the operation under test misbehaves.
"""
import os
import signal
import time

import pytest
import torch

HANG_TIMEOUT = 1  # seconds: pytest-timeout's limit for the tests of a hanging op (the others keep the default)


def _raise(name):
    def method(self, *args, **kwargs):
        raise RuntimeError(f"injected failure in Tensor.{name}")
    return method


def _hang(name):
    def method(self, *args, **kwargs):
        time.sleep(3600)
    return method


def _crash(name):
    def method(self, *args, **kwargs):
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file
        os.kill(os.getpid(), signal.SIGSEGV)
    return method


BEHAVIOURS = {"raise": _raise, "hang": _hang, "crash": _crash}


def _plan():
    return [item.split(":") for item in filter(None, os.environ.get("COPYSUITE_CHAOS", "").split(","))]


def pytest_configure(config):
    for how, name in _plan():
        setattr(torch.Tensor, name, BEHAVIOURS[how](name))


def pytest_collection_modifyitems(items):
    hanging = [name for how, name in _plan() if how == "hang"]
    for item in items:
        cell = getattr(getattr(item, "callspec", None), "params", {}).get("cell")
        if cell is not None and cell.entry.id in hanging:
            item.add_marker(pytest.mark.timeout(HANG_TIMEOUT))
