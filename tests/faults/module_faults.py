"""Faults in nn.Module's state (issue 12): state_dict() hands out copies instead of detached aliases of the
parameters, and load_state_dict() replaces the Parameter instead of copying into it. Caught by the entries of
specs/module_state.yaml. Registered with the rest of the catalog (tests/faults/catalog.py imports this module).
"""
from __future__ import annotations

import torch

from tests.faults.fault import _clone, fault

_Module = torch.nn.Module
_state_dict = _Module.state_dict
_load_state_dict = _Module.load_state_dict


@fault("state_dict_copies", "Module.state_dict() returns copies of the parameters and buffers (detached, same "
       "values, memory of their own) instead of detached aliases",
       entries=["Module.state_dict", "Module.state_dict:buffer", "Module.state_dict:keep_vars"],
       expected=[("Module.state_dict", "shares_storage"), ("Module.state_dict", "writes_through"),
                 ("Module.state_dict", "shares_version_counter"), ("Module.state_dict:buffer", "shares_storage")])
def _():
    def state_dict(self, *args, **kwargs):
        sd = _state_dict(self, *args, **kwargs)
        if not kwargs.get("keep_vars", False):
            for key, value in sd.items():
                sd[key] = _clone(value)
        return sd
    return [(_Module, "state_dict", state_dict)]


@fault("load_state_dict_replaces_parameter", "Module.load_state_dict() (assign=False) replaces each Parameter with "
       "a new one over the loaded tensor, as assign=True does, instead of copying into it in place",
       entries=["Module.load_state_dict"],
       expected=[("Module.load_state_dict", "same_object"), ("Module.load_state_dict", "shares_storage[b]"),
                 ("Module.load_state_dict", "version_bumped")])
def _():
    def load_state_dict(self, state_dict, strict=True, assign=False):
        return _load_state_dict(self, state_dict, strict=strict, assign=True)
    return [(_Module, "load_state_dict", load_state_dict)]
