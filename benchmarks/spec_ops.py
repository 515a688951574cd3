"""The operations to time, derived from specs/*.yaml: one per distinct call, with the entry that covers each case."""
from dataclasses import dataclass

import numpy as np
import torch

from copysuite.plan import bind
from copysuite.spec import programs
from copysuite.run import storage
from copysuite.spec.load import Entry, load_specs

# The benchmark source is a plain, contiguous tensor without lazy bits, timed in grad mode.
SOURCE_FACTS = {"kinds": "plain", "placements": "contiguous", "bits": "none", "modes": "enabled"}


@dataclass
class SpecOp:
    name: str            # the first spec id with this call that runs on data (not meta-only)
    program_text: str
    entries: list        # every entry whose call reads the same

    def pick(self, dtype: str, device: str) -> tuple[Entry | None, str | None]:
        """The first entry that covers (dtype, device) on a plain contiguous source, or why none does."""
        reasons = []
        for entry in self.entries:
            reason = bind.skip_reason(entry, device) or why_not_covered(entry, dtype, device)
            if reason is None:
                return entry, None
            reasons.append(reason)
        return None, "; ".join(dict.fromkeys(reasons))


def why_not_covered(entry: Entry, dtype: str, device: str) -> str | None:
    if device not in entry.applies.devices:
        return f"{entry.id} applies to devices {list(entry.applies.devices)}"
    if dtype not in bind.dtypes(entry):
        return f"{entry.id} does not apply to {dtype}"
    for key, fact in SOURCE_FACTS.items():
        if fact not in getattr(entry.applies, key):
            return f"{entry.id} applies to {key} {list(getattr(entry.applies, key))}, not {fact}"
    return None


def bound(entry: Entry, source: torch.Tensor):
    """A function of no arguments that runs the entry's program on `source` (its inputs derived once)."""
    namespace = {**programs.namespace(), programs.SOURCE: source}
    entry.program.bind(namespace)
    return lambda: entry.program.run(namespace)


def load_spec_ops() -> list[SpecOp]:
    """One op per distinct program text. Programs that name `tmp_file` (torch.load(mmap=True) of a file) are left
    out: they would time the file system, and each bind would leave its temporary file behind."""
    ops: dict[str, SpecOp] = {}
    for entry in load_specs().entries:
        if entry.program.tmp_file:
            continue
        text = entry.program.text
        if text in ops:
            ops[text].entries.append(entry)
        else:
            ops[text] = SpecOp(entry.id, text, [entry])
    for op in ops.values():
        on_data = [e for e in op.entries if set(e.applies.devices) - {"meta"}]
        op.name = (on_data or op.entries)[0].id
    return list(ops.values())


def source_ndim(entry: Entry) -> int:
    """2 where the entry allows it: a (1, n) source keeps split(1)/unbind(0) to one piece instead of n."""
    low, high = entry.applies.ndim
    return max(low, min(high, 2))


def data_range(value) -> tuple[int, int] | None:
    """The bytes a strided tensor's or an ndarray's elements span; None for anything else (a Python object, or a
    sparse or nested tensor, whose memory is not one range of its own)."""
    if isinstance(value, torch.Tensor) and not storage.has_storage(value):
        return None
    if isinstance(value, torch.Tensor):
        return value.data_ptr(), value.data_ptr() + value.numel() * value.element_size()
    if isinstance(value, np.ndarray):
        start = value.__array_interface__["data"][0]
        return start, start + value.nbytes
    return None


def bytes_moved(source: torch.Tensor, result) -> tuple[str, int]:
    """('view', 0) for a result over the source's memory, ('copy', bytes read + written) for a new buffer,
    ('python', source bytes) for a Python object such as tolist()'s list, or a sparse or nested result."""
    found = data_range(result)
    if found is None:
        return "python", source.numel() * source.element_size()
    storage = source.untyped_storage()
    start, end = storage.data_ptr(), storage.data_ptr() + storage.nbytes()
    written = found[1] - found[0]
    if start <= found[0] < end or written == 0:
        return "view", 0
    read = source.numel() * source.element_size() if _numel(result) == source.numel() else written
    return "copy", read + written


def _numel(value) -> int:
    return value.numel() if isinstance(value, torch.Tensor) else value.size
