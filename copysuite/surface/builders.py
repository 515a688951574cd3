"""Hand-written calls: every alias op, and the public in-place methods and out= forms without an OpInfo in every
release's op_db, each as Python text (a setup binding `x`, the argument the contract names, and one call), so that
a failure prints exactly what ran.

A row: (op name, class, setup, call, expect). `expect` is the alias rule for that input (copysuite.surface.contract:
view, self or copy); for an in-place call, the out-of-place expression whose value the write must equal.
"""
from __future__ import annotations

F = "x = torch.randn(2, 3, 4, requires_grad=True)"
M = "x = torch.randn(3, 4, requires_grad=True)"
M0 = "x = torch.randn(3, 4)"
C = "x = torch.randn(3, 4, dtype=torch.cfloat, requires_grad=True)"
T = "x = torch.randn(3, 4, requires_grad=True).t()"      # a non-contiguous view: reshape must copy
COO = "x = torch.tensor([[0., 2.], [3., 0.]]).to_sparse()"
CSR = "x = torch.tensor([[0., 2.], [3., 0.]]).to_sparse_csr()"
CSC = "x = torch.tensor([[0., 2.], [3., 0.]]).to_sparse_csc()"
NESTED = ("x = torch.randn(18, requires_grad=True)\n"   # the buffer of a nested tensor of shapes (2, 3) and (4, 3)
          "sizes, strides, offsets = torch.tensor([[2, 3], [4, 3]]), torch.tensor([[3, 1], [3, 1]]), [0, 6]\n"
          "if 'Tensor offsets' in str(torch._C._get_schema('aten::_nested_view_from_buffer', '')):\n"
          "    offsets = torch.tensor(offsets)   # int[] in the schemas of 2.0 and older")
DUAL = ("import torch.autograd.forward_ad as fwAD\nlevel = fwAD.enter_dual_level()\n"
        "x = torch.randn(3, 4, requires_grad=True)")

