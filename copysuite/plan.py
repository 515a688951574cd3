"""Turn loaded spec entries into test parameters and Hypothesis strategies."""
from __future__ import annotations

from strategies.cases import cases, corner_cases as explicit_cases
from strategies.devices import device_skip_reason
from copysuite import predicates
from copysuite.invariants import REGISTRY


def test_params(entries):
    """(entry, invariant name, device) for every stated expectation on every device the entry applies to.

    Invariants that read or write values are not planned on meta tensors, which have none.
    """
    out = []
    for entry in entries:
        for name in entry.expect:
            inv = REGISTRY[name]
            for device in entry.applies["devices"]:
                if device == "meta" and inv.needs_data:
                    continue
                out.append((entry, name, device))
    return out


def param_id(entry, name, device) -> str:
    return f"{entry.id}-{name}-{device}"


def skip_reason(entry, device) -> str | None:
    return entry.version_skip_reason() or device_skip_reason(device)


def _case_space(entry, name, device) -> dict:
    a = entry.applies
    return dict(dtypes=entry.dtypes(), kinds=[k for k in a["kinds"] if k in REGISTRY[name].kinds],
                layouts=a["layouts"], modes=a["modes"], device=device, min_ndim=a["ndim"][0], max_ndim=a["ndim"][1],
                nonempty=a["nonempty"], bits=a["bits"])


def _judgeable(entry, name, case) -> bool:
    """The filters of `strategy`: the entry's `requires`, and (but for `raises`) a call the spec expects to succeed."""
    requires = entry.applies["requires"]
    if requires and not predicates.all_hold(requires, case):
        return False
    return name == "raises" or "raises" not in entry.expect or entry.expected_error(case) is None


def strategy(entry, name, device):
    """Cases this (entry, invariant) can be judged on; for every invariant but `raises`, only cases where the spec
    expects the call to succeed."""
    return cases(**_case_space(entry, name, device)).filter(lambda c: _judgeable(entry, name, c))


def corner_cases(entry, name, device) -> list:
    """The explicit examples of this (entry, invariant): a judgeable case for every (kind, grad mode) pair."""
    return explicit_cases(**_case_space(entry, name, device), accept=lambda c: _judgeable(entry, name, c))
