"""The triage of the leftover of the inductor triage (docs/notes.md): `unbind_then_out_into_detached`
(test_fuzz_triage_inductor.py) raises at the call under compile.aot_eager. Opt-in (COPYSUITE_FUZZ=1: it compiles its
program): the program reduced to the basic vocabulary, one output of unbind of an input that requires grad kept
across the graph break of an out= resize of the input's detached alias, run eagerly and compiled with backend "eager"
and aot_eager (static and dynamic shapes), and judged by the record `dynamo_resume_rebased_multi_output_view`."""
import os

import pytest

from copysuite.fuzz import differential, judging, signature
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.run.executions import EXECUTORS

opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles its program")

UNBIND_THEN_OUT_INTO_DETACHED = Program(
    (Input("a", shape=(3, 4), kind="leaf_requires_grad"), Input("b", shape=(3, 4), alias="a.detach()"),
     Input("c", shape=(2,))),
    (Statement("t1", "unbind", ("a",)), Statement("t2", "out_add", ("b", "c"))), ("t1",))


@opt_in
@pytest.mark.parametrize("execution", ["compile.eager", "compile.aot_eager", "compile.aot_eager.dynamic"])
def test_the_resumed_multi_output_view_is_judged_as_triaged(execution):
    if EXECUTORS[execution].skip_reason() is not None:
        pytest.skip(str(EXECUTORS[execution].skip_reason()))
    run = differential.run(UNBIND_THEN_OUT_INTO_DETACHED, execution)
    differences = signature.differences(run.eager.signature, run.other.signature)
    assert differences.get("call||raises") == [None, "InternalTorchDynamoError"], differences
    verdict = judging.judge(run, execution, differences)
    assert verdict.status == "known" and "dynamo_resume_rebased_multi_output_view" in verdict.records, verdict
