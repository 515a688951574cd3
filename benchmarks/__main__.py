"""`python -m benchmarks [--out DIR] [options]` (from the checkout): the benchmark JSON, the scaling charts and the
claims report for the installed torch. Options other than --out go to `benchmarks.run` (processes, time budget, and
pytest options such as --bench-max-exp=24). Needs requirements-bench.txt.

`python -m benchmarks ab --base PYTHON --candidate PYTHON`: the speed gate, two environments timed in one run
(benchmarks.ab); needs numpy and torch only."""
from __future__ import annotations

import argparse
import sys
from importlib.util import find_spec
from pathlib import Path


def main(argv=None) -> int:
    if argv and argv[0] == "ab":   # needs numpy and torch only, not requirements-bench.txt (matplotlib, ...)
        from benchmarks import ab

        return ab.main(argv[1:])
    missing = [name for name in ("matplotlib", "pytest_benchmark") if find_spec(name) is None]
    if missing:
        print(f"python -m benchmarks needs {', '.join(missing)}: pip install -r requirements-bench.txt",
              file=sys.stderr)
        return 2
    from benchmarks import report, run
    parser = argparse.ArgumentParser(description=__doc__, allow_abbrev=False)
    parser.add_argument("--out", default="results/bench", help="output directory (default results/bench)")
    args, rest = parser.parse_known_args(argv)
    out = Path(args.out)
    code = run.main(["--json", str(out / "benchmarks.json"), *rest])
    if code != 0:
        return code
    report.main([str(out / "benchmarks.json"), "--out", str(out)])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
