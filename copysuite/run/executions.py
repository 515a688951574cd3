"""How an entry's program runs: as written (`eager`); as one function compiled by `torch.compile` (`compile.*`);
through `torch.func.functionalize` (`functionalize`); or exported by `torch.export.export` and run as the exported
module (`export`, exported anew for each input: it specializes to their shapes). The two transforms apply only to
the entries that name them (copysuite.strategies.space.NAMED_ONLY_EXECUTIONS).

Compiled, the program becomes a function of its inputs, and these lines are both what runs and what a failure
prints (after the lines that build the inputs):

    def program(source, b):
        b.zero_()
        result = source
        return result
    program = torch.compile(program, backend="aot_eager", fullgraph=True, dynamic=False)
    result = program(source, b)

A compiled function returns the program's variables that its entry's checks judge beside `result` (`return result,
detached` and `result, detached = program(source)`: programs.Program.with_returned); an entry's `first_call` adds a
call of the same function on other inputs before the judged one.

`fullgraph=True`: a graph break is an error, so a program that dynamo cannot capture whole fails instead of silently
running eagerly; an entry that declares `graph_breaks: why` (dynamo does not support what it does, by design) is
compiled with `fullgraph=False`, and its breaks are counted. One compiled function serves every case of an entry with
the same dtype class and number of dims (dynamo recompiles it when a guard fails, e.g. another shape or grad mode); each
is defined from its own text, so each has its own code object and its own dynamo cache. `STATS` counts calls, graphs
compiled (first compiles and recompiles), graph breaks and the seconds spent in calls that compiled, per (entry,
execution).
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import linecache
import shutil
import time
from dataclasses import dataclass

import torch
from packaging.specifiers import SpecifierSet

from copysuite.plan import bind
from copysuite.run import history
from copysuite.spec import programs
from copysuite.strategies.space import BACKEND_DEVICES, FORMS, dtype_class

# dynamo recompiles a function whose guards fail; past its limit (8 per function) it would silently run the frame
# eagerly, or fail it under fullgraph, and an accumulated limit counts a whole process's recompiles on some releases
# (a long run compiles thousands of graphs): both are raised out of reach
RECOMPILE_LIMIT = 1_000_000
STATS: dict = {}   # (entry id, execution) -> {"calls", "compiles", "graph_breaks", "compile_seconds"}


@dataclass(frozen=True)
class Executor:
    """An execution's code; what it is (`transform`, `backend`, `dynamic`) is its copysuite.strategies.space.Form."""
    name: str
    transform: str | None = None
    backend: str | None = None
    dynamic: bool = False

    @property
    def compiled(self) -> bool:
        return self.transform == "compile"

    def skip_reason(self, device: str | None = None, *, ask_dynamo: bool = True) -> str | None:
        """Why this execution cannot run with the installed torch (on `device`, when given), or None. Whether dynamo
        runs on this Python is known only by importing it (1-2 s): `ask_dynamo=False` leaves that out, for the plan
        of a process that may compile nothing (a test asks again before it runs)."""
        if self.transform is None:
            return None
        if self.transform == "functionalize":
            ok = hasattr(getattr(torch, "func", None), "functionalize")
            return None if ok else (f"{self.name}: torch.func.functionalize needs torch>=2.0 "
                                    f"(installed: {torch.__version__})")
        if self.transform == "export":
            ok = hasattr(getattr(torch, "export", None), "export")
            return None if ok else f"{self.name}: torch.export.export needs torch>=2.1 (installed: {torch.__version__})"
        if not hasattr(torch, "compile"):
            return f"{self.name}: torch.compile needs torch>=2.0 (installed: {torch.__version__})"
        unsupported = _dynamo_unsupported() if ask_dynamo else None
        if unsupported:
            return f"{self.name}: {unsupported}"
        if self.backend == "inductor" and not _cxx():
            return f"{self.name}: no C++ compiler found (g++, c++ or clang++ on PATH): inductor on CPU needs one"
        return self._device_skip_reason(device)

    def _device_skip_reason(self, device: str | None) -> str | None:
        """Why this backend cannot compile for `device` on the installed torch
        (copysuite.strategies.space.BACKEND_DEVICES)."""
        gate = BACKEND_DEVICES.get((self.backend, device))
        if gate is None or bind.TORCH_VERSION in SpecifierSet(gate[0], prereleases=True):
            return None
        return (f"{self.name} on {device} needs torch{gate[0]} (installed: {bind.TORCH_VERSION.public}): "
                f"{gate[1]}")

    def define_lines(self, program, fullgraph: bool = True) -> list[str]:
        """The lines that define what runs the program (none as written): a function (compiled or functionalized),
        or for export the module whose forward is the program."""
        body = [f"    {line}" for line in program.lines()] + [f"    return {program.outputs}"]
        args = ", ".join(program.input_names)
        if self.transform == "export":
            return ["class Program(torch.nn.Module):", f"    def forward(self, {args}):",
                    *[f"    {line}" for line in body]]
        define = [f"def program({args}):", *body]
        if self.transform == "functionalize":
            return define + ["program = torch.func.functionalize(program)"]
        if self.compiled:
            return define + [f"program = torch.compile(program, backend={self.backend!r}, fullgraph={fullgraph}, "
                             f"dynamic={self.dynamic})"]
        return []

    def call_lines(self, program) -> list[str]:
        """What runs the program on its bound inputs: its own lines, or a call of what define_lines made (export:
        the export itself first, for the shapes and strides of these inputs, which it specializes to)."""
        if self.transform is None:
            return program.lines()
        args = ", ".join(program.input_names)
        call = [f"{program.outputs} = program({args})"]
        if self.compiled and program.first_call:   # the same compiled function, first called on other inputs
            call.insert(0, f"program({program.first_call_args()})")
        if self.transform == "export":
            packed = f"({args},)" if len(program.input_names) == 1 else f"({args})"
            return [f"program = torch.export.export(Program(), {packed}).module()"] + call
        return call

    def run(self, program, namespace: dict, case, entry_id: str = "", fullgraph: bool = True):
        """Run the program in `namespace` (which holds its inputs); returns `result`."""
        if self.transform is None:
            return program.run(namespace)
        key = self.key(program, case, fullgraph)
        namespace.update(self.defined(*key[1:]))
        call = {}
        try:
            with _compile_stats(entry_id, self.name, call) if self.compiled else contextlib.nullcontext():
                for line in self.call_lines(program):
                    exec(_code(line), namespace)  # noqa: S102 - the printed lines
        finally:
            if self.compiled:
                history.record(key, case, call.get("compiled", False))
        return namespace[programs.RESULT]   # (and the program's returned variables are in the namespace)

    def key(self, program, case, fullgraph: bool = True) -> tuple:
        """Which function runs `program` on `case`: this execution's, and defined's arguments. torch.compile is part
        of it: a fault patched into it (tests/faults) gets functions of its own. Releases before 2.0 have none, and
        an eager failure still asks for its key (copysuite/judge/judge.py)."""
        return (self.name, program, fullgraph, getattr(torch, "compile", None), dtype_class(case.dtype),
                len(case.shape))

    @functools.lru_cache(maxsize=None)  # noqa: B019 - executors are module constants
    def defined(self, program, fullgraph: bool, compile_fn, dtype_group: str, ndim: int) -> dict:
        """What define_lines bind (`program`, or `Program` for export), defined once per key: each compiled function
        has its own code object and so its own dynamo cache."""
        if self.compiled:
            _raise_recompile_limit()
            _skip_guard_latency_probe()
            _disable_compile_caches()
        ns = programs.namespace()
        define("\n".join(self.define_lines(program, fullgraph)), f"{program.filename} ({self.name})", ns)
        return {name: ns[name] for name in ("program", "Program") if name in ns}


