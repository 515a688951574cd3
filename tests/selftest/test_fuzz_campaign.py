"""The fuzzer at campaign scale (copysuite/fuzz/campaign.py, merge.py, interrupt.py, search.py): worker seeds derived
from the run's seed, reduction claims shared by the workers, the merge of several runs' reports (synthetic partial
reports; without torch), the time bound covering the reduction, and a run stopped by SIGTERM, in one process and
in two, still writing a valid report that says so. Opt-in (COPYSUITE_FUZZ=1, as in test_fuzz.py: it starts two
processes that each import torch and search): a real two-process run, its dedup and its merge with other reports.
A worker that dies: test_fuzz_journal.py."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from copysuite.fuzz import campaign, command, differential, interrupt, merge, search, shrink
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.run.executions import EXECUTORS

ROOT = Path(__file__).resolve().parents[2]
needs_functionalize = pytest.mark.skipif(EXECUTORS["functionalize"].skip_reason() is not None,
                                         reason=str(EXECUTORS["functionalize"].skip_reason()))
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): two processes import torch")


def finding(key, status="known", statements=2, ops=("add_",), **extra):
    return {"key": list(key), "status": status, "records": ["r1"] if status == "known" else [],
            "unexplained": [] if status == "known" else ["call.raises"], "ops": list(ops), "differences": {},
            "allowed": {}, "eager_error": None, "error": None, "program": "def program(a):\n    return a",
            "original": "", "statements": statements, "original_statements": statements + 3,
            "shrink_attempts": 1, "shrink_stopped": "minimal", "programs_with_key": 1, "reproduction": "", **extra}


def report(execution="functionalize", torch="2.13.0+cpu", seed=1, programs=10, known=2, new=0, findings=(),
           interrupted=None):
    counts = {"programs": programs, "invalid": 0, "same": programs - known - new, "by_design": 0, "known": known,
              "new": new}
    return {"execution": execution, "seed": seed, "caches": "off", "torch": torch,
            "versions": f"torch {torch}, python 3.11.7 (linux)", "counts": counts, "search_seconds": 5.0,
            "programs_per_second": programs / 5, "total_seconds": 6.0, "interrupted": interrupted,
            "findings": list(findings), "workers": [{"worker": 0, "seed": seed}]}


KNOWN = ("known", "r1", "ops:add_")
NEW = ("new", "call.raises", "ops:mul_")


def three_partial_reports(with_new: bool) -> list:
    """Three jobs of one campaign: two seeds of functionalize on 2.13.0 that meet one finding (one of them cut by
    its time bound), and export on 2.14.1 meeting the same finding key (another execution and release: its own)."""
    return [("a.json", report(seed=1, findings=[finding(KNOWN)])),
            ("b.json", report(seed=2, programs=7, known=1, new=int(with_new), interrupted="SIGTERM",
                              findings=[finding(KNOWN), *([finding(NEW, "new", 3)] if with_new else [])])),
            ("c.json", report(execution="export", torch="2.14.1+cpu", seed=1, findings=[finding(KNOWN, statements=4)]))]


def test_merge_dedups_by_finding_execution_and_release():
    merged = merge.merge(three_partial_reports(with_new=True))
    assert merged["counts"]["programs"] == 27 and merged["counts"]["new"] == 1
    keys = [(tuple(f["key"]), f["execution"], f["torch"]) for f in merged["findings"]]
    assert sorted(keys) == sorted([(NEW, "functionalize", "2.13.0+cpu"), (KNOWN, "functionalize", "2.13.0+cpu"),
                                   (KNOWN, "export", "2.14.1+cpu")])
    both = next(f for f in merged["findings"] if f["execution"] == "functionalize" and f["status"] == "known")
    assert both["reports"] == ["a.json", "b.json"] and both["seeds"] == [1, 2] and both["programs_with_key"] == 2
    assert merged["new"] == 1 and merged["interrupted"] == ["b.json"]
    assert merged["statements_per_finding"] == {"findings": 3, "mean": 3.0, "max": 4, "original_mean": 6.0,
                                                "not_reduced_to_the_end": 0}


@pytest.mark.parametrize("with_new", [True, False])
def test_merge_command_fails_on_a_new_finding_only(tmp_path, with_new):
    paths = []
    for name, data in three_partial_reports(with_new):
        (tmp_path / name).write_text(json.dumps(data))
        paths.append(str(tmp_path / name))
    out, md = tmp_path / "merged.json", tmp_path / "merged.md"
    code = command.main(["merge", *paths, "--json", str(out), "--markdown", str(md)])
    assert code == (1 if with_new else 0)
    assert len(json.loads(out.read_text())["runs"]) == 3
    assert ("## new under functionalize" in md.read_text()) == with_new


def test_merge_runs_without_torch(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(three_partial_reports(False)[0][1]))
    (tmp_path / "broken.json").write_text("{")
    code = ("import sys; sys.modules['torch'] = None; from copysuite.__main__ import main; "
            "sys.exit(main(['fuzz', 'merge', *sys.argv[1:]]))")
    ok = subprocess.run([sys.executable, "-c", code, str(tmp_path / "a.json")], cwd=ROOT, capture_output=True,
                        text=True)
    assert ok.returncode == 0, ok.stderr
    broken = subprocess.run([sys.executable, "-c", code, str(tmp_path / "broken.json")], cwd=ROOT,
                            capture_output=True, text=True)
    assert broken.returncode == 2 and "cannot read" in broken.stderr


def test_workers_combine_into_the_single_process_format():
    one = report(seed=5, findings=[finding(KNOWN)])
    two = report(seed=campaign.worker_seed(5, 1), programs=4, known=1, findings=[finding(KNOWN), finding(NEW, "new")])
    combined = merge.combine([one, two])
    assert combined["counts"]["programs"] == 14
    assert [f["key"] for f in combined["findings"]] == [list(NEW), list(KNOWN)]   # new first, each once
    assert combined["findings"][1]["programs_with_key"] == 2
    single = {"execution", "seed", "caches", "versions", "torch", "counts", "search_seconds", "programs_per_second",
              "total_seconds", "interrupted", "keys_claimed_elsewhere", "findings", "statements_per_finding"}
    assert single <= set(combined)


def test_worker_seeds_are_derived_from_the_run_seed():
    seeds = [campaign.worker_seed(7, i) for i in range(4)]
    assert seeds[0] == 7 and len(set(seeds)) == 4
    assert seeds == [campaign.worker_seed(7, i) for i in range(4)]
    assert campaign.worker_seed(8, 1) not in seeds
    restarts = [campaign.worker_seed(7, i, r) for i in range(2) for r in range(1, 4)]
    assert len(set(restarts) | set(seeds)) == 10   # a restarted worker draws programs of its own
    assert sum(campaign.share(41, 4, i) for i in range(4)) == 41 and campaign.share(None, 4, 0) is None
    assert command.MAX_ATTEMPTS == shrink.MAX_ATTEMPTS and command.CACHES == differential.CACHES


def test_time_bounds():
    assert interrupt.bounds(0.0, None) == (None, None)
    assert interrupt.bounds(0.0, 1) == (54.0, 59.0)          # a tenth of the time for a program begun before
    assert interrupt.bounds(0.0, 20) == (1170.0, 1199.0)     # at most 30 seconds


def test_a_key_is_claimed_once(tmp_path):
    first, second = campaign.Claims(str(tmp_path)), campaign.Claims(str(tmp_path))
    assert first(("new", "call.raises")) and not second(("new", "call.raises"))
    assert second(("known", "r1"))


@needs_functionalize
def test_the_reduction_starts_nothing_after_its_deadline():
    program = Program((Input("a"),), (Statement("t1", "add_", ("a",)),), ("t1",))
    run, judged = shrink.verdict(program, "functionalize", "off")
    reduced = shrink.minimize(program, "functionalize", "off", judged.key, deadline=time.monotonic() - 1,
                              start=(run, judged))
    assert (reduced.stopped, reduced.attempts, reduced.program) == ("time", 0, program)


@opt_in
@needs_functionalize
def test_minutes_bound_the_whole_run_reduction_included():
    """Reduction without an attempt limit: only the time bound ends it, and the run ends within its minutes."""
    differential.configure("off")   # imports inductor's config, which takes seconds: not part of the search
    shrink.verdict(Program((Input("a"),), (Statement("t1", "add_", ("a",)),), ("t1",)), "functionalize", "off")
    start = time.monotonic()
    report = command.one_process("functionalize", minutes=0.1, seed=3, programs=None, caches="off",
                                 shrink_attempts=10 ** 6, progress=None)
    assert time.monotonic() - start < 60 * 0.1 + 0.5
    assert report["counts"]["programs"] > 0 and report["total_seconds"] <= 60 * 0.1
    assert report["statements_per_finding"]["findings"] == len(report["findings"])
    assert report["workers"][0]["seed"] == 3 and "seed_derivation" in report


@opt_in
@needs_functionalize
def test_a_run_stopped_by_sigterm_writes_its_report(tmp_path):
    """In one process and in two (started together, to wait once): SIGTERM a few seconds in, wherever the run is."""
    runs = {}
    for processes in (1, 2):
        out = tmp_path / f"fuzz-{processes}.json"
        runs[processes] = out, subprocess.Popen(
            [sys.executable, "-m", "copysuite", "fuzz", "--execution", "functionalize", "--minutes", "1", "-n",
             str(processes), "--json", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(3)
    for _, run in runs.values():
        run.send_signal(signal.SIGTERM)
    for processes, (out, run) in runs.items():
        output, _ = run.communicate(timeout=60)
        assert run.returncode == 128 + signal.SIGTERM, output
        data = json.loads(out.read_text())
        assert data["interrupted"] == "SIGTERM" and data["execution"] == "functionalize", output
        assert len(data["workers"]) + len(data["workers_without_report"]) == processes
        assert set(data["counts"]) == set(merge.COUNTS) and "interrupted (SIGTERM)" in output
        assert data["total_seconds"] < 30


@opt_in
@needs_functionalize
@pytest.mark.timeout(600)   # two processes import torch and search, then the test searches again, maybe under load
def test_two_processes_share_the_reduction_and_merge(tmp_path):
    out = tmp_path / "two.json"
    done = subprocess.run([sys.executable, "-m", "copysuite", "fuzz", "--execution", "functionalize", "--programs",
                           "120", "-n", "2", "--seed", "0", "--shrink-attempts", "5", "--json", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data["counts"]["programs"] == 120 and [w["programs"] for w in data["workers"]] == [60, 60]
    assert data["cpu_seconds"] > data["search_seconds"] * 0.1, "the workers' CPU time, counted"   # two searches ran
    assert [w["seed"] for w in data["workers"]] == [0, campaign.worker_seed(0, 1)]
    verdict_keys = [tuple(f["key"][:-1]) for f in data["findings"]]
    assert len(verdict_keys) == len(set(verdict_keys)), "a verdict key was reduced by both workers"
    assert data["keys_claimed_elsewhere"] > 0, "the workers met no key in common: nothing shown"
    alone = search.search("functionalize", seed=0, programs=60, shrink_attempts=5)
    assert data["workers"][0]["counts"] == alone["counts"], "worker 0 draws what the run's seed alone draws"
    merged = merge.merge([("two.json", data), *three_partial_reports(False)])
    assert merged["counts"]["programs"] == 147
