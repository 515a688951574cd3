"""A campaign's worker that dies (copysuite/fuzz/journal.py, campaign.py): what a dead process's journal holds, the
keys it hands its restart, and the report built from what each process left, dead or not (synthetic files; without
torch). Opt-in (COPYSUITE_FUZZ=1,
as in test_fuzz_campaign.py: it starts six processes that each import torch and search): workers killed by a real
SIGSEGV, what they found kept and named in the report, and restarted."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from copysuite.fuzz import campaign, command, journal, merge, search
from tests.selftest.test_fuzz_campaign import KNOWN, NEW, ROOT, finding, needs_functionalize, opt_in, report


class Text:
    """A program as the journal sees it."""

    def __init__(self, text):
        self.text = lambda: text


TRACE = """Fatal Python error: Segmentation fault

Thread 0x00007f0000000001 (most recent call first):
  File "/x/threading.py", line 324 in wait

Current thread 0x00007f0000000002 (most recent call first):
  File "/x/torch/_ops.py", line 841 in __call__
  File "<copysuite fuzz>", line 3 in program
  File "/x/copysuite/fuzz/differential.py", line 130 in __call__

Extension modules: numpy.core._multiarray_umath (total: 1)"""


def dead_journal(folder, worker=0, restart=0):
    """What a process that died in its reduction leaves: two keys claimed, one reduced, the last line cut."""
    diary = journal.Journal(str(folder), worker, restart)
    diary.begin({"execution": "functionalize", "seed": 9, "caches": "off", "versions": "torch 2.13.0+cpu, python",
                 "torch": "2.13.0+cpu", "vocabulary": "default"})
    counts = dict.fromkeys(merge.COUNTS, 0)
    diary.running(Text("first"), dict(counts), 0.5)
    diary.found(KNOWN, finding((*KNOWN, "ops:add_,mul"), statements=5))
    diary.running(Text("second"), {**counts, "programs": 1, "known": 1}, 1.0)
    diary.found(NEW, finding((*NEW, "ops:mul_"), "new", 3))
    diary.searched({**counts, "programs": 2, "known": 1, "new": 1}, 2.0)
    diary.reduced(KNOWN, finding((*KNOWN, "ops:add_"), statements=1))
    with open(journal.name(str(folder), worker, restart, "jsonl"), "a") as f:
        f.write('{"reduced": ["kno')
    Path(journal.name(str(folder), worker, restart, "trace")).write_text(TRACE)


def test_a_dead_process_leaves_its_counts_and_findings(tmp_path):
    dead_journal(tmp_path)
    left = journal.left(str(tmp_path), 0, 0)
    assert left["counts"]["programs"] == 2 and left["counts"]["new"] == 1 and left["seed"] == 9
    assert [(f["key"], f["shrink_stopped"]) for f in left["findings"]] == [
        ([*NEW, "ops:mul_"], "died"), ([*KNOWN, "ops:add_"], "minimal")]   # the reduced one, not its first program
    death = journal.death(str(tmp_path), 0, 0, -signal.SIGSEGV)
    assert (death["signal"], death["programs"], death["during"], death["last_program"]) == ("SIGSEGV", 2,
                                                                                          "reduction", None)
    assert death["innermost"] == 'File "/x/torch/_ops.py", line 841 in __call__'
    assert death["in_program"] == 'File "<copysuite fuzz>", line 3 in program'
    assert death["trace"].splitlines()[:3] == ["Fatal Python error: Segmentation fault", "",
                                               "Current thread 0x00007f0000000002 (most recent call first):"]
    assert "threading.py" in death["trace"]   # the other threads follow
    assert journal.left(str(tmp_path), 1, 0) is None   # a process that left nothing


def test_the_report_holds_what_dead_processes_left(tmp_path):
    """Worker 0 wrote its report; worker 1 died, was restarted, and its restart died before its search began."""
    Path(journal.name(str(tmp_path), 0, 0, "json")).write_text(json.dumps(report(seed=5, findings=[finding(KNOWN)])))
    dead_journal(tmp_path, worker=1)
    processes = [SimpleNamespace(index=i, restart=r, seed=campaign.worker_seed(5, i, r),
                                 process=SimpleNamespace(pid=1, exitcode=code))
                 for i, r, code in ((0, 0, 0), (1, 0, -signal.SIGSEGV), (1, 1, 1))]
    deaths = [journal.death(str(tmp_path), 1, 0, -signal.SIGSEGV)]
    data = campaign.assemble(str(tmp_path), processes, deaths, {"seed": 5, "workers": 2}, None, 3.0)
    assert data["counts"]["programs"] == 12 and data["counts"]["new"] == 1
    assert [f["key"] for f in data["findings"]] == [[*NEW, "ops:mul_"], list(KNOWN), [*KNOWN, "ops:add_"]]
    assert [(w["worker"], w["restart"], w["died"]) for w in data["workers"]] == [(0, 0, False), (1, 0, True)]
    assert data["workers_without_report"] == [{"worker": 1, "restart": 1, "seed": campaign.worker_seed(5, 1, 1),
                                               "exitcode": 1}]
    assert data["deaths"][0]["signal"] == "SIGSEGV" and data["statements_per_finding"]["not_reduced_to_the_end"] == 1
    assert "died: worker 1 restart 0 by SIGSEGV after 2 programs, during its reduction" in command.summary(
        {**data, "deaths": [{**deaths[0], "restarted": True}]})
    assert merge.merge([("a.json", data)])["runs"][0]["workers"] == 2


def test_the_keys_a_dead_process_did_not_reduce_go_to_its_restart(tmp_path):
    """Each claimed key with its program and seed; not a key without its program, nor the one whose reduction was
    under way when the process died (that reduction may be what kills it), nor one reduced."""
    diary = journal.Journal(str(tmp_path), 0, 0)
    diary.begin({"execution": "functionalize", "seed": 9})
    counts = dict.fromkeys(merge.COUNTS, 0)
    diary.found(KNOWN, {**finding((*KNOWN, "ops:add_"), seed=9), "program_data": "first program"})
    diary.found(NEW, {**finding((*NEW, "ops:mul_"), "new", seed=9), "program_data": "second program"})
    diary.found(("other",), finding(("other", "ops:neg"), seed=9))   # no program: cannot be reduced elsewhere

    def handed():
        return [(tuple(key), program, seed)
                for key, program, seed in journal.unreduced(str(tmp_path), 0, 0)]
    assert handed() == [(KNOWN, "first program", 9), (NEW, "second program", 9)]   # died in the search
    diary.searched(counts, 1.0)
    diary.reducing(KNOWN)
    assert handed() == [(NEW, "second program", 9)]
    diary.reduced(NEW, finding((*NEW, "ops:mul_"), "new", seed=9))
    assert handed() == []
    assert journal.unreduced(str(tmp_path), 1, 0) == []   # a process that left nothing


def test_the_restart_s_reduced_finding_replaces_the_dead_process_s_first_program():
    """Where the restart reduced a key the dead process left unreduced, the report keeps the reduced finding only;
    a key nobody reduced stays, marked."""
    dead = report(findings=[finding((*NEW, "ops:mul_,add_"), "new", 3, shrink_stopped="died"),
                            finding((*KNOWN, "ops:add_"), shrink_stopped="died")])
    restart = report(findings=[finding((*NEW, "ops:mul_"), "new", 1)])
    combined = merge.combine([dead, restart])
    assert [(f["key"], f["shrink_stopped"]) for f in combined["findings"]] == [
        ([*NEW, "ops:mul_"], "minimal"), ([*KNOWN, "ops:add_"], "died")]


@opt_in
@needs_functionalize
@pytest.mark.timeout(600)   # six processes import torch, on a possibly busy machine
def test_a_worker_killed_by_a_signal_keeps_what_it_found_and_is_restarted(tmp_path):
    """A real SIGSEGV (the test-only hook of copysuite.fuzz.journal): worker 0's first process dies before its
    program 17 (seed 3's first 16 programs meet four keys), and its restart runs the rest of its share; worker 1
    dies before its program 3 in every process, so that its restarts end at MAX_RESTARTS. What the dead processes
    found is in the report."""
    out = tmp_path / "dead.json"
    done = subprocess.run([sys.executable, "-m", "copysuite", "fuzz", "--execution", "functionalize", "--programs",
                           "48", "-n", "2", "--seed", "3", "--shrink-attempts", "5", "--json", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, journal.DEATH_HOOK: "0:16:1,1:2:99"})
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    deaths = sorted((d["worker"], d["restart"], d["signal"], d["programs"], d["restarted"]) for d in data["deaths"])
    assert deaths == [(0, 0, "SIGSEGV", 16, True), *[(1, r, "SIGSEGV", 2, r < campaign.MAX_RESTARTS)
                                                   for r in range(campaign.MAX_RESTARTS + 1)]], done.stderr
    first = next(d for d in data["deaths"] if d["worker"] == 0)
    assert "Segmentation fault" in first["trace"] and "journal.py" in first["innermost"], first
    assert "def program(" in first["last_program"] and first["during"] == "search"
    assert data["deaths"][-1]["why_not_restarted"] == f"{campaign.MAX_RESTARTS} restarts used"
    parts = {(w["worker"], w["restart"]): w for w in data["workers"]}
    alone = search.search("functionalize", seed=3, programs=16, shrink_attempts=5)
    assert parts[0, 0]["died"] and parts[0, 0]["counts"] == alone["counts"], "the dead process's counts"
    assert parts[0, 0]["findings"] > 0, "worker 0 claimed no key before it died: nothing shown"
    keys = {tuple(f["key"][:-1]) for f in data["findings"]}
    assert {tuple(f["key"][:-1]) for f in alone["findings"]} <= keys, "a key the dead process found is lost"
    assert (parts[0, 1]["seed"], parts[0, 1]["programs"], parts[0, 1]["died"]) == (
        campaign.worker_seed(3, 0, 1), 8, False), "the restart runs the rest of worker 0's share"
    assert data["counts"]["programs"] == 24 + 2 * (campaign.MAX_RESTARTS + 1)
    assert "died: worker 0 restart 0 by SIGSEGV after 16 programs" in done.stdout
    # the keys worker 0's first process claimed and did not reduce (its seed's findings), reduced by its restart
    claimed = [f for f in data["findings"] if f["seed"] == 3]
    assert len(claimed) == first["keys_handed_to_restart"] == parts[0, 0]["findings"], first
    assert all(f["shrink_stopped"] != "died" for f in claimed), [f["shrink_stopped"] for f in claimed]


@opt_in
@needs_functionalize
@pytest.mark.timeout(600)
def test_one_process_killed_by_a_signal_still_reports(tmp_path):
    """`-n 1` searches in a worker process too: killed by a real SIGSEGV after 6 programs, it is named, restarted
    with the rest of the programs, and the report holds both processes' programs."""
    out = tmp_path / "one.json"
    done = subprocess.run([sys.executable, "-m", "copysuite", "fuzz", "--execution", "functionalize", "--programs",
                           "12", "--seed", "3", "--shrink-attempts", "5", "--json", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env={**os.environ, journal.DEATH_HOOK: "0:6:1"})
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert [(d["worker"], d["restart"], d["signal"], d["programs"], d["restarted"]) for d in data["deaths"]] == [
        (0, 0, "SIGSEGV", 6, True)], done.stderr
    assert data["counts"]["programs"] == 12 and "died: worker 0 restart 0 by SIGSEGV after 6 programs" in done.stdout
