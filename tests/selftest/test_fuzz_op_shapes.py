"""The fuzzer's shapes of ops beside the vocabulary (copysuite.fuzz.shape_ops), each opt-in through
COPYSUITE_FUZZ_SHAPES, and for each a patched execution that only that shape can catch, caught. Custom operators
(`custom_op`): compiled, the mutation a custom operator declares is dropped by the functional form AOTAutograd
calls (auto_functionalized). Foreach lists (`foreach`): export traces an in-place foreach op that loses the update
of its list's last member. Consumers that
are not neutral arithmetic (`consumers`): a reduction, scan, sort, index or matmul reads its input's memory in
storage order, ignoring its strides. Each is shown on one program of the shape, caught, and on the same program
with an op of the vocabulary in its place, not caught; then by a fixed-seed search with the shape on. The tests
that compile, and the searches, are opt-in (COPYSUITE_FUZZ=1, as in test_fuzz_shapes.py)."""
import contextlib
import os
from unittest import mock

import pytest
import torch

from copysuite.fuzz import command, differential, generate, judging, reproduction, shape_ops, signature, variants
from copysuite.fuzz.generate import Input, Program, Statement
from tests.selftest.drawn import drawn_programs

SEARCH_PROGRAMS = 300
opt_in = pytest.mark.skipif(os.environ.get("COPYSUITE_FUZZ") != "1",
                            reason="opt-in (COPYSUITE_FUZZ=1, a step of .ci/run): it compiles programs or searches")
needs_functionalize = pytest.mark.skipif(variants.executor("functionalize").skip_reason() is not None,
                                         reason=str(variants.executor("functionalize").skip_reason()))
needs_export = pytest.mark.skipif(variants.executor("export").skip_reason() is not None,
                                  reason=str(variants.executor("export").skip_reason()))
needs_aot = pytest.mark.skipif(variants.executor("compile.aot_eager").skip_reason() is not None,
                               reason=str(variants.executor("compile.aot_eager").skip_reason()))
# the custom_op shape's prelude defines its operators in the tagged forms (copysuite/fuzz/library.py)
needs_tagged_ops = pytest.mark.skipif(not hasattr(getattr(torch, "Tag", None), "inplace"),
                                      reason=f"torch {torch.__version__} has no torch.Tag.inplace (new in 2.13): the "
                                             "custom_op shape's tagged operators cannot be defined")


def verdict(program: Program, execution: str):
    run = differential.run(program, execution)
    differences = signature.differences(run.eager.signature, run.other.signature)
    return run, differences, judging.judge(run, execution, differences)


def one_statement(op: str, *inputs: Input) -> Program:
    args = tuple(i.name for i in inputs)[:shape_ops.BY_NAME[op].arity]
    return Program(inputs, (Statement("t1", op, args),), ("t1",))


def drawn_ops(count: int, shapes: tuple) -> set:
    return {op for program in drawn_programs(generate.programs(shapes=shapes), count) for op in program.ops}


def test_each_op_shape_is_drawn_where_asked_for_only():
    """Off by default (a fixed seed draws what it drew before); on, each shape's ops are drawn beside the
    vocabulary's."""
    assert not set(generate.SHAPES) & set(shape_ops.OPS)
    shaped = {op.name for ops in shape_ops.OPS.values() for op in ops}
    assert not drawn_ops(60, ("between", "after")) & shaped
    on = drawn_ops(60, ("between", "after", *shape_ops.OPS))
    for shape, ops in shape_ops.OPS.items():
        assert len(on & {op.name for op in ops}) >= 2, (shape, on)


@needs_tagged_ops
def test_a_custom_operator_program_defines_its_operators_first():
    """The operators' definitions open the inputs of a program that calls one (a reproduction runs alone), and
    running them twice in one process defines nothing twice."""
    program = one_statement("custom_doubled", Input("a"))
    lines = program.input_lines()
    assert lines[0].startswith('if not hasattr(torch.ops.copysuite_fuzz, "doubled_out")'), lines[0]
    namespace = {"torch": torch}
    for _ in range(2):
        exec("\n".join(lines), namespace)  # noqa: S102 - the program's own lines
    assert namespace["a"].shape == (2, 3)
    assert one_statement("add_", Input("a")).input_lines()[0].startswith("a = ")


