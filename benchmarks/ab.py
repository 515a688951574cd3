"""`python -m benchmarks ab --base PYTHON --candidate PYTHON`: the speed gate, judged within one run.

Two environments (say the current torch's venv and the candidate's) are timed in the same run: in each pair a
fresh process of each side is started (`benchmarks/ab_worker.py`: every spec op on a float32 CPU source of each
size, one thread), both stay alive, and they are asked in turn, op by op (A B for one op, B A for the next), so the
two timings of an op are taken within a second of each other and a drift of the host moves both alike (whole
processes timed one after the other drift apart by more than the slowdowns the gate must see). Each process gives each
op the minimum of its rounds; an op is judged by the geometric mean of its paired ratios B/A, with a Student's t
interval over the pairs (a percentile bootstrap over 4 to 6 pairs is far too narrow: it flagged unchanged ops). An
op is a regression when the whole interval lies above --threshold (default 1.05): the candidate is surely more than
5% slower. An op flagged so is re-timed alone in as many fresh pairs, and is a regression only when the re-timing
flags it again (judged on the new pairs only): with some 200 ops judged, a burst of the host now and then lifts one
op's whole interval, the same torch on both sides, while a
real slowdown is there again in the next pairs. Every op at once is judged too (`judge_suite`: the median of
each pair's ratios, which moves by 1-3% between pairs where one op's ratio moves by tens of percent). Exit 1 on
any regression. Both sides' processes run with
fixed glibc malloc thresholds: with the dynamic mmap threshold a 4 MiB copy took 1.3 to 3x longer in some fresh
processes than in others (page faults on every call), which no pairing cancels.

BENCH_INJECT_SLOWDOWN=1.1 in --candidate-env makes the candidate's every timed call 1.1x slower: the self-test.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 900   # seconds a worker may take to start or to time one op
FIXED_MALLOC = {k: str(2 ** 28) for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")}
# two-sided Student's t quantiles by degrees of freedom (1 ... 10), for the confidences offered
T_QUANTILE = {0.95: dict(enumerate((12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228), 1)),
              0.99: dict(enumerate((63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169), 1))}


@dataclass
class Verdict:
    op: str
    ratio: float    # geometric mean of the paired ratios candidate / base
    low: float      # Student's t interval over the pairs (confidence given by --confidence)
    high: float
    regression: bool


class Worker:
    """One ab_worker process, alive until closed: `ops` the op names it serves, `time(op)` an op's rounds (None when
    the op raises there)."""

    def __init__(self, python: str, env: dict, worker_args: list[str]):
        self.python, self.stderr = python, tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([python, "-m", "benchmarks.ab_worker", *worker_args], cwd=ROOT,
                                     env={**os.environ, **env}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True)
        self.ops = self._answer()["ops"]

    def _answer(self):
        # one request, one line: nothing is left in the pipe's buffer when select() waits (a hung op: TIMEOUT)
        if not select.select([self.proc.stdout], [], [], TIMEOUT)[0]:
            self.proc.kill()
            raise RuntimeError(f"{self.python} -m benchmarks.ab_worker gave no answer in {TIMEOUT} s")
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(timeout=60)
            self.stderr.seek(0)
            raise RuntimeError(f"{self.python} -m benchmarks.ab_worker failed:\n{self.stderr.read()[-2000:]}")
        return json.loads(line)

    def time(self, op: str):
        self.proc.stdin.write(op + "\n")
        self.proc.stdin.flush()
        return self._answer()

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait(timeout=60)
        self.stderr.close()


def collect(base: str, candidate: str, pairs: int, worker_args, env=None, candidate_env=None,
            log=print) -> list[tuple]:
    """[(base timings, candidate timings)] per pair: a fresh process per side (started A B, then B A, ...), asked in
    turn op by op, the order alternating from op to op; `env` goes to every process, `candidate_env` to the
    candidate's too. An op either side cannot time (it raises there) is left out of that pair."""
    order = [("base", base, dict(env or {})), ("candidate", candidate, {**(env or {}), **(candidate_env or {})})]
    out = []
    for i in range(pairs):
        start, workers = time.monotonic(), {}
        try:
            for side, python, side_env in (order if i % 2 == 0 else order[::-1]):
                workers[side] = start_worker(python, side_env, worker_args)
            got = {"base": {}, "candidate": {}}
            ops = sorted(set(workers["base"].ops) & set(workers["candidate"].ops))
            for j, op in enumerate(ops):
                for side in (("base", "candidate") if (i + j) % 2 == 0 else ("candidate", "base")):
                    got[side][op] = workers[side].time(op)
        finally:
            for w in workers.values():
                w.close()
        timed = [op for op in ops if got["base"][op] is not None and got["candidate"][op] is not None]
        out.append(({op: got["base"][op] for op in timed}, {op: got["candidate"][op] for op in timed}))
        log(f"pair {i + 1}/{pairs}: {len(timed)} ops timed in turn, {time.monotonic() - start:.1f} s")
    return out


