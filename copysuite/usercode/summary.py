"""The sweep's summary (copysuite.usercode.sweep_command): per module or optimizer and execution, the worst status
of its cases (new, then error, then recorded, then held; skipped where no case ran), the counts per kind and
execution, and each distinct difference (execution, field kind, verdict, records) with the names that showed it."""
from __future__ import annotations

from copysuite.fuzz.signature import kind

ORDER = ("new", "error", "recorded", "held", "skipped")


def case_line(row: dict) -> str:
    head = f"{row['kind']} {row['module']} {row['mode']}#{row['sample']} {row.get('seconds', '-')} s:"
    if row.get("error"):
        return f"{head} error: {row['error'][:160]}"
    return head + " " + ", ".join(f"{e} {v['status']}" for e, v in row["executions"].items())


def status_of(rows: list, execution: str) -> str:
    found = ["error" if r.get("error") else r["executions"].get(execution, {}).get("status", "skipped")
             for r in rows]
    return min(found, key=ORDER.index) if found else "skipped"


def build(rows: list, executions, meta: dict) -> dict:
    names = {}
    for r in rows:
        names.setdefault((r["kind"], r["module"]), []).append(r)
    per_name = {f"{k} {n}": {e: status_of(rs, e) for e in executions} for (k, n), rs in names.items()}
    counts = {}
    for (k, _), rs in names.items():
        for e in executions:
            cell = counts.setdefault(k, {}).setdefault(e, dict.fromkeys(ORDER, 0))
            cell[status_of(rs, e)] += 1
    differences = {}
    for r in rows:
        for e, v in r["executions"].items():
            for d in v["differences"]:
                key = (e, kind(d["field"]), d["verdict"], ",".join(d["names"]))
                entry = differences.setdefault(key, {"execution": e, "kind": kind(d["field"]),
                                                     "verdict": d["verdict"], "names": d["names"], "where": []})
                where = f"{r['module']} {r['mode']}"
                if where not in entry["where"]:
                    entry["where"].append(where)
    errors = [{"name": f"{r['kind']} {r['module']} {r['mode']}", "error": r["error"]} for r in rows if r.get("error")]
    counts_new = sum(c["new"] for kinds in counts.values() for c in kinds.values())
    return {**meta, "executions": list(executions), "counts": counts, "counts_new": counts_new,
            "status": per_name, "differences": list(differences.values()), "errors": errors, "cases": rows}


def markdown(report: dict) -> str:
    lines = [f"copysuite modules: torch {report['torch']}, {report['seconds']} s, load {report['load_start']} -> "
             f"{report['load_end']} on {report['cores']} cores", "",
             "| kind | execution | " + " | ".join(ORDER) + " |", "|---|---|" + "---|" * len(ORDER)]
    for k, per in report["counts"].items():
        for e, c in per.items():
            lines.append(f"| {k} | {e} | " + " | ".join(str(c[s]) for s in ORDER) + " |")
    lines += ["", "| execution | difference | verdict | records or rules | where |", "|---|---|---|---|---|"]
    for d in sorted(report["differences"], key=lambda d: (d["verdict"] != "new", d["execution"], d["kind"])):
        where = ", ".join(d["where"][:8]) + (f" and {len(d['where']) - 8} more" if len(d["where"]) > 8 else "")
        lines.append(f"| {d['execution']} | {d['kind']} | {d['verdict']} | {', '.join(d['names'])} | {where} |")
    if report.get("not_run"):
        lines += ["", f"not run (--minutes): {len(report['not_run'])} cases, from {report['not_run'][0]}"]
    if report["errors"]:
        lines += ["", "errors (the harness, not torch):"] + [f"- {e['name']}: {e['error'][:200]}"
                                                            for e in report["errors"]]
    return "\n".join(lines)
