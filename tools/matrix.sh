#!/usr/bin/env bash
# Run the whole suite on every release of the matrix (tox label `full`), then build the conformance matrix report
# and the copy-semantics change log. Environment: MATRIX_PARALLEL (tox -p, default 2), HYPOTHESIS_PROFILE (default ci).
# Extra arguments go to tox (e.g. `-e torch201,torch213` for a subset).
set -uo pipefail
cd "$(dirname "$0")/.."
# torch 1.13.1 has no Python 3.11 wheel; tox looks for python3.10 on PATH. pyenv's shim only answers when 3.10 is
# selected, so put a pyenv-installed 3.10 on PATH directly if there is one.
if ! python3.10 -c '' 2>/dev/null; then
  for d in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.10*/bin; do
    if [ -x "$d/python3.10" ]; then PATH="$d:$PATH"; break; fi
  done
fi
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(-m full)
start=$(date +%s)
.venv/bin/tox "${args[@]}" -p "${MATRIX_PARALLEL:-2}"
status=$?
echo "matrix wall time: $(( $(date +%s) - start )) s (tox exit $status)"
# tox writes results/<env>.json; the matrix is built from results/matrix/ and the GPU runs in results/gpu/ only,
# which git tracks, so the committed report can always be rebuilt from the committed runs
mkdir -p results/matrix
# compressed (outcome JSON is mostly repeated keys); a run replaces the uncompressed file of its name, if any
for f in results/torch*.json; do
    [ -e "$f" ] || continue
    gzip -n -c "$f" > "results/matrix/tox-$(basename "$f").gz" && rm -f "results/matrix/tox-$(basename "$f")"
done
shot=()   # the screenshot where copysuite.report.browser finds a headless Chromium
.venv/bin/python -c 'from copysuite.report import browser; raise SystemExit(browser.find() is None)' \
    && shot=(--screenshot docs/reports/matrix.png)
.venv/bin/python -m copysuite matrix results/matrix results/gpu --surface results/surface --markdown docs/reports/matrix.md --html docs/reports/matrix.html "${shot[@]}" \
    || status=1
.venv/bin/python -m copysuite changelog --output docs/reports/changelog.md || status=1
exit $status
