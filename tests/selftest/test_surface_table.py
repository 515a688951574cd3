"""The operator surface per release in the matrix (Markdown and page) and in the README, from the committed surface
reports (results/surface/torch-VERSION.json)."""
from __future__ import annotations

from pathlib import Path

import pytest

from copysuite.report import surface_table
from copysuite.report.matrix import markdown
from copysuite.report.matrix_page import page
from tests.selftest.test_reports import HELD, doc

ROOT = Path(__file__).resolve().parents[2]
REPORTS = [{"torch": "2.14.1+cu130", "classes": {"alias": {"total": 76, "checked": ["view", "t"], "unchecked": {}},
                                                 "out": {"total": 887, "checked": [], "unchecked": {"x": "why"}}}},
           {"torch": "1.13.1", "classes": {"alias": {"total": 60, "checked": ["view"], "unchecked": {}}}}]


def test_the_grid_orders_releases_and_counts_checked_names():
    releases, rows = surface_table.grid(sorted(REPORTS, key=lambda r: r["torch"]))
    assert releases == ["1.13.1", "2.14.1"]
    assert rows == [("alias", ["1/60", "2/76"]), ("out", ["", "0/887"])]


def test_the_class_order_is_the_classifiers():
    from copysuite.surface.classify import CLASSES
    assert surface_table.CLASSES == CLASSES


def test_the_matrix_shows_the_surface_when_given_reports():
    runs = [doc("2.13.0", HELD)]
    assert "Operator surface per release" not in markdown(runs, "m", "g")
    text = markdown(runs, "m", "g", REPORTS)
    assert "## Operator surface per release" in text and "| alias | 2/76 | 1/60 |" in text
    html = page(runs, "m", "g", REPORTS)
    assert "<h2>Operator surface per release</h2>" in html and "<td>2/76</td>" in html


def test_the_readme_table_is_the_committed_reports():
    reports = surface_table.load_reports()
    if not reports:
        pytest.fail("no surface reports in results/surface (python -m copysuite surface --json "
                    "results/surface/torch-VERSION.json on each release)")
    table = "\n".join(surface_table.markdown(reports))
    assert table in (ROOT / "README.md").read_text(), f"README.md should show the operator surface table:\n{table}"
