"""The checks on programs at the edges of what they judge: a write the program made itself, errors a compiler
wraps, sparse inputs, torch.__future__'s switches, temporary files, addresses kept out of the details."""
import pytest
import torch

from copysuite.judge.checks import REGISTRY
from copysuite.run.execute import execute
from copysuite.run.storage import relation
from copysuite.spec.programs import parse_program
from copysuite.strategies.cases import Case
from tests.selftest.cases import leaf_case


def test_a_write_the_program_made_itself_is_not_taken_for_the_results():
    """writes_through and backward_sees_write judge the write into the result alone: a program that writes its own
    input first (through an alias) must not make a copy look like a view."""
    inputs = {"a": "source", "b": "source.detach()"}
    for result, want in (("a.clone()", False), ("a.detach()", True)):
        program = parse_program(program=f"b.zero_()\nresult = {result}", inputs=inputs)
        for name in ("writes_through", "backward_sees_write"):
            assert REGISTRY[name].observe(execute(program, leaf_case(), subject="a")).value is want, (name, result)


def test_backward_sees_write_refuses_an_error_that_is_not_about_the_write():
    plain = Case(dtype="float32", shape=(2,), placement="contiguous", kind="plain", mode="enabled", device="cpu",
                 base_numel=2, stride=(1,), offset=0, values=(1.0, 2.0))
    run = execute(parse_program(call="source.detach()"), plain)
    with pytest.raises(RuntimeError, match="does not require grad"):
        REGISTRY["backward_sees_write"].observe(run)


def test_a_compilers_wrapper_of_the_programs_own_error_is_that_error():
    """Dynamo re-raises an error the program raised while it traced it as a TorchRuntimeError chained to it: the
    raises check sees the original when the wrapper is an instance of its class (a caller's `except RuntimeError`
    catches both), and the wrapper itself when it is not (`except ValueError` no longer catches it)."""
    TorchRuntimeError = pytest.importorskip("torch._dynamo.exc", reason="no dynamo before torch 2.0").TorchRuntimeError

    from copysuite.judge.checks.call import users_error

    def wrapped(inner):
        try:
            try:
                raise inner
            except Exception as exc:
                raise TorchRuntimeError("Dynamo failed to run FX node with fake tensors") from exc
        except TorchRuntimeError as outer:
            return outer

    seen, detail = users_error(wrapped(RuntimeError("view size is not compatible")))
    assert seen == ("RuntimeError", "view size is not compatible") and "TorchRuntimeError" in detail
    seen, detail = users_error(wrapped(ValueError("can't alias tensor with dtype")))
    assert seen[0] == "TorchRuntimeError" and detail is None
    assert users_error(ValueError("plain"))[0] == ("ValueError", "plain")


def test_memory_details_name_no_addresses():
    """The identity and memory checks word what they saw without ids or pointers, so a failure reads the same in
    every run (two runs of one torch are compared by `gate --same`)."""
    x = torch.arange(6.0)
    seen = {relation(x, x.view(2, 3)), relation(x, x.clone()), relation(x, x.numpy()), relation(x, x.tolist())}
    assert seen == {"result in the input's storage object (24 bytes on cpu)",
                    "result in memory of its own (24 bytes on cpu); input's: 24 bytes on cpu",
                    "result is a list, not in memory a tensor or array owns"}


@pytest.mark.parametrize("cast, want", [("bool", "bool"), ("long", "int"), ("half", "float"), ("cdouble", "complex")])
def test_python_type_of_dtype_is_the_type_item_returns(cast, want):
    """`of_dtype` stands for the type of the input's dtype, which is what item() returns."""
    program = parse_program(program="result = x[0, 0].item()", inputs={"x": f"source.detach().{cast}()"})
    run = execute(program, leaf_case(), subject="x")
    check = REGISTRY["python_type"]
    assert check.expected_value("of_dtype", run) == want == check.observe(run).value


def test_a_sparse_input_is_judged_by_identity_and_refused_by_the_memory_checks():
    program = parse_program(call="sp.coalesce()", inputs={"sp": "source.detach().to_sparse()"})
    run = execute(program, leaf_case(), subject="sp")
    assert run.error is None and run.before_values is None
    assert REGISTRY["same_object"].observe(run).value
    assert REGISTRY["layout"].observe(run).value == "sparse_coo"
    with pytest.raises(TypeError, match="sparse_coo tensor has no single storage"):
        REGISTRY["shares_storage"].observe(run)
    run = execute(parse_program(call="sp.to_dense()", inputs={"sp": "source.detach().to_sparse()"}), leaf_case(),
                 subject="sp")
    assert not REGISTRY["same_object"].observe(run).value
    assert "input is a sparse_coo tensor" in relation(run.subject, run.result)


@pytest.mark.skipif(not hasattr(torch.__future__, "set_swap_module_params_on_conversion"),
                    reason="torch.__future__ has no swap switch before 2.3")
def test_a_program_that_fails_midway_leaves_torch_future_as_it_was():
    program = parse_program(program="torch.__future__.set_swap_module_params_on_conversion(True)\n"
                                    "source.no_such_method()\n"
                                    "torch.__future__.set_swap_module_params_on_conversion(False)\nresult = source")
    run = execute(program, leaf_case())
    assert run.error and run.error[0] == "AttributeError"
    assert torch.__future__.get_swap_module_params_on_conversion() is False


def test_tmp_file_is_a_fresh_path_printed_and_removed():
    """A program that names `tmp_file` gets a path in a new directory, bound first (an input may use it) and printed
    as it ran; the directory is gone once the program has run, and what was mapped from the file stays readable
    (torch.load's mmap is new in 2.1: before it the file is read, not mapped)."""
    import inspect
    import os

    from copysuite.spec.programs import TMP_FILE_LINE
    mmap = ", mmap=True" if "mmap" in inspect.signature(torch.load).parameters else ""
    program = parse_program(program="torch.save(source.detach(), tmp_file)\n"
                                    f"result = torch.load(tmp_file, weights_only=True{mmap})")
    assert program.tmp_file and program.input_names[:2] == ("source", "tmp_file")
    assert program.input_lines()[0] == TMP_FILE_LINE and "import tempfile" in program.modules_used()
    run = execute(program, leaf_case())
    path = run.namespace["tmp_file"]
    assert run.error is None and not os.path.exists(os.path.dirname(path))
    assert REGISTRY["values_equal"].observe(run).value
    assert not parse_program(call="source.clone()").tmp_file
    with pytest.raises(Exception, match="never assigns it"):
        parse_program(program="tmp_file = 'x'\nresult = source")