ALIAS = [
    ("_conj", C, "torch._conj(x)", "view"),
    ("_fw_primal", M, "torch.ops.aten._fw_primal(x, 0)", "view"),
    ("_indices", COO + ".coalesce()", "x._indices()", "member"),
    ("_make_dual", DUAL, "torch._make_dual(x, torch.randn(3, 4), level)", "view"),
    ("_unpack_dual", DUAL, "torch._unpack_dual(torch._make_dual(x, torch.randn(3, 4), level), level)[0]", "view"),
    ("_neg_view", M, "torch._neg_view(x)", "view"),
    ("_reshape_alias", M, "torch.ops.aten._reshape_alias(x, (12,), (1,))", "view"),
    ("_test_autograd_multiple_dispatch_view", M, "torch._test_autograd_multiple_dispatch_view(x)", "view"),
    ("_nested_view_from_buffer", NESTED, "torch.ops.aten._nested_view_from_buffer(x, sizes, strides, offsets)", "view"),
    ("_values", COO + ".coalesce()", "x._values()", "member"),
    ("alias", M, "torch.ops.aten.alias(x)", "view"),
    ("as_strided", M, "torch.as_strided(x, (2, 2), (1, 2), 1)", "view"),
    ("ccol_indices", CSC, "x.ccol_indices()", "member"),
    ("col_indices", CSR, "x.col_indices()", "member"),
    ("crow_indices", CSR, "x.crow_indices()", "member"),
    ("row_indices", CSC, "x.row_indices()", "member"),
    ("indices", COO + ".coalesce()", "x.indices()", "member"),
    ("values", COO + ".coalesce()", "x.values()", "member"),
    ("detach", M, "torch.detach(x)", "detached"),
    ("diagonal", M, "torch.diagonal(x, 0)", "view"),
    ("expand", "x = torch.randn(3, 1, requires_grad=True)", "x.expand(3, 4)", "view"),
    ("lift_fresh", M, "torch.ops.aten.lift_fresh(x)", "self"),
    ("permute", F, "torch.permute(x, (2, 0, 1))", "view"),
    ("select", F, "torch.select(x, 1, 2)", "view"),
    ("slice", F, "x[:, 1:3]", "view"),
    ("slice_inverse", "x = torch.randn(3, 4, requires_grad=True)[:, 0:2]",
     "torch.ops.aten.slice_inverse(x, torch.empty(3, 4), 1, 0, 2, 1)", "view"),
    ("split_with_sizes", F, "torch.split(x, [1, 2], 1)", "view"),
    ("squeeze", "x = torch.randn(3, 1, 4, requires_grad=True)", "torch.squeeze(x, 1)", "view"),
    ("t", M, "torch.t(x)", "view"),
    ("transpose", F, "torch.transpose(x, 0, 2)", "view"),
    ("unbind", F, "torch.unbind(x, 1)", "view"),
    ("unfold", M, "x.unfold(1, 2, 1)", "view"),
    ("unsqueeze", M, "torch.unsqueeze(x, 1)", "view"),
    ("view", F, "x.view(6, 4)", "view"),
    ("view_as_complex", "x = torch.randn(3, 2, requires_grad=True)", "torch.view_as_complex(x)", "view"),
    ("view_as_real", C, "torch.view_as_real(x)", "view"),
    ("adjoint", C, "torch.adjoint(x)", "view"),
    ("broadcast_to", "x = torch.randn(3, 1, requires_grad=True)", "torch.broadcast_to(x, (2, 3, 4))", "view"),
    ("chunk", F, "torch.chunk(x, 2, 2)", "view"),
    ("dsplit", F, "torch.dsplit(x, 2)", "view"),
    ("expand_as", "x = torch.randn(3, 1, requires_grad=True)", "x.expand_as(torch.empty(3, 4))", "view"),
    ("hsplit", F, "torch.hsplit(x, 3)", "view"),
    ("imag", C, "torch.imag(x)", "view"),
    ("real", C, "torch.real(x)", "view"),
    ("real", M, "torch.real(x)", "self"),
    ("linalg_diagonal", F, "torch.linalg.diagonal(x)", "view"),
    ("mH", C, "x.mH", "view"),
    ("mT", F, "x.mT", "view"),
    ("matrix_H", C, "x.adjoint()", "view"),
    ("numpy_T", M, "x.T", "view"),
    ("moveaxis", F, "torch.moveaxis(x, 0, 2)", "view"),
    ("movedim", F, "torch.movedim(x, 0, 2)", "view"),
    ("narrow", F, "torch.narrow(x, 1, 1, 2)", "view"),
    ("split", F, "torch.split(x, 2, 2)", "view"),
    ("swapaxes", F, "torch.swapaxes(x, 0, 1)", "view"),
    ("swapdims", F, "torch.swapdims(x, 0, 1)", "view"),
    ("tensor_split", F, "torch.tensor_split(x, 2, 1)", "view"),
    ("unflatten", M, "torch.unflatten(x, 1, (2, 2))", "view"),
    ("view_as", F, "x.view_as(torch.empty(4, 6))", "view"),
    ("vsplit", F, "torch.vsplit(x, 2)", "view"),
    ("reshape", F, "torch.reshape(x, (6, 4))", "view"),
    ("reshape", T, "torch.reshape(x, (12,))", "copy"),
    ("reshape_as", F, "x.reshape_as(torch.empty(4, 6))", "view"),
    ("flatten", F, "torch.flatten(x)", "view"),
    ("flatten", T, "torch.flatten(x)", "copy"),
    ("ravel", F, "torch.ravel(x)", "view"),
    ("ravel", T, "torch.ravel(x)", "copy"),
    ("contiguous", M, "x.contiguous()", "self"),
    ("contiguous", T, "x.contiguous()", "copy"),
    ("to", M, "x.to(torch.float32)", "self"),
    ("to", M, "x.to(torch.float64)", "copy"),
    ("conj", M, "torch.conj(x)", "self"),
    ("conj", C, "torch.conj(x)", "view"),
    ("positive", M, "torch.positive(x)", "self"),
    ("resolve_conj", M, "torch.resolve_conj(x)", "self"),
    ("resolve_conj", "x = torch.randn(3, 4, dtype=torch.cfloat).conj()", "torch.resolve_conj(x)", "copy"),
    ("resolve_neg", M, "torch.resolve_neg(x)", "self"),
    ("resolve_neg", "x = torch._neg_view(torch.randn(3, 4))", "torch.resolve_neg(x)", "copy"),
    ("coalesce", COO + ".coalesce()", "x.coalesce()", "self"),
    # named tensors (registered up to 2.12): names are metadata, the data is the argument's
    ("rename", M, "x.rename('a', 'b')", "view"),
    ("refine_names", M, "x.refine_names('a', 'b')", "view"),
    ("align_to", "x = torch.randn(3, 4, requires_grad=True).rename('a', 'b')", "x.align_to('b', 'a')", "view"),
    ("_autocast_to_full_precision", M, "x._autocast_to_full_precision(False, False)", "self"),
    ("_autocast_to_reduced_precision", M,
     "x._autocast_to_reduced_precision(False, False, torch.half, torch.bfloat16)", "self"),
]

