"""The triage of seed 1's base-vocabulary findings (docs/notes.md): the rules `non_standard_bool_bytes` and
`donated_buffers_refuse_retain_graph` and the records' conditions on hand-built runs; and, opt-in (COPYSUITE_FUZZ=1:
each compiles its programs), each minimal program run eagerly and under compile.aot_eager (compile.inductor for the
slice_scatter one) and judged as the triage says, with the donated-buffer rule's cause switched off
(torch._functorch.config.donated_buffer) to show that it is that cause."""
import os
from unittest import mock

import pytest
import torch

from copysuite.fuzz import differential, judging, model, signature
from copysuite.fuzz.generate import Input, Program, Statement
from copysuite.run.executions import EXECUTORS
from tests.selftest.triaged import covers, known_by

EXECUTION = "compile.aot_eager"
needs_compile = pytest.mark.skipif(EXECUTORS[EXECUTION].skip_reason() is not None,
                                   reason=str(EXECUTORS[EXECUTION].skip_reason()))
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles its programs")

BOOL_BYTES = Program((Input("a", dtype="bool", shape=(2,)), Input("b", alias="a.transpose(0, -1)")),
                     (Statement("t2", "view_uint8", ("b",)), Statement("t3", "add_", ("t2",)),
                      Statement("t4", "reshape", ("t3",))), ("t4",))
EXPANDED_LEAF = Program((Input("b", shape=(2, 4, 2), placement="as_strided", kind="leaf_requires_grad",
                                      strided=(8, (0, 2, 1), 0)),),
                        (Statement("t2", "scatter", ("b",)),), ("b", "t2"))
COMPLEX_RELU = Program((Input("a", dtype="complex64", shape=(2, 4), kind="leaf_requires_grad"),),
                       (Statement("t1", "relu", ("a",)),), ("t1",))
DATA_ALIAS = Program((Input("b", shape=(1,)),), (Statement("t1", "data", ("b",)), Statement("t2", "neg_", ("t1",)),
                                                Statement("t4", "requires_grad_", ("t1",))), ("t2",))
UNUSED_SCATTER = Program((Input("a", dtype="complex64", shape=(4,)),
                          Input("b", dtype="complex64", shape=(4,), kind="leaf_requires_grad")),
                         (Statement("t2", "as_strided_", ("b",)), Statement("t4", "slice_scatter_from", ("a", "b"))),
                         ("b",), mode="no_grad")

# the findings met with the shapes between, after and custom_op, foreach or module (the second triage)
OFFSET_WRITE = Program((Input("a", shape=(1,), placement="as_strided", strided=(3, (1,), 2)),),
                       (Statement("t1", "scatter_", ("a",)), Statement("t2", "squeeze_", ("t1",))), ("t1",))
SCATTER_RESULT_WRITE = Program((Input("a", shape=(2,), placement="as_strided", strided=(3, (2,), 0)),),
                               (Statement("t1", "select_scatter", ("a",)), Statement("t5", "mul_", ("t1",))), ("t5",))
ZERO_DIM_SLICE = Program((Input("a", shape=(1,)),),
                         (Statement("t3", "fill_", ("count",)), Statement("t4", "scatter_", ("t3",))), ("a",),
                         state=True)
SLICE_SCATTER_SIZE = Program((Input("a", shape=(3,)), Input("b", shape=(1,))),
                             (Statement("t1", "slice_scatter_from", ("a", "b")),), ("t1",))
SLICE_MESSAGE = "slice() cannot be applied to a 0-dim tensor."


def differences(run) -> dict:
    return signature.differences(run.eager.signature, run.other.signature)


def judged(program, differences, eager=None, other=None, execution=EXECUTION):
    eager = eager or differential.Side({}, None)
    run = differential.Run(program, eager, other or differential.Side({}, None), {}, execution)
    return model.judge(run, execution, differences)


def test_non_standard_bool_bytes_rule():
    """A uint8 view of bool memory reading 1 where eager reads a byte other than 0 or 1 is by design; any other
    value, or the same values without a bool input, is not."""
    uint8 = differential.Side({"out|t4|dtype": "torch.uint8"}, None)
    assert judged(BOOL_BYTES, {"out|t4|values": [[1, 2], [1, 1]]}, uint8).status == "by_design"
    assert judged(BOOL_BYTES, {"out|t4|values": [[1, 2], [1, 3]]}, uint8).status == "new"
    assert judged(BOOL_BYTES, {"out|t4|values": [[0, 1], [1, 1]]}, uint8).status == "new"
    floats = Program((Input("a", shape=(2,)),), BOOL_BYTES.statements, ("t4",))
    assert judged(floats, {"out|t4|values": [[1, 2], [1, 1]]}, uint8).status == "new"


@pytest.mark.skipif(not hasattr(model.functorch_config, "donated_buffer"), reason=f"torch {torch.__version__} has no "
                    "torch._functorch.config.donated_buffer: AOTAutograd donates no buffers")
def test_donated_buffers_rule():
    """autograd.grad refused by the execution is by design only where its backward ran first (compiled then, with
    donated buffers), under AOTAutograd, and while donated buffers are on."""
    grad = {"grad|t2~b|value": [[0.0, 1.0], "raises RuntimeError"]}
    ran = differential.Side({"backward||raises": None}, None)
    assert judged(EXPANDED_LEAF, grad, other=ran).status == "by_design"
    assert judged(EXPANDED_LEAF, grad).status == "new"
    assert judged(EXPANDED_LEAF, grad, other=ran, execution="compile.eager").status == "new"
    with mock.patch.object(model.functorch_config, "donated_buffer", False):
        assert judged(EXPANDED_LEAF, grad, other=ran).status == "new"


