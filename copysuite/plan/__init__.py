"""Stage 2, the plan: bind each entry to the installed torch (bind.py) and expand it into cells, entry x check x device
x execution (cells.py), each named by a CellId (cell_id.py, torch-free: the reports read it back from outcome files).
"""
