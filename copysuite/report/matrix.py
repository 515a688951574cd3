"""Build the conformance matrix from outcome JSON files (one per run, `--outcome-json`; imports no torch).

Rows: entry x check. Columns: torch release x device x execution (where something ran; `cpu` is eager on the
CPU, `cpu compile.aot_eager` compiled with that backend). Cells: held / failed / diverged (declared) / skipped
/ blank (not planned, e.g. value checks on meta). Totals per column. Markdown for the repo; the self-contained HTML
page is copysuite/report/matrix_page.py. Outcome files of the same torch build merge (e.g. an eager and a compiled run).
Directories are read at any depth, `.json` and `.json.gz` (results/gpu/ holds compressed GPU runs); a folder's
`run.json` sidecar (copysuite/gpu/source.py) names the machine and run of its columns and the executions it cut short
(a partial column); a run that had a CUDA device is a release of its own build (`2.11.0+cu130`).

    python -m copysuite matrix results/ --markdown docs/reports/matrix.md --html docs/reports/matrix.html \\
        --screenshot docs/reports/matrix.png
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from packaging.version import Version

from copysuite.gpu import source
from copysuite.outcome import format as outcome_format
from copysuite.report import provenance, rejudge, surface_table
from copysuite.strategies.space import DEVICES, EXECUTIONS

SYMBOL = {"passed": "✓", "failed": "✗", "skipped": "–", "diverged": "⚠"}
WORD = {"passed": "held", "failed": "failed", "skipped": "skipped", "diverged": "diverged (known bug)"}


def outcome_files(paths):
    """The files given, and under each directory given (at any depth) every `.json` and `.json.gz` but sidecars."""
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(f for f in p.rglob("*")
                              if f.name.endswith((".json", ".json.gz")) and f.name != source.FILE)
        else:
            yield p


def load_runs(paths, judge=None):
    """Outcome documents from files or directories, newest first per torch version, sorted by torch version. Each is
    re-judged with today's specs and registry (copysuite.report.rejudge): a failed cell is one no record explains."""
    docs, judge = [], judge or rejudge.Judge()
    for f in outcome_files(paths):
        try:
            doc = outcome_format.load(f)
        except outcome_format.OutcomeError:
            continue  # another JSON file in the directory (an older format, a benchmark)
        doc = judge.rejudge(doc)[0]
        doc["_file"] = str(f)
        sidecar = source.read(f.parent)
        doc["_source"] = provenance.origin(doc, source.describe(f, doc, sidecar), sidecar)
        docs.append(doc)
    majors = {}
    for doc in docs:
        majors.setdefault(doc["torch"], set()).add(numpy_major(doc))
    for doc in docs:   # NumPy is a factor of a release only where runs with both majors exist
        doc["_numpy_factor"] = len(majors[doc["torch"]]) > 1
    by_label = {}
    for doc in sorted(docs, key=lambda d: d["created"]):
        # runs of the same torch build merge, cell by cell, a later one winning (an eager run and a compiled one),
        # except where the later run lacked the device: its "no CUDA device" skip does not erase a judged cell
        merged = by_label.setdefault(run_label(doc), {**doc, "cells": [], "_runs": 0, "_origin": {}, "_sessions": []})
        cells, origin = {c["id"]: c for c in merged["cells"]}, dict(merged["_origin"])
        for c in doc["cells"]:
            if c["id"] in cells and c["outcome"] == "skipped" and not available(doc, c["device"]):
                continue
            cells[c["id"]], origin[c["id"]] = c, doc["_source"]
        by_label[run_label(doc)] = {**merged, **{k: v for k, v in doc.items() if k != "cells"},
                                    "cells": list(cells.values()), "_runs": merged["_runs"] + 1, "_origin": origin,
                                    "_sessions": [*merged["_sessions"], (doc["_source"], doc.get("session"))]}
    return sorted(by_label.values(), key=lambda d: (Version(d["torch"]), numpy_major(d)))


def available(doc, device) -> bool:
    return doc.get("devices", {}).get(device) == "available"


def sources(doc, where) -> list:
    """The sources (copysuite.gpu.source.describe) of the cells a column judged, each once, in file order."""
    found = {}
    for c in doc["cells"]:
        if c["outcome"] != "skipped" and place(c) == where and c["id"] in doc.get("_origin", {}):
            s = doc["_origin"][c["id"]]
            found.setdefault((s["machine"], s["run"] or "", s["file"]), s)
    return [found[k] for k in sorted(found)]


def column_marks(runs, cols) -> dict:
    """{(run index, place): reasons} for the columns not wholly of the newest file's commit and spec set."""
    return provenance.marks({(i, where): sources(runs[i], where) for i, where in cols})


def partial(doc, where) -> str:
    """Why a column is partial (its run was cut short in that execution), or ''."""
    execution = where.partition(" ")[2] or "eager"
    return "; ".join(sorted({s["partial"][execution] for s in sources(doc, where) if execution in s["partial"]}))


def numpy_major(doc) -> str:
    return str(doc.get("numpy") or "").split(".")[0]


