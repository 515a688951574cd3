"""Run many pytest sessions, each in its own process forked from one warm interpreter, a few at a time.

    python -m tests.faults.driver PLAN.json

The driver imports torch, numpy, Hypothesis, pytest, its plugins and the harness once, then forks one child per
session, which calls pytest.main(): a session starts in about a second instead of the five that importing torch and
pytest take on a busy 2-core machine. The driver runs no torch op (its only thread is the main thread), so the
children may fork safely; a fault is applied inside a child only and dies with it.

PLAN.json: {"workers": 2, "args": [pytest arguments common to every session],
            "runs": [{"key": ..., "args": [this session's arguments], "log": path}]}
The driver prints {key: {"returncode": int, "seconds": wall, "cpu_seconds": user + system}} as JSON on stdout
(key "(driver)": the driver's own CPU time, imports included).
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import resource
import sys
import time
import traceback
from pathlib import Path

import pytest

from tests.faults.plugin import HARNESS_MODULES, ROOT

PRELOAD = ("numpy", "torch", *HARNESS_MODULES, "copysuite.outcome.recorder", "copysuite.plan.cells",
           "copysuite.spec.load", "copysuite.plugin", "tests.faults.catalog", "copysuite.run.executions")


def _preload():
    from importlib.metadata import entry_points

    for module in PRELOAD:
        importlib.import_module(module)
    from copysuite.judge.checks import REGISTRY
    from copysuite.outcome.document import spec_section
    from copysuite.plan import bind
    from copysuite.spec.load import SPEC_DIR, load_specs

    spec_set = load_specs(checks=REGISTRY)   # every session loads them, checks their names, writes their declarations
    for entry in spec_set.entries:
        bind.check_names(entry)
    spec_section(spec_set, SPEC_DIR)
    from copysuite.run.executions import warm_up

    warm_up()  # the sessions that compile would each import dynamo (1.8 s) and set it up: once here
    _draw_once()  # Hypothesis' scan of the loaded modules for constants to draw (0.1 s a session): once here
    for ep in entry_points(group="pytest11"):  # the installed pytest plugins, which each session would import
        try:
            ep.load()
        except Exception:  # noqa: BLE001, S110 - one that cannot load fails the same way in the session, reported there
            pass
    gc.freeze()  # the children would otherwise walk every preloaded object in each of their gc.collect() calls


def _draw_once() -> None:
    """A throwaway Hypothesis test: its first draws make Hypothesis collect the constants of every loaded module that
    is not an installed package (it does so once per process, then only for modules imported since)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=20, database=None, derandomize=True)
    @given(st.integers(), st.floats(), st.text())
    def draws(i, f, t):
        pass

    draws()


def _child(run, common) -> int:
    fd = os.open(run["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.chdir(ROOT)
    return int(pytest.main([*common, *run["args"]]))


def drive(plan_path) -> dict:
    plan = json.loads(Path(plan_path).read_text())
    _preload()
    pending, running, done = list(plan["runs"]), {}, {}
    while pending or running:
        while pending and len(running) < plan.get("workers", 2):
            run = pending.pop(0)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                code = 3
                try:
                    code = _child(run, plan["args"])
                except BaseException:  # noqa: BLE001 - reported in the session's log, exit status 3
                    traceback.print_exc()
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(code)
            running[pid] = (run, time.monotonic())
        pid, status, usage = os.wait4(-1, 0)
        run, start = running.pop(pid)
        done[run["key"]] = {"returncode": os.waitstatus_to_exitcode(status), "seconds": time.monotonic() - start,
                            "cpu_seconds": usage.ru_utime + usage.ru_stime}
    own = resource.getrusage(resource.RUSAGE_SELF)
    done["(driver)"] = {"returncode": 0, "seconds": 0.0, "cpu_seconds": own.ru_utime + own.ru_stime}
    return done


if __name__ == "__main__":
    print(json.dumps(drive(sys.argv[1])))
