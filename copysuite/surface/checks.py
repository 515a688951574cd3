"""One surface call judged against its class's contract (copysuite.surface.contract). A clause that does not hold
raises a ConformanceFailure whose reproduction is the call's own Python; an OpInfo sample the op itself refuses is
not applicable (NotApplicable), a hand-written call that raises is a failure.
"""
from __future__ import annotations

import dataclasses
import warnings

import torch
from torch.utils._pytree import tree_flatten, tree_unflatten

from copysuite.judge.failures import ConformanceFailure
from copysuite.run import process_state
from copysuite.run.execute import versions_line
from copysuite.surface import execute
from copysuite.surface.classify import writes_a_list
from copysuite.surface.contract import evidence
from copysuite.surface.inputs import NotApplicable
from copysuite.surface.observe import (
    bump,
    differentiable,
    empties,
    listed,
    same,
    same_objects,
    shares,
    tensors,
    tree_map_grad,
)

# what a reproduction prints to show the clause's observation (Tensor.untyped_storage is new in 2.0)
STORAGE = "untyped_storage" if hasattr(torch.Tensor, "untyped_storage") else "storage"
SHOW = {
    "shares_storage": f"print(result.{STORAGE}().data_ptr() == x.{STORAGE}().data_ptr())",
    "is_view": "print(result._is_view(), result._base is x)",
    "is_self": "print(result is x)",
    "returns_self": "print(result is x)",
    "returns_out": "print(result is out)",
    "version_bump": "print(x._version)",
    "no_shared_memory": f"print(result.{STORAGE}().data_ptr() == x.{STORAGE}().data_ptr())",
    "grad_to_source": "outs = result if isinstance(result, (tuple, list)) else [result]\n"
                      "sum(o.sum().abs() for o in outs).backward()\n"
                      "print((x if x.is_leaf else x._base).grad)",
}


