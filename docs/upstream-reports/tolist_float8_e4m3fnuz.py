"""tolist() of a float8_e4m3fnuz tensor returns wrong Python numbers on torch 2.2: load_scalar
(torch/csrc/utils/python_scalars.h) reads each element as a Float8_e5m2fnuz, the neighbouring case, so the same byte
is decoded with 5 exponent bits and bias 16 instead of 4 and 8: 0.5 comes back as 0.25, -1.25 as -1.5, 2.0 as 4.0
(0, 1.0 and NaN agree). item() and .float() decode it right. The case came with the dtype (PR 107586); the header of
the 2.3.1 wheel converts as Float8_e4m3fnuz (no fixing PR found). Seen wrong on 2.2.2, right on 2.3.1 (header),
2.4.1, 2.6.0 and 2.14.1; `tolist:float8_e4m3fnuz` in specs/conversions.yaml. Fixed upstream: nothing to file, kept
as the evidence of the 2.2 cells."""
import sys
import torch

values = [0.5, -1.25, 2.0, 1.0, 0.0]
x = torch.tensor(values).to(torch.float8_e4m3fnuz)
print(f"torch {torch.__version__}: bytes {x.view(torch.uint8).tolist()}")
print(f"  tolist()          {x.tolist()}")
print(f"  item() each       {[x[i].item() for i in range(len(values))]}")
print(f"  float().tolist()  {x.float().tolist()}")
print(f"  tolist() right: {x.tolist() == x.float().tolist()}")
reproduces = x.tolist() != x.float().tolist()
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])
