"""What a reproduction runs on each side, as text: what a caller sees of the call (each output's geometry, view,
autograd state and values; each input's and each piece of module state's version, autograd state and values; which
objects are one or share memory), the caller's next step where that is what differs (a write to an output,
backward, autograd.grad), and the verdict: the lines in which the two sides differ. It needs torch alone."""
from __future__ import annotations

OBSERVE = '''
def observe(outputs, named, before):
    """What a caller sees of the call, one line per thing seen (the side's name left out, so the sides compare)."""
    lines = []
    known = list(named.items()) + outputs
    for name, t in outputs:
        if not isinstance(t, torch.Tensor):
            lines.append(f"{name}: {type(t).__name__} {t!r}")
            continue
        base = t._base if t._is_view() else None
        whose = None if base is None else next((n for n, o in known if o is base), "an intermediate")
        lines.append(f"{name}: {t.dtype} shape {tuple(t.shape)} stride {t.stride()} offset {t.storage_offset()} "
                     f"view of {whose} requires_grad {t.requires_grad} is_leaf {t.is_leaf} "
                     f"grad_fn {t.grad_fn is not None} values {t.detach().reshape(-1)[:8].tolist()}")
    for name, t in named.items():
        lines.append(f"{name}: version moved {t._version != before.get(name)} requires_grad {t.requires_grad} "
                     f"values {t.detach().reshape(-1)[:8].tolist()}")
    for i, (n1, t1) in enumerate(known):
        for n2, t2 in known[i + 1:]:
            if not (isinstance(t1, torch.Tensor) and isinstance(t2, torch.Tensor)) or (n1 in named and n2 in named):
                continue
            if t1 is t2:
                lines.append(f"{n1} is {n2}")
            elif t1.untyped_storage().data_ptr() == t2.untyped_storage().data_ptr():
                lines.append(f"{n1} shares memory with {n2}")
    return lines
'''

VERDICT = '''
differs = [line for line in seen[SIDES[0]] if line not in seen[SIDES[1]]]
differs += [line for line in seen[SIDES[1]] if line not in seen[SIDES[0]]]
for line in differs:
    print("differs:", "eager" if line in seen[SIDES[0]] else SIDES[1], line)
print("verdict:", f"eager and {SIDES[1]} differ: the difference reproduces" if differs else
      f"eager and {SIDES[1]} are the same here: it does not reproduce")
'''


def next_step(differences: list) -> list[str]:
    """The caller's next step whose outcome differs, run after the call on its outputs, adding to `lines`."""
    for d in differences:
        section, subject, _ = d.field.split("|")
        if section == "write":
            return ["try:", f"    t = dict(outputs)[{subject!r}]",
                    "    t.logical_not_() if t.dtype == torch.bool else t.add_(1)",
                    f"    lines += ['after writing {subject}: ' + line for line in observe(outputs, named, before)]",
                    "except Exception as exc:", f"    lines.append('writing {subject} raised ' + type(exc).__name__)"]
        if section == "backward":
            return ["try:", "    with torch.enable_grad():",
                    "        sum(t.sum() for _, t in outputs if isinstance(t, torch.Tensor) and t.requires_grad"
                    " and t.is_floating_point()).backward()",
                    "    lines += [f'{n}.grad: ' + str(None if t.grad is None else t.grad.reshape(-1)[:8].tolist())"
                    " for n, t in leaves]",
                    "except Exception as exc:", "    lines.append('backward raised ' + type(exc).__name__)"]
        if section == "grad":
            of, wrt = subject.split("~")
            return ["try:", "    with torch.enable_grad():",
                    f"        (g,) = torch.autograd.grad(dict(outputs)[{of!r}].sum(), dict(outputs)[{wrt!r}], "
                    "allow_unused=True)",
                    f"    lines.append('grad of {of} wrt {wrt}: ' + str(None if g is None else g.tolist()))",
                    "except Exception as exc:", "    lines.append('autograd.grad raised ' + type(exc).__name__)"]
    return []
