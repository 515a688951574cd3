"""The GPU runner (`python -m copysuite gpu`, tools/gpu.sh) without a GPU: its dry run plans every execution and
refuses, saying "no CUDA device", where there is none (never a silent pass); the plan fits its budget; a step that
outruns its share is stopped and marked partial, with or without the results it wrote."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from copysuite.gpu import plan, runner
from copysuite.strategies.space import EXECUTIONS

ROOT = Path(__file__).resolve().parents[2]


# the two tests that start tools/gpu.sh in a subprocess (a whole planning run each) are opt-in, as the robustness
# self-test is: COPYSUITE_RUNS=1, a step of .ci/run
runs = pytest.mark.skipif(os.environ.get("COPYSUITE_RUNS") != "1",
                          reason="opt-in (COPYSUITE_RUNS=1, a step of .ci/run): it starts tools/gpu.sh in a subprocess")


@runs
def test_the_dry_run_plans_every_execution_and_refuses_without_a_cuda_device():
    proc = subprocess.run([str(ROOT / "tools" / "gpu.sh"), "--dry-run", "--workers", "2"], capture_output=True,
                          text=True, timeout=300, check=False, env={**os.environ, "PYTHON": sys.executable})
    planned = [line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")]
    assert planned == ["eager", "bench", *(e for e, _ in plan.EXECUTIONS)], proc.stdout
    assert set(planned) >= set(EXECUTIONS), "an execution of the suite is missing from the GPU run"
    assert len(planned) == len(set(planned)), proc.stdout
    import torch
    if torch.cuda.is_available():
        assert proc.returncode == 0 and "dry run: would run on" in proc.stdout, proc.stdout + proc.stderr
    else:
        assert proc.returncode == runner.NO_CUDA_EXIT, proc.stdout + proc.stderr
        assert "no CUDA device" in proc.stderr and "nothing run" in proc.stderr


def test_an_execution_the_plan_does_not_name_runs_last_with_the_default_floor():
    planned = plan.floors((*EXECUTIONS, "compile.new"))
    assert planned == (*plan.EXECUTIONS, ("compile.new", plan.DEFAULT_FLOOR_S))
    assert plan.EXECUTIONS[:len(plan.FLOORS)] == tuple(plan.FLOORS.items()), "the measured ones first, in order"


@runs
def test_steps_picks_some_steps_in_the_plans_order_and_refuses_an_unknown_name():
    run = [str(ROOT / "tools" / "gpu.sh"), "--dry-run", "--workers", "2", "--steps"]
    env = {**os.environ, "PYTHON": sys.executable}
    proc = subprocess.run([*run, "compile.inductor,eager"], capture_output=True, text=True, timeout=300, check=False,
                          env=env)
    assert [line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")] == [
        "eager", "compile.inductor"], proc.stdout
    proc = subprocess.run([*run, "eager,inductor"], capture_output=True, text=True, timeout=300, check=False, env=env)
    assert proc.returncode == 2 and "unknown steps ['inductor']" in proc.stderr, proc.stderr


def test_the_plan_fits_its_budget_and_a_slow_step_cuts_only_itself():
    steps = plan.steps(16)
    assert sum(s.floor_s for s in steps) <= plan.BUDGET_S
    assert all(s.argv[-1] == s.writes for s in steps)
    # the first step overruns by far: the next gets its floor, and the last whatever remains, never less than its floor
    assert plan.allowance(steps, 1, plan.BUDGET_S - 400) == steps[1].floor_s
    assert plan.allowance(steps, len(steps) - 1, 500) == 500
    assert plan.allowance(steps, len(steps) - 1, 10) == steps[-1].floor_s


# a stand-in for pytest: on SIGINT it writes its results file and exits, as pytest writes the cells it judged
WRITES_ON_SIGINT = ("import signal, sys, time\n"
                    "def stop(*_):\n    open(sys.argv[1], 'w').write('{}'); sys.exit(2)\n"
                    "signal.signal(signal.SIGINT, stop)\ntime.sleep(60)\n")
IGNORES_SIGINT = "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)\n"
FINISHES = "import sys\nopen(sys.argv[1], 'w').write('{}')\n"


def step(code):
    return plan.Step("compile.inductor", ("-c", code, "out.json"), "out.json", "compile.inductor", 1)


def test_a_step_past_its_share_is_stopped_and_marked_partial(tmp_path):
    stopped = runner.run_step(step(WRITES_ON_SIGINT), sys.executable, tmp_path, allowed_s=2, grace_s=20)
    assert stopped["partial"] == "stopped at its time budget (2 s)" and stopped["wrote"], stopped
    assert stopped["seconds"] < 20
    (tmp_path / "out.json").unlink()
    killed = runner.run_step(step(IGNORES_SIGINT), sys.executable, tmp_path, allowed_s=1, grace_s=1)
    assert killed["partial"].endswith("before writing its results") and not killed["wrote"], killed
    done = runner.run_step(step(FINISHES), sys.executable, tmp_path, allowed_s=30)
    assert "partial" not in done and done["exit"] == 0 and done["wrote"]
    assert runner.compress(tmp_path) == ["out.json.gz"] and not (tmp_path / "out.json").exists()
