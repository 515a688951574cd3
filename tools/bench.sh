#!/usr/bin/env bash
# One command for the installed torch: the benchmark JSON, the PNG scaling charts and the claims report.
#   tools/bench.sh [extra pytest options, e.g. --bench-max-exp=24 --bench-step=2]
# Needs: .venv/bin/pip install -r requirements-bench.txt. Output: results/bench/ (BENCH_OUT to change).
# The benchmarks run in BENCH_PROCESSES fresh processes (default 3) sharing BENCH_MAX_TIME seconds per benchmark
# (default 0.1), their rounds pooled: benchmarks/run.py says why. Same as `python -m copysuite bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
"$PY" -m copysuite bench --out "${BENCH_OUT:-results/bench}" --python "$PY" "$@"
