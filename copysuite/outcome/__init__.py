"""Stage 5, the outcome: collect every cell's outcome from pytest's reports (recorder.py), print the table per entry
(table.py) and write the outcome JSON document (document.py), whose format and schema are in format.py and
outcome.schema.json (docs/INTERPRETING.md explains them to readers of results).
"""
