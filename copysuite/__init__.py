"""The conformance suite for PyTorch's tensor-copy semantics, as one package. Data flows one way:

    specs/*.yaml --specs.py--> Entry (programs.py: the Python that runs; expectations.py: the values that must hold)
                 --bind.py---> what applies to the installed torch
                 --plan.py---> Cell (entry x check x device; its id in cells.py), with the inputs it is judged on
                 --explore.py-> one Hypothesis run per group of cells drawing the same inputs
                 --runner.py-> Execution (copysuite.strategies.cases builds the input; the program runs, once for the checks
                               that only look, once per check that disturbs it) and the judgement (checks/
                               observe, compare): a ConformanceFailure (failures.py) when they disagree
                 --outcomes.py-> the table and the outcome JSON (outcome_format.py), read by gate.py and matrix.py

plugin.py, conformance.py and scheduling.py (xdist) are the pytest side; `python -m copysuite` is the command line (__main__.py). The
modules the report tools use (specs, programs, expectations, predicates, declared, cells, outcome_format, gate,
matrix, changelog) import no torch.
"""
