"""Differential testing of copy semantics on generated programs (`python -m copysuite fuzz`, docs/fuzz.md).

Hypothesis draws small straight-line programs over a few (possibly aliased) inputs from a vocabulary of the
operator classes the specs check one at a time (`vocabulary`, `generate`), or with every op the operator surface
checks beside them (`surface_ops`, `surface_vocabulary`, kept by `vocabulary_cache`, sized by `vocabulary_report`),
with opt-in program shapes beside (custom operators `library`, foreach lists `foreach`, non-neutral reads
`consumers`, all looked up by `shape_ops`; a module's state `state`; wrapper subclasses `subclasses`); each runs
eagerly and under one execution (`differential`), and what a caller can observe of the call (`signature`) is
compared. A difference that the model of what differs by design allows is dropped, one that a known record explains
is known, any other is new (`model`); each is reduced to a minimal program with a standalone reproduction (`shrink`,
`reproduction`) and reported once per root key (`search`, one process; `campaign`, N processes and one report).
`interrupt` stops a run at its time bound or on a signal with its report still written; `merge` puts reports
together (no torch); `command` is `python -m copysuite fuzz`.
"""
