"""A time limit on one case of a sweep (SIGALRM, main thread only): an inductor compile that runs for many minutes on
a loaded machine costs that case alone, reported as timed out, and the sweep goes on."""
from __future__ import annotations

import signal


class TimedOut(Exception):
    pass


class Deadline:
    """`with Deadline(seconds):` raises TimedOut in the block after `seconds` (0: no limit)."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        if self.seconds:
            self.previous = signal.signal(signal.SIGALRM, self._expired)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc):
        if self.seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False

    def _expired(self, signum, frame):
        raise TimedOut(f"past {self.seconds:.0f} s")
