"""Stage 4, judging: compare each check's observation of a RunResult with the spec's expectation (judge.py; the checks
themselves in checks/), one Hypothesis run per group of cells that draw the same inputs (explore.py); a disagreement is
a ConformanceFailure, data with its reproduction (failures.py).
"""