class Judge:
    def __init__(self, call, cell: str, execution: str = "eager", inplace_view: bool = False):
        self.call, self.cell, self.execution, self.inplace_view = call, cell, execution, inplace_view
        self.spaces = []    # the call's namespaces open now (Judge.fresh)

    def fail(self, clause, expected, observed, detail=None, text=None, extra=""):
        call = self.call
        if call.cls == "out":
            extra = f"out = torch.utils._pytree.tree_map(torch.empty_like, {call.call})\n" + extra
        extra = "\n".join(filter(None, (extra, SHOW.get(clause, ""))))
        raise ConformanceFailure(
            cell=self.cell, entry=self.cell.rsplit("-", 3)[0], check=clause, kind="mismatch", expected=expected,
            observed=observed, detail=detail, input=call.source, program=f"{text or call.call} ({self.execution})",
            versions=versions_line(), evidence=[evidence(call.op)] if call.cls == "alias" else [],
            spec=f"the schema of aten::{call.op} ({call.cls}; copysuite/surface/contract.py)",
            reproduction=execute.reproduction(call, text or call.call, self.execution, extra,
                                              execute.names(self.spaces[-1])))

    def run(self, text, ns):
        torch.manual_seed(0)
        try:
            return execute.run(self.call, text, ns, self.execution)
        except Exception as exc:
            if self.call.source != "hand":
                raise NotApplicable(f"{type(exc).__name__}: {exc}") from exc
            self.fail("call", "no error", f"{type(exc).__name__}: {str(exc)[:200]}", text=text)

    def fresh(self) -> dict:
        """A new namespace of the call (its inputs built again); the one before is closed (a forward-AD dual level
        is entered by one namespace at a time)."""
        while self.spaces:
            self.call.close(self.spaces.pop())
        ns = self.call.namespace()
        self.spaces.append(ns)
        return ns

    def judge(self) -> None:
        """Judge the call; the process-global state it switched (a forward-AD level a failed compile left entered)
        is set back after it, and a failure says what it was."""
        self.spaces, failed = [], None
        with process_state.kept() as left:
            try:
                getattr(self, self.call.cls)(self.fresh())
            except ConformanceFailure as exc:
                failed = exc
            finally:
                for ns in reversed(self.spaces):
                    self.call.close(ns)
        if failed is not None and left:
            note = "the call left switched (set back after it): " + ", ".join(left)
            failed = dataclasses.replace(failed, detail="; ".join(filter(None, (failed.detail, note))))
        if failed is not None:
            raise failed

    # ---- alias -----------------------------------------------------------------------------------------------------
    def alias(self, ns):
        x, expect = ns["x"], self.call.expect
        outs = tensors(self.run(self.call.call, ns))
        for i, out in enumerate(outs):
            where = f"result {i}" if len(outs) > 1 else "result"
            if expect == "self":
                if out is not x:
                    self.fail("is_self", "the argument object itself", f"a new tensor ({where})")
                continue
            if expect == "copy":
                if shares(out, x) or out._base is x:
                    self.fail("no_shared_memory", "a copy sharing no memory with x", f"{where} aliases x")
                continue
            owner = tensors(self.run(self.call.call, ns))[i] if expect == "member" else x
            if out.numel() and owner.numel() and not shares(out, owner):
                self.fail("shares_storage", True, False, f"{where} and x have different storages")
            if expect == "view":
                root = x._base if x._base is not None else x
                if not out._is_view() or out._base is not root:
                    self.fail("is_view", "an autograd view of x (_is_view(), _base is x)",
                              f"_is_view()={out._is_view()}, _base is x: {out._base is root}", where)
            if expect in ("view", "detached") and x.layout == torch.strided:
                before = x._version
                exec(bump("result", out), {"torch": torch, "result": out})  # noqa: S102 - the printed Python
                if x._version == before:
                    self.fail("version_counter", "x's version moves with the result's", f"x._version stayed {before}",
                              where,
                              extra=bump(f"result{f'[{i}]' if len(outs) > 1 else ''}", out) + "\nprint(x._version)")
        if expect == "view" and differentiable(x) and all(differentiable(o) and not o.is_nested for o in outs):
            ns = self.fresh()
            outs = tensors(self.run(self.call.call, ns))
            root = ns["x"] if ns["x"].is_leaf else ns["x"]._base
            if root is not None and root.requires_grad and outs and all(o.requires_grad for o in outs):
                try:
                    sum(o.sum().abs() for o in outs).backward()
                except Exception as exc:  # noqa: BLE001 - what torch raised is the clause's observation, a record can name it
                    self.fail("grad_to_source", "x.grad set by backward through the result",
                              f"backward raised {type(exc).__name__}: {str(exc)[:200]}")
                if root.grad is None:
                    self.fail("grad_to_source", "x.grad set by backward through the result", None)

    # ---- inplace ---------------------------------------------------------------------------------------------------
    def inplace(self, ns):
        """Self is `x`, or every tensor of the list `x` (a foreach op, whose schema returns nothing)."""
        call = self.call
        reference = self.run(call.expect, self.fresh()) if call.expect else None
        selves = listed(ns["x"])
        before = [(t._version, tuple(t.shape)) for t in selves]
        result = self.run(call.call, ns)
        owed = None if isinstance(ns["x"], list) else ns["x"]
        if result is not owed:
            self.fail("returns_self", "the very self object" if owed is not None else "None (the schema returns ())",
                      f"a {'new tensor' if torch.is_tensor(result) else type(result).__name__}")
        if reference is not None and call.exact and not all(map(same, selves, listed(reference))):
            self.fail("writes", "self holds the out-of-place result", "other values", f"reference: {call.expect}")
        for t, (version, shape) in zip(selves, before):
            if not self.inplace_view and tuple(t.shape) != shape:
                self.fail("keeps_shape", f"self keeps its shape {shape} (in-place ops do not broadcast self: "
                          "https://pytorch.org/docs/stable/notes/broadcasting.html)", tuple(t.shape),
                          extra="print(x.shape)")
            if not self.inplace_view and t._version <= version:
                self.fail("version_bump", f"self._version > {version}", t._version)
        if self.inplace_view:   # a metadata change (the inplace_view tag): no data written, no version bump owed
            if isinstance(reference, torch.Tensor) and tuple(selves[0].shape) != tuple(reference.shape):
                self.fail("keeps_identity", f"self with the metadata of {call.expect}: {tuple(reference.shape)}",
                          tuple(selves[0].shape))
            return
        ns = self.fresh()
        bases = listed(ns["x"])
        if all(b.layout == torch.strided and not b.requires_grad and not b.is_nested for b in bases):
            views = [b.view(b.shape) for b in bases]
            ns["x"] = views if isinstance(ns["x"], list) else views[0]
            versions = [b._version for b in bases]
            self.run(call.call, ns)
            if any(b._version <= v for b, v in zip(bases, versions)):
                self.fail("base_sees_write", "the base's version moves when a view of it is written",
                          [b._version for b in bases], "x = base.view(base.shape)")
            if reference is not None and call.exact and not all(map(same, bases, listed(reference))):
                self.fail("base_sees_write", "the base holds the written values", "other values")
        ns = self.fresh()
        selves = listed(ns["x"])
        if all(differentiable(t) and t.is_leaf for t in selves) and torch.is_grad_enabled():
            for t in selves:
                t.requires_grad_(True)
            try:
                execute.run(call, call.call, ns, self.execution)
            except RuntimeError:
                return
            self.fail("refuses_grad_leaf", "RuntimeError (a leaf that requires grad is used in an in-place "
                      "operation)", "no error", text=call.call, extra="# with x.requires_grad_(True) first")

    # ---- out= ------------------------------------------------------------------------------------------------------
    def out(self, ns):
        call = self.call
        expected = self.run(call.call, self.fresh())
        outs_expected, spec = tree_flatten(expected)
        if not outs_expected or not all(isinstance(t, torch.Tensor) for t in outs_expected):
            raise NotApplicable("the op returns no tensor")
        text = call.call[:-1] + ", out=out)"
        inputs = call.inputs(ns)
        try:
            out = ns["out"] = empties(outs_expected, spec)
        except (RuntimeError, NotImplementedError) as exc:   # a layout with no empty_like (mkldnn)
            raise NotApplicable(f"no out tensor for this result: {exc}") from exc
        snapshot = [(t.detach().clone(), t._version) for t in inputs]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = self.run(text, ns)
        resized = [str(w.message) for w in caught if "was resized" in str(w.message)]
        if resized:
            self.fail("no_resize_warning", "no resize of an out that already has the result's shape", resized[0][:160],
                      text=text, extra="# run with python -W always: the warning is printed")
        if not same_objects(result, out):
            self.fail("returns_out", "the out object(s) themselves", "new tensor(s)", text=text)
        if call.exact and not all(same(o, e) for o, e in zip(tree_flatten(out)[0], outs_expected)):
            self.fail("writes_out", "out holds the functional result", "other values", text=text)
        self.untouched(inputs, snapshot, text)
        self.empty_out(text, outs_expected, spec)
        grad_possible = all(differentiable(t) and t.is_leaf for t in listed(ns["x"])) and torch.is_grad_enabled()
        if grad_possible and all(differentiable(t) for t in outs_expected):
            ns = self.fresh()
            for t in listed(ns["x"]):
                t.requires_grad_(True)
            if not any(t.requires_grad for t in tensors(self.run(call.call, ns))):
                return   # grad is not needed: the out-of-place result does not require it (ones_like, ...)
            ns = self.fresh()
            for t in listed(ns["x"]):
                t.requires_grad_(True)
            ns["out"] = tree_map_grad(empties(outs_expected, spec))
            try:
                execute.run(call, text, ns, self.execution)
            except RuntimeError:
                return
            self.fail("refuses_grad_out", "RuntimeError (out= arguments don't support automatic differentiation)",
                      "no error", text=text,
                      extra="# with x.requires_grad_() and out = torch.empty_like(result).requires_grad_()")

    def empty_out(self, text, outs_expected, spec):
        """An out with no element is resized to the result's shape, silently, and written (the rule torch's resize
        warning states). Not judged: an out= list, which the out= overloads generated for functional ops copy into
        without resizing (docs/surface.md)."""
        if not all(t.layout == torch.strided for t in outs_expected) or writes_a_list(self.call.op):
            return
        ns = self.fresh()
        ns["out"] = out = tree_unflatten([t.new_empty(0) for t in outs_expected], spec)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.manual_seed(0)
            try:   # the op took this input with an out of the right shape: a refusal now is the empty out's
                result = execute.run(self.call, text, ns, self.execution)
            except Exception as exc:  # noqa: BLE001 - whatever the op raises is what the clause observes
                result, caught = None, [f"{type(exc).__name__}: {str(exc)[:120]}"]
        shapes = [tuple(o.shape) for o in tree_flatten(out)[0]]
        if (not same_objects(result, out) or shapes != [tuple(e.shape) for e in outs_expected]
                or any("was resized" in str(w) for w in caught) or result is None
                or self.call.exact and not all(same(o, e) for o, e in zip(tree_flatten(out)[0], outs_expected))):
            self.fail("resizes_empty_out", "out (no element) resized to the result's shape, written, no warning",
                      f"shapes {shapes}, returned out: {same_objects(result, out)}, "
                      f"warnings or error: {[str(getattr(w, 'message', w))[:120] for w in caught]}", text=text,
                      extra="out = torch.utils._pytree.tree_map(lambda t: t.new_empty(0), out)\n"
                            "print(result is out, torch.utils._pytree.tree_map(lambda t: t.shape, out))")

    # ---- functional ------------------------------------------------------------------------------------------------
    def functional(self, ns):
        inputs = self.call.inputs(ns)
        snapshot = [(t.detach().clone(), t._version) for t in inputs]
        outs = tensors(self.run(self.call.call, ns))
        for i, out in enumerate(outs):
            for j, t in enumerate(inputs):
                if shares(out, t):
                    self.fail("no_shared_memory", "a new tensor, sharing memory with no input",
                              f"result {i} shares storage with input {j}")
        self.untouched(inputs, snapshot, self.call.call)

    def untouched(self, inputs, snapshot, text):
        for j, (t, (value, version)) in enumerate(zip(inputs, snapshot)):
            if t._version != version or not same(t, value):
                self.fail("inputs_untouched", f"input {j} unchanged (version {version})",
                          f"version {t._version}" + ("" if same(t, value) else ", other values"), text=text)

