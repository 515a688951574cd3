"""What a fault is: a small patch of torch's Python-visible behaviour (a `torch.Tensor` method or property, a
`torch` function), applied with `unittest.mock.patch.object` inside one test process; nothing on disk changes.

Every replacement calls only the originals captured in tests/faults/original.py; the catalog (catalog.py) is the
list of every fault, from the topic modules in topics/, one per spec file.
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from unittest import mock


@dataclass(frozen=True)
class Fault:
    name: str
    description: str
    patch: object                          # () -> [(owner, attribute name, replacement)]
    entries: tuple                         # spec entry ids the conformance session is narrowed to
    expected: tuple                        # ((entry id, check), ...): each of these must fail under the fault
    examples: int | None = None            # Hypothesis examples per test, when the default is not enough
    executions: tuple = ()                 # --execution of its session (none: each entry's default executions)
    # Where the harness itself (copysuite/, its strategies included) calls what this fault patches, as
    # "path:function", and why that is harmless. The fault plugin records every such call during a session, and
    # tests/selftest/test_faults.py checks that none happens outside this list.
    harness_contact: tuple = ()
    contact_note: str = ""
    # Run by the fault campaign only when asked (COPYSUITE_FAULT_SET=all, tests/faults/campaign.py): every one shown
    # caught that way.
    opt_in: bool = False
    # The releases where what the fault does is a regression (a specifier set; empty: every release): outside them
    # torch already behaves so and the spec entries expect it, so that nothing can catch the fault there.
    torch: str = ""

    def skip_reason(self) -> str | None:
        """Why this fault cannot be applied or caught here (an attribute it patches that this torch lacks, a release
        that already behaves as the fault does, an execution this torch or Python cannot run), or None."""
        import torch
        from packaging.specifiers import SpecifierSet

        from copysuite.run.executions import EXECUTORS
        from copysuite.spec.expectations import release_of
        absent = self.unpatchable()
        if absent:
            return absent
        if self.torch and release_of(torch.__version__) not in SpecifierSet(self.torch):
            return f"torch {torch.__version__} already behaves so: the fault is a regression on torch{self.torch} only"
        return next(filter(None, (EXECUTORS[x].skip_reason() for x in self.executions)), None)

    def unpatchable(self) -> str | None:
        """Why this fault cannot be applied here (an attribute it patches that this torch lacks), or None."""
        import torch
        absent = [f"{getattr(owner, '__name__', owner)}.{attr}" for owner, attr in self.targets()
                  if not hasattr(owner, attr)]
        return f"torch {torch.__version__} has no {', '.join(absent)} to patch" if absent else None

    def targets(self):
        """[(owner, attribute name)] this fault replaces."""
        return [(owner, attr) for owner, attr, _ in self.patch()]

    @contextmanager
    def applied(self, wrap=None):
        """The fault in place for the `with` block; `wrap(attr, value)` may wrap each replacement."""
        with ExitStack() as stack:
            for owner, attr, value in self.patch():
                stack.enter_context(mock.patch.object(owner, attr, wrap(attr, value) if wrap else value))
            yield self


CATALOG: list[Fault] = []
# Faults a topic leaves out of the catalog on this torch, which lacks what they would turn: name -> why. Whoever lists
# faults by name (docs/promises.md's rows, tests/selftest/test_promises.py) tells such a fault from a missing one.
ABSENT: dict[str, str] = {}


def fault(name, description, entries, expected, **kw):
    """Decorator: the decorated function returns the [(owner, attr, replacement)] of the fault."""
    def register(fn):
        CATALOG.append(Fault(name=name, description=description, patch=fn, entries=tuple(entries),
                             expected=tuple(tuple(e) for e in expected), **kw))
        return fn
    return register


def absent(name: str, reason: str) -> None:
    """A fault of the catalog that this torch cannot have (`reason`: what it lacks), in place of registering it."""
    ABSENT[name] = reason


def opt_in_fault(name, description, entries, expected, **kw):
    """fault(), for a fault the campaign runs only when asked (Fault.opt_in)."""
    return fault(name, description, entries, expected, opt_in=True, **kw)
