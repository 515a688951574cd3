"""Selecting cells with --spec-entry / --check / --device: exact, and a selection that names nothing is a usage
error (pytest exit 4) with the reason, never a crash or an empty run."""
import json

import pytest

from copysuite.judge.checks import REGISTRY
from copysuite.plan.cells import SelectionError, plan_cells
from copysuite.plugin.command import main as copysuite_run
from copysuite.spec.load import load_specs
from copysuite.strategies.devices import device_skip_reason

ENTRIES = load_specs(checks=REGISTRY).entries


def test_an_exact_selection_plans_exactly_its_cells():
    cells = plan_cells(ENTRIES, REGISTRY, entry_ids=["clone:dense"], check_names=["strides"], devices=["cpu"])
    assert [str(c.id) for c in cells] == ["clone:dense-strides-cpu-eager"]
    keyed = plan_cells(ENTRIES, REGISTRY, entry_ids=["detach.write_through_alias"], check_names=["shares_storage[b]"],
                       devices=["cpu"])
    assert [str(c.id) for c in keyed] == ["detach.write_through_alias-shares_storage[b]-cpu-eager"]
    compiled = plan_cells(ENTRIES, REGISTRY, entry_ids=["compiled.returns_input"], check_names=["same_object"],
                          devices=["cpu"])
    assert [str(c.id) for c in compiled] == ["compiled.returns_input-same_object-cpu-eager",
                                              "compiled.returns_input-same_object-cpu-compile.aot_eager"]
    every = plan_cells(ENTRIES, REGISTRY, entry_ids=["clone"], check_names=["same_object", "grad_fn"],
                       devices=["cpu"], executions=["compile.inductor"])
    assert [str(c.id) for c in every] == ["clone-same_object-cpu-compile.inductor"]  # grad_fn: eager only


@pytest.mark.parametrize("selection, message", [
    (dict(check_names=["shares_storag"]), "no check 'shares_storag'"),
    (dict(devices=["tpu"]), "no device 'tpu'"),
    (dict(entry_ids=["clonez"]), "no spec entry 'clonez'"),
    (dict(entry_ids=["cpu:from_device"], devices=["meta"]), "the selection matches no cell"),
])
def test_a_selection_that_names_nothing_is_refused(selection, message):
    with pytest.raises(SelectionError, match=message):
        plan_cells(ENTRIES, REGISTRY, **selection)


def test_the_refusal_is_a_usage_error_in_a_pytest_session(capsys):
    """(A session run in this process: `python -m copysuite run` is this call.)"""
    code = copysuite_run(["--co", "-q", "-p", "no:xdist", "--check", "shares_storag"])
    err = capsys.readouterr().err
    assert code == 4 and "no check 'shares_storag'" in err, err


def test_cells_that_cannot_run_here_are_listed_not_collected(tmp_path, capsys):
    """Without CUDA and MPS, their cells are not pytest items; the outcome JSON lists them as skipped with the reason,
    together with the cells of the same (entry, check) that ran, and the summary counts them. (A session run in this
    process: `python -m copysuite run` is this call.)"""
    out = tmp_path / "outcome.json"
    code = copysuite_run(["-q", "-p", "no:xdist", "--spec-entry", "clone", "--check", "shares_storage",
                          "--outcome-json", str(out)])
    stdout = capsys.readouterr().out
    assert code == 0, stdout
    cells = {c["id"]: c for c in json.loads(out.read_text())["cells"]}
    assert set(cells) == {f"clone-shares_storage-{d}-eager" for d in ("cpu", "meta", "cuda", "mps")}
    # and every cell of the selection whose entry cannot run here at all
    code = copysuite_run(["-q", "-p", "no:xdist", "-k", "clone-shares_storage-cpu-eager", "--check", "shares_storage",
                          "--outcome-json", str(out)])
    listed = {c["id"] for c in json.loads(out.read_text())["cells"]}
    capsys.readouterr()
    if device_skip_reason("cuda"):
        assert code == 0 and {"clone-shares_storage-cuda-eager", "to:cuda-shares_storage-cpu-eager"} <= listed, listed
        assert "view:flat-shares_storage-cuda-eager" not in listed, listed
    for device, name in (("cuda", "CUDA"), ("mps", "MPS")):
        if device_skip_reason(device):
            assert cells[f"clone-shares_storage-{device}-eager"]["skip_reason"] == f"no {name} device"
            assert f"not collected: 1 cells: no {name} device" in stdout
    ran = 4 - sum(bool(device_skip_reason(d)) for d in ("cuda", "mps"))
    assert f"{ran} passed in" in stdout and "skipped" not in stdout.splitlines()[-1], stdout


@pytest.mark.parametrize("available, count, reason", [
    (False, 0, "no CUDA device"), (True, 1, "needs 2 CUDA devices (found 1)"), (True, 2, None)])
def test_two_cuda_says_why_it_is_missing(monkeypatch, available, count, reason):
    """`needs: [two_cuda]` (an entry that moves between two GPUs) is skipped with the reason, never run on one."""
    import torch
    monkeypatch.setattr(torch.cuda, "is_available", lambda: available)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)
    assert device_skip_reason("two_cuda") == reason
