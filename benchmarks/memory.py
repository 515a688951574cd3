"""Peak memory that one call allocates, as seen by the allocators that really hold the data.

CUDA: the caching allocator's statistics (max_memory_allocated after reset_peak_memory_stats).
CPU: torch's allocations from torch.profiler (profile_memory=True: every allocation and free, in time order), plus
numpy's and Python's heap from tracemalloc (numpy reports its data buffers to tracemalloc; torch does not).
"""
import tracemalloc

import torch
from torch._C._profiler import _EventType
from torch.profiler import ProfilerActivity, profile


def _torch_cpu_allocations(prof) -> list[tuple[int, int]]:
    out, stack = [], list(prof.profiler.kineto_results.experimental_event_tree())
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.tag == _EventType.Allocation and node.extra_fields.device.type == "cpu":
            out.append((node.start_time_ns, node.extra_fields.alloc_size))  # negative for a free
    return sorted(out)


def peak_cpu(fn) -> dict:
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        tracemalloc.start()
        out = fn()
        heap_now, heap_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    now = peak = 0
    for _, size in _torch_cpu_allocations(prof):
        now += size
        peak = max(peak, now)
    del out
    return {"mem_method": "torch.profiler(profile_memory) + tracemalloc", "mem_torch_peak": peak,
            "mem_torch_kept": now, "mem_heap_peak": heap_peak, "mem_heap_kept": heap_now,
            "mem_peak": peak + heap_peak, "mem_kept": now + heap_now}


def peak_cuda(fn) -> dict:
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    out = fn()
    torch.cuda.synchronize()
    peak, kept = torch.cuda.max_memory_allocated() - base, torch.cuda.memory_allocated() - base
    del out
    return {"mem_method": "torch.cuda.max_memory_allocated", "mem_peak": peak, "mem_kept": kept}


def peak_memory(fn, device: str) -> dict:
    return peak_cuda(fn) if device == "cuda" else peak_cpu(fn)
