"""The change log of copy semantics across torch releases, generated from the version gates in specs/ (imports no
torch).

Every `versions` gate of an expectation, every entry's `applies.torch` range, the torch range of every record of the
known-bug registry (specs/known/; spec, surface and fuzz alike) and every device a compiled backend handles only from
some release (copysuite.strategies.space.BACKEND_DEVICES) is a declared change: this lists them by the release where the
behaviour changes, with the old and new value (or the divergence), the conditions, the evidence and the spec file.
Changes of the operator schemas' aliasing contract between the releases whose schemas are dumped in results/surface are
listed too (copysuite.report.schema_changes).

    python -m copysuite changelog --output docs/reports/changelog.md
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from copysuite.known import registry
from copysuite.report import output, records, schema_changes
from copysuite.spec.declared import backend_device_changes, release_changes, summarize
from copysuite.spec.load import SPEC_DIR, load_specs


def render(items) -> str:
    by_release = defaultdict(list)
    for release, line in items:
        by_release[release].append(line)
    out = ["# Copy semantics across torch releases", "",
           "Generated from the version gates in `specs/`, the records of the known-bug registry (`specs/known/`), "
           "and the",
           "devices a compiler backend supports from some release (`strategies/space.py`), by",
           "`python -m copysuite changelog`; do not edit by hand. Each line names the spec entry that records the",
           "change, the check, the value before → after, and the upstream evidence; or the record whose bug begins or",
           "ends there, and what it explains. A release is listed as the first one (among those the gates",
           "and ranges name) with the new behaviour. Lines naming `schemas of torch A → B` compare the operator",
           "schemas of two releases (`results/surface/`): an overload whose class or alias annotations changed,",
           "and op names new or no longer registered per class.", ""]
    if not by_release:
        out.append("No version gates in the specs.")
    for release in sorted(by_release):
        out += [f"## torch {release}", ""] + [f"- {line}" for line in sorted(by_release[release])] + [""]
    return "\n".join(out).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m copysuite changelog", description=__doc__.splitlines()[0])
    ap.add_argument("--output", help="write Markdown here (default: stdout)")
    ap.add_argument("--specs", default=str(SPEC_DIR), help="the spec directory (default: the suite's)")
    ap.add_argument("--schemas", default=str(schema_changes.SURFACE_DIR),
                    help="the folder of operator schema dumps (default: the suite's results/surface)")
    args = ap.parse_args(argv)
    entries = load_specs(Path(args.specs)).entries
    text = render(release_changes(summarize(entries)) + records.changes(registry.load(), entries)
                  + backend_device_changes() + schema_changes.release_items(args.schemas))
    return output.emit(text, args.output)


if __name__ == "__main__":
    sys.exit(main())
