"""The conformance matrix as one self-contained HTML page (imports no torch): what a user upgrading wants first.

1. Per release and execution: totals (held, failed, diverged, skipped).
2. The rows whose outcome differs between releases (same device and execution), then those that differ only
   between executions (a compiler diverging from eager), each with the evidence its spec declares.
3. Every row, folded by entry.
Checkboxes filter the columns by release, device and execution (a few lines of inline script; no network).
"""
from __future__ import annotations

import html
from collections import Counter

from copysuite import outcome_format
from copysuite.matrix import SYMBOL, WORD, columns, device_notes, release, table

esc = html.escape
STYLE = """
body { font: 13px/1.4 system-ui, sans-serif; margin: 1.5em; max-width: 100em; }
table { border-collapse: collapse; margin: .5em 0 1em; } th, td { border: 1px solid #ccc; padding: 2px 6px; }
td { text-align: center; } th.row, td.row { text-align: left; font-weight: normal; }
td.passed { background: #d9f2d9; } td.failed { background: #f7c6c6; font-weight: bold; }
td.skipped { background: #eee; color: #777; } td.diverged { background: #fde9b0; }
thead th { position: sticky; top: 0; background: #fff; } details { margin: .2em 0; } summary { cursor: pointer; }
.why { font-size: 12px; color: #444; text-align: left; min-width: 36em; } fieldset { display: inline-block; margin: 0 1em .5em 0; }
.hidden { display: none; }
"""
SCRIPT = """
// Column k of every table is class "ck"; its header row cell carries the column's release, device and execution.
const sheet = document.createElement('style');
document.head.appendChild(sheet);
function applyFilters() {
  const off = new Set([...document.querySelectorAll('input[data-axis]:not(:checked)')]
    .map(b => b.dataset.axis + '=' + b.value));
  const hidden = new Set();
  document.querySelectorAll('th[data-release]').forEach(th => {
    if (['release', 'device', 'execution'].some(a => off.has(a + '=' + th.dataset[a]))) hidden.add(th.dataset.col);
  });
  sheet.textContent = [...hidden].map(k => '.c' + k + ' { display: none; }').join('\\n');
}
document.querySelectorAll('input[data-axis]').forEach(b => b.addEventListener('change', applyFilters));
"""


def _head(runs, cols) -> str:
    """Header cells that carry their column's number, release, device and execution (the filters read them)."""
    out = []
    for k, (i, where) in enumerate(cols):
        device, _, execution = where.partition(" ")
        name = esc(release(runs[i]))
        out.append(f'<th class="c{k}" data-col="{k}" data-release="{name}" data-device="{esc(device)}" '
                   f'data-execution="{esc(execution or "eager")}">{name}<br>{esc(where)}</th>')
    return "".join(out)


def _cell(k, r) -> str:
    """A cell: its outcome; the skip reason, failure or divergence on hover (held cells need none)."""
    if r is None:
        return f'<td class="c{k}"></td>'
    tip = "" if r["outcome"] == "passed" else f' title="{esc((outcome_format.summary(r) or "")[:160], quote=True)}"'
    return f'<td class="c{k} {r["outcome"]}"{tip}>{SYMBOL[r["outcome"]]}</td>'


def _rows_table(runs, cols, cells, rows, evidence=None) -> str:
    body = []
    for entry, check in rows:
        tds = "".join(_cell(k, cells.get((entry, check, *c))) for k, c in enumerate(cols))
        why = f'<td class="why">{evidence((entry, check))}</td>' if evidence else ""
        body.append(f'<tr><td class="row">{esc(entry)}</td><td class="row">{esc(check)}</td>{tds}{why}</tr>')
    extra = "<th>declared in the specs</th>" if evidence else ""
    return (f"<table><thead><tr><th>entry</th><th>check</th>{_head(runs, cols)}{extra}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def _differs(row, cols, cells, across) -> bool:
    """Outcomes differ between releases (`across` "release": same device and execution) or, for a row that is the
    same on every release, between the executions of one release ("execution")."""
    groups = {}
    for i, where in cols:
        r = cells.get((*row, i, where))
        if r is not None:
            groups.setdefault(where if across == "release" else i, set()).add(r["outcome"])
    return any(len(seen) > 1 for seen in groups.values())


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
        return "<br>".join(out) or "nothing declared"
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


def page(runs, machine, generated) -> str:
    cols = columns(runs)
    rows, cells = table(runs)
    by_release = [row for row in rows if _differs(row, cols, cells, "release")]
    by_execution = [row for row in rows if row not in by_release and _differs(row, cols, cells, "execution")]
    why = _evidence(runs)
    entries = {}
    for row in rows:
        entries.setdefault(row[0], []).append(row)
    folded = "".join(f"<details><summary>{esc(e)} ({len(rs)} checks)</summary>{_rows_table(runs, cols, cells, rs)}"
                     f"</details>" for e, rs in entries.items())
    notes = "".join(f"<li>{esc(n)}</li>" for n in device_notes(runs, cols))
    legend = " · ".join(f"{SYMBOL[k]} {WORD[k]}" for k in WORD)
    both = sorted({outcome_format.torch_release(d) for d in runs if d.get("_numpy_factor")})
    sources = f"{len({d['torch'] for d in runs})} releases" + (
        f" ({', '.join(both)} run with NumPy 1 and with NumPy 2: a column group each)" if both else "")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Copy-semantics conformance matrix</title>
<style>{STYLE}</style></head><body>
<h1>Copy-semantics conformance matrix</h1>
<p>Generated {esc(generated)} on {esc(machine)} from {esc(sources)}. {esc(legend)}; hover a cell for the skip
reason, the failure or the divergence.</p>
<ul>{notes}</ul>
<h2>Per release and execution</h2>
{_summary(runs)}
<div>{_filters(runs, cols)}</div>
<h2>Rows that differ between releases ({len(by_release)})</h2>
{_rows_table(runs, cols, cells, by_release, why) if by_release else "<p>None.</p>"}
<h2>Rows that differ only between executions ({len(by_execution)})</h2>
{_rows_table(runs, cols, cells, by_execution, why) if by_execution else "<p>None.</p>"}
<h2>Every row, by entry ({len(rows)} rows, {len(entries)} entries)</h2>
{folded}
<script>{SCRIPT}</script>
</body></html>
"""
