"""Faults in the promises of specs/module_state.yaml: nn.Module's state_dict, load_state_dict and conversions. Each
breaks one promise the way a regression in torch would."""
from __future__ import annotations

from tests.faults import original
from tests.faults.fault import fault


@fault("state_dict_copies", "Module.state_dict() returns copies of the parameters and buffers (detached, same "
       "values, memory of their own) instead of detached aliases",
       entries=["Module.state_dict", "Module.state_dict:buffer", "Module.state_dict:keep_vars"],
       expected=[("Module.state_dict", "shares_storage"), ("Module.state_dict", "writes_through"),
                 ("Module.state_dict", "shares_version_counter"), ("Module.state_dict:buffer", "shares_storage")])
def _():
    def state_dict(self, *args, **kwargs):
        sd = original.state_dict(self, *args, **kwargs)
        if not kwargs.get("keep_vars", False):
            for key, value in sd.items():
                sd[key] = original.clone(value)
        return sd
    return [(original.Module, "state_dict", state_dict)]


@fault("load_state_dict_replaces_parameter", "Module.load_state_dict() (assign=False) replaces each Parameter with "
       "a new one over the loaded tensor, as assign=True does, instead of copying into it in place",
       entries=["Module.load_state_dict"],
       expected=[("Module.load_state_dict", "same_object"), ("Module.load_state_dict", "shares_storage[b]"),
                 ("Module.load_state_dict", "version_bumped")])
def _():
    def load_state_dict(self, state_dict, strict=True, assign=False):
        return original.load_state_dict(self, state_dict, strict=strict, assign=True)
    return [(original.Module, "load_state_dict", load_state_dict)]


@fault("state_dict_ignores_destination", "Module.state_dict(destination=d) fills and returns a new dict, which also "
       "holds the non-persistent buffers", entries=["Module.state_dict:destination"],
       expected=[("Module.state_dict:destination", "same_object[d]"), ("Module.state_dict:destination", "keys")])
def _():
    def state_dict(self, *args, destination=None, **kwargs):
        sd = original.state_dict(self, *args, **kwargs)
        for name, buffer in self.named_buffers():
            sd.setdefault(name, buffer)
        return sd
    return [(original.Module, "state_dict", state_dict)]


@fault("load_state_dict_not_strict", "Module.load_state_dict() treats strict=True as strict=False: missing, "
       "unexpected and None keys are not refused",
       entries=["Module.load_state_dict:strict", "Module.load_state_dict:strict_none"],
       expected=[("Module.load_state_dict:strict", "raises"), ("Module.load_state_dict:strict_none", "raises")])
def _():
    def load_state_dict(self, state_dict, strict=True, assign=False):
        return original.load_state_dict(self, state_dict, strict=False, assign=assign)
    return [(original.Module, "load_state_dict", load_state_dict)]


@fault("module_to_casts_integers", "Module.to(dtype) casts every parameter and buffer, integer ones included, and "
       "accepts an integer dtype", entries=["Module.to:int64", "Module.to:integer_buffer"],
       expected=[("Module.to:int64", "raises"), ("Module.to:integer_buffer", "dtype"),
                 ("Module.to:integer_buffer", "same_object")])
def _():
    def to(self, *args, **kwargs):
        dtype = original.dtype_of(args, kwargs)
        if dtype is None:
            return original.module_to(self, *args, **kwargs)
        return self._apply(lambda t: original.to(t, dtype))
    return [(original.Module, "to", to)]
