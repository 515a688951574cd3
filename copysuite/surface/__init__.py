"""The operator surface: every aten op name of the installed torch, classified from its own schemas (alias, inplace,
out, other_mutation, functional), and the contract of each class checked on real inputs.

    classify.py   the classes, from torch._C's schemas and tags (no op is run)
    contract.py   the documented rule of each "may alias" composite op
    inputs.py     the inputs: OpInfo samples of the release's own op_db, as calls
    builders.py   hand-written calls for the alias ops and public in-place methods without an OpInfo
    checks.py     one call judged against its class's contract, clause by clause; a failure is a standalone reproduction
    observe.py    what the clauses observe of tensors (storage, values, identity)
    cells.py      the planned surface cells of a conformance run (sample or all) and which names they check
    known.py      the lookup of the upstream bugs and documented design a surface cell is known to show: the `surface`
                  items of the known-bug registry (specs/known/*.yaml)
    report.py     `python -m copysuite surface`: the JSON and Markdown report
    bindings.py   the public Python bindings that return an alias or write in place, derived from torch.overrides and
                  matched by name to the classes above
    binding_calls.py    each binding's calls, through the binding itself (the surface's calls rewritten, the dunders')
    binding_cells.py    the binding cells (surface.binding:NAME) and the registry records that explain them
    binding_report.py   `python -m copysuite surface --bindings`: the bindings per class, checked or not and why
"""
