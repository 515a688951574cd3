"""The known-bug registry: specs/known/*.yaml, one record per upstream bug (or per draft where upstream has none, or
per documented design difference), loaded and checked once, read by every consumer (imports no torch).

A record holds what the bug is (evidence, fix, by design or not, a note), where it shows (torch range, executions,
devices) and what it explains:
- spec cells: an entry's `diverges` item names the record (`record: NAME`) and may narrow it (its expectations,
  executions, devices, observed pattern) or give its own torch range, which replaces the record's; the record's
  fields are the defaults;
- surface cells: its `surface` items, each a list of surface cell ids (a trailing `*` matches any rest) and the clause
  that fails there (`crashed`: the cell's process dies);
- fuzz differences: its `fuzz` pattern (copysuite.fuzz.record).

Errors are RegistryError(file, record, key, message), with a message that says what to write instead.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jsonschema
import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from copysuite.strategies.space import EXECUTIONS

_PACKAGE = Path(__file__).resolve().parents[1]
# an installed package carries the specs (and so the registry) inside it; a checkout has them beside the package
SPEC_DIR = _PACKAGE / "bundled_specs" if (_PACKAGE / "bundled_specs").is_dir() else _PACKAGE.parent / "specs"
KNOWN_DIR = SPEC_DIR / "known"
SCHEMA = json.loads((KNOWN_DIR / "schema.json").read_text())
SCHEMA["$defs"]["executions"]["items"]["enum"] = list(EXECUTIONS)   # the one list of executions
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DRAFT = re.compile(r"docs/upstream-reports/[a-z0-9_]+\.py")
CRASHED = "crashed"   # the surface clause naming a cell whose worker dies (and the failure kind such a cell gets)


class RegistryError(Exception):
    def __init__(self, file, record, key, message):
        self.file, self.record, self.key, self.message = file, record, key, message
        where = f"{file}" + (f": record {record!r}" if record else "") + (f": {key}" if key else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class SurfaceItem:
    """Surface cells a record explains: each cell id of `cells` (a trailing `*` matches any rest) fails `clause`."""
    cells: tuple
    clause: str
    torch: str
    executions: tuple
    input: str = ""   # only the calls whose source starts so (an OpInfo sample), where the cell has that call
    note: str = ""

    def applies(self, entry: str, execution: str, version: str) -> bool:
        """The item names this surface cell (entry, as `surface.CLASS:OP`) under this execution on this release."""
        release = Version(Version(version).base_version)
        named = any(entry.startswith(c[:-1]) if c.endswith("*") else entry == c for c in self.cells)
        return named and execution in self.executions and release in SpecifierSet(self.torch)


@dataclass(frozen=True)
class Record:
    name: str
    file: str              # specs/known/NAME.yaml
    evidence: str          # an upstream issue or PR, a documentation page, or a draft (docs/upstream-reports/*.py)
    torch: str             # the releases it shows on (a PEP 440 specifier)
    executions: tuple
    note: str
    also: tuple = ()
    fixed_by: str = ""
    by_design: bool = False
    silent: bool = False
    order_dependent: bool = False   # claimed cells that hold pass; its draft is the strict check (schema.json)
    devices: tuple = ()    # empty: every device
    expect: tuple = ()     # spec side defaults
    observed: str = ""
    surface: tuple = ()    # SurfaceItem, ...
    fuzz: dict = field(default_factory=dict)

    @property
    def drafts(self) -> tuple:
        """The drafts among its evidence: standalone reproductions in docs/upstream-reports/."""
        return tuple(r for r in (self.evidence, *self.also) if DRAFT.fullmatch(r))

    @property
    def upstream(self) -> tuple:
        """Its upstream references (issues, PRs, documentation), evidence first."""
        return tuple(r for r in (self.evidence, *self.also, self.fixed_by) if r and not DRAFT.fullmatch(r))

    def spec_fields(self) -> dict:
        """The fields a spec `diverges` item takes from this record (copysuite.spec.divergences.parse)."""
        fields = {"executions": list(self.executions), "torch": self.torch, "evidence": self.evidence,
                  "note": self.note, "by_design": self.by_design, "order_dependent": self.order_dependent}
        fields.update({k: v for k, v in (("fixed_by", self.fixed_by), ("devices", list(self.devices)),
                                         ("expect", list(self.expect)), ("observed", self.observed)) if v})
        return fields


def _range(text, file, name, key):
    try:
        SpecifierSet(text)
    except InvalidSpecifier:
        raise RegistryError(file, name, key, f"{text!r} is not a PEP 440 specifier (write e.g. '>=2.2,<2.5')") from None
    return text


def _record(name, raw, file) -> Record:
    torch_range = _range(raw["torch"], file, name, "torch")
    executions = tuple(raw["executions"])
    surface = []
    for i, item in enumerate(raw.get("surface", ())):
        surface.append(SurfaceItem(tuple(item["cells"]), item["clause"],
                                   _range(item.get("torch", torch_range), file, name, f"surface[{i}].torch"),
                                   tuple(item.get("executions", executions)), item.get("input", ""),
                                   item.get("note", "")))
    fuzz = dict(raw.get("fuzz", {}))
    if fuzz:
        _range(fuzz.setdefault("torch", torch_range), file, name, "fuzz.torch")
        fuzz["executions"] = tuple(fuzz.get("executions", executions))
        for key in ("kinds", "message", "eager_message", "alias"):
            if key in fuzz:
                _regex(fuzz[key], file, name, f"fuzz.{key}")
    if "observed" in raw:
        _regex(raw["observed"], file, name, "observed")
    if raw.get("by_design") and DRAFT.fullmatch(raw["evidence"]):
        raise RegistryError(file, name, "by_design", "by design needs documentation or a maintainer's decision as "
                            "its evidence, not a draft: cite the page or the comment")
    if raw.get("order_dependent") and not any(DRAFT.fullmatch(r) for r in (raw["evidence"], *raw.get("also", ()))):
        raise RegistryError(file, name, "order_dependent", "an order-dependent record needs a draft "
                            "(docs/upstream-reports/NAME.py) that builds the process state itself and so reproduces "
                            "the bug alone: its cells cannot be strict expected failures, the draft is; cite it in "
                            "`also`")
    return Record(name, file, raw["evidence"], torch_range, executions, raw["note"], tuple(raw.get("also", ())),
                  raw.get("fixed_by", ""), raw.get("by_design", False), raw.get("silent", False),
                  raw.get("order_dependent", False), tuple(raw.get("devices", ())), tuple(raw.get("expect", ())),
                  raw.get("observed", ""),
                  tuple(surface), fuzz)


def _regex(text, file, name, key):
    try:
        re.compile(text)
    except re.error as exc:
        raise RegistryError(file, name, key, f"bad regular expression: {exc}") from None


def read(path: Path) -> dict:
    """name -> Record, from one registry file."""
    label = f"specs/known/{path.name}"
    try:
        doc = yaml.load(path.read_text(), Loader=SAFE_LOADER) or {}
    except yaml.YAMLError as exc:
        raise RegistryError(label, None, None, f"not valid YAML: {exc}") from None
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        err = jsonschema.exceptions.best_match(errors)
        where = list(err.absolute_path)
        raise RegistryError(label, where[0] if where else None, ".".join(map(str, where[1:])) or None,
                            err.message + " (the fields: specs/known/schema.json)")
    return {name: _record(name, raw, label) for name, raw in doc.items()}


@lru_cache(maxsize=None)
def load(directory: Path = KNOWN_DIR) -> dict:
    """name -> Record over every directory/*.yaml, in file then document order (the fuzzer names the first record
    that explains a difference). A name is unique across files."""
    records, where = {}, {}
    for path in sorted(Path(directory).glob("*.yaml")):
        for name, record in read(path).items():
            if name in where:
                raise RegistryError(record.file, name, None, f"duplicate record, first defined in {where[name]}")
            records[name], where[name] = record, record.file
    return records


def digest_paths(directory: Path = KNOWN_DIR) -> list:
    """The files whose bytes decide the registry (for the spec set's digest)."""
    return [Path(directory) / "schema.json", *sorted(Path(directory).glob("*.yaml"))]
