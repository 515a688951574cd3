"""The benchmark grid: sizes, dtypes and devices from the command line, and the plain sources that are timed."""
import torch

DEVICES = ("cpu", "cuda")


def spec_exponents(config) -> list[int]:
    """Exponents of 2 for the spec-op grid: --bench-max-exp/--bench-step if given, else --bench-exponents."""
    max_exp = config.getoption("bench_max_exp")
    if max_exp is not None:
        exps = list(range(0, int(max_exp) + 1, int(config.getoption("bench_step"))))
        return exps if exps[-1] == int(max_exp) else exps + [int(max_exp)]
    return sorted({int(e) for e in str(config.getoption("bench_exponents")).split(",") if e.strip()})


def idiom_exponents(config) -> list[int]:
    """Every power of 2 up to --bench-idiom-max-exp (the articles' 2**0 ... 2**14), plus the larger spec sizes."""
    top = int(config.getoption("bench_idiom_max_exp"))
    return list(range(top + 1)) + [e for e in spec_exponents(config) if e > top]


def dtype_names(config) -> list[str]:
    return [d.strip() for d in str(config.getoption("bench_dtypes")).split(",") if d.strip()]


def device_skip_reason(device: str) -> str | None:
    if device == "cuda" and not torch.cuda.is_available():
        return "no CUDA device"
    return None


def size_id(exp: int) -> str:
    return f"2**{exp}"


def make_source(numel: int, dtype: torch.dtype, device: str, ndim: int = 1, requires_grad: bool = False):
    """A plain contiguous tensor of `numel` random elements: (numel,), (1, numel, 1, ...) for ndim > 1, () for 0."""
    shape = () if ndim == 0 else (numel,) if ndim == 1 else (1, numel) + (1,) * (ndim - 2)
    if dtype.is_floating_point:
        source = torch.randn(shape, dtype=dtype, device=device)
    elif dtype == torch.bool:
        source = torch.randint(0, 2, shape, device=device).bool()
    else:
        source = torch.randint(-1000, 1000, shape, dtype=dtype, device=device)
    return source.requires_grad_(requires_grad)
