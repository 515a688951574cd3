"""docs/promises.md (the promise-by-promise audit of the documentation pages the specs cover) cannot drift from the
specs or the fault catalog: every spec entry and check a row names exists, every row has one status, every fault a
row names is in the catalog and is caught by a check the row names (tests/selftest/test_faults.py shows it caught),
and the counts it states are the table's."""
import re
from pathlib import Path

import pytest

from copysuite.judge.checks import REGISTRY
from copysuite.plan.bind import in_torch_range
from copysuite.run.executions import EXECUTORS
from copysuite.spec.load import load_specs
from tests.faults.catalog import CATALOG
from tests.faults.fault import ABSENT

DOC = Path(__file__).resolve().parents[2] / "docs" / "promises.md"
PAIR = re.compile(r"`([^`]+)` / ((?:`[^`]+`(?:, )?)+)")   # `entry` / `check`, `check` ...
STATUSES = ("specified", "not specified yet", "not specifiable")
# the fourth column, "broken by": `fault` by `entry` / `check`, `check`; ... (or "no fault yet: why", or "-")
BROKEN_BY = re.compile(r"`([\w]+)` by `([^`]+)` / ((?:`[^`]+`(?:, )?)+)")
FAULT_STATUSES = ("broken by a fault", "no fault yet")


def rows():
    """(page, promise, where, broken by) of every row of the audit table (a row without the fourth cell: "")."""
    out = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) in (3, 4) and cells[0] not in ("page", "---") and \
                not set(cells[0]) <= {"-"}:
            out.append(tuple(cells) + ("",) * (4 - len(cells)))
    return out


def named_pairs(where: str) -> set:
    """The (entry, check) pairs a "where stated" cell names."""
    return {(entry, check) for entry, checks in PAIR.findall(where) if status(where) == "specified"
            for check in re.findall(r"`([^`:]+)(?::[^`]*)?`", checks)}


def fault_status(row) -> str | None:
    """Of a specified row: whether a fault of the catalog breaks its promise; None for the other rows."""
    if status(row[2]) != "specified":
        return None
    return "broken by a fault" if BROKEN_BY.search(row[3]) else "no fault yet"


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
    for page, promise, where, _ in rows():
        for entry, checks in PAIR.findall(where) if status(where) == "specified" else ():
            for check in re.findall(r"`([^`:]+)(?::[^`]*)?`", checks):   # `autograd_view: false` names autograd_view
                if entry not in entries or check not in entries[entry].expect:
                    missing.append(f"{page}: {promise} -> {entry} / {check}")
    assert not missing, "docs/promises.md names spec entries or checks that do not exist:\n" + "\n".join(missing)


def test_every_named_fault_is_caught_by_a_check_the_row_names():
    """A row's "broken by" names faults of the catalog, each with the (entry, check) pairs that catch it: pairs the
    fault expects (so the fault campaign fails unless they catch it) and the row's "where stated" names."""
    faults = {f.name: f for f in CATALOG}
    compiled = EXECUTORS["compile.eager"].skip_reason() is None   # else the catalog leaves the compile faults out
    entries = {e.id: e for e in load_specs(checks=REGISTRY).entries}
    wrong = []
    for page, promise, where, broken in rows():
        if status(where) != "specified":
            if broken not in ("", "-"):
                wrong.append(f"{page}: {promise}: a row that is not specified names no fault ({broken!r})")
            continue
        if not BROKEN_BY.search(broken) and not broken.startswith("no fault yet"):
            wrong.append(f"{page}: {promise}: the fourth cell neither names a fault nor says 'no fault yet'")
        for name, entry, checks in BROKEN_BY.findall(broken):
            if name not in faults:
                # the catalog registers a fault only where torch has what it patches and its entries run
                left_out = (name in ABSENT or (not compiled and name.startswith("compile"))
                            or not in_torch_range(entries[entry]))
                if not left_out:
                    wrong.append(f"{page}: {promise}: no fault {name!r} in the catalog")
                continue
            for check in re.findall(r"`([^`]+)`", checks):
                if (entry, check) not in faults[name].expected:
                    wrong.append(f"{page}: {promise}: fault {name} does not expect a catch by {entry} / {check}")
                if (entry, check) not in named_pairs(where):
                    wrong.append(f"{page}: {promise}: {entry} / {check} (catching {name}) is not named by the row")
    assert not wrong, "docs/promises.md's faults disagree with the catalog:\n" + "\n".join(wrong)


@pytest.mark.parametrize("what", ["pages", "promises", *STATUSES, *FAULT_STATUSES])
def test_the_stated_counts_are_the_tables(what):
    table = rows()
    actual = {"pages": len({r[0] for r in table}), "promises": len(table),
              **{s: sum(status(r[2]) == s for r in table) for s in STATUSES},
              **{s: sum(fault_status(r) == s for r in table) for s in FAULT_STATUSES}}
    stated = re.search(rf"^- {re.escape(what)}: (\d+)$", DOC.read_text(), flags=re.M)
    assert stated and int(stated.group(1)) == actual[what], f"docs/promises.md states {what}: " \
        f"{stated and stated.group(1)}, the table has {actual[what]}"
