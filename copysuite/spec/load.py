"""Load specs/*.yaml into entries: YAML, then the JSON Schema, then the meaning of each part (imports no torch).

Any problem is a SpecError naming the file, the entry and the key; the pytest plugin turns it into a collection
stop. What only the installed torch can answer (does `torch.asarray` exist here?) is checked in `copysuite.plan.bind`.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import yaml

from copysuite.known import registry
from copysuite.spec import divergences, expectations
from copysuite.spec.divergences import Divergence, DivergenceError
from copysuite.spec.expectations import ExpectationError
from copysuite.spec.predicates import Condition
from copysuite.spec.programs import SOURCE, TMP_FILE, Program, ProgramError, parse_program
from copysuite.strategies.space import (
    BITS, DEVICES, DTYPE_GROUPS, EXECUTIONS, GRAD_KINDS, KINDS, MODES, NAMED_ONLY_EXECUTIONS, PLACEMENTS, feasible,
    is_known_selector,
)

_PACKAGE = Path(__file__).resolve().parents[1]
# an installed package carries the specs inside it (pyproject.toml); a checkout has them beside the package
SPEC_DIR = _PACKAGE / "bundled_specs" if (_PACKAGE / "bundled_specs").is_dir() else _PACKAGE.parent / "specs"
SPEC_SCHEMA = json.loads((SPEC_DIR / "schema.json").read_text())
SPEC_SCHEMA["$defs"]["executions"]["items"]["enum"] = list(EXECUTIONS)   # the one list of executions
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it: same documents, faster
VALIDATOR = jsonschema.Draft202012Validator(SPEC_SCHEMA)
SPEC_CODE = "<spec "  # code objects compiled from a spec are named "<spec FILE: ENTRY>" (the fault audit reads it)
KEY = re.compile(r"^(?P<check>\w+)(?:\[(?P<input>\w+)\])?$")  # an expectation's key: check, or check[input]
UNNAMED_EXECUTIONS = tuple(e for e in EXECUTIONS if e not in NAMED_ONLY_EXECUTIONS)  # an entry's by default
DEFAULT_APPLIES = {
    "dtypes": ["standard"], "kinds": list(KINDS), "placements": list(PLACEMENTS), "modes": list(MODES),
    "devices": list(DEVICES), "bits": ["none"], "ndim": [0, 3], "nonempty": False, "torch": "", "requires": [],
    "needs": [], "executions": list(UNNAMED_EXECUTIONS),
}
assert set(BITS) >= set(DEFAULT_APPLIES["bits"])


class SpecError(Exception):
    def __init__(self, file, entry, key, message):
        self.file, self.entry, self.key, self.message = file, entry, key, message
        where = f"{file}" + (f": entry {entry!r}" if entry else "") + (f": {key}" if key else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Applies:
    """Which inputs an entry is checked on (the keys of `applies` in a spec)."""
    dtypes: tuple          # dtype names and group names
    kinds: tuple
    placements: tuple
    modes: tuple
    devices: tuple
    bits: tuple
    ndim: tuple            # (lowest, highest)
    nonempty: bool
    torch: str             # a version range ("" for every release)
    needs: tuple           # devices that must exist besides the one the source is on
    requires: Condition | None
    executions: tuple = UNNAMED_EXECUTIONS   # how the program may run
    executions_stated: bool = False  # the entry or its file names them: checked compiled by default too


@dataclass(frozen=True)
class Entry:
    id: str
    file: str
    program: Program
    applies: Applies
    expect: dict           # key ("shares_storage" or "shares_storage[b]") -> expectations.Node
    doc: str = ""
    seeds: tuple = ()
    note: str = ""
    diverges: tuple = ()   # (copysuite.spec.divergences.Divergence, ...): known upstream bugs under some execution
    graph_breaks: dict = None  # {why, evidence}: dynamo cannot capture the program whole (compiled without fullgraph)

    @property
    def fullgraph(self) -> bool:
        """Compiled with fullgraph=True (a graph break is an error) unless the entry declares its breaks."""
        return not self.graph_breaks


@dataclass(frozen=True)
class SpecSet:
    entries: tuple
    digest: str            # sha256 over the spec files and the schema: which specs an outcome was judged by
    files: tuple


def split_key(key: str) -> tuple[str, str]:
    """("shares_storage", "b") for "shares_storage[b]"; the input is `source` when the key names none."""
    m = KEY.match(key)
    return m["check"], m["input"] or SOURCE


# ---- loading --------------------------------------------------------------------------------------------------------
def load_specs(directory: Path = SPEC_DIR, checks=None) -> SpecSet:
    """Every entry of directory/*.yaml. With `checks` (name -> check, see copysuite.judge.checks) each plain expected
    value is checked against what its check accepts; without, only the structure (the change log needs no more)."""
    directory = Path(directory)
    files = sorted(directory.glob("*.yaml"))
    if not files:
        raise SpecError(str(directory), None, None, "no spec files (*.yaml)")
    digest = hashlib.sha256((SPEC_DIR / "schema.json").read_bytes())
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for path in registry.digest_paths():   # the registry decides which failures are known
        digest.update(b"known/" + path.name.encode() + b"\0" + path.read_bytes())
    key = (str(directory.resolve()), digest.hexdigest(), id(checks))
    if key not in _LOADED:  # the same texts load to the same entries (a warm process runs many sessions)
        docs = [read_file(path) for path in files]
        records = registry.load()
        entries, seen = [], {}
        for file, doc in docs:
            for entry in entries_of(doc, file, checks, records):
                if entry.id in seen:
                    raise SpecError(entry.file, entry.id, "id", f"duplicate id, first defined in {seen[entry.id]}")
                seen[entry.id] = entry.file
                entries.append(entry)
        _LOADED[key] = SpecSet(tuple(entries), digest.hexdigest(), tuple(label(p) for p in files))
    return _LOADED[key]


_LOADED: dict = {}


def label(path: Path) -> str:
    """How messages name a spec file: specs/NAME for the suite's own, the path for any other (--specs DIR)."""
    return f"specs/{path.name}" if path.resolve().parent == SPEC_DIR.resolve() else str(path)


def read_file(path: Path) -> tuple[str, dict]:
    """(label, document) of one spec file, checked against the schema."""
    file, text = label(path), path.read_text()
    try:
        doc = yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        raise SpecError(file, None, None, f"not valid YAML: {exc}") from None
    if doc is None:
        raise SpecError(file, None, None, "empty spec file")
    if not isinstance(doc, dict):
        raise SpecError(file, None, None, f"a spec file is a mapping with 'entries', got {type(doc).__name__}")
    _schema_check(doc, file, text)
    return file, doc


def entries_of(doc, file, checks=None, records=None) -> list[Entry]:
    defaults = doc.get("defaults", {})
    records = registry.load() if records is None else records
    return [_entry(raw, defaults, file, checks, records) for raw in doc["entries"]]


def _entry(raw, defaults, file, checks, records) -> Entry:
    eid = raw["id"]
    if ("call" in raw) == ("program" in raw):
        raise SpecError(file, eid, None, "an entry has either `call` (an expression) or `program` (statements)")
    try:
        program = parse_program(call=raw.get("call"), program=raw.get("program"), inputs=raw.get("inputs"),
                                first_call=raw.get("first_call"), filename=f"{SPEC_CODE}{file}: {eid}>")
    except ProgramError as exc:
        raise SpecError(file, eid, exc.key, exc.message) from None
    stated = "executions" in {**defaults.get("applies", {}), **raw.get("applies", {})}
    applies = _applies({**DEFAULT_APPLIES, **defaults.get("applies", {}), **raw.get("applies", {})}, file, eid, stated)
    expect = {}
    for key, value in {**defaults.get("expect", {}), **raw.get("expect", {})}.items():
        _check_name(key, checks, file, eid)
        try:
            expect[key] = expectations.parse(value)
        except ExpectationError as exc:
            raise SpecError(file, eid, f"expect.{key}{exc.key}", exc.message) from None
        _check_key(key, expect[key], program, checks, file, eid)
        _check_gates_cover(expect[key], applies, f"expect.{key}", file, eid)
    diverges = tuple(_divergence(d, expect, file, eid, i, records) for i, d in enumerate(raw.get("diverges", ())))
    program = program.with_returned(split_key(key)[1] for key in expect)   # compiled, it returns what is judged
    return Entry(id=eid, file=file, program=program, applies=applies, expect=expect, doc=raw.get("doc", ""),
                 seeds=tuple(raw.get("seeds", ())), note=raw.get("note", ""), diverges=diverges,
                 graph_breaks=raw.get("graph_breaks"))


def _divergence(d, expect, file, eid, i, records) -> Divergence:
    try:
        return divergences.parse(d, expect, records)
    except DivergenceError as exc:
        raise SpecError(file, eid, f"diverges[{i}]" + (f".{exc.key}" if exc.key else ""), exc.message) from None


def _applies(a, file, eid, stated=False) -> Applies:
    if a["torch"]:
        try:
            expectations.torch_range(a["torch"])
        except ExpectationError as exc:
            raise SpecError(file, eid, "applies.torch", exc.message) from None
    for sel in a["dtypes"]:
        if not is_known_selector(sel):
            raise SpecError(file, eid, "applies.dtypes", f"unknown dtype or group {sel!r}")
    requires = Condition(tuple(a["requires"])) if a["requires"] else None
    if requires and requires.problem():
        raise SpecError(file, eid, "applies.requires", requires.problem())
    if a["ndim"][0] > a["ndim"][1]:
        raise SpecError(file, eid, "applies.ndim", f"empty range {a['ndim']}")
    if not feasible([d for sel in a["dtypes"] for d in DTYPE_GROUPS.get(sel, (sel,))], a["kinds"]):
        raise SpecError(file, eid, "applies", "no kind can be drawn with these dtypes")
    return Applies(tuple(a["dtypes"]), tuple(a["kinds"]), tuple(a["placements"]), tuple(a["modes"]),
                   tuple(a["devices"]), tuple(a["bits"]), tuple(a["ndim"]), a["nonempty"], a["torch"],
                   tuple(a["needs"]), requires, tuple(a["executions"]), stated)


def _check_name(key, checks, file, eid):
    """The key names a registered check: the registry is the one list of them (the schema knows only the shape of a
    key, since loading it would import torch; a load without `checks`, for the report tools, checks no names)."""
    name = split_key(key)[0]
    if checks is not None and name not in checks:
        raise SpecError(file, eid, f"expect.{key}", f"unknown check {name!r} (the checks: {', '.join(sorted(checks))};"
                        f" `python -m copysuite checks` says what each observes)")


def _check_key(key, node, program, checks, file, eid):
    name, subject = split_key(key)
    if subject not in program.input_names + program.variables or subject == TMP_FILE:
        raise SpecError(file, eid, f"expect.{key}", f"no input or program variable named {subject!r} (inputs: "
                        f"{', '.join(program.input_names)}; variables: {', '.join(program.variables) or 'none'})")
    if checks is None:
        return
    check = checks[name]
    if subject in program.variables and not check.judges_variables:
        able = ", ".join(sorted(n for n, c in checks.items() if c.judges_variables))
        raise SpecError(file, eid, f"expect.{key}", f"{name} judges an input as it was before the program, and "
                        f"{subject!r} is a variable of the program (checks that judge a variable as the program "
                        f"left it: {able})")
    if check.about_call and "[" in key:
        raise SpecError(file, eid, f"expect.{key}", f"{name} is about the call, not about one input")
    if set(check.kinds) <= set(GRAD_KINDS) and dict(program.inputs).get(subject, SOURCE).strip() != SOURCE:
        raise SpecError(file, eid, f"expect.{key}", f"{name} judges an input that requires grad, which the "
                        f"strategies guarantee for `source` only: it can judge `source` or an alias of it "
                        f"(`a: source`), not a derived input")
    for leaf in expectations.plain_values(node):
        problem = check.literal_problem(leaf.value)
        if problem:
            raise SpecError(file, eid, f"expect.{key}{leaf.key}", problem)


def _check_gates_cover(node, applies, key, file, eid):
    """Every release the entry applies to (of expectations.KNOWN_RELEASES) has a gate in every gated choice."""
    span = expectations.torch_range(applies.torch) if applies.torch else None
    releases = [r for r in expectations.KNOWN_RELEASES if span is None or r in span]
    for _, choice in expectations.walk(node):
        if isinstance(choice, expectations.Choice) and choice.gated:
            missing = expectations.uncovered(choice, releases)
            if missing:
                raise SpecError(file, eid, f"{key}{choice.key}.versions", f"no gate covers torch "
                                f"{', '.join(map(str, missing))} (the gates must cover every release the entry "
                                f"applies to)")


def _entry_name(doc, path):
    if len(path) >= 2 and path[0] == "entries" and isinstance(path[1], int):
        try:
            return doc["entries"][path[1]].get("id", f"#{path[1]}")
        except (AttributeError, IndexError):
            return f"#{path[1]}"
    return None


# the SHA-256 of each spec file text that passed the schema: loaded again in this process (e.g. without checks), or
# in an xdist worker whose controller validated it (plugin.py hands the set over), a text is not validated again
VALID: set = set()


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _schema_check(doc, file, text):
    digest = text_digest(text)
    if digest in VALID:
        return
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if not errors:
        VALID.add(digest)
        return
    err = jsonschema.exceptions.best_match(errors)
    path = list(err.absolute_path)
    entry = _entry_name(doc, path)
    key = ".".join(str(p) for p in (path[2:] if entry else path))
    message = err.message
    if "propertyNames" in err.schema_path and "expect" in err.schema_path:
        message = f"{err.instance!r} is not a check's name, optionally with the judged input in brackets"
    elif "propertyNames" in err.schema_path:
        message = f"{err.instance!r} cannot name an input (a Python name)"
    elif err.validator == "additionalProperties":
        message = f"unknown key: {err.message}"
    raise SpecError(file, entry, key or None, message)
