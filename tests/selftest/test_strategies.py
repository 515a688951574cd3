"""The strategies generate every class they claim, build exactly the source they describe, and shrink small."""
import pytest
from hypothesis import HealthCheck, find, given, settings

from strategies import BITS, KINDS, LAYOUTS, MODES, available_dtypes, cases
from strategies.cases import GRAD_KINDS
from strategies.dtypes import DTYPE_GROUPS
from tests.harness.invariants import normalized_strides

ALL = dict(dtypes=available_dtypes(), kinds=KINDS, layouts=LAYOUTS, modes=MODES, device="cpu", bits=BITS)
FIND = settings(max_examples=2000, database=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("dtype", available_dtypes())
def test_every_available_dtype_is_drawn(dtype):
    find(cases(**ALL), lambda c: c.dtype == dtype, settings=FIND)


@pytest.mark.parametrize("field, value", [("kind", k) for k in KINDS] + [("layout", lay) for lay in LAYOUTS]
                         + [("mode", m) for m in MODES] + [("bit", b) for b in BITS])
def test_every_kind_layout_mode_and_bit_is_drawn(field, value):
    find(cases(**ALL), lambda c: getattr(c, field) == value, settings=FIND)


@pytest.mark.parametrize("what, pred", [
    ("0-d", lambda c: c.shape == ()), ("empty", lambda c: c.numel == 0 and len(c.shape) > 0),
    ("size-1 dim", lambda c: 1 in c.shape), ("expanded (stride 0)", lambda c: 0 in c.stride and c.numel > 1),
    ("offset", lambda c: c.offset > 0), ("non-contiguous", lambda c: c.layout in ("strided", "transposed")),
])
def test_shape_classes_are_drawn(what, pred):
    find(cases(**ALL), pred, settings=FIND)


def test_shrinks_to_a_small_case():
    smallest = find(cases(**ALL), lambda c: c.layout == "transposed" and c.requires_grad, settings=FIND)
    assert smallest.numel <= 4


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(**ALL))
def test_built_source_matches_its_description(case):
    src = case.build()["source"]
    assert tuple(src.shape) == case.shape
    assert normalized_strides(case.shape, src.stride()) == normalized_strides(case.shape, case.stride)
    assert src.storage_offset() == case.offset and str(src.dtype) == f"torch.{case.dtype}"
    assert src.requires_grad == case.requires_grad
    assert src.is_leaf == (case.kind != "nonleaf")
    assert src.is_inference() == (case.kind == "inference")
    assert src.is_conj() == (case.bit == "conj") and src.is_neg() == (case.bit == "neg")


@settings(max_examples=50, deadline=None)
@given(case=cases(**{**ALL, "kinds": GRAD_KINDS}))
def test_grad_kinds_only_with_differentiable_dtypes(case):
    assert case.dtype in DTYPE_GROUPS["differentiable"]
