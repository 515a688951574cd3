"""An expectation: the value a check must observe, which may depend on the input and on the torch release
(imports no torch).

In a spec a value is plain (`true`, `CloneBackward0`, `{type: RuntimeError, match: ...}`) or one of three choices:

    {if: [TERMS], then: A, else: B}
    {cases: [{when: [TERMS], value: A}, ...], else: B}
    {versions: [{torch: ">=2.12", value: A, evidence: URL}, ...]}

All three parse into one node, `Choice`: ordered branches, each guarded by a condition on the input or by a torch
version range (a *gate*, which cites its evidence), and what holds otherwise. `resolve` is the one walk that picks
the value for an input; `walk` visits every node (value checks, evidence in failure messages, declared changes).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from copysuite.spec.predicates import Condition

# Releases a version gate is checked against for overlaps (two gates claiming one release contradict each other),
# and the points the change log places changes at.
KNOWN_RELEASES = tuple(Version(v) for v in (
    "1.13.1", "2.0.1", "2.1.2", "2.2.2", "2.3.1", "2.4.1", "2.5.1", "2.6.0", "2.7.1", "2.8.0", "2.9.1", "2.10.0",
    "2.11.0", "2.12.1", "2.13.0", "2.14.1", "2.15.0"))
CHOICE_KEYS = ("if", "cases", "versions")


def release_of(version: str) -> Version:
    """The release a torch build belongs to, for version gates: 2.13.0+cpu, 2.12.0a0+git1234 and 2.12.0.dev20261101
    are 2.13.0, 2.12.0 and 2.12.0 (a pre-release of 2.12 is judged by what 2.12 promises)."""
    return Version(Version(version).base_version)


def uncovered(choice: "Choice", releases) -> list:
    """The releases no gate of a gated choice covers."""
    return [r for r in releases if not any(r in b.torch for b in choice.branches)]


class ExpectationError(Exception):
    def __init__(self, key: str, message: str):
        self.key, self.message = key, message
        super().__init__(f"{key}: {message}")


def torch_range(text: str, key: str = "") -> SpecifierSet:
    try:
        return SpecifierSet(text, prereleases=True)
    except InvalidSpecifier as exc:
        raise ExpectationError(key, f"bad torch version range {text!r}: {exc}") from None


@dataclass(frozen=True)
class Plain:
    value: object
    key: str              # where it sits in the spec, relative to the expectation (e.g. ".then")


@dataclass(frozen=True)
class Branch:
    label: str                      # "if requires_grad and grad_enabled", "when dtype:bool", "torch<2.12"
    value: "Node"
    condition: Condition | None = None
    torch: SpecifierSet | None = None
    torch_text: str = ""            # the range as the spec writes it, e.g. ">=2.8,<2.10"
    evidence: str | None = None

    def applies(self, case, version: Version) -> bool:
        return version in self.torch if self.torch is not None else self.condition.holds(case)


@dataclass(frozen=True)
class Choice:
    branches: tuple
    otherwise: "Node | None"        # None for version gates: a release no gate covers is an error
    otherwise_label: str
    key: str

    @property
    def gated(self) -> bool:
        return any(b.torch is not None for b in self.branches)


Node = Union[Plain, Choice]


def parse(raw, key: str = "") -> Node:
    """The expectation tree of one spec value (already valid against specs/schema.json)."""
    if not (isinstance(raw, dict) and any(k in raw for k in CHOICE_KEYS)):
        return Plain(raw, key)
    if "if" in raw:
        cond = _condition(raw["if"], f"{key}.if")
        return Choice((Branch(f"if {cond}", parse(raw["then"], f"{key}.then"), condition=cond),),
                      parse(raw["else"], f"{key}.else"), f"unless {cond}", key)
    if "cases" in raw:
        branches = []
        for i, c in enumerate(raw["cases"]):
            cond = _condition(c["when"], f"{key}.cases.{i}.when")
            branches.append(Branch(f"when {cond}", parse(c["value"], f"{key}.cases.{i}.value"), condition=cond))
        return Choice(tuple(branches), parse(raw["else"], f"{key}.else"), "otherwise", key)
    gates = tuple(Branch(f"torch{g['torch']}", parse(g["value"], f"{key}.versions.{i}.value"),
                         torch=torch_range(g["torch"], f"{key}.versions.{i}.torch"), torch_text=g["torch"],
                         evidence=g["evidence"])
                  for i, g in enumerate(raw["versions"]))
    for release in KNOWN_RELEASES:
        claimed = [str(b.torch) for b in gates if release in b.torch]
        if len(claimed) > 1:
            raise ExpectationError(f"{key}.versions", f"contradictory gates: torch {release} matches "
                                   f"{' and '.join(claimed)}")
    return Choice(gates, None, "", key)


def _condition(terms, key) -> Condition:
    cond = Condition(tuple(terms))
    problem = cond.problem()
    if problem:
        raise ExpectationError(key, problem)
    return cond


def resolve(node: Node, case, version: Version):
    """The plain expected value for `case` on torch `version`."""
    while isinstance(node, Choice):
        branch = next((b for b in node.branches if b.applies(case, version)), None)
        if branch is None and node.otherwise is None:
            raise LookupError(f"no version gate covers torch {version}")
        node = branch.value if branch is not None else node.otherwise
    return node.value


def walk(node: Node, labels: tuple = ()) -> Iterator[tuple]:
    """(labels of the branches that lead here, node) for every node, the root first."""
    yield labels, node
    if isinstance(node, Choice):
        for b in node.branches:
            yield from walk(b.value, labels + (b.label,))
        if node.otherwise is not None:
            yield from walk(node.otherwise, labels + (node.otherwise_label,))


def plain_values(node: Node) -> Iterator[Plain]:
    return (n for _, n in walk(node) if isinstance(n, Plain))


def evidence(node: Node) -> list[str]:
    """'torch<2.12: URL' for every gate in the tree."""
    return [f"{b.label}: {b.evidence}" for _, n in walk(node) if isinstance(n, Choice) for b in n.branches
            if b.evidence]


def describe(node: Node) -> str:
    """A readable one-line form of a tree, e.g. `if requires_grad: True, unless requires_grad: False`."""
    if isinstance(node, Plain):
        return repr(node.value)
    parts = [f"{b.label}: {_nested(b.value)}" for b in node.branches]
    if node.otherwise is not None:
        parts.append(f"{node.otherwise_label}: {_nested(node.otherwise)}")
    return ", ".join(parts)


def _nested(node: Node) -> str:
    return describe(node) if isinstance(node, Plain) else f"({describe(node)})"

