"""The `subclasses` shape: inputs that a wrapper subclass of torch.testing._internal holds, beyond the `TwoTensor(a, a)`
every run draws: `WrapperSubclass` (torch.testing._internal.subclasses, traceable: `__tensor_flatten__`),
`LoggingTensor` (logging_tensor, not traceable: dynamo runs it eagerly) and `ConstantExtraMetadataTensor`
(custom_tensor, traceable, with a constant attribute), each holding one input, so that a write through the wrapper
reaches the caller's tensor. Each exists, under the same module and name, in every release the suite runs.
"""
from __future__ import annotations

IMPORTS = {
    "TwoTensor": "from torch.testing._internal.two_tensor import TwoTensor",
    "WrapperSubclass": "from torch.testing._internal.subclasses import WrapperSubclass",
    "LoggingTensor": "from torch.testing._internal.logging_tensor import LoggingTensor",
    "ConstantExtraMetadataTensor": "from torch.testing._internal.custom_tensor import ConstantExtraMetadataTensor",
}
ALIASES = ("WrapperSubclass({a})", "LoggingTensor({a})", "ConstantExtraMetadataTensor({a})")


def wraps(alias: str | None) -> bool:
    """Whether an input's alias expression is a wrapper subclass holding an earlier input."""
    return bool(alias) and any(f"{name}(" in alias for name in IMPORTS)


def imports(lines: list) -> list[str]:
    """The imports of the wrapper subclasses these lines build."""
    return [line for name, line in IMPORTS.items() if any(f"{name}(" in text for text in lines)]
