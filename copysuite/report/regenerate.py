"""The conformance matrix regenerated at one commit: `tools/matrix.sh [options] [-- pytest options]` (imports no
torch; docs/using.md).

Every release of tox's `full` label (tox.ini; `-e` for some) under every execution (`--execution` for some): one
pytest session per release and execution, in the release's tox environment (or `--python`, an interpreter that has
the release), written to `OUT/<env>/<execution>.json.gz` with a `run.json` sidecar (copysuite/gpu/source.py) that
names the run, the machine, the commit and every session's command, seconds, exit status and load. A release's
folder is replaced whole once its sessions ran: a release's columns never mix the old run's cells with the new
one's. Then the matrix page (`python -m copysuite matrix`, over every `OUT/<env>/` and the GPU runs) and the change
log. `--collect FOLDERS` assembles the folders of separate jobs (the scheduled workflow's, one per release and
execution) instead of running anything.
"""
from __future__ import annotations

import argparse
import configparser
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from copysuite.gpu import source
from copysuite.report import browser, changelog, matrix_command
from copysuite.strategies.space import EXECUTIONS

ROOT = Path(__file__).resolve().parents[2]


def full_label(tox_ini: Path) -> list:
    """The tox environments of the label `full`: the releases of the matrix."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(tox_ini)
    for line in parser["tox"]["labels"].splitlines():
        name, _, envs = line.partition("=")
        if name.strip() == "full":
            return [e.strip() for e in envs.split(",") if e.strip()]
    raise SystemExit(f"{tox_ini} has no label `full`")


def commit() -> str | None:
    named = os.environ.get("COPYSUITE_COMMIT")
    if named:
        return named
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def interpreter(env: str, python: str | None) -> Path:
    """The release's Python: the one given, or tox's environment, created or brought up to date without running it."""
    if python:
        return Path(python)
    subprocess.run([sys.executable, "-m", "tox", "-e", env, "--notest"], cwd=ROOT, check=True)
    return ROOT / ".tox" / env / "bin" / "python"


def session(python: Path, execution: str, out: Path, workers: str, whole: bool, extra: list) -> list:
    """The command of one release and execution. Eager runs the whole suite (seed scenarios and self-tests too, as tox
    does), so that the Runs table says whether the suite passes on the release; the others, the conformance cells."""
    base = ["-m", "pytest"] if execution == "eager" and whole else ["-m", "copysuite", "run"]
    return [str(python), *base, "-n", workers, "--execution", execution, "--outcome-json", str(out), *extra]


def run_release(env, python, executions, folder: Path, args) -> list:
    """Every execution of one release into folder (staged: it becomes OUT/<env>), compressed; the sessions'
    records, which name the folder the files end in."""
    steps = []
    for execution in executions:
        out = folder / f"{execution}.json"
        argv = session(python, execution, out, args.workers, not args.cells_only, args.pytest)
        print(f"=== {env} {execution}: {' '.join(argv)}", flush=True)
        start = time.monotonic()
        code = subprocess.run(argv, cwd=ROOT, env={**os.environ, "HYPOTHESIS_PROFILE": args.profile}).returncode
        shown = " ".join(argv[1:]).replace(str(folder), str(Path(args.out) / env))
        record = {"name": execution, "command": shown, "seconds": round(time.monotonic() - start, 1),
                  "exit": code, "load": round(os.getloadavg()[0], 2), "wrote": out.is_file()}
        if out.is_file():   # outcome JSON is mostly repeated keys: about a tenth of its size compressed
            (folder / f"{out.name}.gz").write_bytes(gzip.compress(out.read_bytes(), mtime=0))
            out.unlink()
        # 1: failed cells; 5: no cell could run here (an execution a release lacks), each skipped in the file with its
        # reason; both are results. Anything else cut the session short
        if code not in (0, 1, 5):
            record["partial"] = f"pytest exit {code}" + ("" if record["wrote"] else " before writing its results")
        steps.append(record)
        print(f"=== {env} {execution}: exit {code}, {record['seconds']} s, load {record['load']}", flush=True)
    return steps


def sidecar(folder: Path, env: str, run: str, revision, steps: list) -> None:
    """The release folder's run.json: the machine and versions from an outcome file it holds."""
    first = next(iter(sorted(folder.glob("*.json.gz"))), None)
    doc = json.loads(gzip.decompress(first.read_bytes())) if first else {}
    source.write(folder, {
        "format": source.FORMAT, "run": run, "commit": revision,
        "machine": doc.get("machine") or doc.get("platform") or "unknown",
        "environment": {"tox_env": env, **{k: doc.get(k) for k in ("torch", "numpy", "python", "hypothesis_profile")}},
        "partial": {s["name"]: s["partial"] for s in steps if "partial" in s and s["wrote"]},
        "steps": steps})


def staging(out: Path, env: str) -> Path:
    """A new folder beside the release's (one rename replaces it; hidden, so no page reads it half-written)."""
    staged = Path(tempfile.mkdtemp(prefix=f".{env}-", dir=out))
    staged.chmod(0o755)   # mkdtemp's 0700 would become the release folder's
    return staged


