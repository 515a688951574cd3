"""Known upstream bugs the fuzzer meets, as patterns over a run's differences, each citing its issue or fix (the
evidence) and, where the suite checks it, the spec entry (`entry`) whose record is the same bug.

A record explains one differing field when the execution and the installed torch are its own, the field's kind
matches `kinds` (a regular expression), and, where given, the program uses one of `ops`, has aliased inputs
(`aliased`), and the execution's exception matches `message`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.specifiers import SpecifierSet
from packaging.version import Version

import torch

from copysuite.fuzz.signature import kind

AOT = ("compile.aot_eager", "compile.aot_eager.dynamic", "compile.inductor", "compile.inductor.dynamic")
INDUCTOR = ("compile.inductor", "compile.inductor.dynamic")
TORCH = Version(Version(torch.__version__).base_version)


@dataclass(frozen=True)
class Record:
    name: str
    executions: tuple
    kinds: str
    evidence: str
    note: str
    torch: str = ">=2.0"
    ops: tuple = ()
    aliased: bool = False
    message: str = ""
    entry: str = ""

    def explains(self, field: str, eager, other, run, execution: str) -> bool:
        if execution not in self.executions or TORCH not in SpecifierSet(self.torch):
            return False
        if not re.fullmatch(self.kinds, kind(field)):
            return False
        if self.ops and not set(self.ops) & set(run.program.ops):
            return False
        if self.aliased and not any(i.alias for i in run.program.inputs):
            return False
        return not self.message or bool(run.other.error and re.search(self.message, run.other.error))


RECORDS: tuple = ()
