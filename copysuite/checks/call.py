"""Checks on the call itself: does it raise, does it warn. They take no input selector and `raises` is judged on
every input, including those where the spec expects the call to fail."""
from __future__ import annotations

from copysuite.checks.base import Observed, check, error_matches, error_spec


@check("raises", accepts=error_spec(BaseException), agrees=error_matches, about_call=True,
       judges_failing_calls=True)
def raises(ex):
    """The call raises this exception (type and message pattern), or nothing (null)."""
    return Observed(ex.error)


@check("warns", accepts=error_spec(Warning), agrees=error_matches, about_call=True)
def warns(ex):
    """The call emits a warning of this type whose message matches (null: it emits none)."""
    return Observed(ex.warnings)
