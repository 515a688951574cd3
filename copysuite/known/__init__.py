"""Known bugs: the registry of records (registry.py) and the drafts that are their executable evidence (drafts.py)."""
