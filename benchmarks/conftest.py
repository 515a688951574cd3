"""Benchmark set-up: never under xdist, quick defaults, versions in machine_info.

The benchmarks run only when this folder is named (`pytest -p no:xdist benchmarks`): pytest.ini's testpaths is
`tests`, so the default run never collects them.
"""
import os
import sys
import pytest

# pytest-benchmark settings used unless given on the command line: short, so that the whole grid stays a few
# minutes; the speed gate (benchmarks/ab.py) times its own pairs of processes instead
BENCHMARK_DEFAULTS = {
    "--benchmark-max-time": ("benchmark_max_time", "0.1"),
    "--benchmark-min-rounds": ("benchmark_min_rounds", 5),
    "--benchmark-warmup": ("benchmark_warmup", True),
    "--benchmark-disable-gc": ("benchmark_disable_gc", True),
    "--benchmark-storage": ("benchmark_storage", "file://./results/bench/saved"),
}


def xdist_active(config) -> bool:
    return bool(os.environ.get("PYTEST_XDIST_WORKER")) or config.getoption("dist", "no") != "no" \
        or bool(config.getoption("numprocesses", None))


def pytest_addoption(parser):
    group = parser.getgroup("copy benchmarks")
    group.addoption("--bench-exponents", default=os.environ.get("BENCH_EXPONENTS", "0,10,16,20,24"),
                    help="sizes of the spec-op grid as exponents of 2 (default 0,10,16,20,24; env BENCH_EXPONENTS)")
    group.addoption("--bench-max-exp", type=int, default=os.environ.get("BENCH_MAX_EXP"),
                    help="with --bench-step: sizes 2**0, 2**step, ... up to 2**N (env BENCH_MAX_EXP)")
    group.addoption("--bench-step", type=int, default=os.environ.get("BENCH_STEP", "1"),
                    help="exponent step for --bench-max-exp (default 1; env BENCH_STEP)")
    group.addoption("--bench-idiom-max-exp", type=int, default=int(os.environ.get("BENCH_IDIOM_MAX_EXP", "14")),
                    help="the article idioms run at every power of 2 up to this (default 14, the articles' grid), "
                         "plus the spec-op sizes above it")
    group.addoption("--bench-idiom-group", default=os.environ.get("BENCH_IDIOM_GROUP", ""),
                    help="time only the article idioms whose group contains this text, e.g. '000 tensor copy'")
    group.addoption("--bench-no-memory", action="store_true", default=bool(os.environ.get("BENCH_NO_MEMORY")),
                    help="do not measure the idioms' peak memory (timing only, e.g. for the perfplot comparison)")
    group.addoption("--bench-threads", type=int, default=os.environ.get("BENCH_THREADS"),
                    help="torch.set_num_threads(N) for the run (default: torch's own choice; env BENCH_THREADS)")
    group.addoption("--bench-dtypes", default=os.environ.get("BENCH_DTYPES", "float32,float16,int64"),
                    help="dtypes of the spec-op grid (default float32,float16,int64; env BENCH_DTYPES)")


@pytest.hookimpl(tryfirst=True)  # before pytest-benchmark reads its options
def pytest_configure(config):
    if xdist_active(config):
        raise pytest.UsageError("the benchmarks must not run under pytest-xdist: run them with -p no:xdist "
                                "(no -n/--dist)")
    if config.getoption("bench_threads"):
        import torch

        torch.set_num_threads(int(config.getoption("bench_threads")))
    given = config.invocation_params.args
    for flag, (dest, value) in BENCHMARK_DEFAULTS.items():
        if hasattr(config.option, dest) and not any(a == flag or a.startswith(flag + "=") for a in given):
            setattr(config.option, dest, value)


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_machine_info(config, machine_info):
    import numpy
    import torch

    machine_info["torch_version"] = torch.__version__
    machine_info["torch_cuda"] = torch.version.cuda
    machine_info["numpy_version"] = numpy.__version__
    machine_info["torch_num_threads"] = torch.get_num_threads()
    machine_info["cuda_devices"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())] \
        if torch.cuda.is_available() else []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtestloop(session):
    """Under benchmarks.run, time only in this process's turn (benchmarks/turns.py)."""
    from benchmarks.turns import Turn

    turn = Turn.from_env()
    if turn is not None:
        session.config._copysuite_turn = turn
        turn.wait()
    yield


def pytest_sessionfinish(session, exitstatus):
    session.config._copysuite_exitstatus = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """Under benchmarks.run: pass the turn on, then end the process at once with pytest's exit status (its
    JSON and report are written; the interpreter's teardown with torch loaded takes 0.3-0.5 s, which the last
    process would add to the run)."""
    turn = getattr(config, "_copysuite_turn", None)
    if turn is not None:
        turn.done()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(getattr(config, "_copysuite_exitstatus", 0))
