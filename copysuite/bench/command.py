"""`python -m copysuite bench [--out DIR] [options]`: the benchmark JSON, the scaling charts and the claims report
for the installed torch. --cuda-json PATH (a GPU run's benchmark JSON) and --claims-ab PATH (paired timings from
`python -m benchmarks.claims_ab`) go to the report, which judges the articles' claims from them; other options go to
`copysuite.bench.run` (processes, time budget, and pytest options such as --bench-max-exp=24). Needs requirements-bench.txt and this checkout's benchmarks/ folder.

`python -m copysuite bench ab --base PYTHON --candidate PYTHON`: the speed gate, two environments timed in one run
(copysuite.bench.ab)."""
from __future__ import annotations

import argparse
from pathlib import Path


def main(argv=None) -> int:
    if argv and argv[0] == "ab":   # needs numpy and torch only, not requirements-bench.txt (matplotlib, ...)
        from copysuite.bench import ab

        return ab.main(argv[1:])
    from copysuite.bench import report, run
    parser = argparse.ArgumentParser(description=__doc__, allow_abbrev=False)
    parser.add_argument("--out", default="results/bench", help="output directory (default results/bench)")
    parser.add_argument("--cuda-json", action="append", default=[], help="to the report (copysuite.bench.report)")
    parser.add_argument("--claims-ab", action="append", default=[], help="to the report (copysuite.bench.report)")
    args, rest = parser.parse_known_args(argv)
    out = Path(args.out)
    code = run.main(["--json", str(out / "benchmarks.json"), *rest])
    if code != 0:
        return code
    report.main([str(out / "benchmarks.json"), "--out", str(out), *(f"--cuda-json={p}" for p in args.cuda_json),
                 *(f"--claims-ab={p}" for p in args.claims_ab)])
    return 0
