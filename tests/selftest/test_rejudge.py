"""Re-judging outcome files with today's registry (copysuite.report.rejudge): a failed cell turns diverged only where a
divergence of its entry covers the cell's check, execution, device and release and matches what the run observed; a
stale cell turns passed only where no divergence covers it any more; a held cell turns failed as stale only where a
divergence covers it now, and not where only order-dependent records claim it. Surface cells: the clause, `crashed`
for a cell whose worker died, and a held cell claimed by any item that names it (but one narrowed to an input)."""
import dataclasses

from packaging.specifiers import SpecifierSet

from copysuite.known import registry
from copysuite.report.rejudge import Judge
from copysuite.spec.load import load_specs

RELEASES = ("1.13.1", "2.0.1", "2.2.2", "2.4.1", "2.6.0", "2.8.0", "2.10.0", "2.12.1", "2.13.0", "2.14.1")
OBSERVED = {"Cannot set version_counter for inference tensor": "RuntimeError: Cannot set version_counter for "
            "inference tensor"}


def a_divergence():
    """A spec entry with a divergence whose observed pattern is a plain message, and a release inside and outside it."""
    for entry in load_specs().entries:
        for d in entry.diverges:
            if d.observed in OBSERVED:
                inside = [v for v in RELEASES if v in SpecifierSet(d.torch)]
                outside = [v for v in RELEASES if v not in SpecifierSet(d.torch)]
                return entry, d, inside[0], outside[0]
    raise AssertionError(f"no divergence observes one of {list(OBSERVED)}: update this test's OBSERVED")


def cell(entry, d, observed):
    return {"id": "x", "entry": entry.id, "check": d.keys[0], "device": d.devices[0], "execution": d.executions[0],
            "outcome": "failed", "failure": {"observed": observed, "detail": ""}}


def test_a_failure_a_record_explains_turns_diverged_and_names_it():
    entry, d, inside, _ = a_divergence()
    doc, turned = Judge().rejudge({"torch": inside, "cells": [cell(entry, d, OBSERVED[d.observed])]})
    assert turned == 1
    assert doc["cells"][0]["outcome"] == "diverged" and doc["cells"][0]["rejudged"] == d.record


def test_another_failure_of_the_same_cell_stays_failed():
    entry, d, inside, _ = a_divergence()
    doc, turned = Judge().rejudge({"torch": inside, "cells": [cell(entry, d, "something else entirely")]})
    assert (turned, doc["cells"][0]["outcome"]) == (0, "failed")


def test_a_release_outside_the_record_stays_failed():
    entry, d, _, outside = a_divergence()
    doc, turned = Judge().rejudge({"torch": outside, "cells": [cell(entry, d, OBSERVED[d.observed])]})
    assert (turned, doc["cells"][0]["outcome"]) == (0, "failed")


def test_a_held_cell_no_record_claims_is_left_alone():
    entry, d, _, outside = a_divergence()
    held = {**cell(entry, d, None), "outcome": "passed"}
    doc, turned = Judge().rejudge({"torch": outside, "cells": [held]})
    assert (turned, doc["cells"]) == (0, [held])


def test_a_held_cell_a_record_claims_now_fails_as_stale():
    """As a run with today's registry would fail it: a strict expected failure that did not fail."""
    entry, d, inside, _ = a_divergence()
    doc, turned = Judge().rejudge({"torch": inside, "cells": [{**cell(entry, d, None), "outcome": "passed"}]})
    now = doc["cells"][0]
    assert (turned, now["outcome"], now["failure"]["kind"]) == (1, "failed", "stale_divergence")
    assert d.record in now["rejudged"] and d.record in now["failure"]["message"]


def stale(entry, d):
    return {**cell(entry, d, None), "failure": {"kind": "stale_divergence", "message": "no longer reproduces"}}


def test_a_stale_cell_no_record_claims_now_held():
    entry, d, _, outside = a_divergence()
    doc, turned = Judge().rejudge({"torch": outside, "cells": [stale(entry, d)]})
    assert (turned, doc["cells"][0]["outcome"]) == (1, "passed")
    assert doc["cells"][0]["rejudged"].startswith("stale")


def test_a_stale_cell_a_record_still_claims_stays_failed():
    entry, d, inside, _ = a_divergence()
    doc, turned = Judge().rejudge({"torch": inside, "cells": [stale(entry, d)]})
    assert (turned, doc["cells"][0]["outcome"]) == (0, "failed")


def test_a_held_or_stale_cell_only_an_order_dependent_record_claims_is_held():
    entry, d, inside, _ = a_divergence()
    records = dict(registry.load())
    records[d.record] = dataclasses.replace(records[d.record], order_dependent=True)
    judge = Judge(records=records)
    held = {**cell(entry, d, None), "outcome": "passed"}
    assert judge.rejudge({"torch": inside, "cells": [held]}) == ({"torch": inside, "cells": [held]}, 0)
    doc, turned = judge.rejudge({"torch": inside, "cells": [stale(entry, d)]})
    assert (turned, doc["cells"][0]["outcome"]) == (1, "passed")
    assert "order-dependent" in doc["cells"][0]["rejudged"]
    doc, _ = judge.rejudge({"torch": inside, "cells": [cell(entry, d, OBSERVED[d.observed])]})
    assert doc["cells"][0]["outcome"] == "diverged"   # its failure is still the record's


SURFACE = """crash:
  evidence: https://github.com/pytorch/pytorch/issues/1
  torch: ">=2.0,<2.1"
  executions: [compile.inductor]
  note: a segfault
  surface:
    - {cells: ['surface.out:add'], clause: crashed}
    - {cells: ['surface.out:mm'], clause: writes_out, input: 'make_tensor'}
"""


def surface_cell(entry, outcome, failure=None):
    return {"id": "x", "entry": entry, "check": "contract", "device": "cpu", "execution": "compile.inductor",
            "outcome": outcome, "failure": failure}


def test_a_crashed_surface_cell_an_item_names_turns_diverged_and_a_held_one_stale(tmp_path):
    (tmp_path / "crash.yaml").write_text(SURFACE)
    judge = Judge(records=registry.load(tmp_path))
    crashed = surface_cell("surface.out:add", "failed", {"kind": "crashed", "message": "worker 'gw0' crashed"})
    doc, _ = judge.rejudge({"torch": "2.0.1", "cells": [crashed]})
    assert (doc["cells"][0]["outcome"], doc["cells"][0]["rejudged"]) == ("diverged", "crash")
    doc, _ = judge.rejudge({"torch": "2.2.2", "cells": [crashed]})
    assert doc["cells"][0]["outcome"] == "failed"   # outside the item's range: new
    other = surface_cell("surface.out:add", "failed", {"kind": "mismatch", "check": "writes_out"})
    assert judge.rejudge({"torch": "2.0.1", "cells": [other]})[0]["cells"][0]["outcome"] == "failed"
    doc, _ = judge.rejudge({"torch": "2.0.1", "cells": [surface_cell("surface.out:add", "passed")]})
    assert (doc["cells"][0]["outcome"], doc["cells"][0]["failure"]["kind"]) == ("failed", "stale_divergence")


def test_a_held_surface_cell_of_an_item_narrowed_to_an_input_is_left_alone(tmp_path):
    """The outcome does not keep which calls (sources) a surface cell made: the item may not have applied."""
    (tmp_path / "crash.yaml").write_text(SURFACE)
    held = surface_cell("surface.out:mm", "passed")
    assert Judge(records=registry.load(tmp_path)).rejudge({"torch": "2.0.1", "cells": [held]})[1] == 0
