"""One known upstream bug as the fuzzer matches it (`Record`): the `fuzz` pattern of a record of the known-bug registry
(copysuite.known.registry, specs/known/*.yaml) over a run's differences, with the record's evidence and, where the
suite checks it, the spec entry (`entry`) whose cells show the same bug. `RECORDS`: every record with a fuzz pattern,
in registry order (file, then document order).

A record explains one differing field when the execution and the installed torch are its own, the field's kind
matches `kinds` (a regular expression), and, where given, the program uses one of `ops` (one of them called with one
variable as two of its operands: `repeated_operand`, an out= form whose out is its input) or calls one of
`overlapping_ops` with two operands of one memory (one variable, or views and in-place results of one: an in-place or
out= op reading what it writes), has aliased inputs (`aliased`), for a `call.raises` field the execution's exception
matches `message` and for a `forward.raises` field its forward-mode exception does, eager's exception matches
`eager_message` (for a `forward.*` field: eager's forward-mode exception), the execution raised none
(`execution_ran`; for a `forward.*` field, in its forward-mode call), the field is None eagerly and all zeros under
the execution (`zeros_for_none`: a gradient eager leaves undefined), or, for a `raises` field, names the exception
the execution raised (`raised_by_execution`: not a step it never reached), or, for an `in` field, is about an input
that requires grad and that eager wrote, beside another input eager wrote and returned as it is
(`beside_returned_written_input`), or the field's eager value, as text, matches `eager_value` (a regular
expression: `out:.*`, eagerly a view of another output), or its value under the execution does `other_value`
(`False|None`: no view there), or the program eagerly wrote an input (`written_input`: one whose version counter
moved); a `variant` (copysuite.fuzz.variants,
judged as its base execution) limits it to runs of that variant. An op name starting with @ names a set (`OP_SETS`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import torch
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from copysuite.fuzz.signature import kind
from copysuite.fuzz.vocabulary import BY_NAME, INPLACE, INPLACE_VIEWS, OUT_FORMS, WRITES_FROM
from copysuite.known import registry

TORCH = Version(Version(torch.__version__).base_version)


@dataclass(frozen=True)
class Record:
    name: str
    executions: tuple
    kinds: str
    evidence: str
    note: str
    torch: str = ">=2.0"
    ops: tuple = ()
    aliased: bool = False
    message: str = ""
    entry: str = ""
    caches: bool = False   # only what the compile caches alone produce (differential.run's `uncached`)
    subclass: bool = False  # only programs with an input that a wrapper subclass holds aliased (TwoTensor(a, a))
    alias: str = ""         # only programs with an aliased input whose expression matches this (".detach()")
    # only fields about an output that eagerly is or shares memory with a written input
    written_input_alias: bool = False
    eager_message: str = ""  # only programs whose eager exception (of the forward-mode call, for forward.*) matches
    execution_ran: bool = False  # only programs whose call (forward-mode, for forward.*) the execution ran unraised
    variant: str = ""            # only runs of this variant of the execution (`export.decomposed`)
    repeated_operand: bool = False  # only programs calling an op of `ops` with one variable as two of its operands
    zeros_for_none: bool = False  # only fields None eagerly and all zeros under the execution (an undefined gradient)
    raised_by_execution: bool = False  # only `raises` fields whose execution side names an exception (not absent)
    overlapping_ops: tuple = ()  # ops that count beside `ops` only where called with two operands of one memory
    # only `in` fields of an input that requires grad and was written, beside another written input returned as it is
    beside_returned_written_input: bool = False
    eager_value: str = ""  # only fields whose eager value, as text, matches this regular expression
    other_value: str = ""  # only fields whose value under the execution, as text, matches this regular expression
    written_input: bool = False  # only programs that eagerly wrote an input (or module state): its version moved

    def explains(self, field: str, eager, other, run, execution: str) -> bool:
        if execution not in self.executions or TORCH not in SpecifierSet(self.torch):
            return False
        if self.variant and getattr(run, "variant", "") != self.variant:
            return False
        if self.caches and (run.uncached is None or run.uncached.get(field, "absent") == other):
            return False   # a caches record explains only what the same program compiled without them does not show
        if not re.fullmatch(self.kinds, kind(field)):
            return False
        if (self.ops or self.overlapping_ops) and not (set(self.ops) & named_ops(run.program)
                                                       or overlapping_call(run.program, self.overlapping_ops)):
            return False
        if self.repeated_operand and not any(set(self.ops) & set(named_ops_of(s.op)) and len(set(s.args)) < len(s.args)
                                             for s in statements_of(run.program)):
            return False
        if self.subclass and not run.program.wraps_subclass:
            return False
        if self.alias and not any(i.alias and re.search(self.alias, i.alias) for i in run.program.inputs):
            return False
        if self.aliased and not (any(i.alias for i in run.program.inputs) or run.texts.get("warm")):
            return False
        if self.written_input_alias and not aliases_written_input(field, run):
            return False
        if self.beside_returned_written_input and not beside_returned_written(field, run):
            return False
        if self.eager_value and not re.fullmatch(self.eager_value, str(eager)):
            return False
        if self.other_value and not re.fullmatch(self.other_value, str(other)):
            return False
        if self.written_input and not any(run.eager.signature.get(f"in|{n}|version_moved") is True
                                          for n in run.program.input_names):
            return False
        if self.eager_message:
            eager_error = run.eager.forward_error if kind(field).startswith("forward.") else run.eager.error
            if not (eager_error and re.search(self.eager_message, eager_error)):
                return False
        if self.execution_ran and (run.other.forward_error if kind(field).startswith("forward.") else run.other.error):
            return False
        if self.zeros_for_none and not (eager is None and isinstance(other, list) and other
                                        and all(v == 0 for v in other)):
            return False
        if self.raised_by_execution and not (isinstance(other, str) and other != "absent"):
            return False
        # a run that raised has no other field to match
        error = {"call.raises": run.other.error, "forward.raises": run.other.forward_error}.get(kind(field))
        if not self.message or kind(field) not in ("call.raises", "forward.raises"):
            return True
        return bool(error and re.search(self.message, error))


def named_ops(program) -> set:
    """The program's ops, each surface op (`surface.CLASS:OP/HASH`, copysuite.fuzz.surface_vocabulary) also by its
    name without the form (its forms differ between releases, the op does not) and by its class alone
    (`surface.functional`: every op of the class), as a record names it."""
    return {name for op in program.ops for name in named_ops_of(op)}


def statements_of(program) -> tuple:
    """A drawn program's statements; none for a caller's function (copysuite.usercode.sides.Called), whose calls are not
    known, so a record that asks how an op was called never explains it."""
    return getattr(program, "statements", ())


def named_ops_of(op: str) -> tuple:
    """One op by each name a record may give it (named_ops)."""
    return op, op.rsplit("/", 1)[0], op.split(":")[0]


# ops whose result is, or views, their first operand's memory: views, in-place ops, writes from a source, out= forms
ALIASING_KINDS = {"view", "dtype_view", "inplace", "inplace_view"}
ALIASING_CLASSES = {"surface.alias", "surface.inplace", "surface.out"}


def memory_roots(program) -> dict:
    """Each variable's root: the input (or the result of an op that allocates) whose memory it is, through aliased
    inputs (`b = a.t()`), views, in-place ops and out= forms; a root is an over-approximation (reshape may copy)."""
    roots = {}
    for i in program.inputs:
        source = re.match(r"\w+", i.alias or "")
        roots[i.name] = roots.get(source.group(0), i.name) if source else i.name
    for s in statements_of(program):
        op = BY_NAME.get(s.op)
        aliasing = (op is not None and op.kind in ALIASING_KINDS) or s.op in WRITES_FROM or (
            s.op.split(":")[0] in ALIASING_CLASSES)
        roots[s.out] = roots.get(s.args[0], s.args[0]) if aliasing and s.args else s.out
    return roots


def overlapping_call(program, names) -> bool:
    """Whether the program calls an op of `names` with two operands of one memory (memory_roots)."""
    if not names:
        return False
    roots = memory_roots(program)
    return any(set(names) & set(named_ops_of(s.op)) and len({roots.get(a, a) for a in s.args}) < len(s.args)
               for s in statements_of(program))


def outputs_in(field: str) -> set:
    """The outputs a field is about: its subject's (`out|t1|stride`, `write|t1|reaches:in:a`), its pair's, and
    where a write lands."""
    section, subject, attribute = field.split("|")
    names = (set(subject.split("~")) if section == "pair"
             else {f"out:{subject}"} if section in ("out", "write") else set())
    if attribute.startswith("reaches:"):
        names.add(attribute.split(":", 1)[1])
    return {n.split(":", 1)[1] for n in names if n.startswith("out:")}


def aliases_written_input(field: str, run) -> bool:
    """Whether the field is about an output that, eagerly, is or shares memory with an input whose version counter
    moved on either side (written eagerly, or copied back into by the execution)."""
    eager = run.eager.signature
    written = [n for n in run.program.input_names
               if True in (eager.get(f"in|{n}|version_moved"), run.other.signature.get(f"in|{n}|version_moved"))]
    return any(eager.get(f"pair|in:{n}~out:{o}|shares_storage") is True for o in outputs_in(field) for n in written)


def beside_returned_written(field: str, run) -> bool:
    """Whether the field is about an input (or module state) that requires grad and whose version counter moved
    eagerly, in a program that returns another input whose version counter moved eagerly as it is (one object)."""
    section, subject, _ = field.split("|")
    eager = run.eager.signature
    written = [n for n in run.program.input_names if eager.get(f"in|{n}|version_moved") is True]
    if section != "in" or subject not in written or eager.get(f"in|{subject}|requires_grad") is not True:
        return False
    returned = [key for n in written if n != subject for key in eager
                if key.startswith(f"pair|in:{n}~out:") and key.endswith("|same_object")]
    return any(eager[key] is True for key in returned)


# the sets of ops a registry record's `ops` may name (specs/known/schema.json)
OP_SETS = {
    "@writes": (*(op.name for op in INPLACE), *WRITES_FROM),   # every in-place op, and every write from a source
    "@writes_from": WRITES_FROM,                               # copy_, setitem_from, add_from and the out= forms
    "@out_forms": OUT_FORMS,
    "@inplace_views": tuple(op.name for op in INPLACE_VIEWS),
}


def ops(names) -> tuple:
    """A pattern's ops with each named set (@...) spelled out."""
    return tuple(op for name in names for op in (OP_SETS[name] if name.startswith("@") else (name,)))


