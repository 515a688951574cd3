"""The module and optimizer sweep (`python -m copysuite modules`, copysuite/usercode/modules.py, optimizers.py): a
small sample under compile.aot_eager, the sweep's self-test in the default run. nn.Linear holds; nn.BatchNorm1d in
training mode differs in its running statistics' version counters, which the module record of specs/known/ explains
(issue 13402); a record applies only where the module ran one of its ops; an SGD step compiled holds. The whole sweep
is opt-in (docs/using.md)."""
import json

import pytest
import torch

from copysuite.run.executions import EXECUTORS
from copysuite.usercode import modules, optimizers, sweep_command
from copysuite.usercode.result import Difference
from copysuite.usercode.verdicts import close

EXECUTION = "compile.aot_eager"
# importing module_db and compiling take seconds each, minutes on a loaded machine: past pytest.ini's 60 s
pytestmark = [pytest.mark.skipif(EXECUTORS[EXECUTION].skip_reason() is not None,
                                 reason=str(EXECUTORS[EXECUTION].skip_reason())), pytest.mark.timeout(300)]


def test_two_modules_one_held_one_recorded(tmp_path):
    from torch.testing._internal.common_modules import module_db
    if "nn.BatchNorm1d" not in {info.name for info in module_db}:
        pytest.skip(f"torch {torch.__version__}'s module_db has no nn.BatchNorm1d")
    out = tmp_path / "sweep.json"
    code = sweep_command.main(["--executions", EXECUTION, "--modules", "nn.Linear", "nn.BatchNorm1d",
                               "--modes", "train", "--optimizers", "--json", str(out), "-q"])
    report = json.loads(out.read_text())
    assert code == 0, report["differences"]
    assert report["status"] == {"module nn.Linear": {EXECUTION: "held"},
                                "module nn.BatchNorm1d": {EXECUTION: "recorded"}}
    (found,) = report["differences"]
    assert found["kind"] == "in.version_moved" and found["names"] == ["batch_norm_running_stats_version"]


def test_a_record_needs_one_of_its_ops():
    records = modules.sweep_records()
    d = Difference(EXECUTION, "in|self.running_mean|version_moved", False, True, "new")
    assert modules.recorded(d, ("batch_norm",), records) == ("batch_norm_running_stats_version",)
    assert modules.recorded(d, ("linear",), records) == ()


def test_a_compiled_sgd_step_holds():
    pytest.importorskip("torch.testing._internal.common_optimizers",
                        reason=f"torch {torch.__version__} has no torch.testing._internal.common_optimizers (optim_db)")
    (case,) = [c for c in optimizers.optimizer_cases(["SGD"]) if c.mode == "forloop"]
    row = optimizers.run_case(case, [EXECUTION], modules.sweep_records(), 0)
    assert row["executions"][EXECUTION] == {"status": "held", "differences": []}, row


def test_values_within_float32_reduction_error_are_the_same():
    assert close([-68.5396, 55.7192], [-68.5397, 55.7192])
    assert not close([-68.5396], [-68.6]) and not close([1.0], [1.0, 2.0]) and not close("unreadable", [1.0])
