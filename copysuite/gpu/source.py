"""Where a folder of outcome files came from: its `run.json` sidecar (imports no torch).

A GPU run (`python -m copysuite gpu`, or one made by hand) leaves its outcome files in one folder with this sidecar
next to them: the machine (GPU, cores), the environment (torch, CUDA, Python), the run's name and commit, every step
it ran with its time and exit status, and the executions it cut short (`partial`: execution -> why). The matrix reads
it to say which machine and run each column came from and to mark a partial column; an outcome file without a sidecar
is described by its own `platform` field.

    {"format": "copysuite-run-source/1", "run": "h100-torch2.11.0-cu130-YYYY-MM-DD", "machine": "NVIDIA H100 ...",
     "environment": {"torch": "2.11.0+cu130", "cuda": "13.0", ...}, "commit": "628f5da",
     "partial": {"compile.inductor.dynamic": "stopped at 186 s (SIGINT)"}, "steps": [...]}
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema

FILE = "run.json"
FORMAT = "copysuite-run-source/1"
SCHEMA = {
    "type": "object",
    "required": ["format", "run", "machine", "partial"],
    "properties": {
        "format": {"const": FORMAT},
        "run": {"type": "string", "minLength": 1},
        "machine": {"type": "string", "minLength": 1},
        "commit": {"type": ["string", "null"]},
        "environment": {"type": "object"},
        "partial": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}},
        "steps": {"type": "array", "items": {"type": "object"}},
    },
}


class SourceError(ValueError):
    pass


def read(folder) -> dict | None:
    """The sidecar of a folder of outcome files, or None where it has none; SourceError says why one is invalid."""
    path = Path(folder) / FILE
    if not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SourceError(f"{path}: {exc}") from None
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(SCHEMA).iter_errors(doc))
    if error is not None:
        raise SourceError(f"{path}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
    return doc


def write(folder, doc: dict) -> Path:
    path = Path(folder) / FILE
    jsonschema.validate(doc, SCHEMA)
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return path


def describe(outcome_file, outcome: dict, sidecar: dict | None) -> dict:
    """What a column built from this outcome file says of its origin: machine, run (None without a sidecar: the
    file is all there is), file, partial executions."""
    name = Path(outcome_file).name
    if sidecar is None:
        return {"machine": outcome.get("platform", "?"), "run": None, "file": name, "partial": {}}
    return {"machine": sidecar["machine"], "run": sidecar["run"], "file": name, "partial": dict(sidecar["partial"])}
