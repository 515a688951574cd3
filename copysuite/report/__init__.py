"""Stage 6, reports across runs, reading outcome files only (no torch): the upgrade gate (gate.py), the conformance
matrix (matrix.py, its HTML page matrix_page.py + matrix_page.js, browser.py for its screenshot), and the change log
of copy semantics from the specs' version gates (changelog.py).
"""