@contextlib.contextmanager
def custom_mutations_dropped():
    """AOTAutograd's functional form of a mutable custom operator (auto_functionalized_v2, its dense kernel) returns
    the bases as they were (a fault: the mutation the operator declares never reaches the caller's tensor)."""
    from torch._higher_order_ops.auto_functionalize import auto_functionalized_v2
    key = torch._C.DispatchKey.CompositeExplicitAutograd
    original = auto_functionalized_v2.py_kernels[key]

    def dropped(_mutable_op, _only_clone_these_bases=None, **kwargs):
        bases = kwargs["_all_bases"]
        kwargs["_all_bases"] = [b.clone() for b in bases]
        result = original(_mutable_op, _only_clone_these_bases, **kwargs)
        return (*result[:len(result) - len(bases)], *bases)

    auto_functionalized_v2.py_kernels[key] = dropped
    auto_functionalized_v2._dispatch_cache.clear()
    try:
        yield
    finally:
        auto_functionalized_v2.py_kernels[key] = original
        auto_functionalized_v2._dispatch_cache.clear()


@opt_in
@needs_aot
@needs_tagged_ops
def test_a_dropped_custom_mutation_is_caught_by_custom_operators_only():
    """add_one_ (mutates_args=("x",)) on an input: eagerly the input is written, compiled under the fault it is
    not. The same program with aten's add_ in its place shows nothing under the fault."""
    program = one_statement("custom_add_one_", Input("a"))
    assert verdict(program, "compile.aot_eager")[2].status == "same"
    with custom_mutations_dropped():
        run, differences, judged = verdict(program, "compile.aot_eager")
        _, _, without = verdict(one_statement("add_", Input("a")), "compile.aot_eager")
    assert differences["in|a|values"] == [[1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5]], differences
    assert judged.status == "new" and "in.values" in judged.unexplained, judged
    assert without.status == "same", without
    text = reproduction.script(run, "compile.aot_eager", "off", judged.differences)
    assert "@torch.library.custom_op(\"copysuite_fuzz::add_one_\"" in text


