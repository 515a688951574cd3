"""An xdist worker of the suite ends without Python's module teardown.

Once a worker's session is over (its last report sent, pytest unconfigured), tearing down its interpreter (every
module of torch, dynamo and AOTAutograd, and the C++ objects behind them) takes 0.6-1.1 s here, and xdist's
controller waits for it before it writes the outcome and ends the run: a twentieth of the conformance job. At the
worker's unconfigure this runs the exit handlers registered so far (torch's, e.g. inductor's compile-worker pool,
which are quick), then registers one last handler that flushes the standard streams and ends the process with
`os._exit(0)` when the interpreter would begin its teardown, after execnet has closed the channel. The controller
judges a worker by its messages (a worker that dies before "workerfinished" is still a casualty), not by its exit
status. Nothing changes in the controller or outside xdist.
"""
from __future__ import annotations

import atexit
import os
import sys

import pytest


def _exit_now() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a stream execnet already closed
            pass
    os._exit(0)


def arm() -> None:
    """Run the exit handlers registered so far, then end the process as soon as the interpreter starts to exit."""
    atexit._run_exitfuncs()
    atexit.register(_exit_now)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if hasattr(config, "workerinput"):
        arm()
