"""What the seed-article tests share: tensors on a device, exact comparison, and reading .grad for real."""
import warnings

import pytest
import torch

from copysuite.run.storage import untyped_storage
from copysuite.strategies.devices import device_skip_reason

DEVICES = [pytest.param(d, marks=pytest.mark.skipif(device_skip_reason(d) is not None,
                                                     reason=f"{device_skip_reason(d)}")) for d in ("cpu", "cuda")]
CUDA_ONLY = pytest.mark.skipif(device_skip_reason("cuda") is not None, reason=f"{device_skip_reason('cuda')}")


def t(values, device="cpu", **kw):
    return torch.tensor(values, device=device, **kw)


def grad_of(x):
    """x.grad, read for real. A non-leaf that did not retain its gradient has none, and torch warns when it is
    read: the warning is silenced, the value is what torch holds (tests/seeds/test_helpers.py shows both ways)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The .grad attribute of a Tensor that is not a leaf Tensor",
                                category=UserWarning)
        return x.grad


def assert_no_grad(program, **tensors):
    """Each named tensor holds no gradient after `program` ran (the article prints None for each); .grad is read
    for real, and a failure names the program and what each offending tensor held."""
    held = {name: grad_of(x) for name, x in tensors.items()}
    wrong = [f"{name}.grad = {g!r} (is_leaf={tensors[name].is_leaf}, retains_grad={tensors[name].retains_grad})"
             for name, g in held.items() if g is not None]
    assert not wrong, f"after `{program}`: expected .grad None for {', '.join(tensors)}; observed " + "; ".join(wrong)


def grad_fn_name(x):
    """The class name of x's grad_fn, None where it has none (a leaf, or a tensor out of the graph)."""
    return None if x.grad_fn is None else type(x.grad_fn).__name__


def assert_grad_fn(x, expected, program):
    """x's grad_fn is of class `expected` (the name the article prints); a failure names the program."""
    observed = grad_fn_name(x)
    assert observed == expected, f"after `{program}`: expected grad_fn {expected}; observed {observed}"


def attempt(call):
    """(the result, None) when `call()` returns, (None, "RuntimeError: ...") when torch refuses it: a scenario
    asserts on either with a message, so a refusal where a result was expected is a failure that says so."""
    try:
        return call(), None
    except RuntimeError as e:
        return None, f"RuntimeError: {e}"


def memory(x):
    """Where a tensor's elements live: (storage's first byte, the tensor's first element), for failure messages."""
    return (untyped_storage(x).data_ptr(), x.data_ptr())


def close(a, b):
    torch.testing.assert_close(a, b, rtol=0, atol=0, check_device=False)
