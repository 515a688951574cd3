"""`python -m tests.faults report [--fault-set SET] [--out PATH]`: run the fault campaign and write its verdicts
(default: every fault that is not opt-in, to docs/reports/faults.md). The test command runs the same campaign on the
sample set (tests/selftest/test_faults.py) but writes nothing."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tests.faults import campaign as fc


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.faults", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["report"])
    parser.add_argument("--fault-set", choices=fc.FAULT_SETS, default="default",
                        help="the faults to run (tests/faults/campaign.py's FAULT_SETS; default: %(default)s)")
    parser.add_argument("--out", type=Path, default=fc.ROOT / "docs" / "reports" / "faults.md")
    args = parser.parse_args(argv)
    fc.FAULT_SET = args.fault_set
    with tempfile.TemporaryDirectory() as work:
        c = fc.campaign(work)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(c.text)
    print(c.text)
    missed = [f.name for f in fc.CATALOG if f.name in c.sessions and fc.verdict(c.sessions, f)[0] != "caught"]
    print(f"written to {args.out}; {len(missed)} missed" + (f": {', '.join(missed)}" if missed else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