start_worker = Worker   # what collect() starts (the tests put stand-ins here)


SUITE = "every op: the median of each pair's ratios"
SUITE_OPS = 20   # the fewest ops judged at once


def verdict(name: str, logs, threshold: float, confidence: float) -> Verdict:
    """The geometric mean of the log ratios `logs` (one per pair) with a Student's t interval over the pairs."""
    logs = np.asarray(logs)
    half = T_QUANTILE[confidence][len(logs) - 1] * logs.std(ddof=1) / np.sqrt(len(logs))
    low, high = np.exp(logs.mean() - half), np.exp(logs.mean() + half)
    return Verdict(name, float(np.exp(logs.mean())), float(low), float(high), bool(low > threshold))


def log_ratios(pairs: list[tuple], stat=np.min) -> dict:
    """op -> log(candidate / base) in each pair, for the ops both sides timed in every pair."""
    ops = sorted(set.intersection(*(set(a) & set(b) for a, b in pairs)))
    return {op: np.log([stat(b[op]) / stat(a[op]) for a, b in pairs]) for op in ops}


def judge(pairs: list[tuple], threshold: float, confidence: float = 0.95, stat=np.min) -> list[Verdict]:
    """Each op both sides timed in every pair: the geometric mean of its paired ratios and a Student's t interval
    over the pairs (a percentile bootstrap over so few pairs is far too narrow: it flagged unchanged ops)."""
    return [verdict(op, logs, threshold, confidence) for op, logs in log_ratios(pairs, stat).items()]


def judge_suite(pairs: list[tuple], threshold: float, confidence: float = 0.95, stat=np.min) -> Verdict | None:
    """Every op at once: in each pair the median over the ops of their ratios, judged like one op. A fresh process
    times a 4 MiB copy up to 1.5x apart from the next (its pages, its caches), so one op's interval over 6 pairs is
    about 1.5x wide and an op 10% slower is flagged only now and then; the median of some 200 ops of a pair moves
    by a few percent between pairs, so a slowdown of every op, the kind a slower build or dispatcher
    brings, is seen surely. A slowdown of a few ops does not move it: the per-op verdicts are for those. None with
    fewer than SUITE_OPS ops (the re-timing's few, a hand-picked --ops): their median is no suite's."""
    logs = log_ratios(pairs, stat)
    if len(logs) < SUITE_OPS:
        return None
    return verdict(SUITE, np.median(list(logs.values()), axis=0), threshold, confidence)   # a median per pair


def confirmed(first: list[Verdict], retimed: list[Verdict]) -> list[Verdict]:
    """The regressions: ops flagged in the first pairs and again when re-timed alone (an op the re-timing did not
    time, e.g. its process failed to, stays flagged)."""
    again = {v.op: v for v in retimed}
    return [again.get(v.op, v) for v in first if v.regression and again.get(v.op, v).regression]


def gate(base, candidate, pairs, worker_args, threshold, confidence=0.95, stat=np.min, env=None,
         candidate_env=None, retime=True, log=print) -> tuple[list[Verdict], Verdict, list[Verdict], list[Verdict]]:
    """(verdicts of the first pairs, the verdict on every op at once, verdicts of the re-timed flagged ops,
    regressions: the suite's verdict when flagged, and the ops flagged twice)."""
    first = collect(base, candidate, pairs, worker_args, env, candidate_env, log)
    verdicts, suite = judge(first, threshold, confidence, stat), judge_suite(first, threshold, confidence, stat)
    flagged = [v.op for v in verdicts if v.regression]
    if not (flagged and retime):
        return verdicts, suite, [], suite_regressed(suite) + [v for v in verdicts if v.regression]
    log(f"re-timing the {len(flagged)} flagged ops alone in {pairs} fresh pairs: {', '.join(flagged)}")
    retimed = judge(collect(base, candidate, pairs, [*worker_args, "--ops", ",".join(flagged)], env, candidate_env,
                            log), threshold, confidence, stat)
    return verdicts, suite, retimed, suite_regressed(suite) + confirmed(verdicts, retimed)