def define(text: str, filename: str, namespace: dict) -> None:
    """Run the Python `text` (definitions) in `namespace`, as the file `filename` whose source Python can find: up to
    2.12 torch.compile wraps a function whose source it cannot find in one frame shared by every such function
    (torch/_dynamo/external_utils.wrap_inline, issue 124269), whose dynamo cache would gather every program's graphs
    (one program's compiles would shape another's recompiles, and its recompile limit send later ones to eager). With
    its source known, each function is compiled as itself, as one written in a file is."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - the printed definitions


@contextlib.contextmanager
def _compile_stats(entry_id: str, execution: str, call: dict):
    """Count one call of a compiled function in STATS: the graphs it compiled, its graph breaks, and its seconds
    when it compiled; `call["compiled"]` says whether it compiled a graph."""
    stats = STATS.setdefault((entry_id, execution), {"calls": 0, "compiles": 0, "graph_breaks": 0,
                                                      "compile_seconds": 0.0})
    graphs, breaks = _graphs_and_breaks()
    start = time.perf_counter()
    try:
        yield
    finally:
        seconds = time.perf_counter() - start
        new_graphs, new_breaks = _graphs_and_breaks()
        stats["calls"] += 1
        stats["compiles"] += new_graphs - graphs
        stats["graph_breaks"] += new_breaks - breaks
        if new_graphs > graphs:
            stats["compile_seconds"] += seconds
        call["compiled"] = new_graphs > graphs


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


EXECUTORS = {name: Executor(name, *form) for name, form in FORMS.items()}


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
    forks sessions (tests.faults.driver) pays for it once instead of in every session that compiles."""
    if EXECUTORS["compile.aot_eager"].skip_reason() is None:
        _skip_guard_latency_probe()
        torch.compile(lambda x: x + 1, backend="aot_eager", fullgraph=True)(torch.ones(1))


