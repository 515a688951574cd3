"""torch 2.4: the module of torch.export.export(...).module() that mutates its input in place and returns it returns
a new tensor (with the new values, in memory of its own), not the caller's tensor; eager returns the input itself,
and so does the exported module on 2.6 and later (2.2.2: the call fails, PR 118272). Run with torch 2.4.1 (seen
there); FIXED on 2.6.0, 2.13.0 and 2.14.1, no fixing PR identified."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, source):
        source.mul_(2)
        return source


source = torch.ones(2, 3)
print(f"eager    torch {torch.__version__}: result is source: {Program()(source) is source}")
source = torch.ones(2, 3)
m = torch.export.export(Program(), (source,)).module()
r = m(source)
# the bug: the exported module returns a new tensor where eager returns the input itself
reproduces = r is not source
print(f"export   torch {torch.__version__}: result is source: {r is source}; same memory: "
      f"{r.data_ptr() == source.data_ptr()}; source written: {bool((source == 2).all())}")
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])
