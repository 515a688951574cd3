"""Stage 1, the contract: load specs/*.yaml into entries (load.py), each with its program (programs.py), the values that
must hold and their version gates (expectations.py, predicates.py), its known divergences (divergences.py), and what
the specs declare across releases (declared.py). Imports no torch: the report tools use it where torch is absent.
"""
