"""What the triage self-tests share (test_fuzz_triage_*.py): a reduced program run eagerly and under an execution and
judged, skipped where this release's surface vocabulary lacks one of its ops, and the releases a record names."""
import pytest

from copysuite.fuzz import differential, judging, program_data, record, signature


def since(name: str) -> str:
    """The releases a record's fuzz pattern names."""
    return next(r.torch for r in record.RECORDS if r.name == name)


def verdict_of(surface, program, execution: str):
    """The program's verdict under `execution`; skipped when a surface op of it is not in `surface` (the release's
    vocabulary)."""
    missing = program_data.missing_ops(program, surface)
    if missing:
        pytest.skip(f"not in this release's surface vocabulary: {missing}")
    run = differential.run(program, execution)
    return judging.judge(run, execution, signature.differences(run.eager.signature, run.other.signature))
