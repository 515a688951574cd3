"""One fuzz run in N processes (`python -m copysuite fuzz -n N`): N workers search at once, share the reduction and
write one report.

Worker i draws from its own seed, derived from the run's seed and i (`worker_seed`; worker 0 draws from the run's
seed itself, so that `-n 1` and worker 0 of `-n N` draw the same programs), and runs `programs // N` of a
repeatable run's programs or searches until the run's time bound. The first worker to meet a verdict key claims it
(a file created exclusively in the run's folder) and alone reduces it: no key is reduced twice. Each worker writes
its report to that folder; the parent puts them together (copysuite.fuzz.merge.combine) with each worker's seed,
programs and rate. A signal to the parent (SIGINT, SIGTERM) is passed to the workers, which stop and write what
they have; a worker that wrote nothing is named in the report.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
from multiprocessing import connection
import os
import platform
import shutil
import signal
import sys
import tempfile
import time
from importlib import metadata

from copysuite.fuzz import interrupt, merge

SEED_DERIVATION = ("worker 0 draws from the run's seed; worker i > 0 from int.from_bytes(sha256(b'copysuite fuzz "
                   "SEED I').digest()[:8], 'big'), SEED the run's seed and I the worker's index")
STOP_SECONDS = 20.0   # after a signal, how long the workers have to write their reports before they are killed


def worker_seed(seed: int, index: int) -> int:
    if index == 0:
        return seed
    return int.from_bytes(hashlib.sha256(f"copysuite fuzz {seed} {index}".encode()).digest()[:8], "big")


def share(programs: int | None, workers: int, index: int) -> int | None:
    """Worker `index`'s part of a repeatable run's `programs`."""
    if programs is None:
        return None
    return programs // workers + (index < programs % workers)


class Claims:
    """Verdict keys claimed by the workers of one run: a file per key, created exclusively (atomic on POSIX)."""

    def __init__(self, folder: str):
        self.folder = folder

    def __call__(self, key: tuple) -> bool:
        name = hashlib.sha256(json.dumps(list(key)).encode()).hexdigest()[:32]
        try:
            os.close(os.open(os.path.join(self.folder, f"claim-{name}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True


def worker(index: int, options: dict, folder: str) -> None:
    """One worker (a spawned process): its search, then its report into `folder`."""
    stopper = interrupt.Stopper()
    own = worker_seed(options["seed"], index)

    def progress(line: str) -> None:
        print(f"[worker {index}] {line}", file=sys.stderr, flush=True)

    with stopper.handling(options["hard"]):
        try:
            from copysuite.fuzz import search   # torch, which a signal may stop importing
            report = search.search(options["execution"], seed=own, programs=share(options["programs"],
                                   options["workers"], index), caches=options["caches"],
                                   shrink_attempts=options["shrink_attempts"], progress=progress,
                                   deadline=options["soft"], claim=Claims(folder), stopper=stopper,
                                   vocabulary=options["vocabulary"])
        except interrupt.Interrupted:   # before the search began: nothing to report, the parent says so
            return
        interrupt.ignore()
        path = os.path.join(folder, f"worker-{index}.json")
        with open(path + ".part", "w") as f:
            json.dump(report, f)
        os.replace(path + ".part", path)


def run(execution: str, *, workers: int, seed: int = 0, programs: int | None = None, minutes: float | None = None,
        caches: str = "off", shrink_attempts: int, progress=None, started: float | None = None,
        vocabulary: str = "default") -> dict:
    """The run in `workers` processes, its time bound `minutes` from `started` (time.monotonic(), by default now);
    returns its report (the single-process format, with each worker's part)."""
    start = time.monotonic() if started is None else started
    soft, hard = interrupt.bounds(start, minutes)
    options = {"execution": execution, "seed": seed, "programs": programs, "workers": workers, "caches": caches,
               "shrink_attempts": shrink_attempts, "soft": soft, "hard": hard, "vocabulary": vocabulary}
    folder = tempfile.mkdtemp(prefix="copysuite-fuzz-run-")
    context = multiprocessing.get_context("spawn")   # a fresh interpreter: torch is never forked mid-compile
    processes = [context.Process(target=worker, args=(i, options, folder), name=f"copysuite-fuzz-{i}")
                 for i in range(workers)]
    stopped = {"reason": None, "at": None}

    def forward(signum, _frame):
        if stopped["reason"] is None:
            stopped["reason"], stopped["at"] = signal.Signals(signum).name, time.monotonic()
        for p in processes:
            if p.pid is not None and p.is_alive():
                os.kill(p.pid, signal.SIGTERM)

    previous = {s: signal.signal(s, forward) for s in interrupt.SIGNALS}
    try:
        for p in processes:
            if stopped["reason"] is None:   # a worker not started yet has nothing to report: the report says so
                p.start()
        while any(p.is_alive() for p in processes):
            connection.wait([p.sentinel for p in processes if p.is_alive()], timeout=0.2)
            late = stopped["at"] is not None and time.monotonic() > stopped["at"] + STOP_SECONDS
            if late or (hard is not None and time.monotonic() > hard + interrupt.MAX_GRACE):
                for p in processes:
                    if p.is_alive():
                        p.kill()
        interrupt.ignore()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    try:
        return assemble(folder, processes, options, stopped["reason"], time.monotonic() - start, progress)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def assemble(folder: str, processes: list, options: dict, reason: str | None, seconds: float, progress=None) -> dict:
    """The workers' reports in `folder` as the run's one report."""
    reports, parts, missing = [], [], []
    for index, p in enumerate(processes):
        path = os.path.join(folder, f"worker-{index}.json")
        if not os.path.exists(path):
            missing.append({"worker": index, "seed": worker_seed(options["seed"], index), "exitcode": p.exitcode})
            continue
        with open(path) as f:
            report = json.load(f)
        reports.append(report)
        parts.append({"worker": index, "seed": report["seed"], "programs": report["counts"]["programs"],
                      "counts": report["counts"],
                      "search_seconds": report["search_seconds"],
                      "programs_per_second": report["programs_per_second"], "interrupted": report["interrupted"],
                      "findings": len(report["findings"])})
    report = merge.combine(reports) if reports else empty(options)
    report.update({"seed": options["seed"], "seed_derivation": SEED_DERIVATION, "workers": parts,
                   "workers_without_report": missing, "total_seconds": round(seconds, 1),
                   "programs_per_second_per_worker": round(report["programs_per_second"] / len(processes), 2)
                   if report["programs_per_second"] else None})
    if reason:
        report["interrupted"] = reason
    if progress and missing:
        progress(f"workers without a report: {missing}")
    return report


def empty(options: dict) -> dict:
    """The report of a run none of whose workers reported (all stopped before their search began)."""
    try:
        release = metadata.version("torch")
    except metadata.PackageNotFoundError:
        release = None
    return {"execution": options["execution"], "seed": options["seed"], "caches": options["caches"],
            "versions": f"torch {release}, python {platform.python_version()} ({sys.platform})", "torch": release,
            "counts": dict.fromkeys(merge.COUNTS, 0), "search_seconds": 0, "programs_per_second": None,
            "total_seconds": 0, "interrupted": None, "findings": [],
            "statements_per_finding": merge.statements([]), "seed_derivation": SEED_DERIVATION, "workers": [],
            "workers_without_report": [{"worker": i, "seed": worker_seed(options["seed"], i), "exitcode": None}
                                       for i in range(options.get("workers", 1))]}
