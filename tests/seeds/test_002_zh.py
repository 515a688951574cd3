"""Article 002 (zh): clone, detach, .data and views, worked examples, pinned with its printed numbers.

The generic form of every claim is also a spec entry (docs/seed-claims.md); this keeps the article's own programs'
numbers honest.
"""
import operator
import re
import warnings

import pytest
import torch

from copysuite.run.storage import shares_storage
from tests.seeds.helpers import assert_no_grad, attempt, close, memory, t

ALIASES = {  # the tensor the article's metadata changes act on, as code, and whether it requires grad
    "detach": ("x.detach()", False),
    "data": ("x.data", False),
    "clone": ("x.clone()", True),
    "clone_of_constant": ("torch.ones(2, 3).clone()", False),
}
CHANGES = {  # the article's in-place metadata changes on a 2 x 3 tensor, as code, and the shape each leaves
    "resize_": ("d.resize_(6)", (6,)),
    "resize_as_": ("d.resize_as_(torch.ones(6))", (6,)),
    "set_": ("d.set_(torch.ones(6))", (6,)),
    "transpose_": ("d.transpose_(0, 1)", (3, 2)),
}
RESIZE_REFUSAL = "RuntimeError: cannot resize variables that require grad"  # matched by its words, not its whole text
IN_PLACE = {"add_": ("x.add_(1)", [2.0, 2.0]), "iadd": ("operator.iadd(x, 1)", [2.0, 2.0]),
            "imul": ("operator.imul(x, 3)", [3.0, 3.0])}


