"""The report tools on hand-made outcome files: the upgrade gate (declared vs undeclared, exit codes), the matrix,
the change log, and all three where torch cannot be imported."""
import copy
import json
import subprocess
import sys

from pathlib import Path

import pytest

from copysuite.report import gate, matrix, matrix_command
from copysuite.spec.declared import summarize
from copysuite.judge.failures import FAILURE_KINDS
from copysuite.outcome.format import FORMAT, SCHEMA
from copysuite.spec.load import load_specs

SPEC_ENTRIES = summarize(load_specs().entries)  # the real specs' declarations (torch-free)
ASARRAY = "torch.asarray:copy_none"
ROOT = Path(__file__).resolve().parents[2]


def cell(entry, check, outcome, reason=None, failure=None):
    return {"id": f"{entry}-{check}-cpu-eager", "entry": entry, "check": check, "device": "cpu", "execution": "eager",
            "outcome": outcome,
            "skip_reason": reason, "failure": failure}


def doc(torch_version, cells, failed_tests=(), digest="specs-1"):
    return {"format": FORMAT, "created": "2026-11-22T00:00:00+00:00", "torch": torch_version, "numpy": "2.0",
            "python": "3.11", "platform": "linux", "hypothesis_profile": "ci", "devices": {"cpu": "available"},
            "specs": {"digest": digest, "revision": None, "files": [], "entries": SPEC_ENTRIES},
            "session": {"passed": 1, "failed": len(failed_tests), "skipped": 0, "xfailed": 0, "xpassed": 0,
                        "errors": 0, "failed_tests": list(failed_tests)},
            "casualties": [], "cells": copy.deepcopy(cells)}


def mismatch(expected, observed):
    return {"kind": "mismatch", "expected": expected, "observed": observed, "message": "..."}


HELD = [cell("clone", "shares_storage", "passed"), cell(ASARRAY, "requires_grad", "passed")]


def write(tmp_path, name, document):
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


def run_gate(tmp_path, base, cand, *extra):
    a, b = write(tmp_path, "a.json", base), write(tmp_path, "b.json", cand)
    md = tmp_path / "gate.md"
    return gate.main([a, b, "--markdown", str(md), *extra]), md.read_text()


def test_same_outcomes_pass_and_list_the_declared_change(tmp_path):
    code, md = run_gate(tmp_path, doc("2.10.0", HELD), doc("2.12.1", HELD))
    assert code == 0 and "PASS" in md
    assert f"{ASARRAY}.requires_grad" in md and "pull/170897" in md


def test_a_difference_the_specs_explain_is_declared(tmp_path):
    # a run judged against the old expectation would fail on the new release: the gate names the evidence
    cand = doc("2.12.1", [HELD[0], cell(ASARRAY, "requires_grad", "failed", failure=mismatch(False, True))])
    code, md = run_gate(tmp_path, doc("2.10.0", HELD), cand)
    assert f"[declared] {ASARRAY} / requires_grad / cpu / eager: passed -> failed" in md
    assert code == 1, "a failure on the candidate fails the gate even when declared"


@pytest.mark.parametrize("candidate", ["skipped", "absent"])
def test_a_value_gate_does_not_explain_a_cell_that_is_skipped_or_gone(tmp_path, candidate):
    """The asarray gate changes the expected value between 2.10 and 2.12: that explains held <-> failed, never a
    cell the candidate skipped or does not have."""
    cells = [HELD[0]] + ([cell(ASARRAY, "requires_grad", "skipped", reason="why")] if candidate == "skipped" else [])
    code, md = run_gate(tmp_path, doc("2.10.0", HELD), doc("2.12.1", cells))
    assert code == 1 and f"[UNDECLARED] {ASARRAY} / requires_grad / cpu / eager: passed -> {candidate}" in md


