"""copy_ into a view of a graph input, returned, under torch.inference_mode: compiled through AOTAutograd, the returned
view is not an autograd view of the input (its `_base` is not the input's base) on torch 2.2.2 ... 2.6.0 (every backend); with inductor on
2.2.2 and 2.4.1 the write does not move the input's version counter either. Eager: a view of the input, counter moved.
(Run with torch 2.6.0 or older; 2.8.0 and later agree with eager.)"""
import torch


def program(source, b):
    return source.unsqueeze(0).copy_(b)


for name, fn in [("eager", program),
                 ("aot_eager", torch.compile(program, backend="aot_eager", fullgraph=True)),
                 ("inductor", torch.compile(program, backend="inductor", fullgraph=True))]:
    leaf = torch.arange(10.0).requires_grad_()
    source = leaf.as_strided((2, 3), (5, 2))  # a non-leaf view of a leaf that requires grad
    b = source.detach() + 1
    before = source._version
    with torch.inference_mode():
        r = fn(source, b)
    print(f"{name:10s} torch {torch.__version__}: result._base is the input's base: {r._base is source._base}; "
          f"input version moved: {source._version != before}; input written: {torch.equal(source, b)}")
