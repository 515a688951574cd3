"""What a spec set declares to change between torch releases: its version gates and the entries' torch ranges
(imports no torch).

`summarize` turns loaded entries into plain data that the outcome JSON carries, so that the upgrade gate judges two
runs by the specs that produced them (not by whatever the current checkout holds) and runs where torch is absent.
`changes_between` answers the gate's question for one cell, `release_changes` the change log's for the whole set.
"""
from __future__ import annotations

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from copysuite.spec import expectations
from copysuite.spec.expectations import KNOWN_RELEASES, Choice
from copysuite.strategies.space import AOT_EXECUTIONS, BACKEND_DEVICES, COMPILED_EXECUTIONS, EXECUTIONS


def summarize(entries) -> dict:
    """{entry id: {file, program, torch, gates: {key: [{path, gates: [{torch, value, evidence}]}]},
    diverges: [{record, executions, devices, torch, expect, by_design, observed, evidence, fixed_by}]}}"""
    out = {}
    for e in entries:
        gates = {}
        for key, node in e.expect.items():
            found = [{"path": list(labels), "gates": [{"torch": b.torch_text, "evidence": b.evidence,
                                                       "value": expectations.describe(b.value)}
                                                      for b in n.branches]}
                     for labels, n in expectations.walk(node) if isinstance(n, Choice) and n.gated]
            if found:
                gates[key] = found
        out[e.id] = {"file": e.file, "program": e.program.text, "inputs": dict(e.program.inputs),
                     "torch": e.applies.torch, "gates": gates,
                     "diverges": [{"record": d.record, "executions": list(d.executions), "devices": list(d.devices),
                                   "torch": d.torch,
                                   "expect": list(d.keys), "by_design": d.by_design,
                                   "observed": d.observed, "evidence": d.evidence, "fixed_by": d.fixed_by}
                                  for d in e.diverges]}
    return out


def _covers(text: str, version: Version) -> bool:
    return version in SpecifierSet(text, prereleases=True)


def _gate_index(gates, version: Version):
    return next((i for i, g in enumerate(gates) if _covers(g["torch"], version)), None)


def changes_between(entry_id: str, entry: dict, key: str, old: Version, new: Version,
                    execution: str = "eager") -> list[tuple]:
    """What the specs declare to differ for one expectation between two releases, as (kind, readable line with
    evidence): kind "range" when the entry's own torch range covers one release and not the other (its cells are
    skipped on one side), kind "gate" for every version gate whose chosen branch differs (the expected value
    changes), kind "divergence" for a known upstream bug under `execution` that affects one release only."""
    out = []
    for d in entry.get("diverges", []):
        if key in d["expect"] and execution in d["executions"] and _covers(d["torch"], old) != _covers(d["torch"], new):
            state = "appears" if _covers(d["torch"], new) else "is fixed"
            fixed = f", fix {d['fixed_by']}" if d["fixed_by"] and not _covers(d["torch"], new) else ""
            out.append(("divergence", f"{entry_id}.{key} under {execution}: known bug {state} (torch{d['torch']}: "
                                      f"{d['observed']}) [{d['evidence']}{fixed}]"))
    if entry["torch"] and _covers(entry["torch"], old) != _covers(entry["torch"], new):
        out.append(("range", f"{entry_id} applies to torch{entry['torch']} only ({entry['file']})"))
    for choice in entry["gates"].get(key, []):
        gates = choice["gates"]
        a, b = _gate_index(gates, old), _gate_index(gates, new)
        if a != b:
            where = f" ({'; '.join(choice['path'])})" if choice["path"] else ""
            text = lambda i: "no gate" if i is None else f"torch{gates[i]['torch']}: {gates[i]['value']}"
            evidence = sorted({gates[i]["evidence"] for i in (a, b) if i is not None})
            out.append(("gate", f"{entry_id}.{key}{where}: {text(a)} -> {text(b)} [{', '.join(evidence)}]"))
    return out


def _boundaries(specifier_texts):
    """Candidate releases: the known ones and every version a specifier names, sorted."""
    out = set(KNOWN_RELEASES) | {Version("0")}
    for text in specifier_texts:
        for spec in SpecifierSet(text, prereleases=True):
            out.add(Version(spec.version.replace(".*", "")))
    return sorted(out)


def transitions(texts, covers):
    """(previous, release) for each candidate release (see _boundaries over `texts`) where `covers(release)` differs
    from the release before it."""
    points = _boundaries(texts)
    return [(prev, cur) for prev, cur in zip(points, points[1:]) if covers(prev) != covers(cur)]


def backend_device_changes() -> list[tuple]:
    """(release, Markdown line) for every device a compiled backend handles only from some release
    (copysuite.strategies.space.BACKEND_DEVICES): its cells run from that release, and are skipped before it."""
    items = []
    for (backend, device), (torch_range, evidence) in sorted(BACKEND_DEVICES.items()):
        executions = ", ".join(f"`{e}`" for e in EXECUTIONS if e.startswith(f"compile.{backend}"))
        for _, cur in transitions([torch_range], lambda v, r=torch_range: _covers(r, v)):
            state = "checked from this release" if _covers(torch_range, cur) else "skipped from this release"
            items.append((cur, f"{executions} on `{device}`: {state} (torch{torch_range}) — evidence: {evidence}"))
    return items


def executions_text(d) -> str:
    """Where a divergence shows, in words: `compiled (every backend)`, `compiled through AOTAutograd`, or the list;
    and the devices when not all."""
    ex = set(d["executions"])
    text = ("compiled (every backend)" if ex == set(COMPILED_EXECUTIONS) else
            "compiled through AOTAutograd (aot_eager, inductor)" if ex == set(AOT_EXECUTIONS) else
            "under " + ", ".join(d["executions"]))
    devices = d.get("devices")
    return text + (f", on {', '.join(devices)}" if devices and len(devices) < 4 else "")


def release_changes(summary: dict) -> list[tuple]:
    """(release, Markdown line) for every declared change of an entry: where it starts or stops applying, and where a
    gate's value changes. Where a known bug begins or ends is the registry's (copysuite.known.changes)."""
    items = []
    for eid, entry in summary.items():
        rng = entry["torch"]
        if rng:
            for _, cur in transitions([rng], lambda v, r=rng: _covers(r, v)):
                verb = "is covered from" if _covers(rng, cur) else "is no longer covered from"
                items.append((cur, f"`{eid}` (`{entry['program']}`) {verb} this release: the spec applies to "
                                   f"torch{rng} ({entry['file']})"))
        for key, choices in entry["gates"].items():
            for choice in choices:
                gates = choice["gates"]
                for prev, cur in transitions([g["torch"] for g in gates], lambda v, g=gates: _gate_index(g, v)):
                    a, b = _gate_index(gates, prev), _gate_index(gates, cur)
                    if a is None or b is None:
                        continue
                    where = f" ({'; '.join(choice['path'])})" if choice["path"] else ""
                    ev = " · ".join(sorted({gates[a]["evidence"], gates[b]["evidence"]}))
                    items.append((cur, f"`{eid}` **{key}**{where}: `{gates[a]['value']}` → `{gates[b]['value']}` "
                                       f"— evidence: {ev} ({entry['file']})"))
    return items
