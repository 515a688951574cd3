"""The change log of copy semantics across torch releases, generated from the version gates in specs/.

Every `versions` gate of an expectation and every entry's `applies.torch` range is a declared change: this lists them
by the release where the behaviour changes, with the old and new value, the conditions, the evidence and the spec file.

    python -m copysuite.changelog --output docs/changelog.md
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from copysuite.invariants import REGISTRY
from copysuite.specs import KNOWN_RELEASES, gate_index, gate_nodes, load_all


def boundaries(specifier_texts):
    """Candidate releases: the known ones and every version a specifier names, sorted."""
    out = set(KNOWN_RELEASES) | {Version("0")}
    for text in specifier_texts:
        for spec in SpecifierSet(text, prereleases=True):
            out.add(Version(spec.version.replace(".*", "")))
    return sorted(out)


def changes():
    """[(release, line)] for every declared change in the specs."""
    items = []
    for entry in load_all(REGISTRY):
        rng = entry.applies["torch"]
        if rng:
            spec = SpecifierSet(rng, prereleases=True)
            points = boundaries([rng])
            for prev, cur in zip(points, points[1:]):
                if (prev in spec) != (cur in spec):
                    verb = "is covered from" if cur in spec else "is no longer covered from"
                    items.append((cur, f"`{entry.id}` (`{entry.call_text()}`) {verb} this release: the spec "
                                       f"applies to torch{rng} ({entry.file})"))
        for invariant, value in entry.expect.items():
            for path, gates in gate_nodes(value):
                points = boundaries([g["torch"] for g in gates])
                for prev, cur in zip(points, points[1:]):
                    a, b = gate_index(gates, prev), gate_index(gates, cur)
                    if a == b or a is None or b is None:
                        continue
                    where = f" ({'; '.join(path)})" if path else ""
                    ev = " · ".join(sorted({gates[a]["evidence"], gates[b]["evidence"]}))
                    items.append((cur, f"`{entry.id}` **{invariant}**{where}: `{gates[a]['value']!r}` → "
                                       f"`{gates[b]['value']!r}` — evidence: {ev} ({entry.file})"))
    return items


def render(items) -> str:
    by_release = defaultdict(list)
    for release, line in items:
        by_release[release].append(line)
    out = ["# Copy semantics across torch releases", "",
           "Generated from the version gates in `specs/` by `python -m copysuite.changelog`; do not edit by hand. Each line",
           "names the spec entry that records the change, the invariant, the value before → after, and the upstream",
           "evidence. A release is listed as the first one (among those the gates name) with the new behaviour.", ""]
    if not by_release:
        out.append("No version gates in the specs.")
    for release in sorted(by_release):
        out += [f"## torch {release}", ""] + [f"- {line}" for line in sorted(by_release[release])] + [""]
    return "\n".join(out).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--output", help="write Markdown here (default: stdout)")
    args = ap.parse_args(argv)
    text = render(changes())
    if args.output:
        Path(args.output).write_text(text)
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
