"""The upgrade gate: compare a run on the current torch (base) with a run on the candidate (imports no torch).

    python -m copysuite gate results/torch213.json results/torch2141.json --markdown results/gate.md

Lists every cell whose outcome differs between the two runs, and every expectation the specs declare to change
between the two releases. A difference is "declared" when a version gate or an entry's torch range explains it,
"undeclared" otherwise. The declarations come from the candidate's outcome file, which records the spec set that
judged it; the two runs must have been judged by the same spec set. Exit status 1 on any undeclared difference or
any failure in the candidate run (conformance cells and the rest of the suite), 0 otherwise; 2 on unusable input.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from copysuite.outcome import format as outcome_format
from copysuite.plan.cell_id import CellId
from copysuite.spec.declared import changes_between
from copysuite.spec.expectations import release_of


def compare(base, cand, same=False) -> dict:
    """The gate's findings as data: differences, declared-only changes, candidate failures, other failed tests."""
    va, vb = release_of(base["torch"]), release_of(cand["torch"])
    entries = cand["specs"]["entries"]
    a, b = outcome_format.cells_by_id(base), outcome_format.cells_by_id(cand)
    diffs, declared_only = [], []
    for cid in sorted(set(a) | set(b)):
        ra, rb = a.get(cid), b.get(cid)
        cell = ra or rb
        oa, ob = (r["outcome"] if r else "absent" for r in (ra, rb))
        entry = entries.get(cell["entry"])
        # a repeat on the same torch (--same): nothing is declared, every difference is flakiness
        reasons = (changes_between(cell["entry"], entry, cell["check"], va, vb, cell["execution"])
                   if entry and not same else [])
        differs = oa != ob or (same and ra and rb and repeatable(ra) != repeatable(rb))
        if differs:
            why = explaining(reasons, oa, ob)
            shown = rb if ob != "passed" else ra
            diffs.append({**cell, "base": oa, "candidate": ob, "declared": bool(why), "because": why,
                          "detail": outcome_format.summary(shown) if shown else ""})
        elif reasons and cell["device"] == "cpu" and cell["execution"] == "eager":
            declared_only.append({**cell, "base": oa, "candidate": ob, "because": [line for _, line in reasons]})
    failures = [r for r in cand["cells"] if r["outcome"] == "failed"]
    other = [t for t in cand["session"]["failed_tests"] if CellId.from_nodeid(t) is None]
    specs_differ = base["specs"]["digest"] != cand["specs"]["digest"]
    return {"diffs": diffs, "declared_only": declared_only, "failures": failures, "other": other,
            "specs_differ": specs_differ}


ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# left out of --same's comparison: an error's message may quote object ids and addresses (and a check's detail did,
# before storage.relation worded identity and memory without them); the observed value, kind and expectation stay
VOLATILE = ("detail", "message")


def repeatable(cell) -> str:
    """What two runs of one torch must agree on for a cell (`--same`): outcome, skip reason and failure, without
    the fields that quote this process's memory addresses, and with hex addresses elsewhere masked."""
    failure = {k: v for k, v in (cell["failure"] or {}).items() if k not in VOLATILE}
    return ADDRESS.sub("0x?", json.dumps([cell["outcome"], cell["skip_reason"], failure], sort_keys=True))


def explaining(reasons, base: str, candidate: str) -> list[str]:
    """The declarations that can explain an outcome going from `base` to `candidate`: a changed expected value
    (a gate) explains held <-> failed; a torch range explains skipped <-> judged; nothing explains a cell that
    one run does not have; a known divergence explains diverged <-> held."""
    if "absent" in (base, candidate):
        return []
    kind = "range" if "skipped" in (base, candidate) else "divergence" if "diverged" in (base, candidate) else "gate"
    return [line for k, line in reasons if k == kind]


def passes(found) -> bool:
    return not (any(not d["declared"] for d in found["diffs"]) or found["failures"] or found["other"]
                or found["specs_differ"])


def render(base, cand, found, markdown=False) -> str:
    diffs, declared_only = found["diffs"], found["declared_only"]
    und = [d for d in diffs if not d["declared"]]
    verdict = "PASS" if passes(found) else "FAIL"
    h = (lambda t: f"## {t}") if markdown else (lambda t: f"--- {t}")
    bullet = "- " if markdown else "  "
    title = f"upgrade gate: torch {base['torch']} -> torch {cand['torch']}: {verdict}"
    out = [f"# {title}" if markdown else title, "",
           f"base: {base['_path']} ({len(base['cells'])} cells, {base['created']}); candidate: {cand['_path']} "
           f"({len(cand['cells'])} cells, {cand['created']})",
           f"{len(diffs)} outcome differences ({len(und)} undeclared), {len(found['failures'])} failed cells and "
           f"{len(found['other'])} other failed tests on the candidate, {len(declared_only)} declared behaviour "
           f"changes where both releases conform", ""]
    if found["specs_differ"]:
        out += [h("different spec sets"),
                f"{bullet}the runs were judged by different specs (digest {base['specs']['digest'][:12]} vs "
                f"{cand['specs']['digest'][:12]}): re-run the base with the candidate's specs", ""]
    if diffs:
        out.append(h("outcome differences"))
        for d in diffs:
            out.append(f"{bullet}[{'declared' if d['declared'] else 'UNDECLARED'}] {d['entry']} / {d['check']} / "
                       f"{d['device']} / {d['execution']}: {d['base']} -> {d['candidate']}")
            out += [f"      because {why}" for why in d["because"]]
            if d["detail"] and not d["declared"]:
                out.append(f"      {d['detail'][:300]}")
        out.append("")
    if found["failures"] or found["other"]:
        out.append(h("failures on the candidate"))
        out += [f"{bullet}{r['entry']} / {r['check']} / {r['device']} / {r['execution']}: "
                f"{outcome_format.summary(r)[:300]}"
                for r in found["failures"]]
        out += [f"{bullet}{t}" for t in found["other"]]
        out.append("")
    if declared_only:
        out.append(h("declared behaviour changes, both releases conform (cpu)"))
        out += [f"{bullet}{why}" for d in declared_only for why in d["because"]]
        out.append("")
    out.append(f"verdict: {verdict}" + ("" if verdict == "PASS" else
               " (undeclared differences, candidate failures or different spec sets; see above)"))
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m copysuite gate", description=__doc__.splitlines()[0])
    ap.add_argument("base", help="outcome JSON of the current torch")
    ap.add_argument("candidate", help="outcome JSON of the candidate torch")
    ap.add_argument("--markdown", help="also write the report as Markdown here")
    ap.add_argument("--same", action="store_true",
                    help="flakiness check: two runs of one torch must agree exactly (outcomes and details)")
    args = ap.parse_args(argv)
    try:
        base, cand = outcome_format.load(args.base), outcome_format.load(args.candidate)
    except outcome_format.OutcomeError as exc:
        print(f"upgrade gate: {exc}", file=sys.stderr)
        return 2
    base["_path"], cand["_path"] = args.base, args.candidate
    if args.same and base["torch"] != cand["torch"]:
        print(f"upgrade gate --same: runs of different torch ({base['torch']}, {cand['torch']})", file=sys.stderr)
        return 2
    found = compare(base, cand, same=args.same)
    sys.stdout.write(render(base, cand, found))
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(render(base, cand, found, markdown=True))
        print(f"wrote {args.markdown}")
    return 0 if passes(found) else 1


if __name__ == "__main__":
    sys.exit(main())
