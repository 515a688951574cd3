"""Hypothesis strategies for the conformance suite: dtypes, shapes, layouts, source kinds, grad modes, devices.

Everything here is aware of the installed torch: dtypes and devices that this torch does not have are never drawn,
and the modules say which ones were left out (see ``dtypes.unavailable``).
"""
from strategies.cases import BITS, Case, cases, KINDS, LAYOUTS, MODES
from strategies.devices import available_devices, device_skip_reason, DEVICES
from strategies.dtypes import DTYPE_GROUPS, available_dtypes, dtype_names

__all__ = [
    "BITS", "Case", "cases", "KINDS", "LAYOUTS", "MODES",
    "available_devices", "device_skip_reason", "DEVICES",
    "DTYPE_GROUPS", "available_dtypes", "dtype_names",
]
