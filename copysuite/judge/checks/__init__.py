"""The checks a spec's `expect` can name: `REGISTRY` maps each name to its `Check` (copysuite.judge.checks.base).

call: raises, warns. memory: result_type, python_type, keys, same_object, shares_storage, same_storage, is_set_to,
writes_through, shares_version_counter, source_untouched, sparse_untouched, version_bumped, values_equal. autograd:
autograd_view, backward_sees_write, requires_grad, is_leaf, grad_fn, retains_grad, grad_to_source, grad_accumulates.
attributes: dtype, shape, device, layout, strides, is_conj, is_neg, is_pinned, storage_nbytes, is_inference, is_shared,
device_index. shapes: view_or_contiguous_copy.
"""
from copysuite.judge.checks import attributes, autograd, call, memory, shapes  # noqa: F401 - each registers its checks
from copysuite.judge.checks.base import REGISTRY, Check, Observed

__all__ = ["REGISTRY", "Check", "Observed"]
