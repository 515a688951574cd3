"""The conformance matrix as one self-contained HTML page (imports no torch): what a user upgrading wants first.

1. Per release and execution: totals (held, failed, diverged, skipped).
2. The rows whose outcome differs between releases (same device and execution), then those that differ only
   between executions (a compiler diverging from eager), each with the evidence its spec declares.
3. Every row, folded by entry.
Checkboxes filter the columns by release, device and execution; the page's address keeps the choice
(`matrix.html#release=2.13.0,2.14.1&execution=eager`), so a filtered view can be linked. No network.

Ten releases x two devices x eight executions make about 170 columns and 400,000 cells: the page holds them as
data (a letter per cell, each distinct hover text once); its script (`matrix_page.js`, inlined) finds the rows
that differ among the columns shown and builds their tables, and an entry's table when its fold opens: 1.0 MB,
where one HTML cell per outcome made 20 MB (a headless Chromium's DOM of the whole page: 2.8 s against 5.8 s).
"""
from __future__ import annotations

import html
import json
from collections import Counter
from pathlib import Path

from packaging.version import Version

from copysuite.outcome import format as outcome_format
from copysuite.report import provenance, surface_table
from copysuite.report.matrix import (SYMBOL, WORD, column_marks, columns, device_notes, origins, partial, release,
                                     sources, table)

esc = html.escape
LETTER = {"passed": "p", "failed": "f", "diverged": "d", "skipped": "s"}
SCRIPT = Path(__file__).with_name("matrix_page.js")
STYLE = """
body { font: 13px/1.4 system-ui, sans-serif; margin: 1.5em; max-width: 100em; }
table { border-collapse: collapse; margin: .5em 0 1em; } th, td { border: 1px solid #ccc; padding: 2px 6px; }
td { text-align: center; } th.row, td.row { text-align: left; font-weight: normal; }
td.p { background: #d9f2d9; } td.f { background: #f7c6c6; font-weight: bold; }
td.s { background: #eee; color: #777; } td.d { background: #fde9b0; }
thead th { position: sticky; top: 0; background: #fff; } details { margin: .2em 0; } summary { cursor: pointer; }
.mixed { color: #a00; } td.mixed { font-weight: bold; background: #fde0e0; }
.why { font-size: 12px; color: #444; text-align: left; min-width: 36em; }
fieldset { display: inline-block; margin: 0 1em .5em 0; }
"""


def _columns(runs, cols):
    """Each column's release, device and execution (the filters read them) and its header label (HTML)."""
    out, mixed = [], column_marks(runs, cols)
    for i, where in cols:
        device, _, execution = where.partition(" ")
        cut = "<br><b>partial</b>" if partial(runs[i], where) else ""
        cut += "<br><b class='mixed'>⚠ other commit or spec set</b>" if (i, where) in mixed else ""
        out.append({"release": release(runs[i]), "device": device, "execution": execution or "eager",
                    "label": f"{esc(release(runs[i]))}<br>{esc(where)}{cut}"})
    return out


def _row(row, cols, cells, tips):
    """[entry, check, outcomes, tips]: a letter per column, the number of the hover text of each cell not held
    (`tips`: text -> number, each distinct skip reason, failure or divergence numbered once)."""
    letters, numbers = [], []
    for c in cols:
        r = cells.get((*row, *c))
        letters.append(LETTER[r["outcome"]] if r else "-")
        if r and r["outcome"] != "passed":
            text = (outcome_format.summary(r) or "")[:160]
            numbers.append(tips.setdefault(text, len(tips)))
    return [esc(row[0]), esc(row[1]), "".join(letters), numbers]


def _evidence(runs):
    """(entry, check) -> the version gates, entry ranges and known divergences its specs declare, as HTML."""
    specs = runs[-1]["specs"]["entries"] if runs else {}

    def why(row):
        entry, check = row
        e = specs.get(entry, {})
        out = [f"applies to torch{esc(e['torch'])}"] if e.get("torch") else []
        for choice in e.get("gates", {}).get(check, []):
            out += [f"torch{esc(g['torch'])}: {esc(g['value'])} ({_link(g['evidence'])})" for g in choice["gates"]]
        for d in e.get("diverges", []):
            if check in d["expect"]:
                kind = "by design" if d.get("by_design") else "known bug"
                out.append(f"{kind}, torch{esc(d['torch'])}, {esc(', '.join(d['executions']))}: {_link(d['evidence'])}")
        return "<br>".join(out)
    return why


def _link(url) -> str:
    return f'<a href="{esc(url, quote=True)}">{esc(url.rsplit("/", 2)[-2] + " " + url.rsplit("/", 1)[-1])}</a>'


def _filters(runs, cols) -> str:
    axes = {"release": [], "device": [], "execution": []}
    for i, where in cols:
        device, _, execution = where.partition(" ")
        for axis, value in (("release", release(runs[i])), ("device", device),
                            ("execution", execution or "eager")):
            if value not in axes[axis]:
                axes[axis].append(value)
    return "".join(f"<fieldset><legend>{axis}</legend>" + " ".join(
        f'<label><input type="checkbox" data-axis="{axis}" value="{esc(v)}" checked> {esc(v)}</label>'
        for v in values) + "</fieldset>" for axis, values in axes.items())


