"""The matrix page (copysuite/report/matrix_page.py, matrix_page.js) on hand-made outcome files: the data it carries,
and what a real headless Chromium makes of it: the rows that differ, among the columns the address selects, and the
columns it hides. The browser checks skip, saying so, where no Chromium is on PATH (`apt-get install chromium`)."""
import json
import re

import pytest

from copysuite.report import browser, matrix_command
from tests.selftest.test_reports import ASARRAY, HELD, cell, doc, mismatch, write

needs_chromium = pytest.mark.skipif(browser.find() is None, reason="no Chromium on PATH (apt-get install chromium)")


@pytest.fixture
def page(tmp_path):
    """2.10.0 holds clone's and asarray's rows eagerly and fails clone's under aot_eager; 2.12.1 fails asarray's
    eagerly and holds clone's under aot_eager: each differs between the releases in one execution. detach's row
    holds eagerly and fails under aot_eager on both: it differs only between executions."""
    def compiled(c):
        return {**c, "id": c["id"].replace("-eager", "-compile.aot_eager"), "execution": "compile.aot_eager"}

    wrong = mismatch(True, False)
    detach = [cell("detach", "shares_storage", "passed"), compiled(cell("detach", "shares_storage", "failed",
                                                                        failure=wrong))]
    write(tmp_path, "a.json", doc("2.10.0", HELD + detach + [compiled(cell("clone", "shares_storage", "failed",
                                                                           failure=wrong))]))
    failing = cell(ASARRAY, "requires_grad", "failed", failure=mismatch(False, True))
    write(tmp_path, "b.json", doc("2.12.1", [HELD[0], failing, *detach, compiled(HELD[0])]))
    path = tmp_path / "m.html"
    assert matrix_command.main([str(tmp_path), "--html", str(path)]) == 0
    return path


def data(path):
    return json.loads(re.search(r"const MATRIX = (.*?);\n", path.read_text()).group(1).replace("<\\/", "</"))


def test_the_page_carries_one_letter_per_cell_and_each_hover_text_once(page):
    m = data(page)
    assert [(c["release"], c["device"], c["execution"]) for c in m["columns"]] == [
        ("2.10.0", "cpu", "eager"), ("2.10.0", "cpu", "compile.aot_eager"),
        ("2.12.1", "cpu", "eager"), ("2.12.1", "cpu", "compile.aot_eager")]
    rows = {(r[0], r[1]): r for r in m["rows"]}
    assert rows[(ASARRAY, "requires_grad")][2] == "p-f-"
    assert rows[("clone", "shares_storage")][2] == "pfpp"
    tip = m["tips"][rows[(ASARRAY, "requires_grad")][3][0]]
    assert "expected False, observed True" in tip
    evidence = m["evidence"][str(list(rows).index((ASARRAY, "requires_grad")))]
    assert "issues 170819" in evidence   # the version gate's evidence, beside the row
    assert 'data-axis="release" value="2.12.1"' in page.read_text()   # a filter


def count(dom, section):
    return re.search(rf'id="{section}-count">([^<]*)<', dom).group(1)


def hidden_columns(dom):
    return set(re.findall(r"nth-child\((\d+)\) \{ display: none; \}", dom))


@needs_chromium
def test_the_browser_shows_the_rows_that_differ_between_releases(page):
    dom = browser.dom(page)
    assert count(dom, "by-release") == "2" and count(dom, "by-execution") == "1"
    table = dom[dom.index('id="by-release"'):dom.index('id="by-execution"')]
    assert f">{ASARRAY}<" in table and ">clone<" in table and "issues 170819" in table
    assert ">✗<" in table and ">✓<" in table and "undefined" not in table   # cells drawn with their symbols
    assert ">detach<" in dom[dom.index('id="by-execution"'):]
    assert not hidden_columns(dom)   # every column shown


@needs_chromium
def test_the_address_selects_columns_and_the_rows_differ_among_them(page):
    dom = browser.dom(page, "execution=compile.aot_eager")
    assert count(dom, "by-release") == "1, among the columns shown"
    table = dom[dom.index('id="by-release"'):dom.index('id="by-execution"')]
    assert ">clone<" in table and f">{ASARRAY}<" not in table
    assert hidden_columns(dom) == {"3", "5"}   # the two eager columns (after entry and check)
    one_release = browser.dom(page, "release=2.12.1")
    assert count(one_release, "by-release") == "0, among the columns shown"


@needs_chromium
def test_a_release_in_the_address_ticks_each_of_its_numpy_groups(page):
    """A release run with both NumPy majors has a column group each; the address names the release, and the example
    address printed on the page names the page's own last two releases."""
    folder = page.parent
    write(folder, "c.json", {**doc("2.12.1", [HELD[0]]), "numpy": "1.26.4"})
    assert matrix_command.main([str(folder), "--html", str(page)]) == 0
    assert "#release=2.10.0,2.12.1&amp;execution=eager" in page.read_text()
    releases = {c["release"] for c in data(page)["columns"]}
    assert {"2.12.1 numpy 1", "2.12.1 numpy 2"} <= releases
    dom = browser.dom(page, "release=2.12.1")
    shown = [c for c, hidden in zip(data(page)["columns"], range(3, 99)) if str(hidden) not in hidden_columns(dom)]
    assert {c["release"] for c in shown} == {"2.12.1 numpy 1", "2.12.1 numpy 2"}
