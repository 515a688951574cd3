"""What one process of a campaign (copysuite.fuzz.campaign) leaves in the run's folder as it goes, so that a worker
killed by a signal (a SIGSEGV or SIGABRT in torch) loses nothing it found; and that, read back by the parent.

Each process of worker S (its first, restart 0, then restart R after its R-th death) writes:
- `S-R.state`: the counts so far, the seconds searched and the program under way, rewritten before each program
  (in the reduction: the key under reduction; with os.pwrite: no Python buffer to lose, and the kernel keeps what
  was written when the process dies);
- `S-R.jsonl`, appended line by line: the search's header (execution, seed, release), then each verdict key the
  process claims, as a finding of its first program before any reduction (the finding keeps that program as data, so
  that a restart can reduce it), then each reduced finding;
- `S-R.trace`: faulthandler's output, the Python stack of every thread at a fatal signal;
- `S-R.json`: its report, at its end (copysuite.fuzz.search's format).
`left` reads them back as a report of that format: the report when there is one, else what the journal holds, the
keys not reduced marked `"shrink_stopped": "died"`. `death` describes a process that ended by a signal or an exit
status other than 0; `unreduced` gives the keys it claimed and did not reduce, with their programs, for its restart
to reduce (but the key whose reduction it died in: that reduction may be what kills a process).

A test-only hook makes workers die by a real signal: COPYSUITE_FUZZ_TEST_DEATH=WORKER:PROGRAMS:TIMES[,...] makes the
first TIMES processes of worker WORKER kill themselves with SIGSEGV before their program PROGRAMS + 1.
"""
from __future__ import annotations

import faulthandler
import json
import os
import signal

DEATH_HOOK = "COPYSUITE_FUZZ_TEST_DEATH"
TRACE_LINES = 40   # of faulthandler's output, the most a death keeps (the thread that died first)


def name(folder: str, worker: int, restart: int, suffix: str) -> str:
    return os.path.join(folder, f"{worker}-{restart}.{suffix}")


def dies_after(worker: int, restart: int) -> int | None:
    """The programs after which the hook kills this process, or None."""
    for part in filter(None, os.environ.get(DEATH_HOOK, "").split(",")):
        index, programs, times = (int(x) for x in part.split(":"))
        if index == worker and restart < times:
            return programs
    return None


def trace_into(folder: str, worker: int, restart: int) -> None:
    """From here on faulthandler writes into the process's trace file (faulthandler holds it open)."""
    faulthandler.enable(file=open(name(folder, worker, restart, "trace"), "w"))


