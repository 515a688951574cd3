"""torch.export of a module that mutates one of two arguments that are the same tensor (or overlapping views of one):
export refuses it before 2.6 ("Encountered duplicated inputs that are mutated in the graph you are trying to export.
This functionality is currently not supported"; aot_autograd's export path bans it "for now"); from 2.6, export
traces the non-functional training IR and the program exports and runs as eagerly. Run with torch 2.2.2 or 2.4.1
(seen there); FIXED from 2.6 (2.6.0, 2.13.0, 2.14.1), by the switch of export to the training IR (issue 147318
describes it); no single fixing PR was identified."""
import sys
import torch


class Program(torch.nn.Module):
    def forward(self, a, b):
        a.mul_(2)
        return b


source = torch.arange(6.0)
print(f"eager    torch {torch.__version__}: result is b: {Program()(source, source) is source}")
source = torch.arange(6.0)
try:
    m = torch.export.export(Program(), (source, source)).module()
    print(f"export   torch {torch.__version__}: ok, result is b: {m(source, source) is source}")
    reproduces = False
except Exception as e:                        # noqa: BLE001
    print(f"export   torch {torch.__version__}: {type(e).__name__}: {str(e).strip().splitlines()[0][:160]}")
    # the bug: export refuses a program eager runs
    reproduces = True
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])
