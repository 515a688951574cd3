"""The drafts and the registry agree: on every release whose drafts run is committed (results/drafts/torch-*.json), a
record citing a draft claims that release exactly when the draft reproduces there. A draft that stops reproducing
closes its record's torch range (and the change log then lists the fix); one that reproduces outside the range widens
it."""
import json
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from copysuite.known import registry

ROOT = Path(__file__).resolve().parents[2]
RUNS = sorted((ROOT / "results" / "drafts").glob("torch-*.json"))


@pytest.mark.parametrize("run", RUNS, ids=[p.stem for p in RUNS])
def test_each_record_claims_the_releases_its_draft_reproduces_on(run):
    doc = json.loads(run.read_text())
    release = Version(Version(doc["torch"]).base_version)
    verdicts = {d["name"]: d["verdict"] for d in doc["drafts"]}
    wrong, checked = [], 0
    for r in registry.load().values():
        for draft in r.drafts:
            verdict = verdicts.get(Path(draft).stem)
            if verdict not in ("REPRODUCES", "FIXED"):
                continue
            checked += 1
            claims = release in SpecifierSet(r.torch)
            if claims != (verdict == "REPRODUCES"):
                wrong.append(f"{r.name} (torch{r.torch}, {r.file}): {draft} says {verdict} on {release}")
    assert checked, f"no record cites a draft that {run.name} ran: nothing was compared"
    assert not wrong, "records and their drafts disagree:\n" + "\n".join(wrong)
