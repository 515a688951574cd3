"""Where a report command's Markdown goes: the file `--output` names, or standard output (imports no torch)."""
from __future__ import annotations

import sys
from pathlib import Path


def emit(text: str, output: str | None) -> int:
    if output:
        Path(output).write_text(text)
        print(f"wrote {output}")
    else:
        sys.stdout.write(text)
    return 0
