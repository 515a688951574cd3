"""The speed plumbing of a conformance run, as one pytest plugin apart from what the run checks: xdist workers reuse
the spec validation their controller did, keep an entry's cells together (copysuite.speed.scheduling), skip the
interpreter's teardown (copysuite.speed.quick_exit), share one timeout thread per process
(copysuite.speed.watchdog), and move the long-lived objects out of the garbage collector's sight. Turned off with
`-p no:copysuite.speed.hooks`: the run is then slower, never different."""
from __future__ import annotations

import gc

import pytest

from copysuite.spec import load as specs
from copysuite.speed.scheduling import EntryScheduling
from copysuite.speed.quick_exit import pytest_unconfigure  # noqa: F401 - a hook: xdist workers skip the interpreter teardown
from copysuite.speed.watchdog import pytest_timeout_set_timer  # noqa: F401 - a hook: one timer thread per process

VALIDATED_SPECS = "copysuite_validated_specs"   # workerinput: the digests of the spec texts the controller validated


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Before the specs are loaded: the texts the controller validated are not validated again in this worker."""
    specs.VALID.update(getattr(config, "workerinput", {}).get(VALIDATED_SPECS, ()))


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    # torch, dynamo and the plan are millions of long-lived objects that every full collection would walk again
    # (pytest and Hypothesis also call gc.collect() themselves): moved out of the collector's sight, they cost a
    # process about 10% less CPU.
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist's controller, for each worker: the spec texts it validated, so that the worker does not validate them
    again (0.4-0.5 s of jsonschema per worker, before its first test); a file changed since is validated."""
    node.workerinput[VALIDATED_SPECS] = sorted(specs.VALID)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under -n, xdist's "load" scheduling that keeps an entry's cells on one worker (copysuite.speed.scheduling);
    a --dist given on the command line wins."""
    chosen = any(a.startswith(("--dist", "-d")) for a in config.invocation_params.args)
    if config.getoption("dist") != "load" or chosen:
        return None
    return EntryScheduling(config, log)