class Journal:
    """The writing side, in the worker's process."""

    def __init__(self, folder: str, worker: int, restart: int):
        self.state = os.open(name(folder, worker, restart, "state"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        self.lines = os.open(name(folder, worker, restart, "jsonl"), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        self.die_after = dies_after(worker, restart)
        self.counts, self.seconds = None, 0.0   # the search's, once it has ended

    def _append(self, entry: dict) -> None:
        os.write(self.lines, (json.dumps(entry) + "\n").encode())

    def begin(self, header: dict) -> None:
        self._append({"header": header})

    def running(self, program, counts: dict, seconds: float) -> None:
        """Before a program: what was done so far, and the program."""
        self._state({"counts": counts, "seconds": round(seconds, 2), "program": program.text()})
        if self.die_after is not None and counts["programs"] >= self.die_after:
            os.kill(os.getpid(), signal.SIGSEGV)

    def searched(self, counts: dict, seconds: float) -> None:
        """The search has ended; the reduction begins."""
        self.counts, self.seconds = counts, round(seconds, 2)
        self._state({"counts": counts, "seconds": self.seconds, "program": None, "reducing": True})

    def reducing(self, key: tuple) -> None:
        """The reduction of `key` begins."""
        self._state({"counts": self.counts, "seconds": self.seconds, "program": None, "reducing": True,
                     "key": list(key)})

    def found(self, key: tuple, finding: dict) -> None:
        self._append({"found": list(key), "finding": finding})

    def reduced(self, key: tuple, finding: dict) -> None:
        self._append({"reduced": list(key), "finding": finding})

    def _state(self, state: dict) -> None:
        data = json.dumps(state).encode()
        os.pwrite(self.state, data, 0)
        os.ftruncate(self.state, len(data))


def _read_json(path: str):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):   # never written, or cut by the death
        return None


def state(folder: str, worker: int, restart: int) -> dict | None:
    return _read_json(name(folder, worker, restart, "state"))


def entries(folder: str, worker: int, restart: int) -> list:
    """The lines of a process's journal file, read back (none where it wrote no file)."""
    read = []
    try:
        with open(name(folder, worker, restart, "jsonl")) as f:
            for line in f:
                try:
                    read.append(json.loads(line))
                except ValueError:   # a line cut by the death
                    continue
    except OSError:
        pass
    return read


def left(folder: str, worker: int, restart: int) -> dict | None:
    """What a process left, as a report of the single-process format: its report, else its journal's (None: it
    began no search)."""
    report = _read_json(name(folder, worker, restart, "json"))
    if report is not None:
        return report
    header, found, reduced, reduced_keys = None, {}, {}, set()
    for entry in entries(folder, worker, restart):
        if "header" in entry:
            header = entry["header"]
        elif "found" in entry:
            found[tuple(entry["found"])] = entry["finding"]
        else:   # the finding as it stands (a later key reduced to it adds its programs)
            reduced[tuple(entry["finding"]["key"])] = entry["finding"]
            reduced_keys.add(tuple(entry["reduced"]))
    if header is None:
        return None
    now = state(folder, worker, restart) or {}
    counts = now.get("counts") or dict.fromkeys(("programs", "invalid", "same", "by_design", "known", "new"), 0)
    findings = dict(reduced)
    for key, finding in found.items():
        if key in reduced_keys:
            continue
        finding = {**finding, "shrink_stopped": "died"}
        if tuple(finding["key"]) in findings:
            findings[tuple(finding["key"])]["programs_with_key"] += 1
        else:
            findings[tuple(finding["key"])] = finding
    seconds = now.get("seconds", 0)
    return {**header, "counts": counts, "search_seconds": seconds,
            "programs_per_second": round(counts["programs"] / seconds, 2) if seconds else None,
            "total_seconds": seconds, "interrupted": None, "keys_claimed_elsewhere": None,
            "findings": sorted(findings.values(), key=lambda f: (f["status"] != "new", f["key"]))}


def unreduced(folder: str, worker: int, restart: int) -> list:
    """The keys a process claimed and did not reduce, each with its first program (copysuite.fuzz.program_data's
    data) and the seed that drew it, as [[key, program, seed]]; left out: a key without its program, and the key
    whose reduction the process died in."""
    found, reduced = {}, set()
    for entry in entries(folder, worker, restart):
        if "found" in entry and entry["finding"].get("program_data"):
            found[tuple(entry["found"])] = entry["finding"]["program_data"], entry["finding"].get("seed")
        elif "reduced" in entry:
            reduced.add(tuple(entry["reduced"]))
    dying = tuple((state(folder, worker, restart) or {}).get("key") or ())
    return [[list(key), program, seed] for key, (program, seed) in found.items()
            if key not in reduced and key != dying]


def death(folder: str, worker: int, restart: int, exitcode: int | None) -> dict:
    """A process that ended by a signal or an exit status other than 0: how, how far it got, what it ran."""
    now = state(folder, worker, restart) or {}
    try:
        with open(name(folder, worker, restart, "trace")) as f:
            trace = f.read().splitlines()
    except OSError:
        trace = []
    signum = -exitcode if exitcode is not None and exitcode < 0 else None
    return {"worker": worker, "restart": restart, "exitcode": exitcode,
            "signal": signal.Signals(signum).name if signum else None,
            "programs": (now.get("counts") or {}).get("programs", 0),
            "during": "reduction" if now.get("reducing") else "search" if now else "start",
            "last_program": now.get("program"), "innermost": innermost(trace), "in_program": in_program(trace),
            "trace": "\n".join(dying_first(trace)[:TRACE_LINES])}


def dying_first(trace: list) -> list:
    """faulthandler's output with the block of the thread that died before the other threads' (it writes them in
    the interpreter's order, where the dying thread may come after a compile's worker threads)."""
    blocks, block = [], []
    for line in trace:
        if not line.strip():
            blocks.append(block)
            block = []
        else:
            block.append(line)
    blocks.append(block)
    blocks = [b for b in blocks if b]
    blocks.sort(key=lambda b: (not b[0].startswith("Fatal"), not b[0].startswith("Current thread")))
    return [line for b in blocks for line in (*b, "")][:-1] if blocks else []


def _frames(trace: list) -> list:
    """The frames of the thread that died, innermost first (faulthandler names it "Current thread")."""
    frames, inside = [], False
    for line in trace:
        if line.startswith("Current thread"):
            inside = True
        elif inside and line.startswith("  File "):
            frames.append(line.strip())
        elif inside and frames:
            break
    return frames


def innermost(trace: list) -> str | None:
    """The Python line the thread that died was running."""
    return next(iter(_frames(trace)), None)


def in_program(trace: list) -> str | None:
    """The innermost line of the program's own code (the fuzzer's exec'd text, `<copysuite fuzz...>`)."""
    return next((f for f in _frames(trace) if f.startswith('File "<copysuite fuzz')), None)
