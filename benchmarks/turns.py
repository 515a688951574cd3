"""Timing turns for the benchmark processes of benchmarks.run: they start together, so their imports overlap,
but each times only in its own turn, while the others sleep.

A process's turn comes when every process is ready (has collected its benchmarks: no import or collection of ours
runs on the other core while anything is timed) and the one before it has finished its tests. The turn is one
environment variable, COPYSUITE_BENCH_TURN=DIR:K:N (process K of N, files in DIR), set by benchmarks.run;
benchmarks/conftest.py waits in pytest_runtestloop and passes the turn on in pytest_unconfigure. Without it (a
plain `pytest benchmarks` run) nothing waits.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

ENV = "COPYSUITE_BENCH_TURN"
POLL_S = 0.002
TIMEOUT_S = 1800.0


@dataclass(frozen=True)
class Turn:
    folder: Path
    index: int   # 0-based
    count: int

    def encode(self) -> str:
        return f"{self.folder}:{self.index}:{self.count}"

    @classmethod
    def from_env(cls) -> "Turn | None":
        value = os.environ.get(ENV)
        if not value:
            return None
        folder, index, count = value.rsplit(":", 2)
        return cls(Path(folder), int(index), int(count))

    def _mark(self, what: str, index: int) -> Path:
        return self.folder / f"{what}{index}"

    def wait(self, timeout: float = TIMEOUT_S) -> float:
        """Say this process is ready, then sleep until every process is and the previous one is done; the wait."""
        self._mark("ready", self.index).touch()
        wanted = [self._mark("ready", k) for k in range(self.count)]
        if self.index:
            wanted.append(self._mark("done", self.index - 1))
        start = time.perf_counter()
        while not all(p.exists() for p in wanted):
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"benchmark process {self.index + 1}/{self.count} waited {timeout:.0f} s for its "
                                   f"turn: missing {[p.name for p in wanted if not p.exists()]} in {self.folder}")
            time.sleep(POLL_S)
        return time.perf_counter() - start

    def done(self) -> None:
        self._mark("done", self.index).touch()
