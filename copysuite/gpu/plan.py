"""What a GPU run runs, in order, and how its time budget is shared (imports no torch).

Every step is one pytest session in its own process, on `cuda`, writing into the run's folder:
eager conformance with the seed scenarios (one session, so a failing seed scenario is in the outcome's session
totals), the article idioms' CUDA benchmarks with peak GPU memory, then each transform and compiled execution over
every entry. Cheap steps come first and every step keeps a floor of time for the ones after it, so that a slow
compiler cuts only itself (a partial column) and never the executions behind it.
"""
from __future__ import annotations

from dataclasses import dataclass

from copysuite.strategies import space

# a compiled cell on CUDA may compile Triton kernels for several minutes while 16 workers share the CPU
TEST_TIMEOUT_S = 240
# the whole run: what a GPU runner's job is sized for (docs/gpu.md)
BUDGET_S = 600


@dataclass(frozen=True)
class Step:
    name: str
    argv: tuple          # after the Python executable; the last is the file it writes
    writes: str          # that file, in the run's folder (before compression)
    execution: str | None  # the execution whose column it fills (None: benchmarks)
    floor_s: int         # the time kept for it while earlier steps run


# execution -> floor in seconds, in the order they run: the floors follow how long each took on a GPU (the commit
# that set them says), inductor's Triton compiles the longest
FLOORS = {"export": 20, "functionalize": 20, "compile.eager": 40, "compile.aot_eager": 45,
          "compile.aot_eager.dynamic": 55, "compile.inductor": 150, "compile.inductor.dynamic": 150}
# an execution not measured yet runs last, where it also gets whatever time is left, with the floor of a compiled
# execution without AOTAutograd
DEFAULT_FLOOR_S = 40


def floors(executions) -> tuple:
    """(execution, floor) for every execution but eager (the first step, with the seed scenarios), in run order."""
    return tuple([(e, floor) for e, floor in FLOORS.items() if e in executions] +
                 [(e, DEFAULT_FLOOR_S) for e in executions if e not in FLOORS and e != "eager"])


EXECUTIONS = floors(space.EXECUTIONS)


def steps(workers: int) -> list[Step]:
    common = ("-n", str(workers), "-q", "--device", "cuda", "-o", f"timeout={TEST_TIMEOUT_S}")
    out = [Step("eager", ("-m", "pytest", "tests/test_conformance.py", "tests/seeds", *common,
                          "--outcome-json", "cuda-eager.json"), "cuda-eager.json", "eager", 40),
           Step("bench", ("-m", "pytest", "-p", "no:xdist", "-q", "benchmarks/test_article_idioms.py", "-k", "cuda",
                          "--benchmark-max-time=0.02", "--benchmark-min-rounds=3",
                          "--benchmark-json", "bench-cuda.json"), "bench-cuda.json", None, 30)]
    for execution, floor in EXECUTIONS:
        out.append(Step(execution, ("-m", "copysuite", "run", *common, "--execution", execution,
                                    "--outcome-json", f"cuda-{execution}.json"), f"cuda-{execution}.json",
                        execution, floor))
    return out


def allowance(steps: list[Step], index: int, left_s: float) -> int:
    """The seconds step `index` may run when `left_s` remain: all of it but the floors of the steps after it (the
    last step takes what is left), never less than its own floor."""
    later = sum(s.floor_s for s in steps[index + 1:])
    return max(steps[index].floor_s, int(left_s - later))