# (op name, setup, call, the out-of-place call whose value the write must equal)
INPLACE = [
    ("add_", M0, "x.add_(torch.ones(3, 4))", "x.add(torch.ones(3, 4))"),
    ("mul_", M0, "x.mul_(2)", "x.mul(2)"),
    ("zero_", M0, "x.zero_()", "torch.zeros_like(x)"),
    ("fill_", M0, "x.fill_(2.5)", "torch.full_like(x, 2.5)"),
    ("copy_", M0, "x.copy_(torch.ones(3, 4))", "torch.ones(3, 4)"),
    ("clamp_", M0, "x.clamp_(-0.5, 0.5)", "x.clamp(-0.5, 0.5)"),
    ("index_add_", M0, "x.index_add_(0, torch.tensor([0, 2]), torch.ones(2, 4))",
     "x.index_add(0, torch.tensor([0, 2]), torch.ones(2, 4))"),
    ("transpose_", M0, "x.transpose_(0, 1)", "x.transpose(0, 1)"),
    ("t_", M0, "x.t_()", "x.t()"),
    ("unsqueeze_", M0, "x.unsqueeze_(0)", "x.unsqueeze(0)"),
    ("squeeze_", "x = torch.randn(3, 1, 4)", "x.squeeze_(1)", "x.squeeze(1)"),
    ("resize_", M0, "x.resize_(12)", "x.reshape(12)"),
    ("resize_as_", M0, "x.resize_as_(torch.empty(12))", "x.reshape(12)"),
    ("swapaxes_", M0, "x.swapaxes_(0, 1)", "x.swapaxes(0, 1)"),
    ("swapdims_", M0, "x.swapdims_(0, 1)", "x.swapdims(0, 1)"),
    ("as_strided_", M0, "x.as_strided_((2, 2), (1, 2))", "x.as_strided((2, 2), (1, 2))"),
    ("set_", M0, "x.set_(torch.ones(2, 2))", "torch.ones(2, 2)"),
    ("fill_diagonal_", M0, "x.fill_diagonal_(5.0)", ""),
    ("requires_grad_", M0, "x.requires_grad_()", "x"),
    ("random_", M0, "x.random_(0, 10)", ""),
    ("uniform_", M0, "x.uniform_(0, 1)", ""),
    ("normal_", M0, "x.normal_(0, 1)", ""),
    ("bernoulli_", M0, "x.bernoulli_(0.5)", ""),
    ("cauchy_", M0, "x.cauchy_()", ""),
    ("exponential_", M0, "x.exponential_()", ""),
    ("geometric_", M0, "x.geometric_(0.5)", ""),
    ("log_normal_", M0, "x.log_normal_()", ""),
    ("masked_fill_", M0, "x.masked_fill_(x > 0, 0.0)", "x.masked_fill(x > 0, 0.0)"),
    ("index_fill_", M0, "x.index_fill_(1, torch.tensor([0, 2]), -1.0)", "x.index_fill(1, torch.tensor([0, 2]), -1.0)"),
    ("scatter_", M0, "x.scatter_(0, torch.tensor([[2, 1, 0, 2]]), 9.0)",
     "x.scatter(0, torch.tensor([[2, 1, 0, 2]]), 9.0)"),
    ("put_", M0, "x.put_(torch.tensor([1, 5]), torch.tensor([9.0, 8.0]))",
     "x.put(torch.tensor([1, 5]), torch.tensor([9.0, 8.0]))"),
    ("relu_", M0, "x.relu_()", "x.relu()"),
    ("sigmoid_", M0, "x.sigmoid_()", "x.sigmoid()"),
    ("neg_", M0, "x.neg_()", "x.neg()"),
    ("div_", M0, "x.div_(2)", "x.div(2)"),
    ("sub_", M0, "x.sub_(1)", "x.sub(1)"),
    ("lerp_", M0, "x.lerp_(torch.ones(3, 4), 0.5)", "x.lerp(torch.ones(3, 4), 0.5)"),
    ("float_power_", "x = torch.randn(3, 4, dtype=torch.float64)", "x.float_power_(2)", "x.float_power(2)"),
    ("polygamma_", M0, "x.polygamma_(1)", "x.polygamma(1)"),
    ("_add_relu_", M0, "torch.ops.aten._add_relu_(x, torch.ones(3, 4))",
     "torch.ops.aten._add_relu(x, torch.ones(3, 4))"),
    ("_index_put_impl_", M0, "torch.ops.aten._index_put_impl_(x, [torch.tensor([0, 2])], torch.tensor(1.0))",
     "torch.index_put(x, [torch.tensor([0, 2])], torch.tensor(1.0))"),
    ("dropout_", M0, "torch.dropout_(x, 0.5, True)", ""),
    ("alpha_dropout_", M0, "torch.alpha_dropout_(x, 0.5, True)", ""),
    ("feature_dropout_", M0, "torch.feature_dropout_(x, 0.5, True)", ""),
    ("feature_alpha_dropout_", M0, "torch.feature_alpha_dropout_(x, 0.5, True)", ""),
    ("embedding_renorm_", M0, "torch.embedding_renorm_(x, torch.tensor([0, 2]), 1.0, 2.0)", ""),
]

# (op name, class, setup, call): functional calls, and the functional form of an out= call (the check adds out=)
FORMS = [
    ("add", "out", M0, "torch.add(x, torch.ones(3, 4))"),
    ("mm", "out", M0, "torch.mm(x, torch.ones(4, 2))"),
    ("sum", "out", M0, "torch.sum(x, 1)"),
    ("cat", "out", M0, "torch.cat([x, x])"),
    ("add", "functional", M0, "torch.add(x, torch.ones(3, 4))"),
    ("mm", "functional", M0, "torch.mm(x, torch.ones(4, 2))"),
    ("clone", "functional", M0, "torch.clone(x)"),
    ("cat", "functional", M0, "torch.cat([x, x])"),
]

TEARDOWN = {"_make_dual": "fwAD.exit_dual_level()", "_unpack_dual": "fwAD.exit_dual_level()"}

# the alias ops no hand-written call reaches here, and why
UNCHECKED = {
    "pin_memory": "pinned memory needs an accelerator",
    "_nested_get_values": "a jagged nested tensor's own op (torch.nested's Python subclass dispatches it)",
    "_nested_view_from_jagged": "a jagged nested tensor's internal constructor",
    "_sparse_broadcast_to": "a sparse internal of broadcast_to",
}
