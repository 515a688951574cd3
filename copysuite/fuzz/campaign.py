"""One fuzz run in N processes (`python -m copysuite fuzz -n N`): N workers search at once, share the reduction and
write one report.

Worker i draws from its own seed, derived from the run's seed and i (`worker_seed`; worker 0 draws from the run's
seed itself, so that `-n 1` and worker 0 of `-n N` draw the same programs), and runs `programs // N` of a
repeatable run's programs or searches until the run's time bound. The first worker to meet a verdict key claims it
(a file created exclusively in the run's folder) and alone reduces it: no key is reduced twice. Each worker writes
its report to that folder, and as it goes its journal (copysuite.fuzz.journal: its counts, the program under way,
each key it claims and each finding); the parent puts together what each process left, its report or, for one
that died, its journal (copysuite.fuzz.merge.combine), with each worker's seed, programs and rate. A process killed
by a signal (a SIGSEGV in torch) or ended by an exit status is named in `deaths` (its signal, programs, the program
under way and faulthandler's trace), and its worker restarted from a seed of its own while the run's minutes and
programs last, at most MAX_RESTARTS times; the restart is handed the keys the dead process claimed and did not
reduce (journal.unreduced), and reduces them. `-n 1` runs its one worker so too. A signal to the parent (SIGINT,
SIGTERM) is passed to the workers, which stop and write what they have; a process that left nothing is named in the
report.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
from multiprocessing import connection
import os
import platform
import resource
import shutil
import signal
import sys
import tempfile
import time
from importlib import metadata

from copysuite.fuzz import interrupt, journal, merge

SEED_DERIVATION = ("worker 0 draws from the run's seed; worker i > 0 from int.from_bytes(sha256(b'copysuite fuzz "
                   "SEED I').digest()[:8], 'big'), SEED the run's seed and I the worker's index; the process that "
                   "restarts worker I after its R-th death from int.from_bytes(sha256(b'copysuite fuzz SEED I "
                   "restart R').digest()[:8], 'big')")
MAX_RESTARTS = 3   # per worker: a crash that every seed meets at once does not start processes without end
STOP_SECONDS = 20.0   # after a signal, how long the workers have to write their reports before they are killed


def worker_seed(seed: int, index: int, restart: int = 0) -> int:
    if restart:
        return int.from_bytes(hashlib.sha256(f"copysuite fuzz {seed} {index} restart {restart}".encode()).digest()[:8],
                              "big")
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


class Process:
    """One process of a worker: its first (restart 0), or the one started after its `restart`-th death."""

    def __init__(self, context, index: int, restart: int, programs: int | None, options: dict, folder: str,
                 inherited=()):
        self.index, self.restart, self.programs = index, restart, programs
        self.seed = worker_seed(options["seed"], index, restart)
        self.process = context.Process(target=worker, args=(index, restart, programs, options, folder, inherited),
                                       name=f"copysuite-fuzz-{index}-{restart}")
        self.ended = False

    def done(self) -> bool:
        """Started, and ended since the last look."""
        if self.ended or self.process.pid is None or self.process.is_alive():
            return False
        self.ended = True
        return True


def worker(index: int, restart: int, programs: int | None, options: dict, folder: str, inherited=()) -> None:
    """One process of a worker (spawned): its search, told to its journal as it goes, then its report into
    `folder`; `inherited`: the keys a dead process of this worker left unreduced (journal.unreduced)."""
    journal.trace_into(folder, index, restart)   # before torch: a crash importing it is traced too
    diary = journal.Journal(folder, index, restart)
    stopper = interrupt.Stopper()
    own = worker_seed(options["seed"], index, restart)

    def progress(line: str) -> None:
        print(f"[worker {index}{f' restart {restart}' if restart else ''}] {line}", file=sys.stderr, flush=True)

    with stopper.handling(options["hard"]):
        try:
            import torch   # which a signal may stop importing

            from copysuite.fuzz import search
            diary.begin({"execution": options["execution"], "seed": own, "caches": options["caches"],
                         "versions": search.versions(), "torch": torch.__version__,
                         "vocabulary": options["vocabulary"]})
            report = search.search(options["execution"], seed=own, programs=programs, caches=options["caches"],
                                   shrink_attempts=options["shrink_attempts"], progress=progress,
                                   deadline=options["soft"], claim=Claims(folder), stopper=stopper,
                                   vocabulary=options["vocabulary"], journal=diary, inherited=inherited)
        except interrupt.Interrupted:   # before the search began: nothing to report, the parent says so
            return
        interrupt.ignore()
        path = journal.name(folder, index, restart, "json")
        with open(path + ".part", "w") as f:
            json.dump(report, f)
        os.replace(path + ".part", path)


def run(execution: str, *, workers: int, seed: int = 0, programs: int | None = None, minutes: float | None = None,
        caches: str = "off", shrink_attempts: int, progress=None, started: float | None = None,
        vocabulary: str = "default") -> dict:
    """The run in `workers` processes, its time bound `minutes` from `started` (time.monotonic(), by default now);
    returns its report (the single-process format, with each worker's part and each death)."""
    start = time.monotonic() if started is None else started
    soft, hard = interrupt.bounds(start, minutes)
    options = {"execution": execution, "seed": seed, "programs": programs, "workers": workers, "caches": caches,
               "shrink_attempts": shrink_attempts, "soft": soft, "hard": hard, "vocabulary": vocabulary}
    folder = tempfile.mkdtemp(prefix="copysuite-fuzz-run-")
    context = multiprocessing.get_context("spawn")   # a fresh interpreter: torch is never forked mid-compile
    processes = [Process(context, i, 0, share(programs, workers, i), options, folder) for i in range(workers)]
    stopped = {"reason": None, "at": None}
    deaths = []

    def forward(signum, _frame):
        if stopped["reason"] is None:
            stopped["reason"], stopped["at"] = signal.Signals(signum).name, time.monotonic()
        for p in processes:
            if p.process.pid is not None and p.process.is_alive():
                os.kill(p.process.pid, signal.SIGTERM)

    def died(p: Process) -> None:
        """A process ended by a signal or an exit status: named, and its worker restarted while the run's
        budget lasts."""
        death = {**journal.death(folder, p.index, p.restart, p.process.exitcode), "seed": p.seed}
        left = None if p.programs is None else p.programs - death["programs"]
        why = ("the run was stopped" if stopped["reason"] else
               f"{MAX_RESTARTS} restarts used" if p.restart >= MAX_RESTARTS else
               "its time was spent" if soft is not None and time.monotonic() >= soft else
               "its programs were run" if left is not None and left <= 0 else None)
        handed = journal.unreduced(folder, p.index, p.restart) if why is None else []
        death.update({"restarted": why is None, "why_not_restarted": why, "keys_handed_to_restart": len(handed)})
        deaths.append(death)
        if progress:
            progress(f"worker {p.index} (restart {p.restart}, seed {p.seed}) died: {death['signal'] or 'exit code'} "
                     f"{p.process.exitcode} after {death['programs']} programs, in {death['innermost']}; "
                     + ("restarted" if why is None else f"not restarted: {why}")
                     + (f"\n{death['trace']}" if death["trace"] else ""))
        if why is None:
            processes.append(Process(context, p.index, p.restart + 1, left, options, folder, handed))
            processes[-1].process.start()

    previous = {s: signal.signal(s, forward) for s in interrupt.SIGNALS}
    before = cpu_of_children()
    try:
        for p in processes:
            if stopped["reason"] is None:   # a worker not started yet has nothing to report: the report says so
                p.process.start()
        while True:
            # which were alive is looked at first: a process that dies after the look at the dead is seen next time
            was_alive = any(p.process.is_alive() for p in processes)
            for p in [p for p in processes if p.done() and p.process.exitcode != 0]:
                died(p)
            alive = [p.process for p in processes if p.process.is_alive()]
            if not alive and not was_alive:
                break
            if alive:
                connection.wait([p.sentinel for p in alive], timeout=0.2)
            late = stopped["at"] is not None and time.monotonic() > stopped["at"] + STOP_SECONDS
            if late or (hard is not None and time.monotonic() > hard + interrupt.MAX_GRACE):
                for p in alive:
                    if p.is_alive():
                        p.kill()
        interrupt.ignore()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    try:
        report = assemble(folder, processes, deaths, options, stopped["reason"], time.monotonic() - start, progress)
        report["cpu_seconds"] = round(cpu_of_children() - before, 1)
        return report
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def cpu_of_children() -> float:
    """User and system seconds of this process's ended children and theirs (the workers, their compile workers): a
    campaign's size in CPU time, whatever else the machine ran."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def assemble(folder: str, processes: list, deaths: list, options: dict, reason: str | None, seconds: float,
             progress=None) -> dict:
    """What the processes left in `folder`, dead or not, as the run's one report."""
    reports, parts, missing = [], [], []
    for p in processes:
        report = journal.left(folder, p.index, p.restart) if p.process.pid is not None else None
        if report is None:
            missing.append({"worker": p.index, "restart": p.restart, "seed": p.seed, "exitcode": p.process.exitcode})
            continue
        reports.append(report)
        parts.append({"worker": p.index, "restart": p.restart, "seed": report["seed"],
                      "programs": report["counts"]["programs"], "counts": report["counts"],
                      "search_seconds": report["search_seconds"],
                      "programs_per_second": report["programs_per_second"], "interrupted": report["interrupted"],
                      "findings": len(report["findings"]), "died": p.process.exitcode not in (0, None)})
    report = merge.combine(reports) if reports else empty(options)
    report.update({"seed": options["seed"], "seed_derivation": SEED_DERIVATION, "workers": parts,
                   "workers_without_report": missing, "deaths": deaths, "max_restarts": MAX_RESTARTS,
                   "total_seconds": round(seconds, 1),
                   "programs_per_second_per_worker": round(report["programs_per_second"] / options["workers"], 2)
                   if report["programs_per_second"] else None})
    if reason:
        report["interrupted"] = reason
    if progress and missing:
        progress(f"processes without a report: {missing}")
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
            "workers_without_report": [{"worker": i, "restart": 0, "seed": worker_seed(options["seed"], i),
                                        "exitcode": None} for i in range(options.get("workers", 1))],
            "deaths": [], "max_restarts": MAX_RESTARTS}
