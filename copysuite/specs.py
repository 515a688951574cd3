"""Load specs/*.yaml, validate them (JSON Schema, then meaning), and answer "what is expected for this case".

Any problem is a SpecError naming the file, the entry and the key; the conftest turns it into a collection stop.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema
import numpy as np
import torch
import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from strategies.cases import KINDS, LAYOUTS, MODES, feasible
from strategies.devices import DEVICES, device_skip_reason
from strategies.dtypes import dtype_names, is_known_selector
from copysuite import predicates

SPEC_DIR = Path(__file__).resolve().parents[1] / "specs"
SCHEMA = json.loads((SPEC_DIR / "schema.json").read_text())
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it: same documents, faster
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
TORCH_VERSION = Version(torch.__version__.split("+")[0])
# Releases a version gate is checked against for overlaps (two gates claiming one release contradict each other).
KNOWN_RELEASES = [Version(v) for v in (
    "1.13.1", "2.0.1", "2.1.2", "2.2.2", "2.3.1", "2.4.1", "2.5.1", "2.6.0", "2.7.1", "2.8.0", "2.9.1", "2.10.0",
    "2.11.0", "2.12.1", "2.13.0", "2.14.1", "2.15.0")] + [TORCH_VERSION]
CONTROL_KEYS = ("if", "cases", "versions")
DEFAULT_APPLIES = {
    "dtypes": ["standard"], "kinds": list(KINDS), "layouts": list(LAYOUTS), "modes": list(MODES),
    "devices": list(DEVICES), "bits": ["none"], "ndim": [0, 3], "nonempty": False, "torch": "", "requires": [],
    "needs": [],
}


class SpecError(Exception):
    def __init__(self, file, entry, key, message):
        self.file, self.entry, self.key, self.message = file, entry, key, message
        where = f"{file}" + (f": entry {entry!r}" if entry else "") + (f": {key}" if key else "")
        super().__init__(f"{where}: {message}")


def torch_spec(text: str, file, entry, key) -> SpecifierSet:
    try:
        return SpecifierSet(text, prereleases=True)
    except InvalidSpecifier as exc:
        raise SpecError(file, entry, key, f"bad torch version range {text!r}: {exc}") from None


@dataclass
class Entry:
    id: str
    file: str
    call: list
    applies: dict
    expect: dict
    doc: str = ""
    seeds: list = field(default_factory=list)
    note: str = ""

    # ---- applicability -------------------------------------------------------------------------------------------
    def version_skip_reason(self) -> str | None:
        for device in self.applies["needs"]:
            reason = device_skip_reason(device)
            if reason:
                return f"{self.id} needs {device}: {reason}"
        rng = self.applies["torch"]
        if rng and TORCH_VERSION not in SpecifierSet(rng, prereleases=True):
            return f"{self.id} applies to torch{rng}; installed torch is {TORCH_VERSION}"
        return None

    def dtypes(self) -> tuple:
        return dtype_names(self.applies["dtypes"])

    # ---- expectations --------------------------------------------------------------------------------------------
    def expected(self, invariant: str, case):
        return resolve(self.expect[invariant], case)

    def expected_error(self, case):
        return resolve(self.expect["raises"], case) if "raises" in self.expect else None

    def evidence(self, invariant: str) -> list:
        """The evidence URLs behind the version gates of one expectation (shown in failure messages)."""
        out = []

        def walk(v):
            if isinstance(v, dict):
                for gate in v.get("versions", []):
                    out.append(f"torch{gate['torch']}: {gate['evidence']}")
                    walk(gate["value"])
                for key in ("then", "else"):
                    if key in v:
                        walk(v[key])
                for c in v.get("cases", []):
                    walk(c["value"])
        walk(self.expect.get(invariant))
        return out

    # ---- the call ------------------------------------------------------------------------------------------------
    def call_text(self, var: str = "source") -> str:
        text = var
        for step in self.call:
            args = [arg_text(a) for a in step.get("args", [])]
            args += [f"{k}={arg_text(v)}" for k, v in step.get("kwargs", {}).items()]
            if "attr" in step:
                text = f"{text}.{step['attr']}"
            elif "function" in step:
                text = f"{step['function']}({', '.join([text] + args)})"
            elif step["method"] == "__getitem__":
                text = f"{text}[{', '.join(args) if args else ''}]"
            else:
                text = f"{text}.{step['method']}({', '.join(args)})"
        if self.call[-1].get("returns") == "input":
            return f"{text}  # returns None; the result is {var} itself"
        return text

    def apply(self, source):
        value = source
        for step in self.call:
            args = [arg_value(a, source) for a in step.get("args", [])]
            kwargs = {k: arg_value(v, source) for k, v in step.get("kwargs", {}).items()}
            if "attr" in step:
                value = getattr(value, step["attr"])
            elif "function" in step:
                value = resolve_function(step["function"])(value, *args, **kwargs)
            else:
                out = getattr(value, step["method"])(*args, **kwargs)
                value = value if step.get("returns") == "input" else out
        return value


# ---- argument literals ---------------------------------------------------------------------------------------------
# In YAML, an argument is a plain literal, `$source` (the source tensor), or a one-key mapping:
# {dtype: float64}, {device: cpu}, {memory_format: contiguous_format}, {slice: [start, stop, step]},
# {ellipsis: true}, {tuple: [...]}, {index_tensor: [0, 1]}, and facts of the source: {source_shape: true},
# {source_stride: true}, {source_offset: true}, {reversed_dims: true}, {dim_size: DIM}
def arg_value(a, source):
    if a == "$source":
        return source
    if isinstance(a, list):
        return [arg_value(x, source) for x in a]
    if isinstance(a, dict):
        (key, v), = a.items()
        if key == "dtype":
            return getattr(torch, v)
        if key == "device":
            return torch.device(v)
        if key == "memory_format":
            return getattr(torch, v)
        if key == "slice":
            return slice(*v)
        if key == "ellipsis":
            return Ellipsis
        if key == "tuple":
            return tuple(arg_value(x, source) for x in v)
        if key == "index_tensor":
            return torch.tensor(v, dtype=torch.long, device=source.device)
        if key == "source_shape":
            return tuple(source.shape)
        if key == "source_stride":
            return tuple(source.stride())
        if key == "source_offset":
            return source.storage_offset()
        if key == "reversed_dims":
            return tuple(reversed(range(source.dim())))
        if key == "dim_size":
            return source.shape[v]
        raise KeyError(key)
    return a


def arg_text(a) -> str:
    if a == "$source":
        return "source"
    if isinstance(a, list):
        return "[" + ", ".join(arg_text(x) for x in a) + "]"
    if isinstance(a, dict):
        (key, v), = a.items()
        if key in ("dtype", "memory_format"):
            return f"torch.{v}"
        if key == "device":
            return f"torch.device({v!r})"
        if key == "slice":
            parts = ["" if x is None else str(x) for x in v] + [""] * (3 - len(v))
            return ":".join(parts[:2]) + (f":{parts[2]}" if parts[2] else "")
        if key == "ellipsis":
            return "..."
        if key == "tuple":
            return ", ".join(arg_text(x) for x in v)
        if key == "index_tensor":
            return f"torch.tensor({v!r})"
        if key == "source_shape":
            return "source.shape"
        if key == "source_stride":
            return "source.stride()"
        if key == "source_offset":
            return "source.storage_offset()"
        if key == "reversed_dims":
            return "tuple(reversed(range(source.dim())))"
        if key == "dim_size":
            return f"source.shape[{v}]"
    return repr(a)


ARG_KEYS = {"dtype", "device", "memory_format", "slice", "ellipsis", "tuple", "index_tensor", "source_shape",
            "source_stride", "source_offset", "reversed_dims", "dim_size"}


def resolve_function(path: str):
    module_name, _, name = path.rpartition(".")
    try:
        obj = importlib.import_module(module_name)
    except ImportError:
        parent, _, attr = module_name.rpartition(".")
        obj = getattr(importlib.import_module(parent), attr)
    return getattr(obj, name)


# ---- expectation values --------------------------------------------------------------------------------------------
def resolve(value, case):
    """The plain expected value for `case` on the installed torch."""
    if isinstance(value, dict):
        if "if" in value:
            return resolve(value["then"] if predicates.all_hold(value["if"], case) else value["else"], case)
        if "cases" in value:
            for c in value["cases"]:
                if predicates.all_hold(c["when"], case):
                    return resolve(c["value"], case)
            return resolve(value["else"], case)
        if "versions" in value:
            for gate in value["versions"]:
                if TORCH_VERSION in SpecifierSet(gate["torch"], prereleases=True):
                    return resolve(gate["value"], case)
            raise LookupError(f"no version gate covers torch {TORCH_VERSION}")
    return value


def gate_nodes(value, path=()):
    """Every `versions` node inside an expectation, with the conditions that lead to it: (path, gates)."""
    if not isinstance(value, dict):
        return
    if "versions" in value:
        yield path, value["versions"]
        for gate in value["versions"]:
            yield from gate_nodes(gate["value"], path + (f"torch{gate['torch']}",))
    if "if" in value:
        cond = " and ".join(value["if"])
        yield from gate_nodes(value["then"], path + (f"if {cond}",))
        yield from gate_nodes(value["else"], path + (f"unless {cond}",))
    if "cases" in value:
        for c in value["cases"]:
            yield from gate_nodes(c["value"], path + ("when " + " and ".join(c["when"]),))
        yield from gate_nodes(value["else"], path + ("otherwise",))


def gate_index(gates, version: Version):
    """The index of the gate that covers `version`, or None."""
    for i, gate in enumerate(gates):
        if version in SpecifierSet(gate["torch"], prereleases=True):
            return i
    return None


def declared_changes(entry, invariant, old: Version, new: Version) -> list:
    """What the specs declare to differ for (entry, invariant) between two releases: the entry's own torch range,
    and every version gate of the expectation whose chosen branch differs. Each item is a readable line with evidence."""
    out = []
    rng = entry.applies["torch"]
    if rng:
        spec = SpecifierSet(rng, prereleases=True)
        if (old in spec) != (new in spec):
            out.append(f"{entry.id} applies to torch{rng} only ({entry.file})")
    for path, gates in gate_nodes(entry.expect.get(invariant)):
        a, b = gate_index(gates, old), gate_index(gates, new)
        if a != b:
            where = f" ({'; '.join(path)})" if path else ""
            fmt = lambda i: "no gate" if i is None else f"torch{gates[i]['torch']}: {gates[i]['value']!r}"
            ev = sorted({gates[i]["evidence"] for i in (a, b) if i is not None})
            out.append(f"{entry.id}.{invariant}{where}: {fmt(a)} -> {fmt(b)} [{', '.join(ev)}]")
    return out


# ---- loading and validation ----------------------------------------------------------------------------------------
def _entry_name(doc, path):
    if len(path) >= 2 and path[0] == "entries" and isinstance(path[1], int):
        try:
            return doc["entries"][path[1]].get("id", f"#{path[1]}")
        except (AttributeError, IndexError):
            return f"#{path[1]}"
    return None


def _schema_check(doc, file):
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if not errors:
        return
    err = jsonschema.exceptions.best_match(errors)
    path = list(err.absolute_path)
    entry = _entry_name(doc, path)
    key = ".".join(str(p) for p in (path[2:] if entry else path))
    message = err.message
    if "propertyNames" in err.relative_schema_path or "propertyNames" in err.schema_path:
        message = f"unknown invariant {err.instance!r} (see specs/schema.json for the known ones)"
    elif err.validator == "additionalProperties":
        message = f"unknown key: {err.message}"
    raise SpecError(file, entry, key or None, message)


def _check_condition(terms, file, entry, key):
    for term in terms:
        problem = predicates.check_name(term)
        if problem:
            raise SpecError(file, entry, key, problem)


def _check_value(value, invariant, file, entry, key, allowed):
    if isinstance(value, dict) and any(k in value for k in CONTROL_KEYS):
        if "if" in value:
            _check_condition(value["if"], file, entry, f"{key}.if")
            _check_value(value["then"], invariant, file, entry, f"{key}.then", allowed)
            _check_value(value["else"], invariant, file, entry, f"{key}.else", allowed)
        elif "cases" in value:
            for i, c in enumerate(value["cases"]):
                _check_condition(c["when"], file, entry, f"{key}.cases.{i}.when")
                _check_value(c["value"], invariant, file, entry, f"{key}.cases.{i}.value", allowed)
            _check_value(value["else"], invariant, file, entry, f"{key}.else", allowed)
        else:
            specs = []
            for i, gate in enumerate(value["versions"]):
                specs.append(torch_spec(gate["torch"], file, entry, f"{key}.versions.{i}.torch"))
                _check_value(gate["value"], invariant, file, entry, f"{key}.versions.{i}.value", allowed)
            for release in KNOWN_RELEASES:
                claimed = [s for s in specs if release in s]
                if len(claimed) > 1:
                    raise SpecError(file, entry, f"{key}.versions", f"contradictory gates: torch {release} matches "
                                    f"{' and '.join(str(s) for s in claimed)}")
        return
    problem = allowed(value)
    if problem:
        raise SpecError(file, entry, key, problem)


def _check_step(step, file, entry, i):
    key = f"call.{i}"
    if "function" in step:
        try:
            fn = resolve_function(step["function"])
        except (ImportError, AttributeError):
            raise SpecError(file, entry, key, f"unknown function {step['function']!r} on this torch") from None
        if not callable(fn):
            raise SpecError(file, entry, key, f"{step['function']!r} is not callable")
    else:
        name = step.get("method") or step.get("attr")
        if not (hasattr(torch.Tensor, name) or hasattr(np.ndarray, name)):
            raise SpecError(file, entry, key, f"unknown op attribute {name!r}: neither torch.Tensor nor "
                            f"numpy.ndarray has it (torch {TORCH_VERSION})")
    for j, a in enumerate(list(step.get("args", [])) + list(step.get("kwargs", {}).values())):
        _check_arg(a, file, entry, f"{key}.args.{j}")


def _check_arg(a, file, entry, key):
    if isinstance(a, list):
        for x in a:
            _check_arg(x, file, entry, key)
    elif isinstance(a, dict):
        if len(a) != 1 or next(iter(a)) not in ARG_KEYS:
            raise SpecError(file, entry, key, f"an argument mapping has one key out of {sorted(ARG_KEYS)}, got {a}")
        (k, v), = a.items()
        if k in ("dtype", "memory_format") and not hasattr(torch, v):
            raise SpecError(file, entry, key, f"torch has no {k} {v!r}")
        if k == "tuple":
            _check_arg(v, file, entry, key)


def _normalize_step(step):
    return {"method": step} if isinstance(step, str) else step


def load_file(path: Path, invariants) -> list[Entry]:
    file = f"specs/{path.name}"
    try:
        doc = yaml.load(path.read_text(), Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        raise SpecError(file, None, None, f"not valid YAML: {exc}") from None
    if doc is None:
        raise SpecError(file, None, None, "empty spec file")
    if not isinstance(doc, dict):
        raise SpecError(file, None, None, f"a spec file is a mapping with 'entries', got {type(doc).__name__}")
    _schema_check(doc, file)
    defaults = doc.get("defaults", {})
    entries = []
    for raw in doc["entries"]:
        eid = raw["id"]
        applies = {**DEFAULT_APPLIES, **defaults.get("applies", {}), **raw.get("applies", {})}
        expect = {**defaults.get("expect", {}), **raw.get("expect", {})}
        if applies["torch"]:
            torch_spec(applies["torch"], file, eid, "applies.torch")
        for sel in applies["dtypes"]:
            if not is_known_selector(sel):
                raise SpecError(file, eid, "applies.dtypes", f"unknown dtype or group {sel!r}")
        _check_condition(applies["requires"], file, eid, "applies.requires") if applies["requires"] else None
        lo, hi = applies["ndim"]
        if lo > hi:
            raise SpecError(file, eid, "applies.ndim", f"empty range [{lo}, {hi}]")
        if not feasible(dtype_names(applies["dtypes"]) or ("float32",), applies["kinds"]):
            raise SpecError(file, eid, "applies", "no kind can be drawn with these dtypes")
        entry = Entry(id=eid, file=file, call=[_normalize_step(s) for s in raw["call"]], applies=applies,
                      expect=expect, doc=raw.get("doc", ""), seeds=raw.get("seeds", []), note=raw.get("note", ""))
        in_range = entry.version_skip_reason() is None
        for i, step in enumerate(entry.call):
            if in_range:
                _check_step(step, file, eid, i)
        for name, value in expect.items():
            _check_value(value, name, file, eid, f"expect.{name}", invariants[name].check_literal)
        entries.append(entry)
    return entries


def load_all(invariants, directory: Path = SPEC_DIR) -> list[Entry]:
    files = sorted(directory.glob("*.yaml"))
    if not files:
        raise SpecError(str(directory), None, None, "no spec files (*.yaml)")
    entries, seen = [], {}
    for path in files:
        for entry in load_file(path, invariants):
            if entry.id in seen:
                raise SpecError(entry.file, entry.id, "id", f"duplicate id, first defined in {seen[entry.id]}")
            seen[entry.id] = entry.file
            entries.append(entry)
    return entries
