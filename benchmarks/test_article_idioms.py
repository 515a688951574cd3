"""Time the seed articles' idioms as they wrote them (float32 torch.randn(n), 2**0 ... 2**14 and larger), and
measure the peak memory each call allocates (article 000's question about detach().clone().numpy())."""
import pytest
import torch

from benchmarks import grid
from benchmarks.idioms import IDIOMS
from benchmarks.memory import peak_memory
from benchmarks.timing import run

# torch.tensor(t) and t.new_tensor(t) warn on every call; the benchmark times them as the articles do
pytestmark = pytest.mark.filterwarnings("ignore:To copy construct from a tensor:UserWarning")


def pytest_generate_tests(metafunc):
    if "idiom" not in metafunc.fixturenames:
        return
    wanted = metafunc.config.getoption("bench_idiom_group")
    params = [(idiom, device, exp) for idiom in IDIOMS if wanted in idiom.group for device in grid.DEVICES
              for exp in grid.idiom_exponents(metafunc.config)]
    metafunc.parametrize(("idiom", "device", "exp"), params,
                         ids=[f"{i.label}-{device}-{grid.size_id(exp)}" for i, device, exp in params])


def test_idiom(benchmark, pytestconfig, idiom, device, exp):
    reason = grid.device_skip_reason(device)
    if reason:
        pytest.skip(reason)
    if device not in idiom.devices:
        pytest.skip(f"{idiom.label} is timed on {', '.join(idiom.devices)} only (numpy() needs a CPU tensor)")
    source = grid.make_source(2 ** exp, torch.float32, device, requires_grad=idiom.requires_grad)
    benchmark.group = f"{idiom.group} {device} n={grid.size_id(exp)}"
    benchmark.name = f"{idiom.label}-{device}-{grid.size_id(exp)}"
    run(benchmark, pytestconfig, lambda: idiom.fn(source), device, bench="idiom", article=idiom.group.split()[0],
        idiom_group=idiom.group, op=idiom.label, dtype="float32", numel=2 ** exp,
        source_requires_grad=idiom.requires_grad, bytes_moved=2 * source.numel() * source.element_size())
    if not pytestconfig.getoption("bench_no_memory"):
        benchmark.extra_info.update(peak_memory(lambda: idiom.fn(source), device),
                                    source_bytes=source.numel() * source.element_size())
