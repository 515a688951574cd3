"""What the triage self-tests share (test_fuzz_triage_*.py): a reduced program run eagerly and under an execution and
judged, skipped where this release's surface vocabulary lacks one of its ops, and the releases a record names (a
hand-built run's verdict follows them, so that a self-test asks the record instead of assuming the newest release)."""
import pytest
from packaging.specifiers import SpecifierSet

from copysuite.fuzz import differential, judging, program_data, record, signature


def since(name: str) -> str:
    """The releases a record's fuzz pattern names."""
    return next(r.torch for r in record.RECORDS if r.name == name)


def covers(name: str) -> bool:
    """Whether the installed torch is among the releases a record's fuzz pattern names (outside them it explains
    nothing)."""
    return record.TORCH in SpecifierSet(since(name))


def known_by(name: str) -> tuple:
    """(status, records) of a hand-built run that only record `name` explains, on the installed torch: known by it,
    or new where the record's releases leave this one out."""
    return ("known", (name,)) if covers(name) else ("new", ())


def verdict_of(surface, program, execution: str):
    """The program's verdict under `execution`; skipped when a surface op of it is not in `surface` (the release's
    vocabulary)."""
    missing = program_data.missing_ops(program, surface)
    if missing:
        pytest.skip(f"not in this release's surface vocabulary: {missing}")
    run = differential.run(program, execution)
    return judging.judge(run, execution, signature.differences(run.eager.signature, run.other.signature))