def test_an_entry_torch_range_explains_a_cell_judged_only_from_its_first_release(tmp_path):
    # `H` applies to torch>=1.11 (specs/views.yaml): skipped on 1.10, judged on 1.13.1
    base = doc("1.10.2", HELD + [cell("H", "shares_storage", "skipped", reason="applies to torch>=1.11")])
    code, md = run_gate(tmp_path, base, doc("1.13.1", HELD + [cell("H", "shares_storage", "passed")]))
    assert code == 0 and "[declared] H / shares_storage / cpu / eager: skipped -> passed" in md, md


def test_a_pre_release_is_judged_by_its_release(tmp_path):
    code, md = run_gate(tmp_path, doc("2.10.0", HELD), doc("2.12.0a0+git1234", HELD))
    assert code == 0 and f"{ASARRAY}.requires_grad" in md, "2.12.0a0 is judged as 2.12"


def test_an_unexplained_difference_fails_the_gate(tmp_path):
    cand = doc("2.14.1", [cell("clone", "shares_storage", "skipped", reason="why"), HELD[1]])
    code, md = run_gate(tmp_path, doc("2.13.0", HELD), cand)
    assert code == 1 and "[UNDECLARED] clone / shares_storage / cpu / eager: passed -> skipped" in md


def test_a_failing_seed_scenario_on_the_candidate_fails_the_gate(tmp_path):
    cand = doc("2.14.1", HELD, failed_tests=["tests/seeds/test_002_zh.py::test_x"])
    code, md = run_gate(tmp_path, doc("2.13.0", HELD), cand)
    assert code == 1 and "tests/seeds/test_002_zh.py::test_x" in md


def test_runs_judged_by_different_spec_sets_fail_the_gate(tmp_path):
    code, md = run_gate(tmp_path, doc("2.13.0", HELD), doc("2.14.1", HELD, digest="specs-2"))
    assert code == 1 and "different spec sets" in md


def test_same_flags_any_change_in_details(tmp_path):
    base = doc("2.13.0", [cell("clone", "shares_storage", "skipped", reason="one reason")])
    cand = doc("2.13.0", [cell("clone", "shares_storage", "skipped", reason="another reason")])
    assert run_gate(tmp_path, base, base, "--same")[0] == 0
    assert run_gate(tmp_path, base, cand, "--same")[0] == 1


def test_a_file_that_is_not_an_outcome_document_is_refused(tmp_path):
    bad = doc("2.13.0", HELD)
    del bad["cells"][0]["outcome"]
    a, b = write(tmp_path, "a.json", doc("2.13.0", HELD)), write(tmp_path, "b.json", bad)
    assert gate.main([a, b]) == 2


def test_matrix_cells_and_totals(tmp_path):
    write(tmp_path, "a.json", doc("2.10.0", HELD))
    write(tmp_path, "b.json", doc("2.12.1", [HELD[0], cell(ASARRAY, "requires_grad", "failed",
                                                           failure=mismatch(False, True))]))
    md = tmp_path / "m.md"   # the HTML page: test_matrix_page.py
    assert matrix_command.main([str(tmp_path), "--markdown", str(md)]) == 0
    text = md.read_text()
    assert f"| {ASARRAY} | requires_grad | ✓ | ✗ |" in text
    assert "| failed | 0 | 1 |" in text and "Rows whose outcome differs between columns (1)" in text


def test_numpy_is_a_factor_of_a_release_only_where_both_majors_ran(tmp_path):
    """Runs of one torch with NumPy 1 and NumPy 2 become two columns (`2.13.0 numpy 1`, `2.13.0 numpy 2`); a release
    run with one NumPy stays one column, named by its torch alone."""
    write(tmp_path, "a.json", {**doc("2.13.0", HELD), "numpy": "2.4.6"})
    write(tmp_path, "b.json", {**doc("2.13.0", [HELD[0], cell(ASARRAY, "requires_grad", "failed",
                                                              failure=mismatch(False, True))]), "numpy": "1.26.4"})
    write(tmp_path, "c.json", {**doc("2.12.1", HELD), "numpy": "2.4.6"})
    runs = matrix.load_runs([tmp_path])
    assert [matrix.release(r) for r in runs] == ["2.12.1", "2.13.0 numpy 1", "2.13.0 numpy 2"]
    md, page = tmp_path / "m.md", tmp_path / "m.html"
    assert matrix_command.main([str(tmp_path), "--markdown", str(md), "--html", str(page)]) == 0
    assert f"| {ASARRAY} | requires_grad | ✓ | ✗ | ✓ |" in md.read_text()
    assert 'data-axis="release" value="2.13.0 numpy 1"' in page.read_text()


