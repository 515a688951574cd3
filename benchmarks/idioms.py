"""The copy idioms the seed articles time, as they write them (000: perfplot over torch.randn(n); 003: orderings)."""
from collections.abc import Callable
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Idiom:
    group: str
    label: str
    fn: Callable
    devices: tuple = ("cpu", "cuda")
    requires_grad: bool = False   # 003's tensors come out of a model, so they require grad
    note: str = ""


NDARRAY = "000 ndarray copy"
TENSOR = "000 tensor copy"
ORDER = "003 detach-cpu-numpy order"

IDIOMS = (
    Idiom(NDARRAY, "detach().numpy().copy()", lambda a: a.detach().numpy().copy(), devices=("cpu",)),
    Idiom(NDARRAY, "clone().detach().numpy()", lambda a: a.clone().detach().numpy(), devices=("cpu",)),
    Idiom(NDARRAY, "detach().clone().numpy()", lambda a: a.detach().clone().numpy(), devices=("cpu",)),
    Idiom(NDARRAY, "detach().clone().cpu().numpy()", lambda a: a.detach().clone().cpu().numpy(),
          devices=("cuda",), note="the GPU form of detach().clone().numpy(), for 000's memory question"),
    Idiom(TENSOR, "new_tensor()", lambda a: a.new_tensor(a)),
    Idiom(TENSOR, "clone().detach()", lambda a: a.clone().detach()),
    Idiom(TENSOR, "empty_like().copy_()", lambda a: torch.empty_like(a).copy_(a)),
    Idiom(TENSOR, "torch.tensor()", lambda a: torch.tensor(a)),
    Idiom(TENSOR, "detach().clone()", lambda a: a.detach().clone()),
    Idiom(ORDER, "detach().cpu().numpy()", lambda a: a.detach().cpu().numpy(), requires_grad=True),
    Idiom(ORDER, "cpu().detach().numpy()", lambda a: a.cpu().detach().numpy(), requires_grad=True),
    Idiom(ORDER, "cpu().data.numpy()", lambda a: a.cpu().data.numpy(), requires_grad=True),
)
