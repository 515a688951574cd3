"""The loaded specs against the installed torch: the names a program reaches exist here, and which entries apply
(torch version range, devices present, dtypes this torch has)."""
from __future__ import annotations

import importlib

import numpy as np
import torch
from packaging.specifiers import SpecifierSet

from copysuite.spec.expectations import release_of
from copysuite.spec.load import SpecError
from copysuite.strategies.devices import device_skip_reason
from copysuite.strategies.dtypes import dtype_names

TORCH_VERSION = release_of(torch.__version__)  # the release whose promises apply (a pre-release's too)


def in_torch_range(entry) -> bool:
    return not entry.applies.torch or TORCH_VERSION in SpecifierSet(entry.applies.torch, prereleases=True)


def check_names(entry) -> None:
    """Raise SpecError when the program names a torch or numpy attribute the installed releases lack (entries
    outside their torch range are not checked: what they name may not exist yet)."""
    if not in_torch_range(entry):
        return
    for name, kind, key in entry.program.attributes:
        if kind == "module" and not _resolves(name):
            raise SpecError(entry.file, entry.id, key, f"unknown name {name} on this torch ({TORCH_VERSION.public})")
        if kind == "value" and not (hasattr(torch.Tensor, name) or hasattr(np.ndarray, name)):
            raise SpecError(entry.file, entry.id, key, f"unknown attribute {name!r}: neither torch.Tensor nor "
                            f"numpy.ndarray has it (torch {TORCH_VERSION.public})")


def _resolves(dotted: str) -> bool:
    module_name, *attrs = dotted.split(".")
    obj = importlib.import_module(module_name)
    for attr in attrs:
        if not hasattr(obj, attr):
            try:
                obj = importlib.import_module(f"{obj.__name__}.{attr}")
                continue
            except (ImportError, AttributeError):
                return False
        obj = getattr(obj, attr)
    return True


def dtypes(entry) -> tuple:
    """The entry's dtypes that the installed torch has."""
    return dtype_names(entry.applies.dtypes)


def skip_reason(entry, device: str) -> str | None:
    """Why the entry is not checked on `device` here, or None."""
    for needed in entry.applies.needs:
        reason = device_skip_reason(needed)
        if reason:
            return f"{entry.id} needs {needed}: {reason}"
    if not in_torch_range(entry):
        return f"{entry.id} applies to torch{entry.applies.torch}; installed torch is {TORCH_VERSION.public}"
    if not dtypes(entry):
        return f"{entry.id}: none of its dtypes {list(entry.applies.dtypes)} exists in torch {TORCH_VERSION.public}"
    return device_skip_reason(device)
