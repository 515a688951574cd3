"""Self-test reporting: the fault-injection table (tests/selftest/test_faults.py) in the terminal summary."""
from tests.faults.campaign import TABLE_KEY


def pytest_terminal_summary(terminalreporter, config):
    text = config.stash.get(TABLE_KEY, None)
    if text:
        terminalreporter.section("fault injection (tests/faults; `python -m tests.faults report` writes "
                                 "docs/reports/faults.md)")
        for line in text.splitlines():
            terminalreporter.write_line(line)