def _numpy_part(doc) -> str:
    """` numpy 1` where runs of that torch with both NumPy majors exist (load_runs marks them), else nothing."""
    return f" numpy {numpy_major(doc)}" if doc.get("_numpy_factor") else ""


def release(doc) -> str:
    """A column's release: `2.13.0`, or `2.13.0 numpy 1`; a run that had a CUDA device keeps its build
    (`2.11.0+cu130`): the CUDA build is part of what a GPU column measured."""
    build = Version(doc["torch"]).local if available(doc, "cuda") else None
    return outcome_format.torch_release(doc) + (f"+{build}" if build else "") + _numpy_part(doc)


def run_label(doc) -> str:
    return f"torch {doc['torch']}{_numpy_part(doc)}"


def place(r) -> str:
    """A column's device and execution: `cpu` (eager), `cpu compile.aot_eager`."""
    return r["device"] if r["execution"] == "eager" else f"{r['device']} {r['execution']}"


def columns(runs):
    """(run index, place) for every device and execution in which a run judged at least one cell."""
    order = [place({"device": d, "execution": e}) for d in DEVICES for e in EXECUTIONS]
    cols = []
    for i, doc in enumerate(runs):
        ran = {place(r) for r in doc["cells"] if r["outcome"] != "skipped"}
        cols += [(i, p) for p in order if p in ran]
    return cols


def table(runs):
    cells = {}
    for i, doc in enumerate(runs):
        for r in doc["cells"]:
            cells[(r["entry"], r["check"], i, place(r))] = r
    rows = sorted({(entry, check) for entry, check, _, _ in cells})
    return rows, cells


def totals(cols, cells):
    return {col: Counter(r["outcome"] for (_, _, i, d), r in cells.items() if (i, d) == col) for col in cols}


def device_notes(runs, cols):
    """Devices that ran nothing in a run, with the reason (e.g. cuda: no CUDA device)."""
    notes = []
    for i, doc in enumerate(runs):
        skipped = [f"{d}: {why}" for d, why in doc.get("devices", {}).items()
                   if (i, d) not in cols and why != "available"]   # a GPU run need not run the CPU
        if skipped:
            notes.append(f"{run_label(doc)}: " + "; ".join(skipped))
    return notes


def uniform(row, cols, cells):
    seen = {cells[(*row, i, d)]["outcome"] for i, d in cols if (*row, i, d) in cells}
    return len(seen) <= 1


def markdown(runs, machine, generated, surface=()) -> str:
    """The matrix as Markdown; surface: the releases' operator-surface reports (copysuite.report.surface_table)."""
    cols = columns(runs)
    rows, cells = table(runs)
    tot, mixed = totals(cols, cells), column_marks(runs, cols)
    head = [f"{release(runs[i])} {d}" + (" (partial)" if partial(runs[i], d) else "") +
            (" ⚠ other commit or spec set" if (i, d) in mixed else "") for i, d in cols]
    profiles = ", ".join(sorted({d.get("hypothesis_profile", "?") for d in runs}))
    lines = [
        "# Conformance matrix", "",
        f"Generated {generated} by `python -m copysuite matrix` on {machine}, from "
        f"{len(runs)} runs (Hypothesis profile: {profiles}).",
        "Regenerate: `tools/matrix.sh` (every release under every execution at one commit, then this report; "
        "docs/using.md).", "",
        "✓ held · ✗ failed: new, no record explains it · ⚠ diverged: a record of specs/known/ explains it (cells a "
        "run failed before its record was written are re-judged with today's specs and registry) · – skipped (the "
        "reason is in the HTML page's tooltips and in the run's JSON) · blank: not planned (checks that read or write "
        "values are not judged on meta tensors)", "",
    ]
    if mixed:   # before anything is read off the page: its columns are not comparable as they stand
        lines += [f"## {provenance.HEADING} ({len(mixed)} of {len(cols)})", "", provenance.WARNING + " " +
                  provenance.reference_line({(i, d): sources(runs[i], d) for i, d in cols}), "",
                  "| column | why |", "|---|---|"]
        lines += [f"| {release(runs[i])} {d} | {'; '.join(why)} |" for (i, d), why in mixed.items()] + [""]
    lines += failed_section(runs)
    lines += [
        "## Runs", "",
        "| torch | python | numpy | commit | conformance held / failed / skipped | "
        "re-judged diverged / stale held / held now stale | "
        "whole suite as run (self-tests too; not re-judged) passed / failed / skipped / xfailed |",
        "|---|---|---|---|---|---|---|",
    ]
    for doc in runs:
        c = Counter(r["outcome"] for r in doc["cells"])
        again = sum(1 for r in doc["cells"] if r.get("rejudged") and r["outcome"] == "diverged")
        held = sum(1 for r in doc["cells"] if r.get("rejudged") and r["outcome"] == "passed")
        now_stale = sum(1 for r in doc["cells"] if r.get("rejudged") and r["outcome"] == "failed")
        commits = ", ".join(sorted({provenance.short(o["commit"]) for o, _ in doc.get("_sessions", [])}))
        lines.append(f"| {doc['torch']} | {doc['python']} | {doc['numpy']} | {commits} | "
                     f"{c['passed']} / {c['failed']} / {c['skipped']} | {again} / {held} / {now_stale} | "
                     f"{whole_suite(doc)} |")
    notes = device_notes(runs, cols)
    if notes:
        lines += ["", "Devices with nothing run: " + " · ".join(sorted(set(n.split(": ", 1)[1] for n in notes)))]
    lines += ["", "## Where the columns come from", "",
              "| release | machine | run | commit | spec set | columns | files | |",
              "|---|---|---|---|---|---|---|---|"]
    lines += [" | ".join(["", *row, ""]).strip() for row in origins(runs, cols)]
    if surface:
        lines += ["", "## Operator surface per release", "", surface_table.INTRO, ""] + surface_table.markdown(surface)
    lines += ["", "## Totals per column", "", "| | " + " | ".join(head) + " |", "|---|" + "---|" * len(cols)]
    for key in WORD:
        lines.append(f"| {WORD[key]} | " + " | ".join(str(tot[c][key]) for c in cols) + " |")
    varying = [row for row in rows if not uniform(row, cols, cells)]
    lines += ["", f"## Rows whose outcome differs between columns ({len(varying)})", ""]
    lines += _md_rows(varying, cols, cells, head) if varying else ["None: every row has one outcome in every column."]
    lines += ["", f"## All rows ({len(rows)})", ""] + _md_rows(rows, cols, cells, head)
    return "\n".join(lines) + "\n"


