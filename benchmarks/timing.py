"""How every benchmark is timed: CUDA synchronized inside the timed call, warnings off, the run's facts in extra_info.

Rounds are planned from the slowest of a few calls (pytest-benchmark's own calibration plans from the fastest
warmup call; large copies alternate between a reused buffer and fresh pages, so planning from the fast calls
made some of them run for 10 s instead of 0.1 s):
iterations per round so that a round lasts at least ROUND_TARGET, rounds so that the timed part lasts about
--benchmark-max-time, at least --benchmark-min-rounds; with --benchmark-warmup, a fifth of that first.

BENCH_INJECT_SLOWDOWN=1.5 makes every timed call 1.5x slower (a busy wait after the op). It is a self-test of the
speed gate only (docs/benchmarks.md), never a measurement.
"""
import math
import os
import time
import warnings

import torch

SLOWDOWN = float(os.environ.get("BENCH_INJECT_SLOWDOWN") or 1.0)
ROUND_TARGET = 50e-6   # seconds: short calls are repeated within a round so the timer's resolution does not matter
MAX_ROUNDS = 20000


def repetitions(call, round_seconds: float) -> int:
    """How many calls in a row last at least `round_seconds` (doubling from one): a round of the A/B gate's
    processes and of the claims' paired timings."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            call()
        if time.perf_counter() - start >= round_seconds:
            return n
        n *= 2


def synchronized(fn, device: str):
    if device != "cuda":
        return fn

    def call():
        out = fn()
        torch.cuda.synchronize()
        return out
    return call


def slowed(fn, factor: float):
    """`fn`, then a busy wait of (factor - 1) times its duration; factor 1.0 returns `fn` itself."""
    if factor == 1.0:
        return fn

    def call():
        start = time.perf_counter()
        out = fn()
        until = time.perf_counter() + (factor - 1.0) * (time.perf_counter() - start)
        while time.perf_counter() < until:
            pass
        return out
    return call


def plan(fn, config) -> dict:
    """pedantic() arguments: iterations, rounds and warmup rounds from the slowest of up to 5 calls."""
    max_time = float(config.getoption("benchmark_max_time"))
    fn()
    samples, spent = [], 0.0
    while len(samples) < 5 and spent < max_time / 2:
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
        spent += samples[-1]
    call = max(max(samples), 1e-9)
    iterations = max(1, math.ceil(ROUND_TARGET / call))
    rounds = min(MAX_ROUNDS, max(int(config.getoption("benchmark_min_rounds")),
                                 math.ceil(max_time / (call * iterations))))
    warmup = max(1, rounds // 5) if config.getoption("benchmark_warmup") else 0
    return {"iterations": iterations, "rounds": rounds, "warmup_rounds": warmup}


def run(benchmark, config, fn, device: str, **extra_info):
    """Time fn() on device with pytest-benchmark; record the facts a reader of the JSON needs."""
    benchmark.extra_info.update(extra_info, device=device, torch_version=torch.__version__,
                                load_avg_1min=round(os.getloadavg()[0], 2), injected_slowdown=SLOWDOWN)
    if device == "cuda":
        torch.cuda.synchronize()
    timed = slowed(synchronized(fn, device), SLOWDOWN)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.tensor(t) and new_tensor(t) warn on every call
        return benchmark.pedantic(timed, **plan(timed, config))
