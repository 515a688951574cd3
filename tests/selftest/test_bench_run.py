"""python -m benchmarks.run: the pooled document is what pytest-benchmark would compute over every process's rounds.

Needs pytest-benchmark (requirements-bench.txt); without it these tests skip and say so. .ci/run installs it and
runs this file together with a small end-to-end `python -m benchmarks`.
"""
import statistics

import pytest

pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is not installed (requirements-bench.txt)")
from benchmarks.run import pooled, process_command


def part(data_by_name, iterations=10, load=0.5):
    return {"machine_info": {"torch_version": "x"}, "commit_info": {}, "version": "5",
            "benchmarks": [{"fullname": name, "name": name, "group": "g", "params": None, "param": None,
                            "options": {}, "extra_info": {"op": name, "load_avg_1min": load},
                            "stats": {"data": data, "median": statistics.median(data), "iterations": iterations}}
                           for name, data in data_by_name.items()]}


def test_statistics_are_over_the_rounds_of_every_process():
    doc = pooled([part({"a": [1.0, 2.0, 3.0], "b": [5.0]}), part({"a": [10.0, 20.0], "b": [6.0]}, iterations=4)])
    a, b = doc["benchmarks"]
    assert [a["fullname"], b["fullname"]] == ["a", "b"]
    assert a["stats"]["rounds"] == 5 and a["stats"]["median"] == 3.0 and a["stats"]["min"] == 1.0
    assert a["stats"]["max"] == 20.0 and a["stats"]["mean"] == pytest.approx(36.0 / 5)
    assert a["stats"]["iterations"] == [10, 4]
    assert a["extra_info"]["processes"] == 2 and a["extra_info"]["process_medians"] == [2.0, 15.0]
    assert a["extra_info"]["load_avg_1min"] == 0.5 and a["extra_info"]["process_load_avg_1min"] == [0.5, 0.5]
    assert "data" not in a["stats"]
    assert b["stats"]["median"] == 5.5
    assert doc["machine_info"] == {"torch_version": "x"}


def test_one_process_in_a_different_state_moves_the_pooled_median_less_than_its_own():
    normal = [1.0 + 0.01 * k for k in range(100)]
    shifted = [1.5 + 0.01 * k for k in range(100)]
    doc = pooled([part({"a": normal}), part({"a": shifted}), part({"a": normal})])
    assert statistics.median(normal) < doc["benchmarks"][0]["stats"]["median"] < statistics.median(shifted) - 0.3


def test_raw_rounds_are_kept_on_request():
    assert pooled([part({"a": [1.0]}), part({"a": [2.0]})], keep_data=True)["benchmarks"][0]["stats"]["data"] \
        == [1.0, 2.0]


@pytest.mark.parametrize("args", [[], ["--bench-max-exp=4"], ["-k", "clone"]])
def test_options_alone_still_name_the_benchmark_directory(tmp_path, args):
    # without a path pytest would run the conformance suite and pool nothing
    cmd = process_command("python", tmp_path / "p.json", 0.01, 2, True, args)
    assert cmd[-len(args) - 1:] == ["benchmarks", *args]


def test_each_process_gets_its_share_and_only_the_first_measures_memory(tmp_path):
    first = process_command("python", tmp_path / "p.json", 0.05, 2, True, ["benchmarks/test_spec_ops.py"])
    later = process_command("python", tmp_path / "p.json", 0.05, 2, False, ["benchmarks/test_spec_ops.py"])
    assert "--benchmark-max-time=0.05" in first and "--benchmark-save-data" in first
    assert "--bench-no-memory" not in first and "--bench-no-memory" in later


def test_a_process_times_only_after_all_are_ready_and_the_one_before_is_done(tmp_path):
    from benchmarks.turns import Turn

    first, second = Turn(tmp_path, 0, 2), Turn(tmp_path, 1, 2)
    with pytest.raises(TimeoutError, match=r"missing \['ready1'\]"):
        first.wait(timeout=0.05)  # the second process has not collected yet
    with pytest.raises(TimeoutError, match=r"missing \['done0'\]"):
        second.wait(timeout=0.05)  # ready now, but the first has not finished timing
    first.done()
    assert second.wait(timeout=1.0) < 1.0


def test_a_failed_process_stops_the_others_waiting_for_their_turn(tmp_path):
    import sys
    import time

    from benchmarks.run import run_processes

    waiter = [sys.executable, "-c", "from benchmarks.turns import Turn; Turn.from_env().wait()"]
    start = time.perf_counter()
    parts = run_processes([[sys.executable, "-c", "raise SystemExit(3)"], waiter], [tmp_path / "a", tmp_path / "b"],
                          tmp_path)
    assert parts is None and time.perf_counter() - start < 30


def test_a_benchmark_process_passes_its_turn_on_and_ends_with_pytests_exit_status(tmp_path):
    from types import SimpleNamespace
    from unittest import mock

    from benchmarks import conftest
    from benchmarks.turns import Turn

    config = SimpleNamespace(_copysuite_turn=Turn(tmp_path, 0, 2))
    conftest.pytest_sessionfinish(SimpleNamespace(config=config), 5)   # e.g. nothing collected
    with mock.patch.object(conftest.os, "_exit") as exit_now:
        conftest.pytest_unconfigure(config)
    exit_now.assert_called_once_with(5)
    assert (tmp_path / "done0").exists()