NO_TORCH = "import sys; sys.modules['torch'] = None; from copysuite.__main__ import main; sys.exit(main(sys.argv[1:]))"


def test_the_outcome_schema_knows_every_failure_kind():
    failure = SCHEMA["properties"]["cells"]["items"]["properties"]["failure"]["oneOf"][1]
    assert tuple(failure["properties"]["kind"]["enum"]) == FAILURE_KINDS


@pytest.mark.parametrize("command", ["gate", "matrix", "changelog", "known"])
def test_report_tools_run_without_torch(tmp_path, command):
    """`import torch` fails in these processes: the tools must not need it (they run where torch is absent)."""
    a, b = write(tmp_path, "a.json", doc("2.10.0", HELD)), write(tmp_path, "b.json", doc("2.12.1", HELD))
    args = {"gate": [a, b], "matrix": [str(tmp_path), "--markdown", str(tmp_path / "m.md")],
            "changelog": ["--output", str(tmp_path / "c.md")], "known": ["--output", str(tmp_path / "k.md")]}[command]
    proc = subprocess.run([sys.executable, "-c", NO_TORCH, command, *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    probe = subprocess.run([sys.executable, "-c", "import sys; sys.modules['torch'] = None; import torch"],
                           capture_output=True, text=True)
    assert probe.returncode != 0, "the no-torch harness does not block torch"


def test_the_change_log_lists_a_backends_device_from_the_release_that_supports_it(tmp_path):
    """copysuite.strategies.space.BACKEND_DEVICES (inductor on meta from 2.8) is a declared change, at that release."""
    from copysuite.report.changelog import main
    main(["--output", str(tmp_path / "c.md")])
    section = (tmp_path / "c.md").read_text().split("## torch 2.8")[1].split("\n## torch")[0]
    line = next(line for line in section.splitlines() if "`compile.inductor.dynamic` on `meta`" in line)
    assert "checked from this release" in line and "issue 144607" in line and "PR 150137" in line


def test_the_change_log_says_where_a_record_ends_with_its_fix(tmp_path):
    """A registry record with an upper bound is listed as fixed at that release, with its fix and what it explains."""
    from copysuite.known import registry
    from copysuite.report.changelog import main
    record = next(r for r in registry.load().values() if r.fixed_by and r.torch.startswith("<"))
    main(["--output", str(tmp_path / "c.md")])
    section = (tmp_path / "c.md").read_text().split(f"## torch {r_release(record.torch)}")[1].split("\n## torch")[0]
    line = next(line for line in section.splitlines() if f"`{record.name}`" in line)
    assert "no longer, from this release" in line and record.fixed_by in line and "explains" in line


def r_release(torch_range: str) -> str:
    """The release a `<X` range ends at, as the change log heads it."""
    from packaging.version import Version
    return str(Version(torch_range.lstrip("<")))


def test_a_repeat_ignores_memory_addresses_but_not_outcomes():
    """`gate --same`: two runs of one torch agree on a cell when only the addresses a failure quotes differ
    (id(), data pointers: they change every run); any other difference is flakiness."""
    def diverged(detail, observed=False):
        failure = {**mismatch(True, observed), "detail": detail, "message": detail}
        return {**cell(ASARRAY, "same_object", "diverged", reason="known bug at 0x7f00"), "failure": failure}
    a, b = diverged("id(input)=0x7f01 id(result)=0x7f02"), diverged("id(input)=0x7e11 id(result)=0x7e12")
    assert gate.repeatable(a) == gate.repeatable(b)
    assert gate.repeatable(a) != gate.repeatable(diverged("id(input)=0x7f01", observed=True))
    assert gate.repeatable(a) != gate.repeatable({**a, "outcome": "failed"})
