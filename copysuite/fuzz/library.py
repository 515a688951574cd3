"""The `custom_op` shape: statements that call operators a user defines with torch.library, each declared as the
custom operators guide says its kind is declared (what it mutates, what it returns), so that a difference is the
execution's and not a wrong declaration.

The operators live in the namespace `copysuite_fuzz`; `PRELUDE` defines them, once per process (the lines check
whether they exist first), and opens the input lines of every program that calls one, so that a reproduction
defines them too:

- `add_one_(x) -> ()`, `custom_op` with `mutates_args=("x",)`: adds 1 to x in place, returning nothing (a mutable
  operator that returns no input; no autograd formula: torch.library refuses one for a mutable operator);
- `scale_into_(out, x) -> ()`, the same kind: writes 2 * x into out (out and x may alias);
- `doubled(x) -> Tensor`, a functional `custom_op` with a fake kernel and an autograd formula;
- `add_one_ret_(x) -> Tensor`, `custom_op` tagged `torch.Tag.inplace`: adds 1 in place and returns x, as aten's
  in-place ops do (the tagged in-place form, torch 2.13 and later);
- `doubled_out(x, *, out) -> Tensor`, `custom_op` tagged `torch.Tag.out`: writes 2 * x into out and returns it (the
  tagged out= form, torch 2.13 and later);
- `first_row(Tensor(a) x) -> Tensor(a)`, `torch.library.define` with a CompositeImplicitAutograd kernel: a view of
  x (x[0]), its output annotated as aliasing x (custom_op models no view).

On a release before 2.13 the tagged operators cannot be defined, and a program that calls any of them has no inputs.
"""
from __future__ import annotations

from copysuite.fuzz.vocabulary import Op

NAMESPACE = "copysuite_fuzz"
PRELUDE = f'''if not hasattr(torch.ops.{NAMESPACE}, "doubled_out"):   # defined once per process
    @torch.library.custom_op("{NAMESPACE}::add_one_", mutates_args=("x",))
    def add_one_(x: torch.Tensor) -> None:
        x.add_(1)

    add_one_.register_fake(lambda x: None)

    @torch.library.custom_op("{NAMESPACE}::scale_into_", mutates_args=("out",))
    def scale_into_(out: torch.Tensor, x: torch.Tensor) -> None:
        out.copy_(x * 2)

    scale_into_.register_fake(lambda out, x: None)

    @torch.library.custom_op("{NAMESPACE}::doubled", mutates_args=())
    def doubled(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    doubled.register_fake(lambda x: torch.empty_like(x))
    doubled.register_autograd(lambda ctx, grad: grad * 2, setup_context=lambda ctx, inputs, output: None)

    torch.library.define("{NAMESPACE}::first_row", "(Tensor(a) x) -> Tensor(a)")
    torch.library.impl("{NAMESPACE}::first_row", "CompositeImplicitAutograd", lambda x: x[0])

    @torch.library.custom_op("{NAMESPACE}::add_one_ret_", mutates_args=("x",), tags=torch.Tag.inplace)
    def add_one_ret_(x: torch.Tensor) -> torch.Tensor:
        return x.add_(1)

    @torch.library.custom_op("{NAMESPACE}::doubled_out", mutates_args=("out",), tags=torch.Tag.out)
    def doubled_out(x: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
        return out.copy_(x * 2)'''.splitlines()

_OPS = f"torch.ops.{NAMESPACE}"
OPS = (
    Op("custom_add_one_", "custom_op", f"{_OPS}.add_one_({{x}})\n{{out}} = {{x}}"),
    Op("custom_scale_into_", "custom_op", f"{_OPS}.scale_into_({{x}}, {{y}})\n{{out}} = {{x}}", arity=2),
    Op("custom_doubled", "custom_op", f"{{out}} = {_OPS}.doubled({{x}})"),
    Op("custom_first_row", "custom_op", f"{{out}} = {_OPS}.first_row({{x}})"),
    Op("custom_add_one_ret_", "custom_op", f"{{out}} = {_OPS}.add_one_ret_({{x}})"),
    Op("custom_doubled_out", "custom_op", f"{{out}} = {_OPS}.doubled_out({{y}}, out={{x}})", arity=2),
)
NAMES = frozenset(op.name for op in OPS)


def prelude(ops) -> list[str]:
    """The lines that define the operators, where `ops` (a program's op names) calls one of them."""
    return PRELUDE if NAMES & set(ops) else []
