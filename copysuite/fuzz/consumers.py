"""The `consumers` shape: statements that read a tensor as more than neutral arithmetic does (reductions, scans,
sorts, indexing, matmul), also on a dtype view, so that what an execution computes from a view, or after an in-place
write, is compared by value and not only by what + 0 or * 1 passes through. Each is exact on the small integers the
inputs hold; one that does not apply to its operand (a bool matmul) raises eagerly, and the execution must too.
"""
from __future__ import annotations

from copysuite.fuzz.vocabulary import Op

OPS = (
    Op("read_sum", "consumer_read", "{out} = {x}.sum(0)"),
    Op("read_cumsum", "consumer_read", "{out} = {x}.cumsum(0)"),
    Op("read_amax", "consumer_read", "{out} = {x}.amax(0)"),
    Op("read_sort", "consumer_read", "{out} = {x}.flip(0).sort(0).values"),
    Op("read_index_select", "consumer_read", "{out} = {x}.index_select(0, torch.tensor([0, 0]))"),
    Op("read_gather", "consumer_read", "{out} = {x}.gather(0, torch.zeros_like({x}, dtype=torch.long))"),
    Op("read_matmul", "consumer_read", "{out} = {x}.reshape(-1, 1) @ {x}.reshape(1, -1)"),
    Op("read_uint8_cumsum", "consumer_read", "{out} = {x}.view(torch.uint8).cumsum(-1)"),
    Op("read_int32_sort", "consumer_read", "{out} = {x}.view(torch.int32).sort(-1).values"),
)
NAMES = frozenset(op.name for op in OPS)
