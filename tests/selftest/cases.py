"""Hand-built cases the self-tests of the checks share."""
from copysuite.strategies.cases import Case


def leaf_case():
    """A 2x3 float32 leaf that requires grad, in grad mode: values 0 ... 5."""
    return Case(dtype="float32", shape=(2, 3), placement="contiguous", kind="leaf_requires_grad", mode="enabled",
                device="cpu", base_numel=6, stride=(3, 1), offset=0, values=tuple(float(v) for v in range(6)))
