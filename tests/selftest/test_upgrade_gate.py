"""The upgrade gate and the matrix report on hand-made outcome files: declared vs undeclared, exit codes, cells."""
import json

from copysuite import matrix as matrix_report, gate as upgrade_gate
from copysuite.outcomes import SCHEMA


def doc(torch_version, results, failed_tests=()):
    return {"schema": SCHEMA, "created": "2026-11-22T00:00:00+00:00", "torch": torch_version, "numpy": "2.0",
            "python": "3.11", "platform": "linux", "hypothesis_profile": "ci", "devices": {"cpu": "available"},
            "session": {"passed": 1, "failed": len(failed_tests), "skipped": 0, "xfailed": 0,
                        "failed_tests": list(failed_tests)},
            "results": [{"op": op, "invariant": inv, "device": "cpu", "outcome": out, "detail": detail}
                        for op, inv, out, detail in results]}


def run_gate(tmp_path, base, cand, *extra):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(base))
    b.write_text(json.dumps(cand))
    md = tmp_path / "gate.md"
    return upgrade_gate.main([str(a), str(b), "--markdown", str(md), *extra]), md.read_text()


HELD = [("clone", "shares_storage", "passed", ""), ("torch.asarray(copy=None)", "requires_grad", "passed", "")]


def test_same_outcomes_pass_and_list_the_declared_change(tmp_path):
    code, md = run_gate(tmp_path, doc("2.10.0", HELD), doc("2.12.1", HELD))
    assert code == 0 and "PASS" in md
    assert "torch.asarray(copy=None).requires_grad" in md and "pull/170897" in md


def test_a_difference_the_specs_explain_is_declared(tmp_path):
    # a run judged against the old expectation would fail on the new release: the gate names the evidence
    cand = doc("2.12.1", [HELD[0], ("torch.asarray(copy=None)", "requires_grad", "failed", "expected False")])
    code, md = run_gate(tmp_path, doc("2.10.0", HELD), cand)
    assert "[declared] torch.asarray(copy=None) / requires_grad / cpu: passed -> failed" in md
    assert code == 1, "a failure on the candidate fails the gate even when declared"


def test_an_unexplained_difference_fails_the_gate(tmp_path):
    cand = doc("2.14.1", [("clone", "shares_storage", "skipped", "why"), HELD[1]])
    code, md = run_gate(tmp_path, doc("2.13.0", HELD), cand)
    assert code == 1 and "[UNDECLARED] clone / shares_storage / cpu: passed -> skipped" in md


def test_a_failing_seed_scenario_on_the_candidate_fails_the_gate(tmp_path):
    cand = doc("2.14.1", HELD, failed_tests=["tests/test_seed_scenarios.py::test_x"])
    code, md = run_gate(tmp_path, doc("2.13.0", HELD), cand)
    assert code == 1 and "tests/test_seed_scenarios.py::test_x" in md


def test_same_flags_any_change_in_details(tmp_path):
    base = doc("2.13.0", [("clone", "shares_storage", "skipped", "one reason")])
    cand = doc("2.13.0", [("clone", "shares_storage", "skipped", "another reason")])
    assert run_gate(tmp_path, base, base, "--same")[0] == 0
    assert run_gate(tmp_path, base, cand, "--same")[0] == 1


def test_matrix_report_cells_and_totals(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(doc("2.10.0", HELD)))
    (tmp_path / "b.json").write_text(json.dumps(doc("2.12.1", [HELD[0], ("torch.asarray(copy=None)",
                                                                          "requires_grad", "failed", "x")])))
    md, page = tmp_path / "m.md", tmp_path / "m.html"
    assert matrix_report.main([str(tmp_path), "--markdown", str(md), "--html", str(page)]) == 0
    text = md.read_text()
    assert "| torch.asarray(copy=None) | requires_grad | ✓ | ✗ |" in text
    assert "| failed | 0 | 1 |" in text and "Rows whose outcome differs between columns (1)" in text
    assert 'class="failed" title="x"' in page.read_text()
