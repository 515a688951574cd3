"""The outcome document (`--outcome-json`): its format, loading and a few readings of it (imports no torch).

Every conformance cell is one object {id, entry, check, device, execution, outcome, skip_reason, failure}; a failure
keeps its fields (kind, expected, observed, detail, input, program, reproduction, ...: copysuite.judge.failures) next to
`message`, the text pytest showed. `specs` records the spec set that judged the run and what it declares across
releases. copysuite/outcome/outcome.schema.json is the contract; the gate and the matrix validate what they read against
it.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import jsonschema
from packaging.version import Version

FORMAT = "copysuite-outcome/3"
EARLIER = "copysuite-outcome/2"   # before the execution axis: every cell ran eagerly; read as such
SCHEMA = json.loads(Path(__file__).with_name("outcome.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


class OutcomeError(ValueError):
    pass


def load(path) -> dict:
    """An outcome document (`.json`, or gzip-compressed `.json.gz`), checked against the schema; OutcomeError says
    why a file is not one."""
    try:
        raw = Path(path).read_bytes()
        doc = json.loads(gzip.decompress(raw) if str(path).endswith(".gz") else raw)
    except (OSError, EOFError, ValueError) as exc:   # a truncated .gz is an EOFError
        raise OutcomeError(f"{path}: {exc}") from None
    if isinstance(doc, dict) and doc.get("format") == EARLIER:
        doc = upgraded(doc)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise OutcomeError(f"{path}: not an outcome document ({FORMAT} or {EARLIER})")
    error = jsonschema.exceptions.best_match(VALIDATOR.iter_errors(doc))
    if error is not None:
        where = "/".join(map(str, error.absolute_path))
        raise OutcomeError(f"{path}: {where}: {error.message}")
    return doc


def upgraded(doc: dict) -> dict:
    """A copysuite-outcome/2 document as format 3: its cells ran eagerly (their ids gain `-eager`)."""
    cells = [{**c, "id": f"{c['id']}-eager", "execution": "eager"} if isinstance(c, dict) and "id" in c else c
             for c in doc.get("cells", [])]
    casualties = [{**c, "cell": f"{c['cell']}-eager"} if isinstance(c, dict) and "cell" in c else c
                  for c in doc.get("casualties", [])]
    return {**doc, "format": FORMAT, "cells": cells, "casualties": casualties}


def cells_by_id(doc) -> dict:
    return {c["id"]: c for c in doc["cells"]}


def summary(cell) -> str:
    """One line for a reader: the skip reason, the failure's headline, or 'held'."""
    if cell["outcome"] == "skipped":
        return cell["skip_reason"] or "skipped"
    if cell["outcome"] == "diverged":
        return cell["skip_reason"]
    failure = cell["failure"]
    if failure is None:
        return "held"
    if "expected" in failure:
        return (f"{failure['kind']}: {cell['entry']} / {cell['check']}: expected {failure['expected']!r}, "
                f"observed {failure['observed']!r}")
    return f"{failure['kind']}: {failure['message'].splitlines()[0] if failure['message'] else ''}"


def torch_release(doc) -> str:
    """The torch version without its local part (2.13.0+cpu -> 2.13.0)."""
    return Version(doc["torch"]).public
