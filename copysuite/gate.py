"""The upgrade gate: compare a run on the current torch (base) with a run on the candidate.

Lists every op x invariant x device whose outcome differs between the two runs, and every expectation the specs
declare to change between the two releases (a version gate or an entry's torch range explains it). A difference is
"declared" when such a gate explains it, "undeclared" otherwise. Exit status 1 on any undeclared difference or on any
failure in the candidate run (conformance cells and the rest of the suite), 0 otherwise; 2 on unusable input.

    python -m copysuite.gate results/torch213.json results/torch2141.json --markdown results/gate.md
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from packaging.version import Version

from copysuite.invariants import REGISTRY
from copysuite.outcomes import SCHEMA
from copysuite.specs import declared_changes, load_all


def load(path):
    doc = json.loads(Path(path).read_text())
    if doc.get("schema") != SCHEMA:
        raise ValueError(f"{path}: not an outcome document ({SCHEMA})")
    return doc


def compare(base, cand, entries, same=False):
    va, vb = (Version(d["torch"].split("+")[0]) for d in (base, cand))
    by_id = {e.id: e for e in entries}
    a = {(r["op"], r["invariant"], r["device"]): r for r in base["results"]}
    b = {(r["op"], r["invariant"], r["device"]): r for r in cand["results"]}
    diffs, declared_only = [], []
    for key in sorted(set(a) | set(b)):
        op, inv, device = key
        ra, rb = a.get(key), b.get(key)
        oa, ob = (r["outcome"] if r else "absent" for r in (ra, rb))
        entry = by_id.get(op)
        # a repeat on the same torch (--same): nothing is declared, every difference is flakiness
        why = declared_changes(entry, inv, va, vb) if entry and not same else []
        detail_differs = same and ra and rb and ra["detail"] != rb["detail"]
        if oa != ob or detail_differs:
            diffs.append({"op": op, "invariant": inv, "device": device, "base": oa, "candidate": ob,
                          "declared": bool(why), "because": why,
                          "detail": (rb or ra)["detail"] if ob != "passed" else (ra["detail"] if ra else "")})
        elif why and device == "cpu":
            declared_only.append({"op": op, "invariant": inv, "base": oa, "candidate": ob, "because": why})
    failures = [r for r in cand["results"] if r["outcome"] == "failed"]
    other = cand.get("session", {}).get("failed_tests", [])
    other = [t for t in other if "test_conformance.py" not in t]
    return diffs, declared_only, failures, other


def render(base, cand, diffs, declared_only, failures, other, markdown=False) -> str:
    und = [d for d in diffs if not d["declared"]]
    verdict = "FAIL" if und or failures or other else "PASS"
    out = []
    h = (lambda t: f"## {t}") if markdown else (lambda t: f"--- {t}")
    title = f"upgrade gate: torch {base['torch']} -> torch {cand['torch']}: {verdict}"
    out += [f"# {title}" if markdown else title, ""]
    out.append(f"base: {base['_path']} ({len(base['results'])} cells, {base['created']}); candidate: {cand['_path']} "
               f"({len(cand['results'])} cells, {cand['created']})")
    out.append(f"{len(diffs)} outcome differences ({len(und)} undeclared), {len(failures)} failed cells and "
               f"{len(other)} other failed tests on the candidate, {len(declared_only)} declared behaviour changes "
               f"where both releases conform")
    out.append("")
    bullet = "- " if markdown else "  "
    if diffs:
        out.append(h("outcome differences"))
        for d in diffs:
            tag = "declared" if d["declared"] else "UNDECLARED"
            out.append(f"{bullet}[{tag}] {d['op']} / {d['invariant']} / {d['device']}: {d['base']} -> {d['candidate']}")
            for why in d["because"]:
                out.append(f"      because {why}")
            if d["detail"] and not d["declared"]:
                out.append(f"      {d['detail'].splitlines()[0][:300]}")
        out.append("")
    if failures or other:
        out.append(h("failures on the candidate"))
        for r in failures:
            out.append(f"{bullet}{r['op']} / {r['invariant']} / {r['device']}: {r['detail'].splitlines()[0][:300]}")
        for t in other:
            out.append(f"{bullet}{t}")
        out.append("")
    if declared_only:
        out.append(h("declared behaviour changes, both releases conform (cpu)"))
        for d in declared_only:
            for why in d["because"]:
                out.append(f"{bullet}{why}")
        out.append("")
    out.append(f"verdict: {verdict}" + ("" if verdict == "PASS" else
               " (undeclared differences or candidate failures; see above)"))
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", help="outcome JSON of the current torch")
    ap.add_argument("candidate", help="outcome JSON of the candidate torch")
    ap.add_argument("--markdown", help="also write the report as Markdown here")
    ap.add_argument("--same", action="store_true",
                    help="flakiness check: two runs of one torch must agree exactly (outcomes and details)")
    args = ap.parse_args(argv)
    try:
        base, cand = load(args.base), load(args.candidate)
    except (OSError, ValueError) as exc:
        print(f"upgrade gate: {exc}", file=sys.stderr)
        return 2
    base["_path"], cand["_path"] = args.base, args.candidate
    if args.same and base["torch"] != cand["torch"]:
        print(f"upgrade gate --same: runs of different torch ({base['torch']}, {cand['torch']})", file=sys.stderr)
        return 2
    result = compare(base, cand, load_all(REGISTRY), same=args.same)
    sys.stdout.write(render(base, cand, *result))
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(render(base, cand, *result, markdown=True))
        print(f"wrote {args.markdown}")
    diffs, _, failures, other = result
    return 1 if any(not d["declared"] for d in diffs) or failures or other else 0


if __name__ == "__main__":
    sys.exit(main())
