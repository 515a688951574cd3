"""The conformance run, collected with the rest of the tests: the test itself is `copysuite.plugin.conformance`, the
same one `python -m copysuite run` collects from an installed package."""
from copysuite.plugin.conformance import test_check, test_surface  # noqa: F401
