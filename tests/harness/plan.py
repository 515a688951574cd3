"""Turn loaded spec entries into test parameters and Hypothesis strategies."""
from __future__ import annotations


from strategies.cases import cases
from strategies.devices import device_skip_reason
from tests.harness import predicates
from tests.harness.invariants import REGISTRY


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


def strategy(entry, name, device):
    """Cases this (entry, invariant) can be judged on; for every invariant but `raises`, only cases where the spec
    expects the call to succeed."""
    inv = REGISTRY[name]
    a = entry.applies
    kinds = [k for k in a["kinds"] if k in inv.kinds]
    s = cases(dtypes=entry.dtypes(), kinds=kinds, layouts=a["layouts"], modes=a["modes"], device=device,
              min_ndim=a["ndim"][0], max_ndim=a["ndim"][1], nonempty=a["nonempty"], bits=a["bits"])
    if a["requires"]:
        s = s.filter(lambda c: predicates.all_hold(a["requires"], c))
    if name != "raises" and "raises" in entry.expect:
        s = s.filter(lambda c: entry.expected_error(c) is None)
    return s
