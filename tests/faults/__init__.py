"""Fault injection: the catalog of faults patched into torch (catalog.py, topics/), the campaign that runs the
conformance suite under each (campaign.py, driver.py, plugin.py), and its report: `python -m tests.faults report`
writes the verdicts to docs/reports/faults.md. The self-test tests/selftest/test_faults.py runs the same campaign."""
