#!/usr/bin/env bash
# Lint every GitHub workflow with actionlint (expressions, job graph, runner labels, action inputs; the run scripts
# too where shellcheck is on PATH). The self-hosted GPU runner's labels: .github/actionlint.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
lint=.venv/bin/actionlint
[ -x "$lint" ] || lint=actionlint   # requirements-lint.txt installs it into .venv
"$lint" -no-color .github/workflows/*.yml
echo "actionlint: $(ls .github/workflows/*.yml | wc -l) workflow files clean"