def _raise_recompile_limit() -> None:
    config = torch._dynamo.config
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(config, name) and getattr(config, name) < RECOMPILE_LIMIT:
            setattr(config, name, RECOMPILE_LIMIT)


@functools.lru_cache(maxsize=None)
def _skip_guard_latency_probe() -> None:
    """dynamo times every guard set it builds, for its logs and compile metrics only (`guard_latency_us`), after
    flushing the CPU cache: `profile_guard_manager`, 20-30 ms of each compile here, a third of the compiled cells'
    time. It runs after the guards were checked and returns only the latency: 0.0 in its place changes what dynamo
    logs, not what it compiles or guards (releases without it are left alone)."""
    guards = importlib.import_module("torch._dynamo.guards")
    if hasattr(guards, "profile_guard_manager"):
        guards.profile_guard_manager = no_guard_latency


def no_guard_latency(*args, **kwargs) -> float:
    """In place of dynamo's profile_guard_manager: no latency measured."""
    return 0.0


# inductor's FX graph cache and AOTAutograd's cache (on by default from 2.6 and 2.8), in memory and on disk: their keys
# do not tell an input's storage size and offset apart, so a graph compiled for one case served another, and what a
# case observed depended on what the process (or an earlier run on the machine) had compiled before:
# `compiled.overlapping_views` (a parameter over an offset base) raised, held or failed in inductor's own code depending
# on the draw (docs/compile.md). With them off every compile is a real one, as for the first case of a cold machine.
COMPILE_CACHES = (("torch._inductor.config", "fx_graph_cache"), ("torch._inductor.config", "fx_graph_remote_cache"),
                  ("torch._functorch.config", "enable_autograd_cache"))


def cache_off_lines() -> list[str]:
    """The lines that turn the compile caches off, for the installed release (those of its configs that exist): run
    before the first compile of each compiled function, and printed in its reproduction."""
    found = [(module, name) for module, name in COMPILE_CACHES if hasattr(importlib.import_module(module), name)]
    return [f"import {module}" for module in dict.fromkeys(m for m, _ in found)] + [
        f"{module}.{name} = False" for module, name in found]


def _disable_compile_caches() -> None:
    exec("\n".join(cache_off_lines()), {})  # noqa: S102 - the printed lines


def _graphs_and_breaks() -> tuple[int, int]:
    counters = torch._dynamo.utils.counters
    return counters["stats"]["unique_graphs"], sum(counters["graph_break"].values())
