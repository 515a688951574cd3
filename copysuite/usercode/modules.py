"""Every torch.nn module of torch's own test bed (`torch.testing._internal.common_modules.module_db`, each ModuleInfo
with its own sample inputs) through `copysuite.compare`: each module built from a sample's constructor input, put in
train or eval mode, and called on the sample's forward input, eagerly against each execution. compare's signature
already holds forward and backward (each parameter's gradient) and the module's state (parameters and buffers:
values, version counters, replaced); the mode travels with the module, which compare deep-copies per call.

Each case's differences keep compare's verdict; a difference compare calls new is then matched against the module
records of the known-bug registry (`sweep_records`): compare's verdict function cannot know which ops a caller's
function runs, so a record naming ops never applies there, but here the ops a module ran eagerly are known
(`ops_run`, torch functions seen by a TorchFunctionMode).
"""
from __future__ import annotations

import ast
import copy
import dataclasses
import re
import time

import torch
from packaging.specifiers import SpecifierSet
from packaging.version import Version
from torch.overrides import TorchFunctionMode

from copysuite.fuzz.signature import kind
from copysuite.known import registry
from copysuite.usercode import inputs
from copysuite.usercode.api import compare
from copysuite.usercode.deadline import Deadline, TimedOut
from copysuite.usercode.result import Difference
from copysuite.usercode.verdicts import close

MODULES_FILE = "modules.yaml"   # the records of specs/known/ the sweep applies


@dataclasses.dataclass
class Case:
    """One module, mode and sample: what compare runs."""
    name: str
    mode: str            # "train" or "eval"
    sample: int
    desc: str
    build: object        # () -> (module, args, kwargs), or None where the sample could not be made
    error: str = ""      # why not


def module_cases(names=(), samples: int = 1, modes=("train", "eval")):
    """The cases of module_db (those named in `names`, by ModuleInfo name or class name, or all), `samples` of each
    module's inputs per mode, float32 on the CPU, inputs requiring grad."""
    from torch.testing._internal.common_modules import module_db
    for info in module_db:
        if names and info.name not in names and info.module_cls.__name__ not in names:
            continue
        for mode in modes:
            torch.manual_seed(0)   # the samples are random: the same ones each run
            try:
                inputs = info.module_inputs_func(info, device="cpu", dtype=torch.float32, requires_grad=True,
                                                 training=mode == "train")
            except Exception as exc:  # noqa: BLE001 - a sample function that fails here is reported, not fatal
                yield Case(info.name, mode, -1, "", None, f"samples: {type(exc).__name__}: {exc}"[:300])
                continue
            usable = [s for s in inputs if s.forward_input is not None][:samples]
            for index, sample in enumerate(usable):
                yield Case(info.name, mode, index, sample.desc, _builder(info, sample, mode == "train"))


def _builder(info, sample, training: bool):
    def build():
        module = info.module_cls(*sample.constructor_input.args, **sample.constructor_input.kwargs)
        module.train(training)
        return module, tuple(sample.forward_input.args), dict(sample.forward_input.kwargs)
    return build


class _Seen(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.add(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


def ops_run(module, args, kwargs) -> tuple:
    """The torch functions a module's forward calls eagerly (F.batch_norm as `batch_norm`), on copies."""
    seen = _Seen()
    args, kwargs, _ = inputs.capture(args, kwargs).build()   # compare's own copies: non-leaves do not deep-copy
    module = copy.deepcopy(module)
    try:
        with seen:
            module(*args, **kwargs)
    except Exception:  # noqa: BLE001, S110 - compare reports the call's error; the ops seen until then still count
        pass
    return tuple(sorted(seen.names))


def sweep_records() -> list:
    """The registry's records of specs/known/modules.yaml that apply to this torch (their fuzz patterns)."""
    release = Version(Version(torch.__version__).base_version)
    return [r for r in registry.load().values() if r.file.endswith(MODULES_FILE) and r.fuzz
            and release in SpecifierSet(r.fuzz["torch"])]


def recorded(difference, ops: tuple, records: list) -> tuple:
    """The records that explain a difference compare calls new, given the ops the module ran."""
    names = []
    for r in records:
        p = r.fuzz
        if difference.execution not in p["executions"] or not re.fullmatch(p["kinds"], kind(difference.field)):
            continue
        if p.get("ops") and not set(p["ops"]) & set(ops):
            continue
        if p.get("message") and not re.search(p["message"], str(difference.value)):
            continue   # compare keeps the class of the execution's exception: the pattern is matched against it
        names.append(r.name)
    return tuple(names)


def run_case(case: Case, executions, records: list, timeout: float) -> dict:
    """One case through compare: its differences, each with its verdict (compare's, or a module record's)."""
    row = {"module": case.name, "mode": case.mode, "sample": case.sample, "desc": case.desc}
    if case.build is None:
        return {**row, "error": case.error, "executions": {}}
    start = time.monotonic()
    try:
        with Deadline(timeout):
            module, args, kwargs = case.build()
            ops = ops_run(module, args, kwargs)
            result = compare(module, *args, executions=list(executions), **kwargs)
    except TimedOut:
        return {**row, "error": f"timed out after {timeout:.0f} s", "seconds": round(time.monotonic() - start, 1),
                "executions": {}}
    except Exception as exc:  # noqa: BLE001 - the harness's own failure on a case is reported, the sweep goes on
        return {**row, "error": f"{type(exc).__name__}: {exc}"[:300], "seconds": round(time.monotonic() - start, 1),
                "executions": {}}
    return {**row, "seconds": round(time.monotonic() - start, 1), "ops": list(ops),
            "executions": judged(result, ops, records)}


def rejudged(row: dict, records: list) -> dict:
    """A case of an earlier sweep judged again by today's module records: what they now explain of its new
    differences (compare's own verdicts stand)."""
    for execution, v in row["executions"].items():
        for d in v["differences"]:
            if d["verdict"] == "new" and close(_literal(d["eager"]), _literal(d["value"])) and (
                    d["field"].rsplit("|", 1)[1] in ("values", "grad", "value")):
                d.update(verdict="by design", names=["float_reduction_order"])
            if d["verdict"] == "new" or d.get("module_record"):
                names = recorded(Difference(execution, d["field"], d["eager"], d["value"], "new"),
                                 tuple(row.get("ops", ())), records)
                d.update(verdict="known" if names else "new", names=list(names), module_record=bool(names))
        if v["status"] != "skipped":
            v["status"] = "new" if any(d["verdict"] == "new" for d in v["differences"]) else (
                "recorded" if v["differences"] else "held")
    return row


def _literal(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):   # a value cut short in the summary
        return None


def judged(result, ops: tuple, records: list) -> dict:
    """{execution: {"status", "differences"}} of a compare result; status: held, recorded, new or skipped."""
    out = {e: {"status": "skipped", "why": why, "differences": []} for e, why in result.skipped.items()}
    for execution in result.executions:
        rows = []
        for d in (d for d in result.differences if d.execution == execution):
            verdict, names, ours = d.verdict, list(d.names), False
            if verdict == "new":
                names = list(recorded(d, ops, records))
                verdict, ours = ("known" if names else "new"), bool(names)
            rows.append({"field": d.field, "eager": repr(d.eager)[:2000], "value": repr(d.value)[:2000],
                         "verdict": verdict, "names": names, "module_record": ours})
        status = "new" if any(r["verdict"] == "new" for r in rows) else "recorded" if rows else "held"
        out[execution] = {"status": status, "differences": rows}
    return out