def _summary(runs) -> str:
    executions = sorted({r["execution"] for d in runs for r in d["cells"]}, key=lambda e: (e != "eager", e))
    head = "".join(f"<th>{esc(e)}</th>" for e in executions)
    body = []
    for d in runs:
        tds = []
        for e in executions:
            c = Counter(r["outcome"] for r in d["cells"] if r["execution"] == e)
            tds.append(f"<td>{c['passed']} / {c['failed']} / {c['diverged']} / {c['skipped']}</td>" if c else
                       "<td>-</td>")
        body.append(f"<tr><td class='row'>{esc(d['torch'])} (python {esc(d['python'])}, numpy {esc(d.get('numpy'))}, "
                    f"{esc(d.get('hypothesis_profile', '?'))})</td>{''.join(tds)}</tr>")
    return (f"<table><thead><tr><th>release</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            "<p>Each cell: held / failed / diverged (a known upstream bug or a by-design difference of a compiler, "
            "declared in the specs) / skipped.</p>")


def _origins(runs, cols) -> str:
    """The machine, run, commit and spec set each column came from (copysuite.matrix.origins), as a table; a row
    not of the newest run's commit and spec set is marked."""
    body = "".join("<tr>" + "".join(f"<td class='row'>{esc(v)}</td>" for v in row[:-1]) +
                   (f"<td class='row mixed'>{esc(row[-1])}</td>" if row[-1] else "<td></td>") + "</tr>"
                   for row in origins(runs, cols))
    head = "".join(f"<th>{h}</th>" for h in ("release", "machine", "run", "commit", "spec set", "columns", "files", ""))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _mixed(runs, cols) -> str:
    """The loud heading over columns not of the newest run's commit and spec set (copysuite.report.provenance)."""
    mixed = column_marks(runs, cols)
    if not mixed:
        return ""
    items = "".join(f"<li>{esc(release(runs[i]))} {esc(where)}: {esc('; '.join(why))}</li>"
                    for (i, where), why in mixed.items())
    ref = provenance.reference_line({(i, d): sources(runs[i], d) for i, d in cols})
    return (f"<h2 class='mixed' id='mixed'>{esc(provenance.HEADING)} ({len(mixed)} of {len(cols)})</h2>\n"
            f"<p>{esc(provenance.WARNING)} {esc(ref)}</p><ul>{items}</ul>\n")


def _surface(surface) -> str:
    if not surface:
        return ""
    return (f"<h2>Operator surface per release</h2>\n<p>{esc(surface_table.INTRO)}</p>\n"
            f"{surface_table.table_html(surface)}\n")


def page(runs, machine, generated, surface=()) -> str:
    cols = columns(runs)
    rows, cells = table(runs)
    why, tips = _evidence(runs), {}
    entries = {}
    for n, row in enumerate(rows):
        entries.setdefault(row[0], []).append(n)
    declared = {n: why(r) for n, r in enumerate(rows)}
    data = {"columns": _columns(runs, cols), "rows": [_row(r, cols, cells, tips) for r in rows],
            "evidence": {n: text for n, text in declared.items() if text},
            "symbols": {LETTER[k]: SYMBOL[k] for k in LETTER}}
    data["tips"] = list(tips)   # after the rows, which number them
    folded = "".join(f'<details data-rows="{ns[0]},{len(ns)}"><summary>{esc(e)} ({len(ns)} checks)</summary>'
                     f"</details>" for e, ns in entries.items())
    notes = "".join(f"<li>{esc(n)}</li>" for n in device_notes(runs, cols))
    legend = " · ".join(f"{SYMBOL[k]} {WORD[k]}" for k in WORD)
    both = sorted({outcome_format.torch_release(d) for d in runs if d.get("_numpy_factor")})
    sources = f"{len({d['torch'] for d in runs})} releases" + (
        f" ({', '.join(both)} run with NumPy 1 and with NumPy 2: a column group each)" if both else "")
    example = ",".join(sorted({outcome_format.torch_release(d) for d in runs}, key=Version)[-2:])
    script = "const MATRIX = " + json.dumps(data, separators=(",", ":")).replace("</", "<\\/") + ";\n"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Copy-semantics conformance matrix</title>
<style>{STYLE}</style></head><body>
<h1>Copy-semantics conformance matrix</h1>
<p>Generated {esc(generated)} on {esc(machine)} from {esc(sources)}. {esc(legend)}; hover a cell for the skip
reason, the failure or the divergence. The boxes below the totals hide columns; the address keeps the choice
(<code>#release={esc(example)}&amp;execution=eager</code>) for a link to that view.</p>
<ul>{notes}</ul>
{_mixed(runs, cols)}<h2>Per release and execution</h2>
{_summary(runs)}
<details{" open" if column_marks(runs, cols) else ""}><summary>Where the columns come from (machine, run, commit,
spec set, files; a partial column was cut short; ⚠ marks a row not of the newest run's commit and spec set)</summary>
{_origins(runs, cols)}</details>
{_surface(surface)}<div>{_filters(runs, cols)}</div>
<h2>Rows that differ between releases (<span id="by-release-count"></span>)</h2>
<div id="by-release"></div>
<h2>Rows that differ only between executions (<span id="by-execution-count"></span>)</h2>
<div id="by-execution"></div>
<h2>Every row, by entry ({len(rows)} rows, {len(entries)} entries)</h2>
{folded}
<script>{script}{SCRIPT.read_text()}</script>
</body></html>
"""
