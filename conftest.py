"""The suite's pytest plugin lives in the package (so that `python -m copysuite run` works outside this checkout)."""
pytest_plugins = ["copysuite.plugin"]
