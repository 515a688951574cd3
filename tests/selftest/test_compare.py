"""copysuite.compare (copysuite/usercode/): a function with no difference passes; an execution patched to clone its
result, or to run a module on a copy of it (its buffer write then never reaches the caller's module: only the
module-state comparison sees it), is caught, with a reproduction that shows it alone; each side gets fresh inputs,
aliasing kept; the fixture; the README's example; `import copysuite` still imports no torch. Everything compiles
with aot_eager, the cheapest backend that handles aliasing and mutation."""
import copy
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import copysuite
from copysuite.run.executions import EXECUTORS
from copysuite.usercode.api import compare
from copysuite.usercode.inputs import capture
from copysuite.usercode import pytest_plugin

ROOT = Path(__file__).resolve().parents[2]
EXECUTION = "compile.aot_eager"
copysuite_compare = pytest_plugin.copysuite_compare   # the fixture, as the installed entry point gives it
pytestmark = pytest.mark.skipif(EXECUTORS[EXECUTION].skip_reason() is not None,
                                reason=str(EXECUTORS[EXECUTION].skip_reason()))


def add_one_in_place(x):
    return x.add_(1)


class Counter(torch.nn.Module):
    """A module whose forward writes its buffer, as BatchNorm's num_batches_tracked."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3))
        self.register_buffer("calls", torch.zeros(()))

    def forward(self, x):
        self.calls.add_(1)
        return x * self.weight


@pytest.fixture
def cloning_compile(monkeypatch):
    """torch.compile broken on purpose: a compiled function's result is a copy, and a compiled module runs on a
    copy of itself (values are right on both: only aliasing and module state tell)."""
    original = torch.compile

    def broken(target, **options):
        if isinstance(target, torch.nn.Module):
            return original(copy.deepcopy(target), **options)
        compiled = original(target, **options)
        return lambda *args, **kwargs: torch.utils._pytree.tree_map(
            lambda t: t.clone() if isinstance(t, torch.Tensor) else t, compiled(*args, **kwargs))

    monkeypatch.setattr(torch, "compile", broken)


def test_a_function_and_a_module_with_no_difference_pass():
    assert compare(add_one_in_place, torch.arange(3.0), executions=[EXECUTION]).check().differences == []
    result = compare(Counter(), torch.arange(3.0), executions=[EXECUTION]).check()
    assert result.differences == [] and result.executions == (EXECUTION,)


def test_a_cloned_result_is_caught_with_a_reproduction_that_shows_it_alone(cloning_compile, capsys):
    result = compare(add_one_in_place, torch.arange(3.0), executions=[EXECUTION])
    new = {d.field: (d.eager, d.value) for d in result.new}
    assert new["pair|in:arg0~out:out|same_object"] == (True, False)
    with pytest.raises(AssertionError) as raised:
        result.check()
    script = result.reproductions[EXECUTION]
    assert script in str(raised.value) and "from tests.selftest.test_compare import add_one_in_place" in script
    exec(compile(script, "<reproduction>", "exec"), {"__name__": "__main__"})  # noqa: S102 - the printed script
    printed = capsys.readouterr().out
    assert "differs: eager arg0 is out" in printed
    assert printed.strip().endswith("the difference reproduces")


def test_a_module_buffer_write_lost_is_caught_by_the_state_comparison(cloning_compile):
    result = compare(Counter(), torch.arange(3.0), executions=[EXECUTION])
    new = {d.field: (d.eager, d.value) for d in result.new}
    assert new["in|self.calls|values"] == ([1.0], [0.0])
    assert new["in|self.calls|version_moved"] == (True, False)
    assert all("|self." in field for field in new)   # the outputs themselves are right
    assert "make_model()" in result.reproductions[EXECUTION]


def test_each_side_gets_the_same_fresh_inputs():
    seen = []

    def record_then_write(x):
        seen.append(x.tolist())
        x.mul_(2)
        return x

    given = torch.arange(3.0)
    assert compare(record_then_write, given, executions=[EXECUTION]).check().differences == []
    assert seen and all(s == [0.0, 1.0, 2.0] for s in seen) and given.tolist() == [0.0, 1.0, 2.0]


def test_aliasing_and_autograd_state_among_the_inputs_are_kept():
    base = torch.arange(6.0).requires_grad_()
    leaf = torch.nn.Parameter(torch.ones(2))
    args, _, _ = capture((base, base[1:], base.detach(), leaf, leaf, base * 2), {}).build()
    fresh, view, detached, p, same, nonleaf = args
    assert view._base is fresh and view.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0] and view.requires_grad
    assert detached.untyped_storage().data_ptr() == fresh.untyped_storage().data_ptr() and not detached.requires_grad
    assert fresh.is_leaf and fresh.requires_grad
    assert fresh.untyped_storage().data_ptr() != base.untyped_storage().data_ptr()
    assert isinstance(p, torch.nn.Parameter) and p is same
    assert nonleaf.grad_fn is not None and nonleaf.tolist() == (base * 2).tolist()


def test_the_fixture_fails_a_test_on_a_new_difference(copysuite_compare, cloning_compile):
    with pytest.raises(AssertionError, match="NEW"):
        copysuite_compare(add_one_in_place, torch.arange(3.0), executions=[EXECUTION])


def test_the_readme_example_runs():
    block = re.search(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(), flags=re.S | re.M).group(1)
    assert len(block.strip().splitlines()) == 3
    exec(compile(block, "README.md", "exec"), {"__name__": "__main__"})  # noqa: S102 - the README's own example


def test_import_copysuite_imports_no_torch():
    code = "import sys, copysuite; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    assert copysuite.compare is compare


def test_what_no_text_rebuilds_is_copied_per_side_and_named_in_the_reproduction():
    from copysuite.usercode import reproduction
    from copysuite.usercode.sides import Target

    marker = object.__new__(type("Marker", (), {}))
    x = torch.arange(2.0)
    captured = capture((x, {"pair": [x, 3]}, marker), {"scale": 2.0})
    args, kwargs, _ = captured.build()
    assert args[1]["pair"][0] is args[0] and args[1]["pair"][1] == 3 and kwargs == {"scale": 2.0}
    assert type(args[2]).__name__ == "Marker" and args[2] is not marker
    assert [r.alias for r in captured.tensors] == ["arg0 (passed again)"]
    _, limits = reproduction.build(Target(lambda t: t), captured, EXECUTION, [], True)
    assert any("lambda" in limit for limit in limits) and any("Marker" in limit for limit in limits)
