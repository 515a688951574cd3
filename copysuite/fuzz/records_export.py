"""The known upstream bugs the fuzzer meets under torch.export (`export`: the program exported as a module, non-strict,
and run as `ExportedProgram.module()`), each a `Record` (copysuite.fuzz.record). None has an upstream report that
names it: each cites its draft in docs/upstream-reports/, with the closest upstream in its note. What differs by
design (requires_grad_(), which the exported graph does not hold) is a rule of copysuite.fuzz.model."""
from __future__ import annotations

from copysuite.fuzz.record import Record

EXPORT_EXECUTIONS = ("export",)

EXPORT = (
    Record("export_data_of_written_tensor", EXPORT_EXECUTIONS, r"call\.raises",
           "docs/upstream-reports/export_data_of_written_tensor.py", "`x.data` of a tensor written in place in the "
           "same program (an input: a SymInt \"not tracked with proxy\"; an intermediate: a fake tensor left in the "
           "exported program's constants) fails to export, where eager runs (closest: PR 161589)", ops=("data",),
           message="is not tracked with proxy|fake tensor in the exported program constant"),
    Record("export_data_assignment_lost", EXPORT_EXECUTIONS,
           r"(in|out|pair|write|backward|grad)\..*", "docs/upstream-reports/export_data_assignment_lost.py",
           "`x.data = y` is not replayed by the exported module: the caller's x keeps its own memory, geometry and "
           "autograd history, and what the program writes into x after it lands there (closest: issue 94773)", ops=("data_assign",)),
    Record("export_rank_changing_inplace_view_of_input", EXPORT_EXECUTIONS, r"call\.raises",
           "docs/upstream-reports/export_rank_changing_inplace_view_of_input.py", "an in-place view op that changes "
           "an input's rank (unsqueeze_, squeeze_) fails export's shape guards with an IndexError (the same error "
           "under torch.compile: issue 129673, fixed in dynamo; issue 198100, open)",
           ops=("unsqueeze_", "squeeze_", "as_strided_"), message="IndexError: list index out of range"),
    Record("export_copy_into_itself_refused", EXPORT_EXECUTIONS, r"call\.raises",
           "docs/upstream-reports/export_copy_into_itself_expanded.py", "a copy of an expanded tensor into itself "
           "(`x.copy_(x)`, `x[...] = x`, also through `x.to(x.dtype)`, which is x), a no-op eagerly (copy_ returns "
           "at once), fails export's internal-overlap check (closest: issue 165409)", ops=("copy_", "setitem_from"),
           message="more than one element of the written-to tensor"),
    Record("export_view_error_class", EXPORT_EXECUTIONS, r"call\.raises", "docs/upstream-reports/export_view_error_class.py",
           "a view that eager refuses with a RuntimeError (`view(-1)` of incompatible strides) is refused at export "
           "with a ValueError by the Python reference fake tensors run (torch/_refs, _reshape_view_helper; closest: "
           "issue 153303, PR 162809)", message="ValueError: Cannot view a tensor with shape"),
    Record("export_trace_skips_eager_check", EXPORT_EXECUTIONS, r"call\.raises",
           "docs/upstream-reports/export_trace_skips_eager_check.py", "an op whose eager check export's fake "
           "tracing does not run (clamp_ on a complex tensor; on 2.14 `- 0` on a bool TwoTensor) lets tracing go "
           "on, so a later op's error (IndexError, RuntimeError) is raised instead of eager's NotImplementedError",
           ops=("clamp_", "minus_zero"), eager_message="."),
)
