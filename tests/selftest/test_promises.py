"""docs/promises.md (the promise-by-promise audit of the documentation pages the specs cover) cannot drift from the
specs: every spec entry and check a row names exists, every row has one status, and the counts it states are the
table's."""
import re
from pathlib import Path

import pytest

from copysuite.judge.checks import REGISTRY
from copysuite.spec.load import load_specs

DOC = Path(__file__).resolve().parents[2] / "docs" / "promises.md"
PAIR = re.compile(r"`([^`]+)` / ((?:`[^`]+`(?:, )?)+)")   # `entry` / `check`, `check` ...
STATUSES = ("specified", "not specified yet", "not specifiable")


def rows():
    """(page, promise, where) of every row of the audit table."""
    out = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] not in ("page", "---") and not set(cells[0]) <= {"-"}:
            out.append(tuple(cells))
    return out


def status(where: str) -> str:
    if where.startswith("not specifiable"):
        return "not specifiable"
    if where.startswith("not specified yet"):
        return "not specified yet"
    return "specified" if PAIR.search(where) else "unknown"


def test_the_audit_has_rows_and_each_one_status():
    table = rows()
    assert len(table) >= 50, f"docs/promises.md: {len(table)} rows"
    unknown = [r for r in table if status(r[2]) == "unknown"]
    assert not unknown, f"rows without a status ({', '.join(STATUSES)}): {unknown[:5]}"


def test_every_named_entry_and_check_exists():
    entries = {e.id: e for e in load_specs(checks=REGISTRY).entries}
    missing = []
    for page, promise, where in rows():
        for entry, checks in PAIR.findall(where) if status(where) == "specified" else ():
            for check in re.findall(r"`([^`:]+)(?::[^`]*)?`", checks):   # `autograd_view: false` names autograd_view
                if entry not in entries or check not in entries[entry].expect:
                    missing.append(f"{page}: {promise} -> {entry} / {check}")
    assert not missing, "docs/promises.md names spec entries or checks that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize("what", ["pages", "promises", *STATUSES])
def test_the_stated_counts_are_the_tables(what):
    table = rows()
    actual = {"pages": len({r[0] for r in table}), "promises": len(table),
              **{s: sum(status(r[2]) == s for r in table) for s in STATUSES}}
    stated = re.search(rf"^- {re.escape(what)}: (\d+)$", DOC.read_text(), flags=re.M)
    assert stated and int(stated.group(1)) == actual[what], f"docs/promises.md states {what}: " \
        f"{stated and stated.group(1)}, the table has {actual[what]}"
