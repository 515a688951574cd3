"""The ops of the opt-in program shapes beside the vocabulary's (copysuite.fuzz.vocabulary): `custom_op`
(copysuite.fuzz.library), `foreach` (copysuite.fuzz.foreach) and `consumers` (copysuite.fuzz.consumers), each drawn
only where COPYSUITE_FUZZ_SHAPES names its shape (copysuite.fuzz.generate), and the one lookup of an op by name."""
from __future__ import annotations

from copysuite.fuzz import consumers, foreach, library, vocabulary

OPS = {"custom_op": library.OPS, "foreach": foreach.OPS, "consumers": consumers.OPS}
vocabulary.register(op for ops in OPS.values() for op in ops)   # raises where a shape's op shadows another
# the one table of ops by name: the vocabulary's, the shapes' and, once built, the surface vocabulary's
BY_NAME = vocabulary.BY_NAME


def prelude(ops) -> list[str]:
    """The lines a program's inputs start with for the ops it calls (the custom operators' definitions)."""
    return library.prelude(ops)
