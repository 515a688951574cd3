"""How an entry's program runs: as written (`eager`), or as one function compiled by `torch.compile` (the other
executions, strategies.space.EXECUTIONS).

Compiled, the program becomes a function of its inputs, and these lines are both what runs and what a failure
prints (after the lines that build the inputs):

    def program(source, b):
        b.zero_()
        result = source
        return result
    program = torch.compile(program, backend="aot_eager", fullgraph=True, dynamic=False)
    result = program(source, b)

`fullgraph=True`: a graph break is an error, so a program that dynamo cannot capture whole fails instead of silently
running eagerly; an entry that declares `graph_breaks: why` (dynamo does not support what it does, by design) is
compiled with `fullgraph=False`, and its breaks are counted. One compiled function serves every case of an entry with the same dtype class and number of dims
(dynamo recompiles it when a guard fails, e.g. another shape or grad mode); each is defined from its own text, so
each has its own code object and its own dynamo cache. `STATS` counts calls, graphs compiled (first compiles and
recompiles), graph breaks and the seconds spent in calls that compiled, per (entry, execution).
"""
from __future__ import annotations

import contextlib
import functools
import shutil
import time
from dataclasses import dataclass

import torch

from copysuite import programs
from strategies.space import EXECUTIONS, dtype_class

# dynamo recompiles a function whose guards fail; past its limit (8 per function) it would silently run the frame
# eagerly, or fail it under fullgraph, and an accumulated limit counts a whole process's recompiles on some releases
# (a long run compiles thousands of graphs): both are raised out of reach
RECOMPILE_LIMIT = 1_000_000
STATS: dict = {}   # (entry id, execution) -> {"calls", "compiles", "graph_breaks", "compile_seconds"}


@dataclass(frozen=True)
class Executor:
    name: str
    backend: str | None = None   # torch.compile's backend; None runs the program as written
    dynamic: bool = False        # torch.compile(dynamic=True): shapes are symbolic from the first compile

    @property
    def compiled(self) -> bool:
        return self.backend is not None

    def skip_reason(self) -> str | None:
        """Why this execution cannot run with the installed torch, or None."""
        if not self.compiled:
            return None
        if not hasattr(torch, "compile"):
            return f"{self.name}: torch.compile needs torch>=2.0 (installed: {torch.__version__})"
        supported = _dynamo_unsupported()
        if supported:
            return f"{self.name}: {supported}"
        if self.backend == "inductor" and not _cxx():
            return f"{self.name}: no C++ compiler found (g++, c++ or clang++ on PATH): inductor on CPU needs one"
        return None

    def define_lines(self, program, fullgraph: bool = True) -> list[str]:
        """The lines that define the compiled function `program` (none for eager)."""
        if not self.compiled:
            return []
        body = [f"    {line}" for line in program.lines()] + [f"    return {programs.RESULT}"]
        return ([f"def program({', '.join(program.input_names)}):"] + body +
                [f"program = torch.compile(program, backend={self.backend!r}, fullgraph={fullgraph}, "
                 f"dynamic={self.dynamic})"])

    def call_lines(self, program) -> list[str]:
        """What runs the program on its bound inputs: its own lines, or one call of the compiled function."""
        if not self.compiled:
            return program.lines()
        return [f"{programs.RESULT} = program({', '.join(program.input_names)})"]

    def run(self, program, namespace: dict, case, entry_id: str = "", fullgraph: bool = True):
        """Run the program in `namespace` (which holds its inputs); returns `result`."""
        if not self.compiled:
            return program.run(namespace)
        # torch.compile is part of the key: a fault patched into it (copysuite/faults) gets functions of its own
        namespace["program"] = self._function(program, fullgraph, torch.compile, dtype_class(case.dtype),
                                              len(case.shape))
        stats = STATS.setdefault((entry_id, self.name), {"calls": 0, "compiles": 0, "graph_breaks": 0,
                                                         "compile_seconds": 0.0})
        graphs, breaks = _graphs_and_breaks()
        start = time.perf_counter()
        try:
            exec(_code(self.call_lines(program)[0]), namespace)  # noqa: S102 - the printed call line
        finally:
            seconds = time.perf_counter() - start
            new_graphs, new_breaks = _graphs_and_breaks()
            stats["calls"] += 1
            stats["compiles"] += new_graphs - graphs
            stats["graph_breaks"] += new_breaks - breaks
            if new_graphs > graphs:
                stats["compile_seconds"] += seconds
        return namespace[programs.RESULT]

    @functools.lru_cache(maxsize=None)  # noqa: B019 - executors are module constants
    def _function(self, program, fullgraph: bool, compile_fn, dtype_group: str, ndim: int):
        _raise_recompile_limit()
        ns = programs.namespace()
        exec(compile("\n".join(self.define_lines(program, fullgraph)), f"{program.filename} ({self.name})", "exec"), ns)  # noqa: S102
        return ns["program"]


@contextlib.contextmanager
def counted(entry_id: str, execution: str, properties: list):
    """Add to `properties` (a test's user_properties) what the block compiled for (entry, execution):
    ("compile", {calls, compiles, graph_breaks, compile_seconds}), when it called a compiled function."""
    before = dict(STATS.get((entry_id, execution), {}))
    try:
        yield
    finally:
        after = STATS.get((entry_id, execution), {})
        delta = {k: after[k] - before.get(k, 0) for k in after}
        if delta.get("calls"):
            properties.append(("compile", {**delta, "compile_seconds": round(delta["compile_seconds"], 3)}))


EXECUTORS = {
    "eager": Executor("eager"),
    "compile.eager": Executor("compile.eager", backend="eager"),
    "compile.aot_eager": Executor("compile.aot_eager", backend="aot_eager"),
    "compile.aot_eager.dynamic": Executor("compile.aot_eager.dynamic", backend="aot_eager", dynamic=True),
    "compile.inductor": Executor("compile.inductor", backend="inductor"),
    "compile.inductor.dynamic": Executor("compile.inductor.dynamic", backend="inductor", dynamic=True),
}
assert tuple(EXECUTORS) == EXECUTIONS


@functools.lru_cache(maxsize=None)
def _code(line: str):
    return compile(line, "<call>", "exec")


@functools.lru_cache(maxsize=None)
def _cxx() -> str | None:
    return next(filter(None, map(shutil.which, ("g++", "c++", "clang++"))), None)


@functools.lru_cache(maxsize=None)
def _dynamo_unsupported() -> str | None:
    """Why dynamo cannot run on this Python and platform (e.g. Python 3.12 before torch 2.4), or None."""
    try:
        from torch._dynamo.eval_frame import check_if_dynamo_supported
        check_if_dynamo_supported()
    except ImportError:
        return None
    except RuntimeError as exc:
        return str(exc).splitlines()[0]
    return None


def warm_up() -> None:
    """Import dynamo and AOTAutograd and compile a trivial function once, where torch.compile exists: a process that
    forks sessions (copysuite.faults.driver) pays for it once instead of in every session that compiles."""
    if EXECUTORS["compile.aot_eager"].skip_reason() is None:
        torch.compile(lambda x: x + 1, backend="aot_eager", fullgraph=True)(torch.ones(1))


def _raise_recompile_limit() -> None:
    config = torch._dynamo.config
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(config, name) and getattr(config, name) < RECOMPILE_LIMIT:
            setattr(config, name, RECOMPILE_LIMIT)


def _graphs_and_breaks() -> tuple[int, int]:
    counters = torch._dynamo.utils.counters
    return counters["stats"]["unique_graphs"], sum(counters["graph_break"].values())
