#!/usr/bin/env bash
# One command for the installed torch: the benchmark JSON, the PNG scaling charts and the claims report.
#   tools/bench.sh [extra pytest options, e.g. --bench-max-exp=24 --bench-step=2]
# Needs: .venv/bin/pip install -r requirements-bench.txt. Output: results/bench/ (BENCH_OUT to change).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
OUT=${BENCH_OUT:-results/bench}
mkdir -p "$OUT"
"$PY" -m pytest -p no:xdist tests/benchmarks --benchmark-json="$OUT/benchmarks.json" "$@"
"$PY" tools/bench_report.py "$OUT/benchmarks.json" --out "$OUT"