def suite_regressed(suite: Verdict | None) -> list[Verdict]:
    return [suite] if suite is not None and suite.regression else []


def markdown(verdicts, threshold, header: str, retimed=(), regressions=None, suite=None) -> str:
    regressions = [v for v in verdicts if v.regression] if regressions is None else regressions
    ops_regressed = [v for v in regressions if v.op != SUITE]
    lines = [header, "", f"Regression: the whole interval above {threshold:.2f}; for an op, in the first pairs and "
             f"again when re-timed alone. {len(ops_regressed)} of {len(verdicts)} ops regressed "
             f"({sum(v.regression for v in verdicts)} flagged by the first pairs).", ""]
    if suite is not None:
        lines += [f"Every op at once (the median of each pair's ratios): {suite.ratio:.3f} ({suite.low:.3f} - "
                  f"{suite.high:.3f}), {'a regression' if suite.regression else 'not a regression'}.", ""]
    for title, rows in (("First pairs", verdicts), ("Flagged ops re-timed alone", retimed)):
        if rows:
            lines += [f"## {title}", "", "| op | candidate / base | interval | flagged |", "|---|---|---|---|"]
            lines += [f"| {v.op} | {v.ratio:.3f} | {v.low:.3f} - {v.high:.3f} | {'yes' if v.regression else 'no'} |"
                      for v in sorted(rows, key=lambda v: -v.ratio)]
            lines.append("")
    lines += ["## Regressions", ""] + [f"- {v.op}: {v.ratio:.3f} ({v.low:.3f} - {v.high:.3f})"
                                      for v in regressions] + ([] if regressions else ["none"])
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks ab", description=__doc__.splitlines()[0],
                                     allow_abbrev=False)
    parser.add_argument("--base", required=True, help="python of the current environment")
    parser.add_argument("--candidate", required=True, help="python of the candidate environment")
    parser.add_argument("--pairs", type=int, default=6, help="process pairs (default 6, at most 11)")
    parser.add_argument("--threshold", type=float, default=1.05)
    parser.add_argument("--confidence", type=float, choices=sorted(T_QUANTILE), default=0.95)
    parser.add_argument("--candidate-env", action="append", default=[], metavar="NAME=VALUE",
                        help="environment of the candidate's processes only (e.g. BENCH_INJECT_SLOWDOWN=1.1)")
    parser.add_argument("--markdown", default=None, metavar="PATH")
    parser.add_argument("--stat", choices=("median", "min"), default="min", help="of a process's rounds")
    parser.add_argument("--no-retime", action="store_true",
                        help="judge on the first pairs alone (default: flagged ops are re-timed and must be "
                             "flagged again)")
    parser.add_argument("--dynamic-malloc", action="store_true",
                        help="keep glibc's dynamic mmap threshold (default: fixed thresholds in both sides' processes)")
    args, worker_args = parser.parse_known_args(argv)
    if not 2 <= args.pairs <= 11:
        parser.error("--pairs: from 2 to 11")
    fixed = {} if args.dynamic_malloc else FIXED_MALLOC
    verdicts, suite, retimed, bad = gate(args.base, args.candidate, args.pairs, worker_args, args.threshold,
                                         args.confidence, getattr(np, args.stat), fixed,
                                         dict(item.split("=", 1) for item in args.candidate_env),
                                         retime=not args.no_retime)
    worst = max(verdicts, key=lambda v: v.ratio)
    at_once = (f"{suite.ratio:.3f} ({suite.low:.3f}-{suite.high:.3f})" if suite
               else f"not judged (under {SUITE_OPS} ops)")
    print(f"{len(verdicts)} ops, {args.pairs} process pairs; every op at once {at_once}; worst {worst.op} "
          f"{worst.ratio:.3f} ({worst.low:.3f}-{worst.high:.3f}); highest lower bound "
          f"{max(v.low for v in verdicts):.3f}")
    for v in retimed:
        print(f"re-timed {v.op}: {v.ratio:.3f} ({v.low:.3f}-{v.high:.3f}) {'flagged again' if v.regression else 'not'}")
    for v in bad:
        print(f"REGRESSION {v.op}: {v.ratio:.3f} ({v.low:.3f}-{v.high:.3f})")
    if args.markdown:
        header = f"# Speed gate: {args.candidate} vs {args.base}"
        Path(args.markdown).write_text(markdown(verdicts, args.threshold, header, retimed, bad, suite))
    print(f"verdict: {'FAIL' if bad else 'PASS'}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
