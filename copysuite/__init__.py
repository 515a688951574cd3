"""The conformance suite for PyTorch's tensor-copy semantics. Its folders are the stages data flows through, in order:

    spec/      specs/*.yaml -> entries: the program, the values that must hold, version gates, the records each
               diverges by
    strategies the vocabulary of a generated input and the Hypothesis strategies that draw it (a link to the
               checkout's top-level strategies/, installed as copysuite.strategies)
    plan/      entries bound to the installed torch -> cells (entry x check x device x execution), each with its id
    run/       one cell's program on one generated input, eagerly or under an execution -> a RunResult
    judge/     each check's observation of a RunResult against the expectation -> held, or a ConformanceFailure
    outcome/   every cell's outcome -> the table per entry and the outcome JSON
    report/    outcome files -> the upgrade gate, the matrix across releases, the change log (no torch needed)

Beside the stages:

    plugin/    the pytest side: options, profiles, the test per cell
    speed/     what makes a run fast apart from what it checks
    known/     the known-bug registry (specs/known/*.yaml): one record per upstream bug, draft or design difference
    surface/   every aten op's aliasing contract from its schema; reuses the cell id, the executions, the failure
               and the outcome, and builds its own cells, checks, inputs, reproductions and records
    fuzz/      generated programs, eager against one execution; reuses the executions and the strategies, and builds
               its own programs, observations, verdicts, records and reproductions
    usercode/  `copysuite.compare`: the fuzzer's comparison applied to a caller's own function or module (imported
               only when asked for)
    gpu/       the suite on a GPU: the pipeline's commands run as steps within a time budget

`python -m copysuite` is the command line (__main__.py). spec/, plan/cell_id.py, outcome/format.py, report/ and
known/ import no torch. docs/developing.md has the map in full, the words and the recipes.
"""


def __getattr__(name: str):
    """`copysuite.compare` (copysuite.usercode.api), imported when first asked for: `import copysuite` imports no
    torch, which the report tools rely on."""
    if name == "compare":
        from copysuite.usercode.api import compare
        return compare
    raise AttributeError(f"module 'copysuite' has no attribute {name!r}")
