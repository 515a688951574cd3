"""The conformance run, collected with the rest of the tests: the test itself is `copysuite.conformance`, the same
one `python -m copysuite run` collects from an installed package."""
from copysuite.conformance import test_invariant, test_surface  # noqa: F401
