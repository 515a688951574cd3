#!/usr/bin/env bash
# One command for the installed torch: the benchmark JSON, the PNG scaling charts and the claims report.
#   tools/bench.sh [extra pytest options, e.g. --bench-max-exp=24 --bench-step=2]
# Needs: .venv/bin/pip install -r requirements-bench.txt. Output: results/bench/ (BENCH_OUT to change).
# The benchmarks run in BENCH_PROCESSES fresh processes (default 3) sharing BENCH_MAX_TIME seconds per benchmark
# (default 0.1), their rounds pooled: tools/bench_run.py says why.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
OUT=${BENCH_OUT:-results/bench}
mkdir -p "$OUT"
"$PY" tools/bench_run.py --python "$PY" --json "$OUT/benchmarks.json" "$@"
"$PY" tools/bench_report.py "$OUT/benchmarks.json" --out "$OUT"
