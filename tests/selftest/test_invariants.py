"""Each invariant on hand-built tensors: one input where it must hold and one where it must not."""
import pytest
import torch

from strategies.cases import contiguous_strides
from copysuite.invariants import REGISTRY, error_matches, normalized_strides, storage_snapshot
from copysuite.runner import Run
from copysuite.storage import host_copy, shares_storage


def make_run(source, op, prepare=None):
    ns = {"source": source}
    if prepare:
        prepare(ns)
    before = storage_snapshot(source)
    values = host_copy(source) if source.device.type != "meta" else None
    result = op(source)
    return Run(case=None, ns=ns, source=source, result=result, error=None, warnings=[], before=before,
               before_values=values)


def observe(name, source, op):
    inv = REGISTRY[name]
    return inv.observe(make_run(source, op, inv.prepare))[0]


def leaf():
    return torch.arange(6.0).reshape(2, 3).clone().requires_grad_()


CASES = [
    ("same_object", lambda s: s, True), ("same_object", lambda s: s.detach(), False),
    ("shares_storage", lambda s: s.detach(), True), ("shares_storage", lambda s: s.detach().clone(), False),
    ("shares_storage", lambda s: s.detach()[1:, 1:], True),  # an offset view
    ("shares_storage", lambda s: s.detach().numpy(), True), ("shares_storage", lambda s: s.detach().numpy().copy(), False),
    ("writes_through", lambda s: s.detach(), True), ("writes_through", lambda s: s.detach().clone(), False),
    ("autograd_view", lambda s: s.view(6), True), ("autograd_view", lambda s: s.detach(), False),
    ("shares_version_counter", lambda s: s.detach(), True), ("shares_version_counter", lambda s: s.data, False),
    ("backward_sees_write", lambda s: s.detach(), True), ("backward_sees_write", lambda s: s.data, False),
    ("requires_grad", lambda s: s.clone(), True), ("requires_grad", lambda s: s.detach(), False),
    ("is_leaf", lambda s: s.detach(), True), ("is_leaf", lambda s: s.clone(), False),
    ("grad_fn", lambda s: s.clone(), "CloneBackward0"), ("grad_fn", lambda s: s.detach(), None),
    ("grad_to_source", lambda s: s.clone(), "ones"), ("grad_to_source", lambda s: s[0], "partial"),
    ("grad_to_source", lambda s: s.detach(), "none"),
    ("grad_accumulates", lambda s: s.clone(), "accumulates"), ("grad_accumulates", lambda s: s.detach(), "none"),
    ("source_untouched", lambda s: s.clone(), True), ("source_untouched", lambda s: s.requires_grad_(False), False),
    ("values_equal", lambda s: s.clone(), True), ("values_equal", lambda s: s * 2, False),
    ("values_equal", lambda s: s.tolist(), True), ("values_equal", lambda s: s.detach().numpy(), True),
    ("strides", lambda s: s.t(), (1, 3)), ("dtype", lambda s: s.double(), "float64"),
    ("result_type", lambda s: s.detach().numpy(), "ndarray"), ("result_type", lambda s: s.tolist(), "list"),
]


@pytest.mark.parametrize("name, op, want", CASES)
def test_invariant_observes(name, op, want):
    assert observe(name, leaf(), op) == want


def test_shares_storage_edge_cases():
    empty = torch.empty(0)
    assert empty.data_ptr() == 0
    assert shares_storage(empty, empty.detach())       # same storage object, no memory
    assert not shares_storage(empty, torch.empty(0))   # two empty tensors share nothing
    meta = torch.empty(3, device="meta")
    assert shares_storage(meta, meta.view(3)) and not shares_storage(meta, meta.clone())
    assert not shares_storage(torch.ones(2), [1.0, 1.0])


def test_values_equal_is_nan_aware_and_exact():
    a = torch.tensor([1.0, float("nan")])
    assert observe("values_equal", a, lambda s: s.clone())
    assert not observe("values_equal", a, lambda s: s * 2)


def test_strides_of_size_one_and_empty_dims_are_not_compared():
    assert normalized_strides((1, 3), (99, 1)) == (None, 1)
    assert normalized_strides((0, 3), (3, 1)) == "any (no elements)"
    assert normalized_strides((2, 3), contiguous_strides((2, 3))) == (3, 1)


def test_error_matching():
    want = {"type": "RuntimeError", "match": "requires grad"}
    assert error_matches(want, ("RuntimeError", "Can't call numpy() on Tensor that requires grad."))
    assert not error_matches(want, ("TypeError", "requires grad"))
    assert not error_matches(want, None) and error_matches(None, None)
    assert error_matches(None, []) and not error_matches(None, [("UserWarning", "x")])


def test_every_invariant_has_a_selftest():
    covered = {name for name, _, _ in CASES} | {"raises", "warns"}  # those two: test_error_matching
    trivial = {"retains_grad", "shape", "device", "layout", "is_conj", "is_neg", "is_pinned"}  # plain attribute reads
    assert set(REGISTRY) - covered - trivial == set()
