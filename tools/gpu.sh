#!/usr/bin/env bash
# The suite on one CUDA device: every execution over every entry on cuda, the seed scenarios and the article idioms'
# CUDA benchmarks, into results/gpu/<gpu>-torch<version>-<date>/ (compressed outcome files and a run.json sidecar),
# which `python -m copysuite matrix results/matrix results/gpu` turns into CUDA columns, within a 10-minute budget.
# Arguments go to `python -m copysuite gpu`: --dry-run (the plan; refuses without a CUDA device), --out DIR,
# --budget SECONDS, --workers N. PYTHON picks the interpreter (default: .venv/bin/python). docs/gpu.md.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
[ -x "$py" ] || py=python3
exec "$py" -m copysuite gpu "$@"
