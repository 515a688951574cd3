"""The strategies generate every class they claim, build exactly the source they describe, and shrink small."""
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

from copysuite.judge.checks.attributes import normalized_strides
from copysuite.strategies.cases import cases
from copysuite.strategies.corners import corner_cases
from copysuite.strategies.dtypes import available_dtypes
from copysuite.strategies.space import BITS, DTYPE_GROUPS, GRAD_KINDS, KINDS, MODES, PLACEMENTS

ALL = dict(dtypes=available_dtypes(), kinds=KINDS, placements=PLACEMENTS, modes=MODES, device="cpu", bits=BITS)
SHRINK = settings(max_examples=2000, database=None, suppress_health_check=list(HealthCheck))
FIND = settings(SHRINK, phases=[Phase.generate])  # "is drawn" needs the first match, not the smallest one


@pytest.mark.parametrize("dtype", available_dtypes())
def test_every_available_dtype_is_drawn(dtype):
    find(cases(**ALL), lambda c: c.dtype == dtype, settings=FIND)


@pytest.mark.parametrize("field, value", [("kind", k) for k in KINDS] + [("placement", p) for p in PLACEMENTS]
                         + [("mode", m) for m in MODES] + [("bit", b) for b in BITS])
def test_every_kind_placement_mode_and_bit_is_drawn(field, value):
    find(cases(**ALL), lambda c: getattr(c, field) == value, settings=FIND)


@pytest.mark.parametrize("what, pred", [
    ("0-d", lambda c: c.shape == ()), ("empty", lambda c: c.numel == 0 and len(c.shape) > 0),
    ("size-1 dim", lambda c: 1 in c.shape), ("expanded (stride 0)", lambda c: 0 in c.stride and c.numel > 1),
    ("offset", lambda c: c.offset > 0), ("non-contiguous", lambda c: c.placement in ("strided", "transposed")),
])
def test_shape_classes_are_drawn(what, pred):
    find(cases(**ALL), pred, settings=FIND)


def test_shrinks_to_a_small_case():
    smallest = find(cases(**ALL), lambda c: c.placement == "transposed" and c.requires_grad, settings=SHRINK)
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


# ---- corner cases: the explicit examples every conformance test runs first ------------------------------------------
def test_corner_cases_cover_every_kind_and_mode_pair_and_each_placement_and_bit():
    corners = corner_cases(**ALL)
    assert {(c.kind, c.mode) for c in corners} == {(k, m) for k in KINDS for m in MODES}
    assert {c.placement for c in corners} == set(PLACEMENTS)
    assert {c.bit for c in corners} == set(BITS)
    assert corners == corner_cases(**ALL), "corner cases must be the same on every call (they are test examples)"


@pytest.mark.parametrize("space", [
    dict(ALL, dtypes=("int64", "bool"), kinds=("plain", "inference")),
    dict(ALL, dtypes=("float32",), placements=("transposed",), min_ndim=2),
    dict(ALL, dtypes=("complex64",), bits=("conj",), modes=("no_grad",)),
    dict(ALL, min_ndim=1, max_ndim=1, nonempty=True),
    dict(ALL, max_ndim=0),
], ids=["no-grad-dtypes", "transposed-only", "conj-only", "1-d-nonempty", "0-d"])
def test_corner_cases_stay_inside_the_space_they_are_given(space):
    corners = corner_cases(**space)
    assert corners, f"no corner case for {space}"
    for c in corners:
        assert c.dtype in space["dtypes"] and c.kind in space["kinds"] and c.mode in space["modes"]
        assert c.placement in space["placements"] and c.bit in space["bits"]
        assert space.get("min_ndim", 0) <= len(c.shape) <= space.get("max_ndim", 3)
        assert not space.get("nonempty") or c.numel > 0
        assert c.kind not in GRAD_KINDS or c.dtype in DTYPE_GROUPS["differentiable"]
        source = c.build()["source"]
        assert tuple(source.shape) == c.shape and source.storage_offset() == c.offset
        assert normalized_strides(c.shape, source.stride()) == normalized_strides(c.shape, c.stride)
        assert source.is_conj() == (c.bit == "conj") and source.is_neg() == (c.bit == "neg")


def test_corner_cases_respect_the_filter_and_drop_a_pair_with_no_accepted_case():
    corners = corner_cases(**ALL, accept=lambda c: c.placement != "contiguous" and c.mode != "inference_mode")
    assert corners and all(c.placement != "contiguous" for c in corners)
    assert {c.mode for c in corners} == {"enabled", "no_grad"}
