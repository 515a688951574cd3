"""`python -m copysuite drafts`: run every draft of docs/upstream-reports/ on the installed torch, each alone.

    python -m copysuite drafts                              # every draft: a table of draft, verdict, seconds
    python -m copysuite drafts --json results/drafts/torch-2.13.0.json
    python -m copysuite drafts cache_serves_aliased_graph new_tensor_lazy_bits
    python -m copysuite drafts --markdown results/drafts/torch-*.json   # the table of the drafts' README, no run
    python -m copysuite drafts --timings results/drafts/torch-2.13.0.json --under 15   # CI's subset

A draft is a standalone script (only torch needed) whose last line printed is its verdict, with a matching exit
status (docs/upstream-reports/README.md):

    VERDICT: REPRODUCES   exit 1   the bug shows on this torch
    VERDICT: FIXED        exit 0   this torch behaves as the draft says it should
    VERDICT: NEEDS CUDA   exit 3   the bug needs a CUDA device, and there is none

Anything else is an ERROR: no verdict line, a verdict whose exit status does not match, a crash, a timeout. Each
draft runs in a fresh subprocess, in a temporary directory, with inductor's FX graph cache and AOTAutograd's cache
off and a cache directory of its own, except a draft that declares `COMPILE_CACHES = "on"` (its bug is in the
caches). Exit status: 1 if any draft is an ERROR, 0 otherwise (a draft that reproduces is evidence, not a failure);
2 on a draft name that does not exist. Imports no torch: the torch version comes from the subprocess.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DRAFTS_DIR = Path(__file__).resolve().parents[2] / "docs" / "upstream-reports"
VERDICTS = {"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}
ERROR = "ERROR"
VERDICT_LINE = re.compile(r"^VERDICT: (.+)$")
CACHES_ON = re.compile(r"^COMPILE_CACHES = \"on\"", re.M)
TAIL_LINES = 15
# inductor's and AOTAutograd's on-disk caches can serve a graph compiled by an earlier draft (or an earlier run) for
# other inputs: a draft must see only what its own process compiles
CACHES_OFF = {"TORCHINDUCTOR_FX_GRAPH_CACHE": "0", "TORCHINDUCTOR_AUTOGRAD_CACHE": "0"}


def find(names, directory: Path = DRAFTS_DIR) -> list[Path]:
    """The drafts named (a file name or its stem), or every draft; a name that is no draft raises KeyError."""
    every = {p.stem: p for p in sorted(directory.glob("*.py"))}
    if not names:
        return list(every.values())
    missing = [n for n in names if Path(n).stem not in every]
    if missing:
        raise KeyError(", ".join(missing))
    return [every[Path(n).stem] for n in names]


def classify(returncode: int | None, output: str) -> tuple[str, str]:
    """(verdict, why) from a draft's exit status and output: the verdict only when both agree, else ERROR."""
    lines = [line for line in output.splitlines() if line.strip()]
    if returncode is None:
        return ERROR, "timed out"
    found = VERDICT_LINE.match(lines[-1].strip()) if lines else None
    if not found:
        crash = f"killed by signal {-returncode}" if returncode < 0 else f"exit status {returncode}"
        return ERROR, f"no verdict as the last line ({crash})"
    verdict = found.group(1).strip()
    if verdict not in VERDICTS:
        return ERROR, f"unknown verdict {verdict!r}"
    if VERDICTS[verdict] != returncode:
        return ERROR, f"verdict {verdict} with exit status {returncode} (expected {VERDICTS[verdict]})"
    return verdict, ""


def environment(path: Path, cache_dir: str) -> dict:
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache_dir, PYTHONDONTWRITEBYTECODE="1")
    if not CACHES_ON.search(path.read_text()):
        env.update(CACHES_OFF)
    return env


def run_one(path: Path, python: str = sys.executable, timeout: float = 300.0) -> dict:
    """Run one draft in a fresh subprocess; its record as plain data (what the JSON file holds per draft)."""
    with tempfile.TemporaryDirectory(prefix=f"draft-{path.stem}-") as work:
        start = time.monotonic()
        try:
            done = subprocess.run([python, str(path.resolve())], cwd=work, env=environment(path, work),
                                  capture_output=True, text=True, timeout=timeout)
            returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            returncode, stdout, stderr = None, text_of(exc.stdout), text_of(exc.stderr)
        seconds = time.monotonic() - start
    # the verdict is the last line of stdout: torch's warnings and logs go to stderr, in no fixed order with it
    verdict, why = classify(returncode, stdout)
    record = {"name": path.stem, "verdict": verdict, "exit_code": returncode, "seconds": round(seconds, 1),
              "why": why, "tail": stdout.splitlines()[-TAIL_LINES:]}
    if verdict == ERROR:
        record["stderr_tail"] = stderr.splitlines()[-TAIL_LINES:]
    return record