def whole_suite(doc) -> str:
    """pytest's totals over every test: one session's; the sum where the sessions of one regenerated run (one
    sidecar run name, one per execution) were merged; else none, as no one session ran the merged runs."""
    sessions = doc.get("_sessions") or [({"run": None}, doc.get("session"))]
    if len(sessions) > 1 and (len({o["run"] for o, _ in sessions}) > 1 or not sessions[0][0]["run"]):
        return f"{len(sessions)} runs merged (no one session ran them all)"
    if any(s is None for _, s in sessions):
        return "not recorded"
    total = Counter()
    for _, s in sessions:
        total.update({k: s[k] for k in ("passed", "failed", "skipped", "xfailed")})
    parts = " / ".join(str(total[k]) for k in ("passed", "failed", "skipped", "xfailed"))
    return parts + (f" ({len(sessions)} sessions of run {sessions[0][0]['run']})" if len(sessions) > 1 else "")


def failed_section(runs) -> list:
    """The failed cells first: new and untriaged (no record explains them), counted per release, entry and check."""
    found = Counter((release(doc), r["entry"], r["check"], place(r)) for doc in runs for r in doc["cells"]
                    if r["outcome"] == "failed")
    lines = [f"## Failed cells: new, untriaged ({sum(found.values())})", ""]
    if not found:
        return lines + ["None: every failure is explained by a record of specs/known/.", ""]
    by_entry = Counter()
    for (rel, entry, check, where), n in found.items():
        by_entry[(rel, entry, check)] += n
    lines += ["| release | entry | check | columns |", "|---|---|---|---|"]
    for (rel, entry, check), n in sorted(by_entry.items()):
        wheres = sorted(w for (r, e, c, w) in found if (r, e, c) == (rel, entry, check))
        lines.append(f"| {rel} | {entry} | {check} | {', '.join(wheres)} |")
    return lines + [""]


def origins(runs, cols):
    """[release, machine, run, commit, spec set, columns, files, mark] per machine, run, commit and spec set that
    judged columns; a partial column says why; mark: why these files are not of the newest file's commit and spec
    set (copysuite.report.provenance), '' where they are."""
    per_column = {(i, where): sources(runs[i], where) for i, where in cols}
    ref, groups = provenance.newest(o for found in per_column.values() for o in found), {}
    for (i, where), found in per_column.items():
        for s in found:
            key = (release(runs[i]), s["machine"], s["run"] or "-", provenance.short(s["commit"]),
                   provenance.short_digest(s["digest"]))
            g = groups.setdefault(key, ({}, set(), {}))
            g[0][where] = partial(runs[i], where)
            g[1].add(s["file"])
            g[2].update(dict.fromkeys(provenance.mismatch(s, ref)))
    out = []
    for key, (columns_, files, mismatched) in groups.items():
        shown = ", ".join(f"{w} (partial: {why})" if why else w for w, why in columns_.items())
        names = sorted(files)
        listed = ", ".join(names[:3]) + (f", ... ({len(names)} files)" if len(names) > 3 else "")
        why = provenance.explain(mismatched, ref)
        out.append([*key, shown, listed, "⚠ " + "; ".join(why) if why else ""])
    return out


def _md_rows(rows, cols, cells, head):
    out = ["| entry | check | " + " | ".join(head) + " |", "|---|---|" + "---|" * len(cols)]
    for op, inv in rows:
        marks = [SYMBOL[cells[(op, inv, i, d)]["outcome"]] if (op, inv, i, d) in cells else "" for i, d in cols]
        out.append(f"| {op} | {inv} | " + " | ".join(marks) + " |")
    return out
