"""Time every distinct call of specs/*.yaml on a plain contiguous source, per dtype, device and size."""
import pytest
import torch

from benchmarks import grid
from benchmarks.spec_ops import bound, bytes_moved, load_spec_ops, source_ndim
from benchmarks.timing import run

# torch.tensor(t) and t.new_tensor(t) warn on every call; the benchmark times them as the articles do
pytestmark = pytest.mark.filterwarnings("ignore:To copy construct from a tensor:UserWarning")

OPS = load_spec_ops()


def group_name(device: str, dtype: str, exp: int) -> str:
    return f"spec ops {device} {dtype} n={grid.size_id(exp)}"


def pytest_generate_tests(metafunc):
    if "spec_op" not in metafunc.fixturenames:
        return
    params = [(op, dtype, device, exp) for dtype in grid.dtype_names(metafunc.config) for device in grid.DEVICES
              for exp in grid.spec_exponents(metafunc.config) for op in OPS]
    metafunc.parametrize(("spec_op", "dtype", "device", "exp"), params,
                         ids=[f"{op.name}-{dtype}-{device}-{grid.size_id(exp)}" for op, dtype, device, exp in params])


def test_spec_op(benchmark, pytestconfig, spec_op, dtype, device, exp):
    reason = grid.device_skip_reason(device)
    if reason:
        pytest.skip(reason)
    entry, reason = spec_op.pick(dtype, device)
    if entry is None:
        pytest.skip(f"{spec_op.program_text}: {reason}")
    ndim = source_ndim(entry)
    if ndim == 0 and exp > 0:
        pytest.skip(f"{spec_op.program_text}: {entry.id} applies to 0-d tensors only")
    source = grid.make_source(2 ** exp, getattr(torch, dtype), device, ndim)
    call = bound(entry, source)
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - the spec says when a call raises; the benchmark only reports it
        pytest.skip(f"{spec_op.program_text} raises {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
    kind, moved = bytes_moved(source, result)
    del result
    benchmark.group = group_name(device, dtype, exp)
    benchmark.name = f"{entry.id}-{dtype}-{device}-{grid.size_id(exp)}"
    run(benchmark, pytestconfig, call, device, bench="spec", op=entry.id,
        call=spec_op.program_text, spec_ids=[e.id for e in spec_op.entries], spec_file=entry.file, dtype=dtype,
        numel=2 ** exp, shape=list(source.shape), result_kind=kind, bytes_moved=moved)
