"""A generated program (copysuite.fuzz.generate.Program) as plain JSON data and back: what a report's finding and a
campaign's journal keep of a program, so that a later checkout can run it again and judge it with its own rules and
records (`python -m copysuite fuzz rejudge`) instead of someone rebuilding it by hand from its text.

The data names ops by their vocabulary names (`surface.out:absolute/9a679353` for a surface op), so a program is
rebuilt only where the release's vocabulary has its ops: `missing_ops` says which it lacks."""
from __future__ import annotations

from dataclasses import asdict, fields

from copysuite.fuzz.generate import Input, Program, Statement

FORMAT = "copysuite-fuzz-program/1"


def _tuples(value):
    """JSON's lists back into the tuples the dataclasses hold (shapes, strides, arguments)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def data(program: Program) -> dict:
    """The program as JSON-ready data."""
    return {"format": FORMAT, **asdict(program)}


def program(made: dict) -> Program:
    """The program `data` gave; a ValueError names what is wrong with data of another format or shape."""
    if made.get("format") != FORMAT:
        raise ValueError(f"not a program of {FORMAT}: format {made.get('format')!r} (a report written by an older "
                         f"copysuite keeps only the program's text; rebuild it with copysuite.fuzz.generate)")
    names = {f.name for f in fields(Program)}
    unknown = set(made) - names - {"format"}
    if unknown:
        raise ValueError(f"program data has fields this checkout's Program lacks: {sorted(unknown)}")
    kept = {k: _tuples(v) for k, v in made.items() if k in names}
    kept["inputs"] = tuple(Input(**{k: _tuples(v) for k, v in i.items()}) for i in made["inputs"])
    kept["statements"] = tuple(Statement(s["out"], s["op"], _tuples(s["args"])) for s in made["statements"])
    return Program(**kept)


def missing_ops(program: Program, surface) -> list[str]:
    """The surface ops of `program` that `surface` (the release's surface vocabulary, or None) does not have."""
    have = {op.name for op in surface.ops} if surface is not None else set()
    return [s.op for s in program.statements if s.op.startswith("surface.") and s.op not in have]
