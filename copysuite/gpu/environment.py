"""The environment of a GPU run, as JSON on stdout: `python -m copysuite.gpu.environment`.

The runner asks a separate process, so that it never holds a CUDA context itself. `cuda_device` is the first GPU's
name, or null with `no_cuda` saying why (a CPU-only torch build, or no device visible).
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
from importlib import metadata


def _version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=30,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None   # not a git checkout (an installed package)


def probe() -> dict:
    import torch

    env = {"torch": torch.__version__, "cuda": torch.version.cuda, "python": platform.python_version(),
           "numpy": _version("numpy"), "hypothesis": _version("hypothesis"), "pytest": _version("pytest"),
           "cores": os.cpu_count(), "platform": platform.platform(), "cuda_device": None, "cuda_devices": 0,
           "no_cuda": None}
    if torch.version.cuda is None:
        env["no_cuda"] = f"no CUDA device: torch {torch.__version__} is a build without CUDA"
    elif not torch.cuda.is_available():
        env["no_cuda"] = "no CUDA device: torch.cuda.is_available() is False"
    else:
        env["cuda_devices"] = torch.cuda.device_count()
        env["cuda_device"] = torch.cuda.get_device_name(0)
    # a copy of the checkout sent to a GPU machine may carry no .git, or a stale one: the caller names the commit
    env["commit"] = os.environ.get("COPYSUITE_COMMIT") or git_commit()
    return env


if __name__ == "__main__":
    print(json.dumps(probe()))