def test_unused_op_record_needs_the_execution_to_run():
    """An unused op's eager error dropped (issue 160751) explains a compiled call that raised nothing, never one that
    raised another class (relu's complex check, a record of its own)."""
    eager = differential.Side({}, "NotImplementedError: clamp is not supported for complex types")
    assert judged(COMPLEX_RELU, {"call||raises": ["NotImplementedError", None]}, eager).records == known_by(
        "unused_op_error_dropped")[1]
    other = differential.Side({}, "TorchRuntimeError: relu does not support automatic differentiation for outputs "
                                  "with complex dtype.", ("TorchRuntimeError", "RuntimeError", "Exception"))
    both = judged(COMPLEX_RELU, {"call||raises": ["NotImplementedError", "TorchRuntimeError"]}, eager, other)
    assert (both.status, both.records) == known_by("relu_complex_autograd_check_first")


def test_zero_dim_slice_is_no_later_op_refusing_first():
    """The slice of a 0-d tensor raising another class compiled is its own record, not compile_later_op_error_first
    (an earlier op that raises only at run time, then a later op refusing while tracing)."""
    eager = differential.Side({}, f"IndexError: {SLICE_MESSAGE}")
    other = differential.Side({}, f"TorchRuntimeError: RuntimeError when making fake tensor call: {SLICE_MESSAGE}",
                              ("TorchRuntimeError", "RuntimeError", "Exception"))
    verdict = judged(ZERO_DIM_SLICE, {"call||raises": ["IndexError", "TorchRuntimeError"]}, eager, other)
    assert (verdict.status, verdict.records) == known_by("slice_zero_dim_error_class")


def test_slice_scatter_record_needs_the_execution_to_run():
    """inductor's broadcast of a slice_scatter source explains a compiled call that ran, never one that refused the
    size (2.14's lowering)."""
    eager = differential.Side({}, "RuntimeError: expected src to have a size equal to the slice of self.")
    ran = judged(SLICE_SCATTER_SIZE, {"call||raises": ["RuntimeError", None]}, eager, execution="compile.inductor")
    name = "inductor_slice_scatter_broadcasts_src"
    assert (name in ran.records) == covers(name)
    other = differential.Side({}, "InductorError: LoweringException", ("InductorError", "Exception"))
    refused = judged(SLICE_SCATTER_SIZE, {"call||raises": ["RuntimeError", "InductorError"]}, eager, other,
                     execution="compile.inductor")
    assert name not in refused.records



@opt_in
@needs_compile
@pytest.mark.parametrize(("program", "status", "records"), [
    (BOOL_BYTES, "by_design", ()),
    (COMPLEX_RELU, "known", ("relu_complex_autograd_check_first",)),
    (DATA_ALIAS, "known", ("data_write_version", "requires_grad_on_data_alias_lost")),
    (UNUSED_SCATTER, "known", ("unused_op_error_dropped",)),
    (OFFSET_WRITE, "known", ("inplace_view_after_write_offset_lost",)),
    (SCATTER_RESULT_WRITE, "known", ("written_input_strides_scatter",)),
    (ZERO_DIM_SLICE, "known", ("slice_zero_dim_error_class",)),
], ids=["bool_bytes", "complex_relu", "data_alias", "unused_scatter", "offset_write", "scatter_result_write",
        "zero_dim_slice"])
def test_each_finding_is_judged_as_triaged(program, status, records):
    run = differential.run(program, EXECUTION)
    verdict = judging.judge(run, EXECUTION, differences(run))
    assert (verdict.status, verdict.records) == (status, records), verdict


@opt_in
@needs_compile
def test_the_expanded_leaf_grad_differs_by_donated_buffers_alone():
    """The expanded leaf's autograd.grad after backward is refused compiled with donated buffers (by design), and
    agrees with eager with them off: the rule's condition is the cause."""
    run = differential.run(EXPANDED_LEAF, EXECUTION)
    verdict = judging.judge(run, EXECUTION, differences(run))
    assert verdict.allowed == {"grad|t2~b|value": "donated_buffers_refuse_retain_graph"}, verdict
    with mock.patch.object(model.functorch_config, "donated_buffer", False):
        run = differential.run(EXPANDED_LEAF, EXECUTION)
    assert "grad|t2~b|value" not in differences(run)


@opt_in
@pytest.mark.skipif(EXECUTORS["compile.inductor"].skip_reason() is not None,
                    reason=str(EXECUTORS["compile.inductor"].skip_reason()))
def test_slice_scatter_source_size_under_inductor():
    """Where the record's range holds (2.13), inductor runs a slice_scatter whose source does not fit the slice and
    the record explains it; after it, the compile refuses the size with a RuntimeError, as eager does: by design."""
    run = differential.run(SLICE_SCATTER_SIZE, "compile.inductor")
    verdict = judging.judge(run, "compile.inductor", differences(run))
    if covers("inductor_slice_scatter_broadcasts_src"):
        assert "inductor_slice_scatter_broadcasts_src" in verdict.records, verdict
    else:
        assert verdict.status == "by_design" and run.other.error, verdict
