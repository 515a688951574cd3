"""Where each column of the matrix came from, and which columns do not share the newest run's commit and spec set
(imports no torch).

A column is judged by one or more outcome files. Each file names the spec set that judged it (`specs.digest`) and,
from the format that added them, the suite's commit (`checkout`) and machine; a folder's `run.json` sidecar
(copysuite/gpu/source.py) names the run and, for older GPU runs, the commit. The matrix compares every column with
the newest file (by `created`): a column judged by another spec set, at another commit, at an unrecorded commit or
from a checkout with uncommitted changes is marked, because its cells were not judged by what the newest column was,
and `python -m copysuite matrix --strict` refuses such a page.
"""
from __future__ import annotations


def origin(doc: dict, described: dict, sidecar: dict | None) -> dict:
    """A file's origin: what copysuite.gpu.source.describe says (machine, run, file, partial), with the commit, whether
    the checkout was modified, the spec-set digest and when the file was written. The document's own `machine` wins
    over its `platform` where no sidecar names one."""
    checkout = doc.get("checkout") or {}
    commit = checkout.get("commit") or (sidecar or {}).get("commit")
    machine = described["machine"] if sidecar or not doc.get("machine") else doc["machine"]
    return {**described, "machine": machine, "commit": commit, "modified": checkout.get("modified"),
            "digest": doc["specs"]["digest"], "created": doc["created"]}


def short(commit) -> str:
    return commit[:7] if commit else "not recorded"


def short_digest(digest: str) -> str:
    return digest[:8]


def same_commit(a: str, b: str) -> bool:
    """Commits named in full (`checkout`) and short (a sidecar's `git rev-parse --short`) are the same commit when one
    is a prefix of the other."""
    return a.startswith(b) or b.startswith(a)


def newest(origins) -> dict | None:
    """The origin written last: the commit and spec set every column is compared with."""
    return max(origins, key=lambda o: o["created"], default=None)


def mismatch(o: dict, ref: dict) -> list:
    """Why a file is not of the newest file's commit and spec set, as (kind, value) pairs (empty: it is)."""
    why = []
    if o["digest"] != ref["digest"]:
        why.append(("spec set", short_digest(o["digest"])))
    if not o["commit"]:
        why.append(("commit", None))
    elif ref["commit"] and not same_commit(o["commit"], ref["commit"]):
        why.append(("commit", short(o["commit"])))
    if o["modified"]:
        why.append(("modified", short(o["commit"])))
    return why


def explain(pairs, ref: dict) -> list:
    """The reasons of mismatch() over one or more files, one phrase per kind."""
    found = {}
    for kind, value in pairs:
        found.setdefault(kind, dict())[value] = None
    out = []
    if "spec set" in found:
        named = list(found["spec set"])
        out.append(f"spec set{'s' if len(named) > 1 else ''} " + ", ".join(named[:3]) +
                   (f" and {len(named) - 3} more" if len(named) > 3 else "") +
                   f", not the newest run's {short_digest(ref['digest'])}")
    if "commit" in found:
        named = [c for c in found["commit"] if c]
        if named:
            out.append(f"commit {', '.join(named)}, not the newest run's {short(ref['commit'])}")
        if None in found["commit"]:
            out.append("commit not recorded")
    if "modified" in found:
        out.append(f"uncommitted changes on {', '.join(found['modified'])}")
    return out


def marks(per_column: dict) -> dict:
    """{column: reasons} for every column (key -> the origins of its judged cells) that is not wholly of the newest
    origin's commit and spec set."""
    ref = newest(o for found in per_column.values() for o in found)
    out = {}
    for col, found in per_column.items():
        why = explain((pair for o in found for pair in mismatch(o, ref)), ref)
        if why:
            out[col] = why
    return out


def reference_line(per_column: dict) -> str:
    ref = newest(o for found in per_column.values() for o in found)
    if ref is None:
        return ""
    return (f"The newest run ({ref['file']}, {ref['created']}) is at commit {short(ref['commit'])} with spec set "
            f"{short_digest(ref['digest'])}.")


HEADING = "⚠ Columns not from the newest run's commit and spec set"
WARNING = ("Their cells were judged by other specs, or by other code, than the newest column's: differences between "
           "these columns and the others may come from the suite, not from torch. Regenerate them at one commit "
           "(tools/matrix.sh; the CUDA columns: docs/gpu.md).")
