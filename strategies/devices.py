"""Devices: which ones exist here, and why a missing one is skipped."""
from __future__ import annotations

import torch


def device_skip_reason(device: str) -> str | None:
    """None when `device` can be used here, else the reason a test on it is skipped."""
    if device in ("cpu", "meta"):
        return None
    if device == "cuda":
        return None if torch.cuda.is_available() else "no CUDA device"
    if device == "two_cuda":   # only in an entry's `needs`: a program that moves between two CUDA devices
        if not torch.cuda.is_available():
            return "no CUDA device"
        count = torch.cuda.device_count()
        return None if count >= 2 else f"needs 2 CUDA devices (found {count})"
    if device == "mps":
        mps = getattr(torch.backends, "mps", None)
        return None if mps is not None and mps.is_available() else "no MPS device"
    return f"unknown device {device!r}"
