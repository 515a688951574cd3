"""pytest-timeout's thread method, with one timer thread per process instead of one per test.

pytest-timeout's thread method (pytest.ini: a hang anywhere, even inside C code, ends its process after dumping every
thread's stack; under xdist the worker is replaced and the test is a named casualty) starts a `threading.Timer` for
every test and joins it afterwards. A conformance run has thousands of tests, most of them lookups into their group's
run (copysuite.judge.explore), and each start and join waits for the scheduler: on the busy 2-core machine that was a
third of a run's wall time (docs/notes.md). This plugin implements pytest-timeout's own `pytest_timeout_set_timer` and
`pytest_timeout_cancel_timer` hooks for the thread method: one daemon thread per process waits for the deadline of the
test running now and, when it passes, calls pytest-timeout's `timeout_timer`, which dumps the stacks and exits as
before. The limit, the markers and the signal method are pytest-timeout's, untouched.

`restart(item)` starts the running test's limit again, with either method: a conformance test that runs its
group's cases (copysuite.plugin.conformance) restarts it before each case, so the limit bounds one case, as it
bounds one test, and a group of many slow compiles on a busy machine is not taken for a hang.
"""
from __future__ import annotations

import threading
import time

import pytest


class Watchdog:
    """The deadline of the test running in this process (one at a time), and the thread that enforces it. The thread
    is woken only when a deadline comes earlier than the one it waits for: with one limit for every test it wakes
    once per limit, not once per test."""

    def __init__(self, expire):
        self._expire = expire              # called with (item, settings) on the watchdog thread when a test overruns
        self._armed = None                 # (deadline, item, settings) of the test running now, or None
        self._until = None                 # the deadline the thread waits for (None: it waits to be woken)
        self._wake = threading.Condition()
        self._thread = None

    def arm(self, item, settings) -> None:
        deadline = time.monotonic() + settings.timeout
        with self._wake:
            self._armed = (deadline, item, settings)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="pytest-timeout watchdog", daemon=True)
                self._thread.start()
            elif self._until is None or deadline < self._until:
                self._wake.notify()

    def disarm(self) -> None:
        with self._wake:
            self._armed = None   # the thread finds out when its wait ends; nobody waits for it

    def _watch(self) -> None:
        with self._wake:
            while True:
                if self._armed is None:
                    self._until = None
                    self._wake.wait()
                    continue
                deadline, item, settings = self._armed
                if time.monotonic() < deadline:
                    self._until = deadline
                    self._wake.wait(deadline - time.monotonic())
                    continue
                self._armed = None
                self._expire(item, settings)   # pytest-timeout's: dumps the stacks, then os._exit(1) (it returns
                                               # only when a debugger is attached, and then the test runs on)


_WATCHDOG = None


SETTINGS = "copysuite_timeout"   # the item's attribute: the pytest-timeout settings its timer was set with


def restart(item) -> None:
    """Start the limit of the running test `item` again (nothing when it has none)."""
    settings = getattr(item, SETTINGS, None)
    if settings is not None:
        item.ihook.pytest_timeout_cancel_timer(item=item)
        item.ihook.pytest_timeout_set_timer(item=item, settings=settings)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item, settings):
    setattr(item, SETTINGS, settings)
    if settings.method != "thread":
        return None   # pytest-timeout's own (the signal method)
    global _WATCHDOG
    if _WATCHDOG is None:
        from pytest_timeout import timeout_timer
        _WATCHDOG = Watchdog(timeout_timer)
    _WATCHDOG.arm(item, settings)
    item.cancel_timeout = _WATCHDOG.disarm   # what pytest-timeout's own cancel hook calls
    return True
