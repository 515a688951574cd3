"""CI has no GPU, so the records that only CUDA shows are checked against the committed GPU run instead: every
`diverges` item that names `cuda` among its devices, on a release that run covers, must match a cuda cell the run
saw fail or diverge (its observed value and detail, as the runner matches them). A record whose pattern matches no
GPU failure would be a known bug nothing supports, and on a GPU its cells would fail instead of diverging."""
import gzip
import json
import types
from pathlib import Path

from packaging.version import Version

from copysuite.outcome import format as outcome_format
from copysuite.spec.load import load_specs
from copysuite.strategies.space import DEVICES

RUNS = sorted((Path(__file__).resolve().parents[2] / "results" / "gpu").rglob("*.json.gz"))


def gpu_cells():
    for path in RUNS:
        doc = json.loads(gzip.decompress(path.read_bytes()))   # test_gpu_columns validates them against the schema
        if doc.get("format") != outcome_format.FORMAT:
            continue   # the benchmarks
        version = Version(outcome_format.torch_release(doc))
        for c in doc["cells"]:
            if c["device"] == "cuda" and c["outcome"] in ("failed", "diverged") and c["failure"]:
                yield version, c


def test_every_cuda_record_matches_a_failure_of_the_committed_gpu_run():
    cells = list(gpu_cells())
    assert cells, "no GPU run under results/gpu/"
    releases = {v for v, _ in cells}
    unsupported = []
    for entry in load_specs().entries:
        for record in entry.diverges:
            if "cuda" not in record.devices or record.devices == DEVICES or not any(
                    record.covers(k, e, v, "cuda") for v in releases for k in record.keys for e in record.executions):
                    continue   # not a record that names cuda, or none of its releases ran on a GPU
            seen = (types.SimpleNamespace(observed=tuple(f["observed"]) if isinstance(f["observed"], list)
                                          else f["observed"], detail=f.get("detail"))
                    for v, c in cells if c["entry"] == entry.id and (f := c["failure"])
                    and record.covers(c["check"], c["execution"], v, "cuda"))
            if not any(record.matches(f) for f in seen):
                unsupported.append(f"{entry.id}: {record.evidence} ({record.observed!r})")
    assert not unsupported, "CUDA records that match no failure of the committed GPU run:\n" + "\n".join(unsupported)
