"""A program that fails midway leaves no process-global state switched for the cells after it in the same worker
(copysuite/run/process_state.py): a compile of `with dual_level()` that fails in the backend left the forward-AD level
entered, and every later forward-AD cell of the worker failed with "Nested forward mode AD is not supported at the
moment" (docs/upstream-reports/failed_compile_leaves_dual_level.py). Nor does a compile leave what it traced for the
next one (the fake-tensor dispatch cache)."""
import pytest
import torch
import torch.autograd.forward_ad as fwAD

from copysuite.judge.checks import REGISTRY
from copysuite.judge.failures import ConformanceFailure
from copysuite.judge.judge import judge
from copysuite.plan.cells import plan_cells
from copysuite.run import executions as executors
from copysuite.run import process_state
from copysuite.spec.load import load_specs
from copysuite.strategies.cases import Case
from copysuite.surface.cells import plan
from copysuite.surface.checks import Judge
from copysuite.surface.inputs import Call

COMPILED = "compile.eager"
needs_compile = pytest.mark.skipif(executors.EXECUTORS[COMPILED].skip_reason() is not None,
                                   reason=str(executors.EXECUTORS[COMPILED].skip_reason()))


ENTRIES = load_specs(checks=REGISTRY).entries


def cell(entry, check, execution):
    return next(iter(plan_cells(ENTRIES, REGISTRY, entry_ids=[entry], check_names=[check], devices=["cpu"],
                                executions=[execution])))


def case(execution):
    return Case(dtype="float32", shape=(2, 3), placement="contiguous", kind="plain", mode="enabled", device="cpu",
                base_numel=6, stride=(3, 1), offset=0, values=(1.0, 2.0, 3.0, 4.0, 5.0, 6.0), execution=execution)


def failing_compile(fn, **kwargs):
    """torch.compile as inductor fails for a dual input with a storage offset (failed_compile_leaves_dual_level): the
    backend's trace of
    dynamo's graph runs its torch._C._enter_dual_level, then an op of the graph raises before its exit."""
    def compiled(*args):
        torch._C._enter_dual_level()
        raise RuntimeError("a fault: the backend failed after entering the graph's dual level")
    return compiled


def test_the_fault_leaves_a_dual_level_entered():
    """The fault does what the failed compile did: called outside the harness, a later dual level is refused."""
    try:
        failing_compile(None)()
    except RuntimeError:
        pass
    try:
        assert process_state.dual_levels() == 1
        with pytest.raises(RuntimeError, match="Nested forward mode AD"):
            fwAD.enter_dual_level()
    finally:
        torch._C._exit_dual_level(level=0)
    assert process_state.dual_levels() == 0


@needs_compile
def test_a_failed_compile_leaves_the_next_forward_ad_cells_alone(monkeypatch):
    """The cell whose compile failed says what it left; the forward-AD cells after it in the process hold."""
    leaking = cell("detach:forward_ad", "result_type", COMPILED)
    with monkeypatch.context() as patched:
        patched.setattr(torch, "compile", failing_compile)
        with pytest.raises(ConformanceFailure) as caught:
            judge(leaking, case(COMPILED))
    assert "a fault" in repr(caught.value.observed)
    assert "left switched (set back after it): forward AD level (0, -1) -> (1, -1)" in caught.value.detail
    assert process_state.dual_levels() == 0 and fwAD._current_level == -1
    judge(cell("detach_:forward_ad", "result_type", "eager"), case("eager"))   # raises if the level were left
    surface, = [c for c in plan("sample") if c.id.entry == "surface.alias:_make_dual"]
    assert surface.judge() >= 1


def test_a_surface_call_that_leaves_a_dual_level_is_set_back():
    Judge(Call("probe", "alias", "hand", "x = torch.randn(3)", "(torch._C._enter_dual_level(), x)[1]", "self"),
          "surface.alias:probe-contract-cpu-eager").judge()
    assert process_state.dual_levels() == 0


def _push_hooks():
    torch._C._autograd._push_saved_tensors_default_hooks(lambda t: t, lambda t: t)


SWITCHES = [
    ("forward AD level", fwAD.enter_dual_level),
    ("grad mode", lambda: torch._C._set_grad_enabled(False)),
    ("default dtype", lambda: torch.set_default_dtype(torch.float64)),
    ("saved-tensor hooks", _push_hooks),
]
SWITCHES += [(f"torch.__future__.{name}", lambda name=name: getattr(torch.__future__, "set_" + name)(
    not getattr(torch.__future__, "get_" + name)())) for name in process_state.FUTURE_SWITCHES]


@pytest.mark.parametrize("name, switch", SWITCHES, ids=[name for name, _ in SWITCHES])
def test_each_switch_left_by_a_failing_block_is_set_back(name, switch):
    if name == "saved-tensor hooks" and not process_state.HOOKS_READABLE:
        pytest.skip(f"torch {torch.__version__} cannot read the saved-tensor hooks' stack")
    before = process_state.snapshot()
    with pytest.raises(ZeroDivisionError), process_state.kept() as left:
        switch()
        1 / 0
    assert process_state.snapshot() == before
    assert len(left) == 1 and left[0].startswith(f"{name} "), left


FAKE_MODE = getattr(getattr(torch, "_subclasses", None), "fake_tensor", None)
FAKE_MODE = getattr(FAKE_MODE, "FakeTensorMode", None)
LEFT = "an entry an earlier compile left"


def _surface_compiled_cell():
    surface, = plan("sample", executions=(COMPILED,), entries=("surface.alias:detach",))
    return surface


@needs_compile
@pytest.mark.skipif(not hasattr(FAKE_MODE, "cache_clear"), reason=f"torch {torch.__version__} has no fake-tensor "
                    "dispatch cache")
@pytest.mark.parametrize("judged", ["spec cell", "surface cell"])
def test_a_compiled_program_traces_without_what_an_earlier_compile_cached(judged, monkeypatch):
    """What one compile cached in the fake-tensor dispatch cache (shared by the process, kept by dynamo's reset) is
    gone when the next compiled program traces: on 2.8.0 such an entry let `x.data` compile on an empty negative-bit
    input after `x.detach()` failed to, and the data cells held or failed by what their worker ran before them."""
    seen, real = [], torch.compile

    def watching(fn, **kwargs):
        compiled = real(fn, **kwargs)

        def call(*args, **kw):
            seen.append(LEFT in FAKE_MODE.cache)
            return compiled(*args, **kw)
        return call
    monkeypatch.setattr(torch, "compile", watching)
    FAKE_MODE.cache[LEFT] = None
    try:
        if judged == "spec cell":
            judge(cell("clone", "result_type", COMPILED), case(COMPILED))
        else:
            _surface_compiled_cell().judge()
    finally:
        FAKE_MODE.cache.pop(LEFT, None)
    assert seen and not any(seen), seen
