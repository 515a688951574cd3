"""Hypothesis strategies for the conformance suite, aware of the installed torch.

`space` is the vocabulary (kinds, placements, bits, modes, devices, dtype groups) and imports no torch; `dtypes` and
`devices` say what the installed torch has; `cases` draws inputs and `corners` picks the explicit ones.
"""
