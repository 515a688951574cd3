#!/usr/bin/env bash
# The conformance matrix regenerated at one commit (copysuite/report/regenerate.py; docs/using.md): every release of
# tox's label `full` under every execution, one compressed outcome file per release and execution in
# results/matrix/<env>/, each release's folder replaced whole; then docs/reports/matrix.{md,html,png} and
# docs/reports/changelog.md. `tools/matrix.sh --help` lists the options (-e ENV,..., --execution NAME, --python,
# --out, --no-report, --strict, --collect); options after `--` go to every pytest session. PYTHON picks the Python
# that drives it (default .venv/bin/python, which needs tox: requirements-matrix.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
# torch 1.13.1 has no Python 3.11 wheel; tox looks for python3.10 on PATH. pyenv's shim only answers when 3.10 is
# selected, so put a pyenv-installed 3.10 on PATH directly if there is one.
if ! python3.10 -c '' 2>/dev/null; then
  for d in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.10*/bin; do
    if [ -x "$d/python3.10" ]; then PATH="$d:$PATH"; break; fi
  done
fi
exec "${PYTHON:-.venv/bin/python}" -m copysuite.report.regenerate "$@"
