"""FakeTensor's dispatch cache and the storage offset of a non-view output: the cache rebuilds a cached output with
empty_strided(shape, stride), which drops the storage offset, so the second identical call under one FakeTensorMode
returns offset 0 where the first (and eager's slice_scatter, which keeps the input's offset: clone_preserve_strides)
return 1. A wrapper subclass that runs the op once per inner tensor (TwoTensor(a, a) of an input at an offset)
then fails its own check ("Expected a.storage_offset() == b.storage_offset()") when compiled, even with
backend="eager", where eager runs. With torch._dynamo.config.fake_tensor_cache_enabled = False it compiles. Found
by `python -m copysuite fuzz --execution compile.eager` (seed 7); seen on torch 2.13.0 (after a first compile in
the same process) and 2.14.1 (always). Closest upstream: issue 159151 / PR 180822 (a cache hit loses the storage
aliasing of prims.as_strided: the same mechanism, another field); issue 114415 is unrelated (aliasing below
subclasses)."""
import sys
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

a = torch.arange(3.0)[1:]
mode = FakeTensorMode()
fake = mode.from_tensor(a)
with mode:
    first = torch.ops.aten.slice_scatter(fake, fake, 0, 0)
    second = torch.ops.aten.slice_scatter(fake, fake, 0, 0)
real = torch.ops.aten.slice_scatter(a, a, 0, 0)
print(f"torch {torch.__version__}: slice_scatter storage offset eagerly {real.storage_offset()}, "
      f"fake first call {first.storage_offset()}, fake second call (cache hit) {second.storage_offset()}")
# the bug: a call under FakeTensorMode gives another storage offset than eager
reproduces = {first.storage_offset(), second.storage_offset()} != {real.storage_offset()}
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])
