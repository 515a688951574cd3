"""The schema of every aten overload of the installed torch, as data: its class and its schema text. The change log
compares these dumps between releases (copysuite.report.schema_changes), so an alias annotation that changes between
releases is a change-log entry.

    python -m copysuite surface --schemas results/surface/schemas-torch-2.13.0.json.gz
"""
from __future__ import annotations

import gzip
import json

import torch

from copysuite.surface.classify import classify


def release() -> str:
    """The installed torch's version without its local part (2.14.1+cu130 -> 2.14.1): the CPU and CUDA wheels of one
    release register the same schemas."""
    return torch.__version__.split("+")[0]


def dump() -> dict:
    """{"torch": VERSION, "overloads": {"NAME.OVERLOAD" (or "NAME"): {"class": CLASS, "schema": TEXT}}}."""
    overloads = {}
    for name, op in classify().items():
        for overload, cls in op.overloads.items():
            overloads[f"{name}.{overload}" if overload else name] = {"class": cls, "schema": op.schemas[overload]}
    return {"torch": release(), "overloads": overloads}


def write(path: str) -> None:
    data = json.dumps(dump(), indent=0, sort_keys=True).encode()
    with (gzip.GzipFile(path, "wb", mtime=0) if path.endswith(".gz") else open(path, "wb")) as f:
        f.write(data)
