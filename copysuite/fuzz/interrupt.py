"""Stopping a fuzz run from outside, or at its time bound, so that it still writes its report.

SIGINT or SIGTERM (a user's Ctrl-C, a CI runner cancelling a job or hitting its timeout) asks the run to stop: the
search and the reduction look at `Stopper.reason` between two programs and stop there. A program that has not
ended FORCE_SECONDS later is cut: SIGALRM then raises `Interrupted` wherever the main thread is (in a compile, in a
call), as it does at once at a run's hard time bound. Interrupted derives from BaseException so that neither the
program under test (`except Exception` around a call) nor Hypothesis (which replays a test that raised an Exception)
takes it for a result; a raise that lands where Python swallows it (a garbage-collector callback) still leaves the
reason for the next look. Later signals are only noted: a CI runner sends SIGINT, then SIGTERM seconds later, and
the second must not cut the report being written.
"""
import contextlib
import signal
import time

SIGNALS = (signal.SIGINT, signal.SIGTERM)
GRACE, MAX_GRACE = 0.1, 30.0   # of a run's time, what a program begun before the soft deadline may still take
END = 1.0   # seconds left after the hard bound to put the report together and write it
FORCE_SECONDS = 2.0   # after a signal, how long a program may still take before it is cut


class Interrupted(BaseException):
    """The run was stopped: by a signal (its name) or by its time bound."""


class Stopper:
    """What stopped the run, if anything (`reason`), once `handling` has been entered."""

    def __init__(self):
        self.reason: str | None = None

    def check(self) -> None:
        """Raise Interrupted if the run was asked to stop: where the search and the reduction may stop cleanly."""
        if self.reason is not None:
            raise Interrupted(self.reason)

    def arm(self, hard_deadline: float | None) -> None:
        """Cut the run at `hard_deadline` (time.monotonic()), if any."""
        if hard_deadline is not None and self.reason is None:
            signal.setitimer(signal.ITIMER_REAL, max(0.01, hard_deadline - time.monotonic()))

    def disarm(self) -> None:
        """No program runs any more: nothing is cut from here on (the report is being put together)."""
        signal.setitimer(signal.ITIMER_REAL, 0)
        for s in SIGNALS:
            signal.signal(s, self._noted)

    def _noted(self, signum, _frame):
        self.reason = self.reason or signal.Signals(signum).name

    def _signal(self, signum, _frame):
        if self.reason is None:
            self.reason = signal.Signals(signum).name
            signal.setitimer(signal.ITIMER_REAL, FORCE_SECONDS)

    def _alarm(self, _signum, _frame):
        self.reason = self.reason or "time bound"
        raise Interrupted(self.reason)

    @contextlib.contextmanager
    def handling(self, hard_deadline: float | None = None):
        """Within: the signals ask the run to stop, and at `hard_deadline` (time.monotonic()) it is cut."""
        previous = {s: signal.signal(s, self._signal) for s in SIGNALS}
        previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, self._alarm)
        self.arm(hard_deadline)
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            for s, handler in previous.items():
                signal.signal(s, handler)


def ignore() -> None:
    """From now on the signals and the time bound are ignored: the report is being written."""
    signal.setitimer(signal.ITIMER_REAL, 0)
    for s in (*SIGNALS, signal.SIGALRM):
        signal.signal(s, signal.SIG_IGN)


def bounds(start: float, minutes: float | None) -> tuple:
    """(soft, hard) deadlines (time.monotonic()) of a run of `minutes` begun at `start`, or (None, None): the search
    and the reduction start nothing after the soft one; a program still running at the hard one is interrupted, and
    the report written after it. GRACE of the time (at most MAX_GRACE seconds) lies between them."""
    if minutes is None:
        return None, None
    total = 60 * minutes
    grace = min(MAX_GRACE, GRACE * total)
    return start + total - grace, start + total - min(END, grace / 2)