class TestArticle002:
    def test_data_write_reaches_detach_not_clone(self):
        a = t(1.0, requires_grad=True)
        b = a.clone()
        c = a.detach()
        a.data *= 3
        b += 1
        close(a.detach(), t(3.0)), close(b.detach(), t(2.0)), close(c, t(3.0))
        assert type(b.grad_fn).__name__ == "AddBackward0"

    def test_id_differs_yet_memory_is_shared(self):
        a = t([1.0, 2.0], requires_grad=True)
        b = a.detach()
        assert id(a) != id(b) and shares_storage(a, b)

    def test_gradient_accumulates_through_clone_2_then_7(self):
        a = t(1.0, requires_grad=True)
        a_ = a.clone()
        y = a ** 2
        z = a ** 2 + a_ * 3
        y.backward()
        close(a.grad, t(2.0))
        z.backward()
        close(a.grad, t(7.0))
        # a clone passes gradient back but keeps none: a_ is on z's backward path and did not retain its gradient
        assert_no_grad("a = torch.tensor(1., requires_grad=True); a_ = a.clone(); y = a ** 2; z = a ** 2 + a_ * 3; "
                       "y.backward(); z.backward()", a_=a_)

    def test_linear_example(self):
        torch.manual_seed(0)
        x = t([1.0, 2.0], requires_grad=True)
        clone_x, detach_x, clone_detach_x = x.clone(), x.detach(), x.clone().detach()
        f = torch.nn.Linear(2, 1)
        f(x).backward()
        close(x.grad, f.weight.detach()[0])  # d(w.x + b)/dx = w
        # the article's printed gradient, from manual_seed(0): torch's default init gives the same numbers
        torch.testing.assert_close(x.grad, t([-0.0053, 0.3793]), rtol=0, atol=1e-4)
        # clone_x is not on f(x)'s backward path, so its None says nothing about clones (the 2-then-7 test does)
        assert_no_grad("torch.manual_seed(0); x = torch.tensor([1., 2.], requires_grad=True); clone_x = x.clone(); "
                       "f = torch.nn.Linear(2, 1); f(x).backward()", clone_x=clone_x)
        assert clone_x.requires_grad
        assert not detach_x.requires_grad and not clone_detach_x.requires_grad

    def test_requires_grad_on_a_clone_of_a_constant(self):
        a = t(1.0)
        a_ = a.clone()
        a_.requires_grad_()
        (a_ ** 2).backward()
        assert a.grad is None
        close(a_.grad, t(2.0))

    def test_view_shares_and_clone_view_does_not(self):
        x = torch.rand(2, 2)
        y = x.view(4)
        x += 1
        close(y, x.reshape(4))
        assert y is not x  # a new tensor object over the same data
        x = torch.rand(2, 2)
        x_cp = x.clone().view(4)
        before = x_cp.clone()
        x += 1
        # the article's printout shows the opposite (x without the +1, x_cp with it) and x_cp with two brackets
        close(x_cp, before), close(x, before.view(2, 2) + 1)
        assert x_cp.shape == (4,)

    def test_reshape_may_copy(self):
        x = torch.rand(2, 3)
        assert shares_storage(x.reshape(6), x)
        assert not shares_storage(x.t().reshape(6), x)

    @pytest.mark.parametrize("alias", ALIASES)
    @pytest.mark.parametrize("change", CHANGES)
    def test_in_place_metadata_changes(self, alias, change):
        """The article: resize_/resize_as_/set_/transpose_ on detach() and clone() results raise an error or a
        warning. Torch refuses to resize any tensor that requires grad, whatever made it (resize_ and resize_as_
        in torch/csrc/autograd/VariableTypeManual.cpp: "cannot resize variables that require grad"), so a clone
        of x refuses both; nothing else here is refused or warned about. Older releases refused all four on
        detach()/.data results (PR 13645); every release of the matrix (1.13.1 ... 2.14.1) allows them (PR 83590,
        "Always allow tensor metadata changes", 2022); no release before 1.13.1 runs here, so no gate."""
        make, requires_grad = ALIASES[alias]
        call, shape = CHANGES[change]
        program = f"x = torch.ones(2, 3, requires_grad=True); d = {make}; {call}"
        x = torch.ones(2, 3, requires_grad=True)
        d = eval(make, {"torch": torch, "x": x})  # the text is the code that runs
        assert d.requires_grad == requires_grad, f"`{program}`: expected d.requires_grad {requires_grad}"
        refused = requires_grad and change in ("resize_", "resize_as_")
        expected = RESIZE_REFUSAL if refused else f"allowed, d.shape {shape}"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                eval(call, {"torch": torch, "d": d})
                observed = f"allowed, d.shape {tuple(d.shape)}"
            except RuntimeError as e:
                refused = re.search("cannot resize variables that require grad", str(e))
                observed = RESIZE_REFUSAL if refused else f"RuntimeError: {e}"
        warned = [str(w.message) for w in caught]
        assert observed == expected and not warned, (
            f"`{program}`: expected {expected} and no warning; observed {observed}, warnings {warned}")

    @pytest.mark.parametrize("change", ["resize_", "resize_as_"])
    def test_only_inference_mode_lets_a_clone_that_requires_grad_be_resized(self, change):
        """The refusal above is autograd's resize kernel (VariableTypeManual.cpp): no_grad still runs it, so a clone
        that requires grad is refused there too; inference_mode skips it, and the same clone is resized."""
        call, shape = CHANGES[change]
        for mode, expected in ((torch.no_grad, RESIZE_REFUSAL), (torch.inference_mode, f"allowed, d.shape {shape}")):
            program = f"x = torch.ones(2, 3, requires_grad=True); d = x.clone(); with torch.{mode.__name__}(): {call}"
            d = torch.ones(2, 3, requires_grad=True).clone()
            with mode():
                _, refused = attempt(lambda d=d: eval(call, {"torch": torch, "d": d}))  # the text is the code
            observed = (RESIZE_REFUSAL if refused and "cannot resize variables that require grad" in refused
                        else refused or f"allowed, d.shape {tuple(d.shape)}")
            assert observed == expected and d.requires_grad, (
                f"`{program}`: expected {expected}, d still requiring grad; observed {observed}, "
                f"d.requires_grad {d.requires_grad}")

    def test_data_hides_in_place_change_detach_reports_it(self):
        a = t([1.0, 2.0], requires_grad=True)
        out = a.sigmoid()
        out.detach().zero_()
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()
        a = t([1.0, 2.0], requires_grad=True)
        out = a.sigmoid()
        out.data.zero_()
        out.sum().backward()  # silently wrong: sigmoid's backward uses the zeroed output
        close(a.grad, t([0.0, 0.0]))

    def test_assignment_aliases(self):
        """`b = a` binds a second name to the same tensor (Python's, not torch's, to check); what torch decides is
        that a write through that name lands in the tensor's own memory: `b[0] = 5` writes in place, a shows it,
        and a's storage is the one it had (a setitem that swapped in new memory would fail here)."""
        a = torch.zeros(2)
        before, version = memory(a), a._version
        b = a
        b[0] = 5
        program = f"a = torch.zeros(2) (at {before}, storage and first element); b = a; b[0] = 5"
        assert a.tolist() == [5.0, 0.0], f"`{program}`: expected a = [5.0, 0.0]; observed {a.tolist()}"
        assert memory(a) == before and a._version > version, (
            f"`{program}`: expected a in its own memory, its version bumped; observed a at {memory(a)}, "
            f"version {version} -> {a._version}")

    def test_out_of_place_add_allocates(self):
        """y = x + y puts the sum in new memory and rebinds y to it: judged by storage, not by id() (a new Python
        object says nothing about memory, as the article itself warns for detach())."""
        x, y = torch.ones(2), torch.ones(2)
        old = y
        where_x, where_old = memory(x), memory(old)
        y = x + y
        program = f"x, y = torch.ones(2), torch.ones(2); old = y; y = x + y (x at {where_x}, old y at {where_old})"
        assert not shares_storage(y, old) and not shares_storage(y, x), (
            f"`{program}`: expected the new y in new memory; observed it at {memory(y)} (storage, first element)")
        assert old.tolist() == [1.0, 1.0] and y.tolist() == [2.0, 2.0], \
            f"`{program}`: old {old.tolist()}, y {y.tolist()}"

    @pytest.mark.parametrize("op", IN_PLACE)
    def test_in_place_op_allocates_nothing(self, op):
        """The article's related note: an in-place op (add_, +=, *=) changes the tensor's contents without a copy."""
        call, values = IN_PLACE[op]
        x = torch.ones(2)
        before, version = memory(x), x._version
        r = eval(call, {"x": x, "operator": operator})  # the text is the code that runs
        program = f"x = torch.ones(2); r = {call}"
        assert r is x and memory(x) == before, (
            f"`{program}`: expected r is x in x's memory {before}; observed r is x: {r is x}, x at {memory(x)}, "
            f"r at {memory(r)}")
        assert x.tolist() == values and x._version > version, f"`{program}`: x {x.tolist()}, version {x._version}"
