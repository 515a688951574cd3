#!/usr/bin/env bash
# Speed gate for a torch upgrade, with pytest-benchmark's own save/compare:
#   tools/bench_gate.sh save      # on the current torch: save the baseline (results/bench/saved/<machine>/NNNN_baseline.json)
#   tools/bench_gate.sh check     # on the candidate torch: compare with the newest baseline, exit 1 on a regression
#                                 # (benchmarks over the threshold are re-timed once; still over it -> exit 1)
# The subset: every spec op on float32 at 2**10 and 2**20 elements (CPU; CUDA too where there is one), one thread.
# BENCH_GATE_STAT (default min) and BENCH_GATE_THRESHOLD (default 40%): the statistic compared and the largest
# slowdown that passes, chosen from the noise runs in docs/benchmarks.md (re-measure on a quiet machine).
# BENCH_INJECT_SLOWDOWN=1.5 makes every timed call 1.5x slower: a self-test of the gate only.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
STAT=${BENCH_GATE_STAT:-min}
THRESHOLD=${BENCH_GATE_THRESHOLD:-40%}
THREADS=${BENCH_GATE_THREADS:-1}   # one intra-op thread: on a busy machine OpenMP waits make multi-thread medians jump
SUBSET=(benchmarks/test_spec_ops.py --bench-dtypes=float32 --bench-exponents=10,20 --bench-threads="$THREADS"
        --benchmark-max-time=0.5 --benchmark-min-rounds=20 --benchmark-warmup=on --benchmark-disable-gc)
case "${1:-}" in
  save)
    shift
    "$PY" -m pytest -p no:xdist -q "${SUBSET[@]}" --benchmark-save=baseline "$@" ;;
  check)
    shift
    baseline=$(ls results/bench/saved/*/*_baseline.json 2>/dev/null | sort | tail -1)
    [ -n "$baseline" ] || { echo "no baseline: run 'tools/bench_gate.sh save' on the current torch first" >&2; exit 2; }
    number=$(basename "$baseline" | cut -d_ -f1)
    echo "comparing with $baseline, failing when the $STAT slows down by more than $THRESHOLD"
    mkdir -p results/bench
    if "$PY" -m pytest -p no:xdist -q "${SUBSET[@]}" --benchmark-compare="$number" \
        --benchmark-compare-fail="$STAT:$THRESHOLD" --benchmark-json=results/bench/gate_check.json "$@"; then
      exit 0
    fi
    # Under load one benchmark can shift for a whole run: the ones over the threshold are timed once more, and the
    # gate fails only if they are still over it (a real slowdown is). Nothing to re-time: the failure was not speed.
    mapfile -t again < <("$PY" -m benchmarks.noise results/bench/gate_check.json --baseline "$baseline" \
                           --stat "$STAT" --over "$THRESHOLD")
    [ ${#again[@]} -gt 0 ] || exit 1
    echo "re-timing ${#again[@]} benchmark(s) over the threshold: ${again[*]}"
    "$PY" -m pytest -p no:xdist -q "${again[@]}" "${SUBSET[@]:1}" --benchmark-compare="$number" \
      --benchmark-compare-fail="$STAT:$THRESHOLD" --benchmark-json=results/bench/gate_recheck.json "$@" ;;
  *)
    echo "usage: tools/bench_gate.sh save|check [pytest options]" >&2; exit 2 ;;
esac
