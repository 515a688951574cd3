"""The speed gate's judgement (benchmarks.ab.judge) on made-up timings: paired ratios, a t interval over the
pairs, a regression only when the whole interval is above the threshold; a drift of the host that moves both
processes of a pair alike cancels out, and so does one that moves while a pair is timed (collect asks the two
processes in turn, op by op)."""
from unittest import mock

import numpy as np

from benchmarks.ab import SUITE, collect, gate, judge, judge_suite, markdown


class FakeWorker:
    """A stand-in for benchmarks.ab.Worker serving the timings `run(python, env, args)` gives its process."""

    def __init__(self, timings):
        self.timings, self.ops = timings, list(timings)

    def time(self, op):
        return self.timings[op]

    def close(self):
        pass


def workers(run):
    """start_worker for collect(): one FakeWorker per process started, its timings from `run`."""
    return lambda python, env, args: FakeWorker(run(python, env, args))


def pairs_of(base_seconds, factor, drift, noise=0.01, seed=1):
    """Five pairs of processes; in pair i both sides run `drift[i]` times slower (the host), the candidate `factor`
    times slower than the base, each round with `noise` relative jitter."""
    rng = np.random.default_rng(seed)
    out = []
    for d in drift:
        side = lambda f: {op: list(s * f * d * (1 + noise * rng.standard_normal(5))) for op, s in base_seconds.items()}
        out.append((side(1.0), side(factor)))
    return out


OPS = {"clone@2^20": 1e-4, "detach@2^10": 1e-6}
DRIFT = [1.0, 1.3, 0.9, 1.5, 1.1]  # 50% swings between pairs: far more than any regression we look for


def test_the_same_speed_passes_under_drift():
    verdicts = judge(pairs_of(OPS, 1.0, DRIFT), threshold=1.05)
    assert [v.regression for v in verdicts] == [False, False]
    assert all(0.97 < v.ratio < 1.03 for v in verdicts)


def test_ten_percent_slower_fails_under_drift_and_names_the_op():
    verdicts = judge(pairs_of(OPS, 1.10, DRIFT), threshold=1.05)
    assert all(v.regression and 1.05 < v.low < v.ratio < v.high for v in verdicts), verdicts
    assert "| clone@2^20 | 1.1" in markdown(verdicts, 1.05, "# gate")


def test_an_op_only_one_side_has_is_not_judged():
    pairs = pairs_of(OPS, 1.0, DRIFT)
    pairs[0][1]["extra@2^10"] = [1e-6]
    assert [v.op for v in judge(pairs, threshold=1.05)] == sorted(OPS)


def test_only_the_candidates_processes_get_the_candidate_env():
    """Every pair, in either order: the base's processes see `env` alone, the candidate's `env` plus its own (a
    loop variable once shadowed `env`, so from the second pair on the base was injected too and 1.5x passed)."""
    seen = []
    fake = lambda python, env, args: seen.append((python, dict(env))) or {"op": [1.0]}
    with mock.patch("benchmarks.ab.start_worker", workers(fake)):
        collect("A", "B", 4, [], env={"FIXED": "1"}, candidate_env={"SLOW": "1.1"}, log=lambda *_: None)
    assert [p for p, _ in seen] == ["A", "B", "B", "A", "A", "B", "B", "A"]
    assert all(env == ({"FIXED": "1"} if p == "A" else {"FIXED": "1", "SLOW": "1.1"}) for p, env in seen), seen


def test_the_timed_spec_ops_leave_out_programs_that_write_a_file():
    """Programs that name tmp_file (torch.load(mmap=True)) would time the file system and leave a file per bind."""
    from benchmarks.spec_ops import load_spec_ops
    from copysuite.spec.load import load_specs

    assert any(e.program.tmp_file for e in load_specs().entries)
    ops = load_spec_ops()
    assert ops and not any(e.program.tmp_file for op in ops for e in op.entries)


def fake_workers(factor_of, burst_op=None):
    """Timings per process (for `workers`): the candidate's op `op` takes factor_of[op] times the base's; through
    the first collection only, `burst_op` is slowed in the candidate's processes by an episode of the host (30-60%:
    it is flagged by noise). The calls' worker args are kept, to see what the re-timing asked for."""
    calls, rng, bursts = [], np.random.default_rng(2), iter([1.3, 1.5, 1.4, 1.6])

    def run(python, env, args):
        calls.append(list(args))
        retiming = "--ops" in args
        ops = args[args.index("--ops") + 1].split(",") if retiming else list(factor_of)
        burst = next(bursts) if python == "B" and not retiming else 1.0
        return {op: list(1e-4 * (factor_of[op] if python == "B" else 1.0) * (burst if op == burst_op else 1.0)
                         * (1 + 0.01 * rng.standard_normal(5))) for op in ops}
    return run, calls


