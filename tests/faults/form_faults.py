"""Faults in the call forms and keyword arguments of specs/forms.yaml (issue 14's audit): one per family of
promises that a documentation page makes beyond an operation's main one. Registered with the rest of the catalog
(tests/faults/catalog.py imports this module)."""
from __future__ import annotations

from tests.faults.fault import _T, _item, _requires_grad_, _to, _view_as, fault

_flatten = _T.flatten
_numel = _T.numel
_reshape = _T.reshape


@fault("to_copy_ignored_with_dtype", "to(dtype, copy=True) (and to(device, dtype, copy=True)) returns the tensor "
       "itself when it already has that dtype: copy=True is honoured only by the bare to(copy=True)",
       entries=["to:float64_copy", "to:device_dtype_copy"],
       expected=[("to:float64_copy", "same_object"), ("to:float64_copy", "shares_storage"),
                 ("to:device_dtype_copy", "same_object"), ("to:device_dtype_copy", "shares_storage")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, `flat = torch.tensor([...]).to(dtype)`, to make the "
                    "input: it passes no copy=True, so the patched to() calls the original unchanged")
def _():
    def to(self, *args, **kwargs):
        if args and kwargs.get("copy"):
            uncopied = _to(self, *args, **{**kwargs, "copy": False})
            if uncopied is self:
                return self
        return _to(self, *args, **kwargs)
    return [(_T, "to", to)]


@fault("item_takes_first_of_many", "item() of a tensor with several elements returns its first one instead of "
       "refusing", entries=["item:many_elements"], expected=[("item:many_elements", "raises")])
def _():
    def item(self):
        return _item(_reshape(self, -1)[0]) if _numel(self) > 1 else _item(self)
    return [(_T, "item", item)]


@fault("requires_grad_false_ignored", "requires_grad_(False) leaves a leaf's requires_grad on (and so does not "
       "refuse a non-leaf either)", entries=["requires_grad_:false"],
       expected=[("requires_grad_:false", "requires_grad"), ("requires_grad_:false", "raises")],
       harness_contact=("strategies/cases.py:build",),
       contact_note="Case.build runs the printed input code, whose `requires_grad_()` (True) this fault passes on "
                    "unchanged")
def _():
    def requires_grad_(self, requires_grad=True):
        return self if requires_grad is False else _requires_grad_(self, requires_grad)
    return [(_T, "requires_grad_", requires_grad_)]


@fault("flatten_no_dims_aliases", "flatten(d, d), which flattens nothing, returns an alias (a view) instead of "
       "the input itself", entries=["flatten:no_dims"], expected=[("flatten:no_dims", "same_object")])
def _():
    def flatten(self, start_dim=0, end_dim=-1):
        out = _flatten(self, start_dim, end_dim)
        return _view_as(out, out) if out is self else out
    return [(_T, "flatten", flatten)]
