"""Article 003 (ko): the order of detach, cpu and numpy, worked examples, pinned with its printed numbers.

The generic form of every claim is also a spec entry (docs/seed-claims.md); this keeps the article's own programs'
numbers honest.
"""
import copy

import numpy as np
import pytest
import torch

from copysuite.run.storage import shares_storage
from tests.seeds.helpers import close


class TestArticle003:
    def test_cpu_returns_self_on_cpu(self):
        x = torch.ones(2)
        assert x.cpu() is x

    def test_numpy_shares_storage(self):
        emb_t = torch.Tensor(np.ones((2, 2)))  # float64 ndarray -> float32 tensor: a copy
        assert emb_t.dtype == torch.float32
        emb_np = emb_t.numpy()
        emb_t.add_(1)
        np.testing.assert_array_equal(emb_np, np.full((2, 2), 2.0, dtype=np.float32))

    def test_data_is_unrelated_to_history(self):
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        assert not y.data.requires_grad and y.data.grad_fn is None and shares_storage(y.data, y)

    def test_detach_cpu_and_cpu_detach_agree(self):
        x = torch.randn(3, requires_grad=True)
        a, b = x.detach().cpu(), x.cpu().detach()
        close(a, b)
        assert not a.requires_grad and not b.requires_grad
        np.testing.assert_array_equal(x.detach().cpu().numpy(), x.cpu().data.numpy())


def test_deepcopy_of_non_leaf_is_refused():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Only Tensors created explicitly by the user"):
        copy.deepcopy(x * 2)
