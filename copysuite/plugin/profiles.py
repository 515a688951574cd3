"""The Hypothesis profiles a run chooses from (`--hypothesis-profile NAME` or HYPOTHESIS_PROFILE): dev (the default,
fast), ci (reproducible: derandomized, no example database), deep (for reviewing spec changes) and thorough."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def register() -> None:
    """Register the profiles and load HYPOTHESIS_PROFILE's (default dev); --hypothesis-profile overrides it later."""
    # dev: the default, fast. ci: reproducible (derandomized, no example database). deep: 150 examples, for reviewing
    # spec changes. thorough: >= 1000 examples each.
    _common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
    settings.register_profile("dev", max_examples=8, **_common)
    settings.register_profile("ci", max_examples=25, derandomize=True, database=None, print_blob=True, **_common)
    settings.register_profile("deep", max_examples=150, **_common)  # between ci and thorough, for spec reviews
    settings.register_profile("thorough", max_examples=1000, **_common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))  # --hypothesis-profile overrides this
