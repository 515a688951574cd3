"""Ops whose schema returns a new tensor (no alias annotation) but which return their input, or a view of it, with
no documentation saying so: meshgrid (views), cartesian_prod of one tensor (the tensor itself), histogramdd with
tensor bins (the bins objects themselves as bin_edges: a write to the edges changes the caller's bins), dequantize of
a float tensor, lift, to_dense_backward and to_mkldnn_backward (the argument itself), flatten_dense_tensors of one
contiguous tensor (a view of it: found by the functionalize campaign of 2.14.1, seed 6403, where
torch.func.functionalize, trusting the schema, does not replay a write through the result into the input); the
named-tensor op align_tensors (registered up to 2.12; torch.align_tensors itself raises "not yet implemented")
returns views of its inputs. SchemaCheckMode does not see them: they are CompositeImplicitAutograd, or return the
object untouched. Seen on 2.13.0 and 2.14.1, and with align_tensors on 2.6.0, 2.8.0, 2.10.0 and 2.12.1 (copysuite/surface).
"""
import sys
import torch

a, b = torch.randn(3), torch.randn(2)
print("schemas:", torch._C._get_schema("aten::meshgrid", ""), "|", torch._C._get_schema("aten::cartesian_prod", ""))
aliases = {"meshgrid": torch.meshgrid(a, b, indexing="ij")[0]._base is a, "cartesian_prod": torch.cartesian_prod(a) is a}
print("meshgrid result is a view of a:", aliases["meshgrid"])
print("cartesian_prod(a) is a:", aliases["cartesian_prod"])
bins = [torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 0.25, 1.0])]
_, edges = torch.histogramdd(torch.rand(5, 2), bins)
aliases["histogramdd"] = edges[0] is bins[0]
print("histogramdd bin_edges[0] is bins[0]:", aliases["histogramdd"])
x, g = torch.randn(3, 4), torch.randn(3, 4)
for name, result in [("dequantize", torch.ops.aten.dequantize(x)), ("lift", torch.ops.aten.lift(x)),
                     ("to_dense_backward", torch.ops.aten.to_dense_backward(x, g)),
                     ("to_mkldnn_backward", torch.ops.aten.to_mkldnn_backward(x, g))]:
    aliases[name] = result is x
    print(f"{name}: result is x: {result is x}")
aliases["flatten_dense_tensors"] = torch.ops.aten.flatten_dense_tensors([x])._base is x
print("flatten_dense_tensors([x]) is a view of x:", aliases["flatten_dense_tensors"])
if hasattr(torch.ops.aten, "align_tensors"):
    p, q = torch.randn(3, 4), torch.randn(2, 2)
    print("schema:", torch._C._get_schema("aten::align_tensors", ""))
    print("align_tensors results are views of the inputs:",
          [r._base is t for r, t in zip(torch.ops.aten.align_tensors([p, q]), (p, q))])
# the bug: an op whose schema promises a new tensor returns its input or a view of it
reproduces = any(aliases.values())
verdict = "NEEDS CUDA" if reproduces is None else "REPRODUCES" if reproduces else "FIXED"
print(f"VERDICT: {verdict}")
sys.exit({"REPRODUCES": 1, "FIXED": 0, "NEEDS CUDA": 3}[verdict])
