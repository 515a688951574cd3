"""Known bugs: the one registry of records (specs/known/*.yaml, loaded by registry.py) that every consumer reads, and
the drafts in docs/upstream-reports/ that are executable evidence for the records no upstream report covers.

A record is one upstream bug, or one difference that documentation or a maintainer's decision makes by design, with
its evidence, the torch releases, executions and devices where it shows, and what it explains: spec cells (a spec
entry's `diverges` names it), surface cells (its `surface` items) and fuzz differences (its `fuzz` pattern). Imports
no torch.
"""
