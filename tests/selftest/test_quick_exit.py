"""copysuite/speed/quick_exit.py: an xdist worker runs its exit handlers at unconfigure and then ends without the
interpreter's teardown; the controller and a run without xdist are left alone. (That a worker which dies early is
still a named casualty is tests/selftest/test_robustness.py's run under xdist.)"""
from types import SimpleNamespace
from unittest import mock

from copysuite.speed import quick_exit


def test_a_worker_runs_its_exit_handlers_then_ends_at_once_and_nothing_else_does(monkeypatch):
    calls = []
    monkeypatch.setattr(quick_exit.atexit, "_run_exitfuncs", lambda: calls.append("handlers"))
    monkeypatch.setattr(quick_exit.atexit, "register", calls.append)
    quick_exit.pytest_unconfigure(SimpleNamespace())                   # the controller, or no xdist
    assert calls == []
    quick_exit.pytest_unconfigure(SimpleNamespace(workerinput={}))     # an xdist worker
    assert calls == ["handlers", quick_exit._exit_now]
    with mock.patch.object(quick_exit.os, "_exit") as exit_now:
        quick_exit._exit_now()
    exit_now.assert_called_once_with(0)