def text_of(part) -> str:
    return part.decode(errors="replace") if isinstance(part, bytes) else (part or "")


def torch_version(python: str) -> str:
    done = subprocess.run([python, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True)
    return done.stdout.strip() or f"unknown ({done.stderr.strip().splitlines()[-1:]})"


def quick(paths, timings: str, under: float) -> tuple[list, list]:
    """(the drafts to run, the names left out): those a recorded run took `under` seconds or more for are left out;
    a draft the record does not have runs."""
    seconds = {d["name"]: d["seconds"] for d in json.loads(Path(timings).read_text())["drafts"]}
    slow = [p.stem for p in paths if seconds.get(p.stem, 0.0) >= under]
    return [p for p in paths if p.stem not in slow], slow


def counts(records) -> dict:
    tally = {verdict: 0 for verdict in (*VERDICTS, ERROR)}
    for record in records:
        tally[record["verdict"]] += 1
    return tally


def table(records) -> str:
    width = max([len("draft")] + [len(r["name"]) for r in records])
    rows = [f"{'draft':{width}s}  {'verdict':10s}  seconds"]
    for r in records:
        rows.append(f"{r['name']:{width}s}  {r['verdict']:10s}  {r['seconds']:7.1f}"
                    + (f"  {r['why']}" if r["why"] else ""))
    tally = ", ".join(f"{n} {v.lower()}" for v, n in counts(records).items())
    rows.append(f"{len(records)} drafts: {tally}; {sum(r['seconds'] for r in records):.0f} s in all")
    return "\n".join(rows)


def report(records, python: str, torch: str, load: tuple) -> dict:
    return {"torch": torch, "python": platform.python_version(), "interpreter": python,
            "platform": platform.platform(), "load_average_at_start": load, "counts": counts(records),
            "total_seconds": round(sum(r["seconds"] for r in records), 1), "drafts": records}


def markdown(paths) -> str:
    """The Markdown table of docs/upstream-reports/README.md: one row per draft, one column per release's JSON."""
    runs = sorted((json.loads(Path(p).read_text()) for p in paths), key=lambda run: release_key(run["torch"]))
    names = sorted({d["name"] for run in runs for d in run["drafts"]})
    by_run = [{d["name"]: d["verdict"] for d in run["drafts"]} for run in runs]
    rows = ["| draft | " + " | ".join(run["torch"] for run in runs) + " |", "|---" * (len(runs) + 1) + "|"]
    rows += [f"| `{name}` | " + " | ".join(v.get(name, "not run") for v in by_run) + " |" for name in names]
    for verdict in (*VERDICTS, ERROR):
        rows.append(f"| **{verdict.lower()}** | " + " | ".join(str(run["counts"][verdict]) for run in runs) + " |")
    return "\n".join(rows) + "\n"


def release_key(version: str) -> tuple:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m copysuite drafts", description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help="drafts to run (file name or stem; default: all)")
    ap.add_argument("--json", metavar="PATH", help="write the per-draft records, torch and python here")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per draft (default 300)")
    ap.add_argument("--dir", default=str(DRAFTS_DIR), help="the drafts' folder (default: the checkout's)")
    ap.add_argument("--markdown", nargs="+", metavar="JSON", help="run nothing: print the table of these runs")
    ap.add_argument("--timings", metavar="JSON", help="a recorded run (--json) whose seconds --under reads")
    ap.add_argument("--under", type=float, metavar="SECONDS",
                    help="with --timings: leave out the drafts that took this long or longer in that run")
    args = ap.parse_args(argv)
    if args.markdown:
        sys.stdout.write(markdown(args.markdown))
        return 0
    try:
        paths = find(args.names, Path(args.dir))
    except KeyError as exc:
        print(f"no such draft in {args.dir}: {exc.args[0]}", file=sys.stderr)
        return 2
    if not paths:
        print(f"no drafts in {args.dir} (the drafts live in a checkout, not in an installed package)",
              file=sys.stderr)
        return 2
    if args.timings and args.under is not None:
        paths, slow = quick(paths, args.timings, args.under)
        print(f"left out, {args.under:g} s or more in {args.timings}: {', '.join(slow) or 'none'}")
    python, load = sys.executable, os.getloadavg()
    torch = torch_version(python)
    print(f"{len(paths)} drafts on torch {torch} (python {platform.python_version()}), one at a time", flush=True)
    records = []
    for path in paths:
        records.append(run_one(path, python, args.timeout))
        r = records[-1]
        print(f"  {r['name']}: {r['verdict']} ({r['seconds']:.1f} s){'  ' + r['why'] if r['why'] else ''}",
              flush=True)
    print(table(records))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report(records, python, torch, load), indent=1) + "\n")
        print(f"wrote {args.json}")
    return 1 if any(r["verdict"] == ERROR for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
