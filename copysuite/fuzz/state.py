"""The `module` shape: the program runs as the forward of an nn.Module that holds state, a parameter `weight` and
two buffers, `running` (floating, as BatchNorm's running mean) and `count` (an integer, as its num_batches_tracked).
The forward reaches them as attributes (`weight, running, count = self.weight, self.running, self.count`), and the
program's statements may read, view, write and return them like any variable: a buffer written in place in
forward, a parameter viewed, the state returned.

Each execution takes the module the way users give it one: called as it is (eager), `torch.compile(module)`, or
`torch.export.export(module, args).module()` (and the export variants). The state tensors are built fresh for each
call with the inputs and handed to a new module, so that each call starts from the same state; they are observed as
inputs are (their values after the call, whether their version counter moved, the parameter's gradient). The
module is the same object on both sides; torch.func.functionalize takes no module with state (that is
torch.func.functional_call's business), so a module program is not run under it.
"""
from __future__ import annotations

from copysuite.fuzz import variants

NAMES = ("weight", "running", "count")
LEAF = "weight"
INPUT_LINES = ["weight = torch.nn.Parameter(torch.arange(6.).reshape(2, 3))", "running = torch.arange(3.)",
               "count = torch.tensor(0)"]
NOT_RUN = ("functionalize",)


def define_lines(program) -> list[str]:
    """The module class whose forward is the program."""
    body = [f"        {line}" for line in program.lines()] + [f"        return {program.outputs}"]
    args = ", ".join(("self", *program.arg_names))
    return ["class Program(torch.nn.Module):", "    def __init__(self, weight, running, count):",
            "        super().__init__()", "        self.weight = weight",
            '        self.register_buffer("running", running)', '        self.register_buffer("count", count)', "",
            f"    def forward({args}):", "        weight, running, count = self.weight, self.running, self.count",
            *body]


def call_lines(program, execution: str) -> list[str]:
    """The module made of this call's state, taken by the execution, then called on the inputs."""
    made = f"Program({', '.join(NAMES)})"
    args = ", ".join(program.arg_names)
    executor = variants.executor(execution)
    base = variants.executor(variants.base(execution))
    if base.transform == "export":
        packed = f"({args},)" if len(program.arg_names) == 1 else f"({args})"
        strict = "" if getattr(executor, "strict", None) is None else f", strict={executor.strict}"
        decompose = ".run_decompositions()" if getattr(executor, "decompose", False) else ""
        made = f"torch.export.export({made}, {packed}{strict}){decompose}.module()"
    elif base.compiled:
        fullgraph = getattr(executor, "fullgraph", False)
        made = f"torch.compile({made}, backend={base.backend!r}, fullgraph={fullgraph}, dynamic={base.dynamic})"
    return [f"program = {made}", f"{program.outputs} = program({args})"]


def not_run(program, execution: str) -> str | None:
    """Why a module program is not run under `execution`, or None."""
    if program.state and variants.base(execution) in NOT_RUN:
        return f"{execution} takes no module with state (torch.func.functional_call does): not run"
    return None
