"""The outcome JSON document (copysuite/outcome/outcome.schema.json; docs/INTERPRETING.md explains each field):
versions, devices, dtypes, the spec set that judged the run, the session's totals and every cell's outcome."""
from __future__ import annotations

import functools
import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import torch

from copysuite.outcome.format import FORMAT
from copysuite.spec import declared
from copysuite.strategies.devices import device_skip_reason
from copysuite.strategies.dtypes import available_dtypes, unavailable_dtypes
from copysuite.strategies.space import DEVICES


def spec_revision(spec_dir) -> dict | None:
    """The git commit that last changed the spec files, and whether they have uncommitted changes; None outside
    a git checkout (an installed package)."""
    def git(*args):
        return subprocess.run(["git", "-C", str(spec_dir), *args], capture_output=True, text=True, timeout=30,
                              check=True).stdout.strip()
    try:
        return {"commit": git("log", "-1", "--format=%H", "--", "."),
                "modified": bool(git("status", "--porcelain", "--", "."))}
    except (OSError, subprocess.SubprocessError):
        return None


CHECKOUT = Path(__file__).resolve().parents[2]   # the checkout's root where the package runs from one


# once a process: a warm process that runs many sessions of one checkout (the fault campaign) asks git once
@functools.cache
def checkout_revision() -> dict | None:
    """The commit of the suite's own checkout, and whether its tracked files other than the outputs (results/,
    docs/reports/) differ from it: a matrix regenerated at one commit says so in every file. COPYSUITE_COMMIT names
    the commit where the checkout was copied without its .git (a GPU machine); None for an installed package."""
    named = os.environ.get("COPYSUITE_COMMIT")
    if named:
        return {"commit": named, "modified": None}
    def git(*args):
        return subprocess.run(["git", "-C", str(CHECKOUT), *args], capture_output=True, text=True, timeout=30,
                              check=True).stdout.strip()
    try:
        if Path(git("rev-parse", "--show-toplevel")).resolve() != CHECKOUT:
            return None   # a package installed into a virtual environment that lives inside some git checkout
        return {"commit": git("rev-parse", "HEAD"),
                "modified": bool(git("status", "--porcelain", "--untracked-files=no", "--", ".",
                                     ":(exclude)results", ":(exclude)docs/reports"))}
    except (OSError, subprocess.SubprocessError):
        return None


@functools.cache
def machine() -> str:
    """What ran the session, as the matrix names a column's machine: the GPU where torch sees one, else the
    processor; and the cores (`NVIDIA H200, 16 cores`, `AMD EPYC 7B13 (x86_64 Linux), 2 cores`)."""
    name = f"{platform.machine()} {platform.system()}"
    try:
        model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("model name")), None)
    except OSError:
        model = None
    if model:
        name = f"{model} ({name})"
    if device_skip_reason("cuda") is None:
        name = torch.cuda.get_device_name(0)
    return f"{name}, {os.cpu_count()} cores"


_SPEC_SECTIONS: dict = {}


def spec_section(spec_set, spec_dir) -> dict:
    """The outcome's "specs": the spec set's digest, revision, files and declarations, the same for every session of
    one spec set (a warm process that runs many sessions, the fault driver, works it out once: 0.07 s a session)."""
    key = (spec_set.digest, str(spec_dir))
    if key not in _SPEC_SECTIONS:
        _SPEC_SECTIONS[key] = {"digest": spec_set.digest, "revision": spec_revision(spec_dir),
                               "files": list(spec_set.files), "entries": declared.summarize(spec_set.entries)}
    return _SPEC_SECTIONS[key]


def session_totals(stats) -> dict:
    """Totals over every test of the session (seed scenarios and self-tests included): pytest's own counts."""
    def count(key):
        return len(stats.get(key, []))
    failed = [r.nodeid if getattr(r, "when", "collect") in ("call", "???") else f"{r.nodeid} ({r.when})"
              for key in ("failed", "error") for r in stats.get(key, [])]
    return {"passed": count("passed"), "failed": count("failed"), "skipped": count("skipped"),
            "xfailed": count("xfailed"), "xpassed": count("xpassed"), "errors": count("error"),
            "failed_tests": failed}


def compile_totals(compiled: dict) -> dict:
    return {entry: {ex: {**c, "compile_seconds": round(c["compile_seconds"], 2)} for ex, c in by.items()}
            for entry, by in sorted(compiled.items())}


def document(recorder, stats) -> dict:
    from hypothesis import settings
    return {
        "format": FORMAT,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "torch": torch.__version__, "numpy": np.__version__, "python": platform.python_version(),
        "platform": platform.platform(), "machine": machine(),
        "checkout": dict(checkout_revision() or {}) or None,   # a copy: the cached one stays as git said
        "hypothesis_profile": settings.get_current_profile_name(),
        "devices": {d: device_skip_reason(d) or "available" for d in DEVICES},
        "dtypes_available": list(available_dtypes()), "dtypes_unavailable": list(unavailable_dtypes()),
        "specs": spec_section(recorder.spec_set, recorder.spec_dir),
        "session": session_totals(stats),
        "casualties": recorder.casualties,
        "compiled": compile_totals(recorder.compiled),
        "cells": sorted(recorder.cells.values(), key=lambda r: (r["entry"], r["check"], r["device"], r["execution"])),
    }