def replace(staged: Path, target: Path) -> None:
    """The release's new folder in place of its old one, whole: nothing of the old run stays beside the new."""
    if target.exists():
        shutil.rmtree(target)
    staged.rename(target)


def collect(folders, out: Path) -> list:
    """Assemble jobs' release folders (each OUT/<env>/ with some executions and its run.json) into out/<env>/, one
    folder and one sidecar per release; the jobs must share one commit. The releases assembled."""
    by_env = {}
    for folder in map(Path, folders):
        for release in sorted(p for p in folder.iterdir() if p.is_dir() and (p / source.FILE).is_file()):
            by_env.setdefault(release.name, []).append(release)
    commits = {source.read(r)["commit"] for found in by_env.values() for r in found}
    if len(commits) > 1:
        raise SystemExit(f"the jobs ran at different commits: {sorted(map(str, commits))}")
    for env, found in sorted(by_env.items()):
        staged = staging(out, env)
        sides = [source.read(r) for r in found]
        for release in found:
            for f in release.glob("*.json.gz"):
                shutil.copy2(f, staged / f.name)
        steps = [s for side in sides for s in side.get("steps", [])]
        sidecar(staged, env, sides[0]["run"], sides[0]["commit"], steps)
        replace(staged, out / env)
    return sorted(by_env)


def report(out: Path, args) -> int:
    """The matrix page and the change log from every release folder of out and the GPU runs given."""
    folders = [p for p in sorted(out.iterdir()) if p.is_dir() and not p.name.startswith(".")]
    reports = Path(args.reports)
    argv = [*map(str, folders), *map(str, args.gpu), "--surface", str(ROOT / "results" / "surface"),
            "--markdown", str(reports / "matrix.md"), "--html", str(reports / "matrix.html")]
    if browser.find() is not None:
        argv += ["--screenshot", str(reports / "matrix.png")]
    code = matrix_command.main(argv + (["--strict"] if args.strict else []))
    return max(code, changelog.main(["--output", str(reports / "changelog.md")]))


def options(argv):
    ap = argparse.ArgumentParser(prog="tools/matrix.sh", description="The conformance matrix regenerated at one "
                                 "commit (copysuite/report/regenerate.py, docs/using.md).")
    ap.add_argument("-e", "--env", action="append", help="tox environments, comma-separated (default: label full)")
    ap.add_argument("--execution", action="append", choices=EXECUTIONS, help="repeatable (default: every one)")
    ap.add_argument("--python", help="with one -e: run in this interpreter (which has that release) instead of tox's")
    ap.add_argument("--out", default=str(ROOT / "results" / "matrix"), help="where the release folders go")
    ap.add_argument("--reports", default=str(ROOT / "docs" / "reports"), help="where the page and change log go")
    ap.add_argument("--gpu", nargs="*", default=[str(ROOT / "results" / "gpu")], help="GPU runs for the page")
    ap.add_argument("--no-report", action="store_true", help="run only: no page, no change log")
    ap.add_argument("--strict", action="store_true", help="the page refuses columns of other commits (matrix)")
    ap.add_argument("--collect", nargs="+", metavar="FOLDER", help="assemble jobs' folders instead of running")
    ap.add_argument("--workers", default=os.environ.get("MATRIX_WORKERS", "auto"), help="pytest -n (default auto)")
    ap.add_argument("--cells-only", action="store_true", help="eager too runs the conformance cells alone")
    ap.add_argument("--profile", default=os.environ.get("HYPOTHESIS_PROFILE", "ci"), help="Hypothesis profile (ci)")
    ap.add_argument("pytest", nargs="*", help="after --: options for every session (e.g. --spec-entry clone)")
    args = ap.parse_args(argv)
    args.env = [e for group in args.env or [] for e in group.split(",") if e] or full_label(ROOT / "tox.ini")
    if args.python and len(args.env) != 1:
        ap.error("--python names the interpreter of one release: give one -e")
    return args


def main(argv=None) -> int:
    args = options(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    status, start = 0, time.monotonic()
    if args.collect:
        print("assembled: " + ", ".join(collect(args.collect, out)))
    else:
        revision, executions = commit(), args.execution or list(EXECUTIONS)
        run = os.environ.get("COPYSUITE_RUN") or (
            f"matrix-{(revision or 'unknown')[:7]}-{datetime.now(timezone.utc):%Y-%m-%d}")
        for env in args.env:
            staged = staging(out, env)
            try:
                steps = run_release(env, interpreter(env, args.python), executions, staged, args)
                sidecar(staged, env, run, revision and revision[:7], steps)
                replace(staged, out / env)
                status |= any("partial" in s for s in steps)
            except subprocess.CalledProcessError as exc:   # tox could not build the environment: keep the old run
                print(f"=== {env}: {exc}; its old results stay", file=sys.stderr)
                status = 1
            finally:
                shutil.rmtree(staged, ignore_errors=True)
        print(f"matrix wall time: {time.monotonic() - start:.0f} s, load {os.getloadavg()[0]:.2f}")
    if not args.no_report:
        status = max(status, report(out, args))
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
