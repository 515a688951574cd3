"""The speed gate's judgement (copysuite.bench.ab.judge) on made-up timings: paired ratios, a t interval over the
pairs, a regression only when the whole interval is above the threshold; a drift of the host that moves both
processes of a pair alike cancels out."""
from unittest import mock

import numpy as np

from copysuite.bench.ab import collect, gate, judge, markdown


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
    with mock.patch("copysuite.bench.ab.run_worker", fake):
        collect("A", "B", 4, [], env={"FIXED": "1"}, candidate_env={"SLOW": "1.1"}, log=lambda *_: None)
    assert [p for p, _ in seen] == ["A", "B", "B", "A", "A", "B", "B", "A"]
    assert all(env == ({"FIXED": "1"} if p == "A" else {"FIXED": "1", "SLOW": "1.1"}) for p, env in seen), seen


def test_the_timed_spec_ops_leave_out_programs_that_write_a_file():
    """Programs that name tmp_file (torch.load(mmap=True)) would time the file system and leave a file per bind."""
    from benchmarks.spec_ops import load_spec_ops
    from copysuite.specs import load_specs

    assert any(e.program.tmp_file for e in load_specs().entries)
    ops = load_spec_ops()
    assert ops and not any(e.program.tmp_file for op in ops for e in op.entries)


def fake_workers(factor_of, burst_op=None):
    """A run_worker stand-in: the candidate's op `op` takes factor_of[op] times the base's; through the first
    collection only, `burst_op` is slowed in the candidate's processes by an episode of the host (30-60%: it is
    flagged by noise). The calls' worker args are kept, to see what the re-timing asked for."""
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
    with mock.patch("copysuite.bench.ab.run_worker", run):
        first, retimed, regressions = gate("A", "B", 4, [], threshold=1.05, log=lambda *_: None)
    assert [v.op for v in first if v.regression] == ["clone@2^20"], first
    assert [v.op for v in retimed] == ["clone@2^20"] and not retimed[0].regression, retimed
    assert regressions == []
    assert all(c[-2:] == ["--ops", "clone@2^20"] for c in calls[8:]) and len(calls) == 16, calls


def test_a_real_slowdown_is_flagged_again_when_retimed_and_fails():
    run, calls = fake_workers({"clone@2^20": 1.10, "view@2^10": 1.0})
    with mock.patch("copysuite.bench.ab.run_worker", run):
        first, retimed, regressions = gate("A", "B", 4, [], threshold=1.05, log=lambda *_: None)
    assert [v.op for v in regressions] == ["clone@2^20"] and regressions[0] is retimed[0], (first, retimed)
    text = markdown(first, 1.05, "# gate", retimed, regressions)
    assert "1 of 2 ops regressed (1 flagged by the first pairs)" in text and "- clone@2^20: 1.09" in text


def test_without_retiming_the_first_pairs_decide():
    run, calls = fake_workers({"clone@2^20": 1.0, "view@2^10": 1.0}, burst_op="clone@2^20")
    with mock.patch("copysuite.bench.ab.run_worker", run):
        _, retimed, regressions = gate("A", "B", 4, [], threshold=1.05, retime=False, log=lambda *_: None)
    assert retimed == [] and [v.op for v in regressions] == ["clone@2^20"] and len(calls) == 8
