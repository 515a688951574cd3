"""The machine's plain memory copy (numpy.copyto between preallocated buffers) of the bytes each spec op reads,
timed in the same run, in the same groups as the spec ops, so the report can state bandwidth as a ratio to it."""
import numpy as np
import pytest
import torch

from benchmarks import grid
from benchmarks.test_spec_ops import group_name
from benchmarks.timing import run

NAME = "memcpy (numpy.copyto)"


def pytest_generate_tests(metafunc):
    if "memcpy_dtype" not in metafunc.fixturenames:
        return
    params = [(dtype, device, exp) for dtype in grid.dtype_names(metafunc.config) for device in grid.DEVICES
              for exp in grid.spec_exponents(metafunc.config)]
    metafunc.parametrize(("memcpy_dtype", "device", "exp"), params,
                         ids=[f"{NAME}-{dtype}-{device}-{grid.size_id(exp)}" for dtype, device, exp in params])


def test_memcpy(benchmark, pytestconfig, memcpy_dtype, device, exp):
    if device != "cpu":
        pytest.skip(grid.device_skip_reason(device) or "the plain-memcpy baseline is host memory only")
    nbytes = 2 ** exp * torch.empty((), dtype=getattr(torch, memcpy_dtype)).element_size()
    src = np.random.default_rng(0).integers(0, 255, nbytes, dtype=np.uint8)
    dst = np.empty_like(src)
    benchmark.group = group_name(device, memcpy_dtype, exp)
    benchmark.name = f"{NAME}-{memcpy_dtype}-{device}-{grid.size_id(exp)}"
    run(benchmark, pytestconfig, lambda: np.copyto(dst, src), device, bench="memcpy", op=NAME, dtype=memcpy_dtype,
        numel=2 ** exp, result_kind="copy", bytes_moved=2 * nbytes)