def test_an_op_flagged_by_a_burst_of_the_host_is_retimed_alone_and_passes():
    run, calls = fake_workers({"clone@2^20": 1.0, "view@2^10": 1.0}, burst_op="clone@2^20")
    with mock.patch("benchmarks.ab.start_worker", workers(run)):
        first, suite, retimed, regressions = gate("A", "B", 4, [], threshold=1.05, log=lambda *_: None)
    assert [v.op for v in first if v.regression] == ["clone@2^20"], first
    assert [v.op for v in retimed] == ["clone@2^20"] and not retimed[0].regression, retimed
    assert regressions == []
    assert all(c[-2:] == ["--ops", "clone@2^20"] for c in calls[8:]) and len(calls) == 16, calls


def test_a_real_slowdown_is_flagged_again_when_retimed_and_fails():
    run, calls = fake_workers({"clone@2^20": 1.10, "view@2^10": 1.0})
    with mock.patch("benchmarks.ab.start_worker", workers(run)):
        first, suite, retimed, regressions = gate("A", "B", 4, [], threshold=1.05, log=lambda *_: None)
    assert [v.op for v in regressions] == ["clone@2^20"] and regressions[0] is retimed[0], (first, retimed)
    text = markdown(first, 1.05, "# gate", retimed, regressions)
    assert "1 of 2 ops regressed (1 flagged by the first pairs)" in text and "- clone@2^20: 1.09" in text


def test_without_retiming_the_first_pairs_decide():
    run, calls = fake_workers({"clone@2^20": 1.0, "view@2^10": 1.0}, burst_op="clone@2^20")
    with mock.patch("benchmarks.ab.start_worker", workers(run)):
        _, suite, retimed, regressions = gate("A", "B", 4, [], threshold=1.05, retime=False, log=lambda *_: None)
    assert retimed == [] and [v.op for v in regressions] == ["clone@2^20"] and len(calls) == 8


class DriftingWorker:
    """A process on a host that slows down while the pair is timed: each timing any process takes comes out 2% slower
    than the one before it (`clock` counts them across both processes of the pair)."""

    def __init__(self, ops, clock):
        self.ops, self.clock = ops, clock

    def time(self, op):
        self.clock.append(op)
        return [1e-4 * 1.02 ** len(self.clock)]

    def close(self):
        pass


def test_a_drift_while_a_pair_is_timed_cancels_because_the_processes_take_turns_op_by_op():
    """Timed one whole process after the other, a candidate timing comes 20 timings (1.02 ** 20: 1.49x) after or
    before its base's, so each pair's ratios are off by about 1.5x one way or the other (made so, this test fails);
    asked in turn, A B for one op and B A for the next, the ratios stay within 3% of 1."""
    ops = [f"op{i}@2^10" for i in range(20)]
    clocks, started = [], []

    def start(python, env, args):   # the two processes of a pair share a clock
        if len(started) % 2 == 0:
            clocks.append([])
        started.append(python)
        return DriftingWorker(ops, clocks[-1])
    with mock.patch("benchmarks.ab.start_worker", start):
        verdicts = judge(collect("A", "B", 4, [], log=lambda *_: None), threshold=1.05)
    assert len(verdicts) == 20 and not any(v.regression for v in verdicts), verdicts
    assert all(0.97 < v.ratio < 1.03 for v in verdicts), verdicts


def ops_apart(factor, n_ops=200, pairs=6, op_noise=0.1, seed=3):
    """Timings of `n_ops` ops in `pairs` pairs where each fresh process times each op some 10% apart from the next
    (`op_noise`, log-normal: its own pages and caches; a 4 MiB copy, measured, up to 50%), the candidate `factor`
    times slower on every op."""
    rng = np.random.default_rng(seed)
    side = lambda f: {f"op{i}@2^20": [1e-4 * f * np.exp(op_noise * rng.standard_normal())] for i in range(n_ops)}
    return [(side(1.0), side(factor)) for _ in range(pairs)]


def test_every_op_ten_percent_slower_is_seen_at_once_where_no_single_op_is():
    pairs = ops_apart(1.10)
    assert sum(v.regression for v in judge(pairs, threshold=1.05)) < 50   # one op alone: seen now and then
    suite = judge_suite(pairs, threshold=1.05)
    assert suite.op == SUITE and suite.regression and 1.05 < suite.low < 1.10 < suite.high < 1.15, suite


def test_every_op_at_the_same_speed_is_no_regression_at_once():
    suite = judge_suite(ops_apart(1.0), threshold=1.05)
    assert not suite.regression and 0.97 < suite.low < 1.0 < suite.high < 1.03, suite


def test_a_few_ops_are_no_suite():
    assert judge_suite(ops_apart(1.10, n_ops=19), threshold=1.05) is None


def test_the_gate_fails_on_every_op_slower_and_the_report_says_so():
    """No op flagged twice, yet the gate fails: the suite's verdict is a regression of its own."""
    pairs = iter(ops_apart(1.10) + ops_apart(1.0, seed=4))
    with mock.patch("benchmarks.ab.collect", lambda *a, **k: [next(pairs) for _ in range(6)]):
        first, suite, retimed, regressions = gate("A", "B", 6, [], threshold=1.05, log=lambda *_: None)
    assert regressions[0] is suite and suite.regression, suite
    text = markdown(first, 1.05, "# gate", retimed, regressions, suite)
    assert f"- {SUITE}: {suite.ratio:.3f}" in text and "a regression." in text