@opt_in
@needs_aot
@needs_tagged_ops
@pytest.mark.timeout(600)   # a search, on a possibly busy machine
def test_a_fixed_seed_search_catches_dropped_custom_mutations():
    with mock.patch.object(generate, "SHAPES", ("custom_op",)), custom_mutations_dropped():
        report = command.search("compile.aot_eager", seed=0, programs=SEARCH_PROGRAMS // 3, shrink_attempts=0)
    caught = [f for f in report["findings"] if {"custom_add_one_", "custom_scale_into_"} & set(f["ops"])
              and f["status"] == "new"]
    assert caught, command.summary(report)


class LastMemberLost(torch.overrides.TorchFunctionMode):
    """An in-place foreach op that skips the last member of its first list (a fault: that member's update lost)."""

    # _foreach_copy_ is new in torch 2.1: the module still collects before it
    FOREACH = tuple(getattr(torch, name) for name in ("_foreach_add_", "_foreach_mul_", "_foreach_copy_")
                    if hasattr(torch, name))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in self.FOREACH and len(args[0]) > 1:
            args = tuple(a[:-1] if isinstance(a, (list, tuple)) else a for a in args)
        return func(*args, **(kwargs or {}))


def under_mode(mode_class, functionalize):
    """torch.func.functionalize whose function runs under `mode_class` (a patched execution: eager is untouched)."""
    def patched(fn, *args, **kwargs):
        inner = functionalize(fn, *args, **kwargs)

        def run(*call_args, **call_kwargs):
            with mode_class():
                return inner(*call_args, **call_kwargs)
        return run
    return patched


def traced_under(mode_class, export):
    """torch.export.export tracing under `mode_class` (a patched execution: what it traces loses what the mode drops;
    eager is untouched)."""
    def patched(*args, **kwargs):
        with mode_class():
            return export(*args, **kwargs)
    return patched


@opt_in
@needs_export
def test_a_lost_foreach_update_is_caught_by_foreach_lists_only():
    """_foreach_mul_([a, b], 2) on two inputs: eagerly both are doubled, exported under the fault b is not. The
    same program with a's own mul_ in its place shows nothing under the fault. Under export: functionalized
    executions lose a repeated member's update of their own (foreach_repeated_member_functionalized), and that record
    explains any lost foreach update there."""
    program = one_statement("foreach_mul_pair", Input("a"), Input("b"))
    assert verdict(program, "export")[2].status == "same"
    with mock.patch.object(torch.export, "export", traced_under(LastMemberLost, torch.export.export)):
        run, differences, judged = verdict(program, "export")
        _, _, without = verdict(one_statement("mul_", Input("a"), Input("b")), "export")
    assert differences["in|b|values"] == [[0, 2, 4, 6, 8, 10], [0, 1, 2, 3, 4, 5]], differences
    assert judged.status == "new" and "in.values" in judged.unexplained, judged
    assert without.status == "same", without
    assert "torch._foreach_mul_([a, b], 2)" in reproduction.script(run, "export", "off", judged.differences)


@opt_in
@needs_export
@pytest.mark.timeout(600)   # a search, on a possibly busy machine
def test_a_fixed_seed_search_catches_lost_foreach_updates():
    with mock.patch.object(generate, "SHAPES", ("foreach",)), \
            mock.patch.object(torch.export, "export", traced_under(LastMemberLost, torch.export.export)):
        report = command.search("export", seed=0, programs=SEARCH_PROGRAMS // 3, shrink_attempts=0)
    caught = [f for f in report["findings"] if {"foreach_mul_pair", "foreach_add_twice", "foreach_add_view_base"}
              & set(f["ops"]) and f["status"] == "new"]
    assert caught, command.summary(report)


class StorageOrderReads(torch.overrides.TorchFunctionMode):
    """Reductions, scans, sorts, indexing and matmul that read their input's memory in storage order, as if it were
    contiguous (a fault: a kernel that ignores strides). Pointwise ops are untouched."""

    READS = (torch.Tensor.sum, torch.Tensor.cumsum, torch.Tensor.amax, torch.Tensor.sort, torch.Tensor.index_select,
             torch.Tensor.gather, torch.Tensor.__matmul__)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in self.READS and not args[0].is_contiguous():
            x = args[0]
            strides = torch.empty(x.shape, device="meta").stride()
            args = (x.as_strided(x.shape, strides, x.storage_offset()), *args[1:])
        return func(*args, **(kwargs or {}))


@needs_functionalize
def test_reads_in_storage_order_are_caught_by_consumers_only():
    """The sum over dim 0 of a transposed input: under the fault it sums the wrong elements. The same program with
    + 0 in its place (neutral arithmetic, pointwise) shows nothing under the fault."""
    transposed = Input("a", shape=(2, 3), placement="transposed")
    program = one_statement("read_sum", transposed)
    assert verdict(program, "functionalize")[2].status == "same"
    with mock.patch.object(torch.func, "functionalize", under_mode(StorageOrderReads, torch.func.functionalize)):
        _, differences, judged = verdict(program, "functionalize")
        _, _, without = verdict(one_statement("plus_zero", transposed), "functionalize")
    assert "out|t1|values" in differences, differences
    assert judged.status == "new" and "out.values" in judged.unexplained, judged
    assert without.status == "same", without


@opt_in
@needs_functionalize
@pytest.mark.timeout(600)   # a search, on a possibly busy machine
def test_a_fixed_seed_search_catches_reads_in_storage_order():
    with mock.patch.object(generate, "SHAPES", ("consumers",)), \
            mock.patch.object(torch.func, "functionalize", under_mode(StorageOrderReads, torch.func.functionalize)):
        report = command.search("functionalize", seed=0, programs=SEARCH_PROGRAMS, shrink_attempts=0)
    caught = [f for f in report["findings"] if set(f["ops"]) & {op.name for op in shape_ops.OPS["consumers"]}
              and f["status"] == "new"]
    assert caught, command.summary(report)