def from_registry(record: registry.Record) -> Record:
    """The fuzzer's view of a registry record with a `fuzz` pattern (its torch and executions default the record's)."""
    pattern = record.fuzz
    return Record(record.name, pattern["executions"], pattern["kinds"], record.evidence,
                  pattern.get("note", record.note), torch=pattern["torch"], ops=ops(pattern.get("ops", ())),
                  aliased=pattern.get("aliased", False), message=pattern.get("message", ""),
                  entry=pattern.get("entry", ""),
                  caches=pattern.get("caches", False), subclass=pattern.get("subclass", False),
                  alias=pattern.get("alias", ""), written_input_alias=pattern.get("written_input_alias", False),
                  eager_message=pattern.get("eager_message", ""),
                  execution_ran=pattern.get("execution_ran", False),
                  repeated_operand=pattern.get("repeated_operand", False),
                  zeros_for_none=pattern.get("zeros_for_none", False),
                  raised_by_execution=pattern.get("raised_by_execution", False),
                  overlapping_ops=ops(pattern.get("overlapping_ops", ())),
                  beside_returned_written_input=pattern.get("beside_returned_written_input", False),
                  eager_value=pattern.get("eager_value", ""), other_value=pattern.get("other_value", ""),
                  written_input=pattern.get("written_input", False),
                  variant=pattern.get("variant", ""))


RECORDS = tuple(from_registry(r) for r in registry.load().values() if r.fuzz)
